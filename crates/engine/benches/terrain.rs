//! Acoustics on the fixture terrain (issue 11 cost targets, issue 16 worst cases).
//!
//! Thread CPU time (the machine is shared), through the workspace's bench clock
//! (`resound_benchclock::ThreadCpuTime`).
//!
//! The terrain keeps the sections rays entered (`world::heightfield::cache`), so a repeated
//! measurement reads them warm, as a listener's repeated requests in one area do;
//! `room_both_spaces_valley_cold` times the first request on an empty cache.

use std::hint::black_box;

use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};
use glam::{DVec3, Vec3};
use resound_benchclock::ThreadCpuTime;
use resound_engine::advanced::acoustics::ray::dda::{Flow, walk};
use resound_engine::advanced::acoustics::{
    AcousticModel, Budget, MaterialTable, OwnModel, PathLimits, Paths, SoundRequest, find_air_path,
};
use resound_engine::advanced::ambient::{MemoryLandBlocks, Position};
use resound_engine::terrain::{EAR_HEIGHT, TerrainWorld, ac_to_voxel};
use resound_fixture::{self as fixture, terrain as fx};

/// A fixture position from fixture-area metres (east, north), standing on the ground.
fn at(world: &TerrainWorld, east: f64, north: f64) -> DVec3 {
    let (bx, by) = ((east / 192.0).floor(), (north / 192.0).floor());
    let (lx, ly) = (east - bx * 192.0, north - by * 192.0);
    let cell = (lx / 24.0) as u32 * 8 + (ly / 24.0) as u32 + 1;
    let id = (u32::from(fx::FIRST_X) + bx as u32) << 24
        | (u32::from(fx::FIRST_Y) + by as u32) << 16
        | cell;
    let p = Position::new(id, Vec3::new(lx as f32, ly as f32, 0.0));
    ac_to_voxel(&world.on_ground(&p, EAR_HEIGHT).expect("resident"))
}

fn world_at(east: f64, north: f64) -> TerrainWorld {
    let mut t = TerrainWorld::new(&fixture::region(), &MaterialTable::standard()).expect("world");
    let mut src = MemoryLandBlocks::new(fixture::land_blocks());
    let id = (u32::from(fx::FIRST_X) + (east / 192.0) as u32) << 24
        | (u32::from(fx::FIRST_Y) + (north / 192.0) as u32) << 16
        | 1;
    t.update_listener(&Position::new(id, Vec3::ZERO), &mut src)
        .expect("ring");
    t
}

/// Cells one air-path search may spend here: the engine's offline per-tick budget
/// (`Budgets::AIR_CELLS_OFFLINE`).
const AIR_CAP: u64 = 400_000;
/// One live search at most (`Budgets::live`'s `air_job`).
const AIR_CAP_LIVE: u64 = 30_000;

fn benches(c: &mut Criterion<ThreadCpuTime>) {
    let model = OwnModel::new(MaterialTable::standard());
    let mut g = c.benchmark_group("terrain");
    g.sampling_mode(SamplingMode::Flat);

    // 9-path occlusion: valley → behind the shoulder (192 m, blocked), ridge feet (240 m,
    // blocked), open flat land (150 m, clear).
    let cases = [
        ("occlusion_9_valley_to_flat", (222.0, 438.0), (414.0, 438.0)),
        ("occlusion_9_across_ridge", (672.0, 480.0), (912.0, 480.0)),
        ("occlusion_9_open_flat", (486.0, 222.0), (534.0, 366.0)),
    ];
    for (name, l, s) in cases {
        let world = world_at(l.0, l.1);
        let mut request = SoundRequest::new(at(&world, s.0, s.1), at(&world, l.0, l.1));
        request.paths = Paths::Nine;
        g.bench_function(name, |b| {
            b.iter(|| {
                model
                    .direct(
                        black_box(world.probe()),
                        &request,
                        &mut Budget::new(400_000),
                    )
                    .expect("direct")
            });
        });
    }

    // Air paths (issue 32) over the same blocked pairs: the search goes over the shoulder or
    // the ridge through open air, at most 3× the straight distance; one search's cells and
    // time, capped at the offline per-tick budget as the engine caps it.
    for (name, l, s) in &cases[..2] {
        let world = world_at(l.0, l.1);
        let (source, listener) = (at(&world, s.0, s.1), at(&world, l.0, l.1));
        let limits = PathLimits::with_range(512.0);
        let search =
            |budget: &mut Budget| find_air_path(world.probe(), source, listener, &limits, budget);
        let mut budget = Budget::new(AIR_CAP);
        match search(&mut budget) {
            Ok(Some(p)) => println!(
                "air_{name}: straight {:.1} m, path {:.1} m, {} bends, {} cells",
                p.straight,
                p.length,
                p.bends(),
                p.cells
            ),
            other => println!("air_{name}: {other:?}, {} cells", budget.used()),
        }
        g.bench_function(format!("air_{name}"), |b| {
            b.iter(|| search(&mut Budget::new(AIR_CAP)));
        });
        // At the live per-search cap (`Budgets::live`'s `air_job`): what a fallback costs.
        g.bench_function(format!("air_{name}_live_cap"), |b| {
            b.iter(|| search(&mut Budget::new(AIR_CAP_LIVE)));
        });
    }

    let world = world_at(480.0, 480.0);
    // A 512 m ray over open terrain (above every hill): sections skipped.
    let sky = at(&world, 2.0, 480.0) + DVec3::new(0.0, 400.0, 0.0);
    g.bench_function("ray_512_open_sky", |b| {
        b.iter(|| {
            walk(
                black_box(world.probe()),
                sky,
                DVec3::X,
                512.0,
                &mut Budget::unlimited(),
                |_| Flow::Continue,
            )
        });
    });
    // A 512 m ray along the ground (1.75 m over the flat land, diagonal): every section it
    // crosses holds the surface (Mixed), so it walks cell by cell (issue 16's worst case).
    let ground = at(&world, 340.0, 150.0);
    let dir = DVec3::new(0.5, 0.0, -0.866).normalize();
    let cells = walk(
        world.probe(),
        ground,
        dir,
        512.0,
        &mut Budget::unlimited(),
        |_| Flow::Continue,
    );
    println!(
        "ground ray: {} cells, {} skipped sections",
        cells.cells, cells.skipped_sections
    );
    g.bench_function("ray_512_along_ground", |b| {
        b.iter(|| {
            walk(
                black_box(world.probe()),
                ground,
                dir,
                512.0,
                &mut Budget::unlimited(),
                |_| Flow::Continue,
            )
        });
    });
    // Room measurement of both spaces (listener in the valley, source on the flat land).
    let valley = world_at(222.0, 438.0);
    let mut request = SoundRequest::new(at(&valley, 414.0, 438.0), at(&valley, 222.0, 438.0));
    request.measure_source_space = true;
    let t = model
        .room(valley.probe(), &request, &mut Budget::new(480_000))
        .expect("room")
        .telemetry;
    println!(
        "room rays: {} rays, {} cells, {} skipped sections",
        t.rays, t.cells, t.skipped_sections
    );
    g.bench_function("room_both_spaces_valley", |b| {
        b.iter(|| {
            model
                .room(
                    black_box(valley.probe()),
                    &request,
                    &mut Budget::new(480_000),
                )
                .expect("room")
        });
    });
    // The same on a terrain whose section cache is empty (the first request in an area): a
    // Mixed section entered a second time is computed and kept. Timed with dropping the cache
    // of the previous iteration (as a ring move drops it); batches of fresh clones are too
    // short for the thread clock.
    let mut cold = valley.probe().clone();
    g.bench_function("room_both_spaces_valley_cold", |b| {
        b.iter(|| {
            cold.clear_cache();
            model
                .room(black_box(&cold), &request, &mut Budget::new(480_000))
                .expect("room")
        });
    });
    g.finish();
}

criterion_group! {
    name = terrain;
    config = Criterion::default().with_measurement(ThreadCpuTime::new());
    targets = benches
}
criterion_main!(terrain);
