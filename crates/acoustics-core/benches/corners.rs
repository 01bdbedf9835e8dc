//! Air-path search round corners (issue 32): one corner, a door between rooms, three corners
//! in a 64 m maze. Prints the path and the cells each search visits; criterion reports the
//! time. Thread CPU time, as `trace.rs` (the bench machine is shared).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use glam::{DVec3, IVec3};
use resound_acoustics::{
    Absent, Budget, Cell, MaterialTable, PathLimits, WorldStore, find_air_path,
};
use resound_benchclock::ThreadCpuTime;

fn stone() -> Cell {
    Cell::solid(MaterialTable::standard().by_name("stone").expect("stone"))
}

fn carve(w: &mut WorldStore, min: [i32; 3], max: [i32; 3]) {
    w.fill_box(IVec3::from_array(min), IVec3::from_array(max), Cell::Air)
        .expect("carve");
}

/// L of 3 × 3 corridors in stone (the test's): 31 m round one corner.
fn l_corridor() -> (WorldStore, DVec3, DVec3) {
    let mut w = WorldStore::new(Absent::Air);
    w.fill_box(IVec3::new(-1, -1, -1), IVec3::new(21, 3, 21), stone())
        .expect("fill");
    carve(&mut w, [0, 0, 0], [20, 2, 2]);
    carve(&mut w, [18, 0, 0], [20, 2, 20]);
    (w, DVec3::new(19.5, 1.5, 18.5), DVec3::new(2.5, 1.5, 1.5))
}

/// Three stone rooms 12 × 4 × 12 in a row with 2-wide doors at alternate ends: 33 m, through
/// two doors.
fn rooms() -> (WorldStore, DVec3, DVec3) {
    let mut w = WorldStore::new(Absent::Air);
    w.fill_box(IVec3::new(-1, -1, -1), IVec3::new(40, 4, 12), stone())
        .expect("fill");
    for r in 0..3 {
        carve(&mut w, [r * 13, 0, 0], [r * 13 + 11, 3, 11]);
    }
    carve(&mut w, [12, 0, 9], [12, 2, 10]);
    carve(&mut w, [25, 0, 1], [25, 2, 2]);
    (w, DVec3::new(36.5, 1.5, 10.5), DVec3::new(2.5, 1.5, 1.5))
}

/// A 64 m block of stone with a corridor 4 wide and 3 high that turns three times:
/// A along x (z 2..=5), B along z (x 58..=61), C back along x (z 18..=21), D along z
/// (x 30..=33) to z 40. Listener in A, source at the end of D.
fn maze() -> (WorldStore, DVec3, DVec3) {
    let mut w = WorldStore::new(Absent::Air);
    w.fill_box(IVec3::new(0, -1, 0), IVec3::new(63, 3, 63), stone())
        .expect("fill");
    carve(&mut w, [2, 0, 2], [61, 2, 5]);
    carve(&mut w, [58, 0, 2], [61, 2, 21]);
    carve(&mut w, [30, 0, 18], [61, 2, 21]);
    carve(&mut w, [30, 0, 18], [33, 2, 40]);
    (w, DVec3::new(31.5, 1.5, 39.5), DVec3::new(10.5, 1.5, 3.5))
}

fn benches(c: &mut Criterion<ThreadCpuTime>) {
    let mut g = c.benchmark_group("air_path");
    for (name, (world, source, listener)) in [
        ("one_corner_l_corridor", l_corridor()),
        ("two_doors_three_rooms", rooms()),
        ("three_corners_64m_maze", maze()),
    ] {
        let limits = PathLimits::default();
        let snapshot = world.snapshot();
        let mut budget = Budget::unlimited();
        let path = find_air_path(&snapshot, source, listener, &limits, &mut budget)
            .expect("search")
            .expect("a path");
        println!(
            "{name}: straight {:.1} m, path {:.1} m, {} bends, loss {:.1?} dB, {} cells",
            path.straight,
            path.length,
            path.bends(),
            path.loss_db,
            path.cells
        );
        g.bench_function(name, |b| {
            b.iter(|| {
                find_air_path(
                    black_box(&snapshot),
                    source,
                    listener,
                    &limits,
                    &mut Budget::unlimited(),
                )
            })
        });
    }
    g.finish();
}

criterion_group! {
    name = corners;
    config = Criterion::default()
        .with_measurement(ThreadCpuTime::new())
        .sample_size(20);
    targets = benches
}
criterion_main!(corners);
