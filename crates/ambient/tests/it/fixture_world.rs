//! Golden tests on the fixture world.

use resound_ambient::CellId;
use resound_ambient::walk::{Walk, Waypoint};
use resound_ambient::{AmbientEvent, Outcome, PositionChange, SoundKind};
use resound_fixture as fixture;
use serde_json::json;

use crate::common::{ambient, golden, on_cell, oracle, rebuilt, sources};

/// Positions across the fixture: the centre block, the valley, the lake at the area's north-west
/// corner (3×3 ring partly outside the cell dat), the ridge at the east edge.
fn positions() -> Vec<(&'static str, resound_ambient::Position)> {
    vec![
        ("centre", on_cell(0xA9, 0xB4, 3, 3, 12.0, 12.0)),
        ("centre_ne_missing_stb", on_cell(0xA9, 0xB4, 5, 5, 6.0, 6.0)),
        ("valley", on_cell(0xA8, 0xB3, 4, 4, 3.0, 20.0)),
        ("lake_corner", on_cell(0xA7, 0xB6, 2, 2, 10.0, 10.0)),
        ("ridge_edge", on_cell(0xAB, 0xB4, 6, 1, 12.0, 2.0)),
        ("block_seam", on_cell(0xAA, 0xB2, 0, 0, 0.5, 0.5)),
    ]
}

/// For each position: the rebuild's totals and instances match the golden file and the
/// independent re-computation.
#[test]
fn rebuild_golden_positions() {
    let region = fixture::region();
    let blocks = fixture::land_blocks();
    let present: Vec<u32> = fixture::sound_tables().iter().map(|t| t.id).collect();
    for (name, pos) in positions() {
        let mut a = ambient();
        let (mut t, mut lb) = sources();
        let mut ev = Vec::new();
        let r = rebuilt(
            a.change_position(&pos, false, 100.0, &mut t, &mut lb, &mut ev)
                .unwrap(),
        );
        let snap = a.snapshot();
        // the independent oracle
        let (total, per) = oracle(&region, &present, &blocks, &pos);
        assert!(
            (f64::from(snap.total_sound_count) - total).abs() <= 1e-5 * total.max(1.0),
            "{name}: total {} vs oracle {total}",
            snap.total_sound_count
        );
        assert_eq!(snap.sounds.len(), per.len(), "{name}: instance count");
        for s in &snap.sounds {
            let (_, w) = per
                .iter()
                .find(|(k, _)| *k == (s.desc, s.ambient_sound_id))
                .unwrap();
            assert!(
                (f64::from(s.sound_count) - w).abs() <= 1e-5 * w.max(1.0),
                "{name}: {s:?} vs {w}"
            );
        }
        // the AddSound asymmetry: counts sum to Σ N_desc × (that desc's share), never just total
        let sum: f64 = snap.sounds.iter().map(|s| f64::from(s.sound_count)).sum();
        assert!(sum >= f64::from(snap.total_sound_count) - 1e-4);
        golden(
            &format!("rebuild_{name}"),
            &json!({ "position": pos, "rebuild": r, "snapshot": snap, "events": ev }),
        );
    }
}

/// Moving within a cell changes nothing; crossing into the next cell rebuilds.
#[test]
fn moving_within_a_cell_changes_nothing() {
    let mut a = ambient();
    let (mut t, mut lb) = sources();
    let mut ev = Vec::new();
    let p = on_cell(0xA9, 0xB4, 3, 3, 1.0, 1.0);
    a.change_position(&p, false, 0.0, &mut t, &mut lb, &mut ev)
        .unwrap();
    let snap = a.snapshot();
    let loads = (t.loads.len(), lb.loads);
    for (dx, dy) in [(5.0, 5.0), (23.0, 0.5), (0.0, 23.9), (12.0, 12.0)] {
        let q = on_cell(0xA9, 0xB4, 3, 3, dx, dy);
        assert_eq!(q.objcell_id, p.objcell_id);
        let c = a
            .change_position(&q, false, 1.0, &mut t, &mut lb, &mut ev)
            .unwrap();
        assert_eq!(c, PositionChange::Unchanged);
    }
    assert_eq!(a.snapshot(), snap);
    assert_eq!((t.loads.len(), lb.loads), loads);
    // the next cell north
    let n = on_cell(0xA9, 0xB4, 3, 4, 1.0, 1.0);
    let r = rebuilt(
        a.change_position(&n, false, 2.0, &mut t, &mut lb, &mut ev)
            .unwrap(),
    );
    assert_eq!(r.cell, 0xA9B4_0000 | (3 * 8 + 4 + 1));
    assert_eq!(r.land_blocks.len(), 9);
    assert_ne!(a.snapshot().total_sound_count, snap.total_sound_count);
    // and crossing a block boundary
    let e = on_cell(0xAA, 0xB4, 0, 4, 1.0, 1.0);
    let r = rebuilt(
        a.change_position(&e, false, 3.0, &mut t, &mut lb, &mut ev)
            .unwrap(),
    );
    assert_eq!(r.cell.0 >> 16, 0xAAB4);
}

/// A 3×3 neighbourhood with missing landblocks: the lake corner (5 of 9 outside the cell dat),
/// and the centre with one ring block removed from the source.
#[test]
fn missing_landblocks_in_the_ring() {
    let mut a = ambient();
    let (mut t, mut lb) = sources();
    let mut ev = Vec::new();
    let r = rebuilt(
        a.change_position(
            &on_cell(0xA7, 0xB6, 2, 2, 10.0, 10.0),
            false,
            0.0,
            &mut t,
            &mut lb,
            &mut ev,
        )
        .unwrap(),
    );
    assert_eq!(
        r.land_blocks,
        [0xA7B5_FFFF, 0xA7B6_FFFF, 0xA8B5_FFFF, 0xA8B6_FFFF]
    );
    assert_eq!(
        r.missing_land_blocks,
        [
            0xA6B5_FFFF,
            0xA6B6_FFFF,
            0xA6B7_FFFF,
            0xA7B7_FFFF,
            0xA8B7_FFFF
        ]
    );
    assert!(a.total_sound_count() > 0.0);

    let mut a = ambient();
    let (mut t, mut lb) = sources();
    let p = on_cell(0xA9, 0xB4, 0, 0, 2.0, 2.0); // SW corner: the SW neighbour matters
    let full = rebuilt(
        a.change_position(&p, false, 0.0, &mut t, &mut lb, &mut ev)
            .unwrap(),
    );
    let full_total = a.total_sound_count();
    lb.remove(CellId(0xA8B3_FFFF));
    let mut b = ambient();
    let r = rebuilt(
        b.change_position(&p, false, 0.0, &mut t, &mut lb, &mut ev)
            .unwrap(),
    );
    assert_eq!(r.missing_land_blocks, [0xA8B3_FFFF]);
    assert_eq!(r.land_blocks.len(), 8);
    assert!(r.add_sound_calls < full.add_sound_calls);
    assert!(b.total_sound_count() < full_total);
}

/// The fixture's missing SoundTable (Grassland ordinal 3 in the centre block's NE quarter):
/// fetched once, negative-cached, never retried over a walk of many rebuilds.
#[test]
fn fixture_missing_sound_table_never_retried() {
    let mut a = ambient();
    let (mut t, mut lb) = sources();
    let mut ev = Vec::new();
    for (i, cy) in (0..8).enumerate() {
        a.change_position(
            &on_cell(0xA9, 0xB4, 5, cy, 3.0, 3.0),
            false,
            i as f64,
            &mut t,
            &mut lb,
            &mut ev,
        )
        .unwrap();
    }
    let tries = t
        .loads
        .iter()
        .filter(|&&id| id == fixture::MISSING_STB_ID)
        .count();
    assert_eq!(tries, 1);
    assert!(a.region().stb_desc()[fixture::MISSING_STB_INDEX].stb_not_found);
    assert!(
        a.sounds()
            .iter()
            .all(|s| s.desc != fixture::MISSING_STB_INDEX)
    );
}

fn walk() -> Walk {
    let wp = |t: f64, cell: u32, origin: [f32; 3]| Waypoint {
        t,
        cell: CellId(cell),
        origin,
        seen_outside: false,
        heading: None,
        teleport: false,
    };
    Walk {
        frame_rate: 30.0,
        camera_offset: [0.0, -3.0, 2.0],
        waypoints: vec![
            wp(0.0, 0xA9B4_0025, [100.0, 100.0, 72.0]),
            wp(40.0, 0xA8B4_0025, [100.0, 100.0, 40.0]),
            wp(80.0, 0xA8B5_0025, [100.0, 100.0, 40.0]),
        ],
    }
}

/// A seeded walk gives the same event log every run (golden), every event is well formed, and
/// constant sounds re-trigger exactly `min_rate` apart while their cell set is unchanged.
#[test]
fn walk_event_log_golden() {
    let mut a = ambient();
    let (mut t, mut lb) = sources();
    let log = walk().run(&mut a, 90.0, &mut t, &mut lb).unwrap();
    let events: Vec<&AmbientEvent> = log
        .iter()
        .filter_map(|e| match e {
            resound_ambient::walk::WalkEntry::Event(ev) => Some(ev),
            resound_ambient::walk::WalkEntry::Rebuild { .. } => None,
        })
        .collect();
    assert!(
        events
            .iter()
            .any(|e| matches!(e.outcome, Outcome::Play(_)) && e.kind == SoundKind::Intermit)
    );
    assert!(
        events
            .iter()
            .any(|e| matches!(e.outcome, Outcome::Play(_)) && e.kind == SoundKind::Constant)
    );
    for e in &events {
        if let Outcome::Play(v) = e.outcome {
            assert!(
                (-50..=0).contains(&v.db) && (-14..=14).contains(&v.pan),
                "{e:?}"
            );
            assert_eq!(v.position.is_none(), e.kind == SoundKind::Constant);
        }
    }
    // same seed, same log
    let mut b = ambient();
    let (mut t2, mut lb2) = sources();
    assert_eq!(walk().run(&mut b, 90.0, &mut t2, &mut lb2).unwrap(), log);
    golden("walk", &serde_json::to_value(&log).unwrap());
}
