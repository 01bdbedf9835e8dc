//! Bad input: typed errors or documented skips, never a panic.

use std::sync::Arc;

use glam::Vec3;
use resound_ambient::{
    Ambient, ChangePositionError, LandBlockSource, Position, ResolveRegionError, SoundSettings,
    SoundTableSource, SourceKind,
};
use resound_ambient::{CellId, SoundTableId};
use resound_datformat::record::{LandBlock, SoundTable};
use resound_fixture as fixture;

use crate::common::{SEEDS, ambient, on_cell, rebuilt, sources};

/// A region whose indices point outside their arrays is refused with a typed error.
#[test]
fn region_indices_out_of_range() {
    let mut r = fixture::region();
    r.scene_info.as_mut().unwrap().scene_types[2].stb_index = 99;
    assert!(matches!(
        Ambient::new(&r, SEEDS, SoundSettings::default()),
        Err(ResolveRegionError::StbIndexOutOfRange {
            scene_type: 2,
            stb_index: 99,
            ..
        })
    ));
    let mut r = fixture::region();
    r.terrain_info.terrain_types[4].scene_types[1] = 1000;
    assert!(matches!(
        Ambient::new(&r, SEEDS, SoundSettings::default()),
        Err(ResolveRegionError::SceneTypeIndexOutOfRange {
            terrain_type: 4,
            slot: 1,
            scene_type_index: 1000,
            ..
        })
    ));
}

/// A region with all its sound tables missing: every set is negative-cached, nothing plays.
#[test]
fn missing_sound_tables() {
    let mut a = ambient();
    let (_, mut lb) = sources();
    let mut t = resound_ambient::MemorySoundTables::default();
    let mut ev = Vec::new();
    let r = rebuilt(
        a.change_position(
            &on_cell(0xA9, 0xB4, 3, 3, 1.0, 1.0),
            false,
            0.0,
            &mut t,
            &mut lb,
            &mut ev,
        )
        .unwrap(),
    );
    assert_eq!((r.add_sound_calls, a.sounds().len(), ev.len()), (0, 0, 0));
    assert!(
        a.region()
            .stb_desc()
            .iter()
            .filter(|d| d.stb_id != 0)
            .all(|d| d.stb_not_found)
    );
}

#[derive(Debug, thiserror::Error)]
#[error("disk on fire")]
struct Broken;

struct BrokenBlocks;

impl LandBlockSource for BrokenBlocks {
    type Error = Broken;
    fn load_land_block(&mut self, _: CellId) -> Result<Option<Arc<LandBlock>>, Broken> {
        Err(Broken)
    }
}

struct BrokenTables;

impl SoundTableSource for BrokenTables {
    type Error = Broken;
    fn load_sound_table(&mut self, _: SoundTableId) -> Result<Option<Arc<SoundTable>>, Broken> {
        Err(Broken)
    }
}

/// Landblocks absent from the cell dat are skipped; a failing source is reported and skipped.
#[test]
fn absent_and_unreadable_landblocks() {
    let mut a = ambient();
    let (mut t, _) = sources();
    let mut ev = Vec::new();
    // a cell far outside the fixture area: all 9 absent
    let mut lb = resound_ambient::MemoryLandBlocks::new(fixture::land_blocks());
    let far = Position::new(0x1010_0001, Vec3::new(1.0, 1.0, 0.0));
    let r = rebuilt(
        a.change_position(&far, false, 0.0, &mut t, &mut lb, &mut ev)
            .unwrap(),
    );
    assert_eq!((r.land_blocks.len(), r.missing_land_blocks.len()), (0, 9));
    assert_eq!(a.total_sound_count(), 0.0);
    let r = rebuilt(
        a.change_position(
            &on_cell(0xA9, 0xB4, 3, 3, 1.0, 1.0),
            false,
            1.0,
            &mut t,
            &mut BrokenBlocks,
            &mut ev,
        )
        .unwrap(),
    );
    assert_eq!(r.failures.len(), 9);
    assert!(
        r.failures
            .iter()
            .all(|f| f.kind == SourceKind::LandBlock && f.message == "disk on fire")
    );
    // unreadable tables: negative-cached and reported once each
    let mut a = ambient();
    let r = rebuilt(
        a.change_position(
            &on_cell(0xA9, 0xB4, 3, 3, 1.0, 1.0),
            false,
            0.0,
            &mut BrokenTables,
            &mut lb,
            &mut ev,
        )
        .unwrap(),
    );
    assert!(!r.failures.is_empty());
    assert!(r.failures.iter().all(|f| f.kind == SourceKind::SoundTable));
    let mut ids: Vec<u32> = r.failures.iter().map(|f| f.id).collect();
    ids.dedup();
    assert_eq!(
        ids.len(),
        r.failures.len(),
        "each table fails once, then is negative-cached"
    );
}

/// NaN and infinite positions, invalid cell ids and a NaN clock are typed errors; a NaN listener
/// is refused; NaN in the region's authored floats plays nothing and never panics.
#[test]
fn nan_positions_and_values() {
    let mut a = ambient();
    let (mut t, mut lb) = sources();
    let mut ev = Vec::new();
    for origin in [
        Vec3::new(f32::NAN, 1.0, 1.0),
        Vec3::new(1.0, f32::INFINITY, 1.0),
        Vec3::new(1.0, 1.0, f32::NEG_INFINITY),
    ] {
        let p = Position::new(0xA9B4_0001, origin);
        assert!(matches!(
            a.change_position(&p, false, 0.0, &mut t, &mut lb, &mut ev),
            Err(ChangePositionError::NonFinitePosition { .. })
        ));
    }
    for cell in [0xA9B4_0041, 0xA9B4_0000 | 0xFFFE, 0xFFFF_0001] {
        assert!(matches!(
            a.change_position(
                &Position::new(cell, Vec3::ONE),
                false,
                0.0,
                &mut t,
                &mut lb,
                &mut ev
            ),
            Err(ChangePositionError::InvalidCellId(_))
        ));
    }
    assert!(a.current_cell().is_none());
    // NaN authored values
    let mut r = fixture::region();
    for d in &mut r.sound_info.as_mut().unwrap().stb_desc {
        for s in &mut d.ambient_sounds {
            s.volume = f32::NAN;
            s.min_rate = f32::NAN;
            s.max_rate = f32::NAN;
        }
    }
    for h in &mut r.land_defs.land_height_table {
        *h = f32::NAN;
    }
    let mut a = Ambient::new(&r, SEEDS, SoundSettings::default()).unwrap();
    a.change_position(
        &on_cell(0xA9, 0xB4, 3, 3, 1.0, 1.0),
        false,
        0.0,
        &mut t,
        &mut lb,
        &mut ev,
    )
    .unwrap();
    for i in 0..100 {
        a.use_time(f64::from(i), &mut ev);
    }
    assert!(
        ev.iter()
            .all(|e| !matches!(e.outcome, resound_ambient::Outcome::Play(v) if v.gain.is_nan()))
    );
}

/// Random hostile worlds: random terrain words and heights, random (partly out-of-range)
/// indices, random rates and volumes including NaN, ±∞ and negatives, random positions and
/// clocks. Every call returns (a value or a typed error); nothing panics or hangs.
#[test]
fn random_hostile_worlds_never_panic() {
    let mut rng = resound_ambient::rng::Ran2::new(4242);
    let mut pick = |n: u32| ((rng.rand() * f64::from(n)) as u32).min(n - 1);
    let specials = [
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        -3.0,
        0.0,
        1e30,
        0.5,
        7.0,
    ];
    for _ in 0..40 {
        let mut r = fixture::region();
        for d in &mut r.sound_info.as_mut().unwrap().stb_desc {
            for s in &mut d.ambient_sounds {
                s.volume = specials[pick(8) as usize];
                s.base_chance = specials[pick(8) as usize];
                s.min_rate = specials[pick(8) as usize];
                s.max_rate = specials[pick(8) as usize];
            }
        }
        if pick(4) == 0 {
            let n = r.scene_info.as_ref().unwrap().scene_types.len();
            let i = pick(n as u32) as usize;
            r.scene_info.as_mut().unwrap().scene_types[i].stb_index = pick(20);
        }
        for h in r.land_defs.land_height_table.iter_mut().step_by(7) {
            *h = specials[pick(8) as usize];
        }
        let mut blocks = fixture::land_blocks();
        for b in &mut blocks {
            for i in 0..81 {
                if pick(3) == 0 {
                    b.terrain[i] = pick(65536) as u16;
                    b.height[i] = pick(256) as u8;
                }
            }
        }
        let Ok(mut a) = Ambient::new(&r, SEEDS, SoundSettings::default()) else {
            continue;
        };
        let mut t = resound_ambient::MemorySoundTables::new(fixture::sound_tables());
        let mut lb = resound_ambient::MemoryLandBlocks::new(blocks);
        let mut ev = Vec::new();
        let mut now = 0.0;
        for step in 0..30 {
            let cell = 0xA7B2_0000 + (pick(5) << 24) + (pick(5) << 16) + pick(0x50);
            let o = Vec3::new(
                specials[pick(8) as usize].clamp(-500.0, 500.0) + pick(192) as f32,
                pick(192) as f32,
                pick(400) as f32,
            );
            let _ = a.change_position(
                &Position::new(cell, o),
                pick(2) == 0,
                now,
                &mut t,
                &mut lb,
                &mut ev,
            );
            now += f64::from(pick(100)) * 0.05;
            a.use_time(if step == 7 { f64::NAN } else { now }, &mut ev);
            assert!(a.queue().len() <= a.sounds().len());
        }
        if pick(2) == 0 {
            a.reset(&mut t);
        }
    }
}
