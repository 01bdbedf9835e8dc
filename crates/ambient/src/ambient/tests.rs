//! Unit tests of `ambient`, each named after the retail function it checks.
use glam::Vec3;
use resound_datformat::record::LandBlock;

use super::*;
use crate::event::Outcome;
use crate::geometry::{Direction, land_block_id};
use crate::instance::SoundState;
use crate::source::{MemoryLandBlocks, MemorySoundTables};
use crate::testkit::{asd, block, region, stb, table, word};

pub(super) const BX: u32 = 0xA9;
pub(super) const BY: u32 = 0xB4;
pub(super) const STB_A: u32 = 0x2000_0001;
pub(super) const STB_B: u32 = 0x2000_0002;
const STB_MISSING: u32 = 0x2000_00F0;

/// Terrain types: 0 → STB A (two constant sounds and one intermittent), 1 → STB B (one
/// intermittent), 2 → the STB whose table is missing, 3 → nothing.
pub(super) fn test_region() -> Region {
    region(
        vec![
            stb(
                STB_A,
                vec![
                    asd(0x46, 0.6, 0.0, 5.0, 5.0),
                    asd(0x47, 0.3, 0.0, 7.0, 99.0),
                    asd(0x48, 0.8, 0.9, 2.0, 6.0),
                ],
            ),
            stb(STB_B, vec![asd(0x49, 0.5, 0.4, 3.0, 3.0)]),
            stb(STB_MISSING, vec![asd(0x46, 0.5, 0.0, 4.0, 4.0)]),
        ],
        &[0, 1, 2],
        &[&[0], &[1], &[2], &[]],
    )
}

pub(super) fn tables() -> MemorySoundTables {
    MemorySoundTables::new([
        table(
            STB_A,
            &[
                (0x46, &[(0x0A00_0001, 1.0)]),
                (0x47, &[(0x0A00_0002, 1.0), (0x0A00_0003, 1.0)]),
                (0x48, &[(0x0A00_0004, 1.0)]),
            ],
        ),
        table(STB_B, &[(0x49, &[(0x0A00_0005, 1.0)])]),
    ])
}

/// The 3×3 ring around (BX, BY), all terrain type 3 (no sound).
pub(super) fn empty_ring() -> Vec<LandBlock> {
    let mut v = Vec::new();
    for x in BX - 1..=BX + 1 {
        for y in BY - 1..=BY + 1 {
            v.push(block(x, y, word(3, 0), 0));
        }
    }
    v
}

pub(super) fn set_cell(
    blocks: &mut [LandBlock],
    bx: u32,
    by: u32,
    x: usize,
    y: usize,
    w: u16,
    h: u8,
) {
    let b = blocks
        .iter_mut()
        .find(|b| b.id == land_block_id(bx, by))
        .unwrap();
    b.terrain[x * 9 + y] = w;
    b.height[x * 9 + y] = h;
}

/// The test block with terrain type 3 (no sounds) everywhere but its SW vertex (0, 0), which is
/// terrain type 0 (STB A): one contributing cell.
fn stb_a_at_origin_only() -> MemoryLandBlocks {
    let mut b = block(BX, BY, word(3, 0), 0);
    b.terrain[0] = word(0, 0);
    MemoryLandBlocks::new(vec![b])
}

pub(super) fn new_ambient() -> Ambient {
    Ambient::new(
        &test_region(),
        Seeds { ran2: 1, crt: 1 },
        SoundSettings::default(),
    )
    .unwrap()
}

pub(super) fn at(cell_low: u32, x: f32, y: f32, z: f32) -> Position {
    Position::new((BX << 24) | (BY << 16) | cell_low, Vec3::new(x, y, z))
}

fn rebuilt(c: PositionChange) -> Rebuild {
    match c {
        PositionChange::Rebuilt(r) => r,
        other => panic!("expected a rebuild, got {other:?}"),
    }
}

/// `Ambient::AddSound` @ 0x00551610: `total_sound_count` is bumped once per cell while each of
/// the set's N entries gets `w` — the sum of counts is N × total, and `current_volume` may exceed
/// the authored volume.
#[test]
fn add_sound_n_times_asymmetry() {
    let mut a = new_ambient();
    let mut t = tables();
    let mut failures = Vec::new();
    a.init_sounds(&at(1, 50.0, 50.0, 0.0));
    let d = a.region.get_stb_desc(0, 0, &mut t, &mut failures).unwrap();
    assert!(a.add_sound(d, &at(1, 60.0, 50.0, 0.0))); // 10 m: w = 1
    assert!(a.add_sound(d, &at(1, 50.0, 110.0, 0.0))); // 60 m: w = 1/9
    let total = 1.0 + 400.0 / 3600.0;
    assert_eq!(a.total_sound_count(), total);
    assert_eq!(a.sounds().len(), 3);
    let sum: f32 = a.sounds().iter().map(|s| s.sound_count).sum();
    assert!((sum - 3.0 * total).abs() < 1e-6);
    let mut events = Vec::new();
    a.update_play_queue(0.0, &mut events);
    // ConstantSound A: volume / total · count = 0.6 (the full volume, though it is 1 of 3)
    assert_eq!(
        a.sounds()[0].state,
        SoundState::Constant {
            current_volume: 0.6 / total * total
        }
    );
    assert_eq!(a.region().stb_desc()[0].play_count, 3);
}

/// `Ambient::AddSound` @ 0x00551610: kept at exactly 120 m (d² ≤ 14400), dropped beyond, and
/// nothing at all when ambient sounds are disabled.
#[test]
fn add_sound_distance_gate_and_enable() {
    let mut a = new_ambient();
    a.init_sounds(&at(1, 0.0, 0.0, 0.0));
    assert!(a.add_sound(0, &at(1, 120.0, 0.0, 0.0)));
    assert_eq!(a.total_sound_count(), 400.0 / 14400.0);
    assert!(!a.add_sound(0, &at(1, 120.01, 0.0, 0.0)));
    // across a block boundary: the cell 120 m east in the next block
    assert!(a.add_sound(
        0,
        &Position::new(
            ((BX + 1) << 24) | (BY << 16) | 1,
            Vec3::new(-72.0, 0.0, 0.0)
        )
    ));
    a.set_settings(SoundSettings {
        ambient_sounds_enabled: false,
        ..SoundSettings::default()
    });
    let before = a.total_sound_count();
    assert!(!a.add_sound(0, &at(1, 1.0, 0.0, 0.0)));
    assert_eq!(a.total_sound_count(), before);
}

/// `Ambient::GetSound` @ 0x005510B0: linear `(desc, index)` cache, appended in first-use order,
/// never evicted.
#[test]
fn get_sound() {
    let mut a = new_ambient();
    assert_eq!(a.get_sound(1, 0), Some(0));
    assert_eq!(a.get_sound(0, 2), Some(1));
    assert_eq!(a.get_sound(1, 0), Some(0));
    assert_eq!(a.sounds()[1].kind(), SoundKind::Intermit);
    assert_eq!(a.get_sound(0, 0), Some(2));
    assert_eq!(a.sounds()[2].kind(), SoundKind::Constant);
    assert_eq!(a.get_sound(0, 9), None); // no such entry
    assert_eq!(a.get_sound(9, 0), None);
    a.init_sounds(&at(1, 0.0, 0.0, 0.0));
    assert_eq!(a.sounds().len(), 3, "InitSounds resets, never evicts");
}

/// `Ambient::InitSounds` @ 0x005515D0.
#[test]
fn init_sounds() {
    let mut a = new_ambient();
    a.init_sounds(&at(1, 0.0, 0.0, 0.0));
    a.add_sound(1, &at(1, 5.0, 0.0, 0.0));
    assert!(a.total_sound_count() > 0.0);
    a.init_sounds(&at(2, 3.0, 4.0, 5.0));
    assert_eq!(a.player_pos(), at(2, 3.0, 4.0, 5.0));
    assert_eq!(a.total_sound_count(), 0.0);
    assert!(a.sounds().iter().all(|s| s.sound_count == 0.0));
}

/// `CLandBlock::add_ambient_sounds` @ 0x00530310 (x-major erratum): the sound sits at the land
/// cell's SW vertex `(24x, 24y, LandHeightTable[h])` in cell `x·8 + y + 1`; a scene ordinal at or
/// beyond `NumSceneType` is skipped.
#[test]
fn add_ambient_sounds_land_block() {
    let mut a = new_ambient();
    let mut t = tables();
    let mut b = block(BX, BY, word(3, 0), 0);
    // land cell (x=2, y=5): SW vertex (48, 120), height byte 10 → z = 20
    b.terrain[2 * 9 + 5] = word(1, 0);
    b.height[2 * 9 + 5] = 10;
    // scene ordinal 1 of terrain type 1 is beyond its one slot: skipped
    b.terrain[4 * 9 + 4] = word(1, 1);
    // the 9th row/column of vertices is never a land cell's SW corner
    b.terrain[8 * 9 + 8] = word(1, 0);
    a.init_sounds(&at(0x12, 48.0, 60.0, 20.0));
    let mut r = Rebuild::default();
    a.add_land_block_sounds(&b, BX, BY, &mut t, &mut r);
    assert_eq!((r.add_sound_calls, r.contributing_cells), (1, 1));
    let SoundState::Intermit(st) = a.sounds()[0].state else {
        panic!()
    };
    // 60 m due north (x-major); a y-major walk would have put it at (120, 48)
    assert_eq!(st.directions().len(), 1);
    assert_eq!(st.directions()[0].dir, Direction::North);
    assert_eq!(
        (st.directions()[0].min_dist, st.directions()[0].max_dist),
        (50.0, 70.0)
    );
    assert_eq!(crate::geometry::land_cell_id(BX, BY, 2, 5) & 0xFFFF, 22);
}

/// `LScape::add_ambient_sounds` @ 0x00505810 / `get_block_orient` @ 0x00504F90: the 3×3 ring,
/// outer x; absent blocks skipped and listed; beyond the world edge not even asked for.
#[test]
fn add_ambient_sounds_lscape_ring() {
    let mut a = new_ambient();
    let mut t = tables();
    let mut lb = MemoryLandBlocks::new(empty_ring());
    lb.remove(CellId(land_block_id(BX + 1, BY - 1)));
    let mut ev = Vec::new();
    let r = rebuilt(
        a.change_position(&at(1, 1.0, 1.0, 0.0), false, 0.0, &mut t, &mut lb, &mut ev)
            .unwrap(),
    );
    let expected: Vec<u32> = [
        (-1, -1),
        (-1, 0),
        (-1, 1),
        (0, -1),
        (0, 0),
        (0, 1),
        (1, 0),
        (1, 1),
    ]
    .iter()
    .map(|&(dx, dy): &(i32, i32)| land_block_id((BX as i32 + dx) as u32, (BY as i32 + dy) as u32))
    .collect();
    assert_eq!(r.land_blocks, expected);
    assert_eq!(r.missing_land_blocks, [land_block_id(BX + 1, BY - 1)]);
    assert_eq!(lb.loads, 9);
    // at the world's west/south edge only 4 blocks exist
    let mut a = new_ambient();
    let mut lb = MemoryLandBlocks::new([block(0, 0, word(0, 0), 0)]);
    let r = rebuilt(
        a.change_position(
            &Position::new(0x0000_0001, Vec3::new(1.0, 1.0, 0.0)),
            false,
            0.0,
            &mut t,
            &mut lb,
            &mut ev,
        )
        .unwrap(),
    );
    assert_eq!(lb.loads, 4);
    assert_eq!(r.land_blocks, [0x0000_FFFF]);
    assert_eq!(
        r.missing_land_blocks,
        [0x0001_FFFF, 0x0100_FFFF, 0x0101_FFFF]
    );
    assert_eq!(r.add_sound_calls, 64);
}

/// `CellManager::ChangePosition` @ 0x004559B0: rebuild only on a new cell (or none current);
/// `CellManager::Reset` @ 0x00455930 forgets the cell; bad positions (cell 0 included) are typed
/// errors that change nothing.
#[test]
fn change_position_lifecycle() {
    let mut a = new_ambient();
    let mut t = tables();
    let mut blocks = empty_ring();
    set_cell(&mut blocks, BX, BY, 1, 1, word(0, 0), 0);
    let mut lb = MemoryLandBlocks::new(blocks);
    let mut ev = Vec::new();
    let p = at(1, 10.0, 10.0, 0.0);
    let r = rebuilt(
        a.change_position(&p, false, 0.0, &mut t, &mut lb, &mut ev)
            .unwrap(),
    );
    assert!(r.outdoorish);
    let snap = a.snapshot();
    // moving within the cell changes nothing
    let c = a
        .change_position(&at(1, 20.0, 3.0, 0.0), false, 1.0, &mut t, &mut lb, &mut ev)
        .unwrap();
    assert_eq!(c, PositionChange::Unchanged);
    assert_eq!(a.snapshot(), snap);
    assert_eq!(a.player_pos(), p);
    // crossing into the next cell rebuilds
    let c = a
        .change_position(
            &at(2, 10.0, 30.0, 0.0),
            false,
            2.0,
            &mut t,
            &mut lb,
            &mut ev,
        )
        .unwrap();
    assert!(matches!(c, PositionChange::Rebuilt(_)));
    assert_eq!(a.current_cell(), Some(at(2, 0.0, 0.0, 0.0).objcell_id));
    // errors leave the state alone
    let before = a.snapshot();
    let nan = at(3, f32::NAN, 0.0, 0.0);
    assert!(matches!(
        a.change_position(&nan, false, 3.0, &mut t, &mut lb, &mut ev),
        Err(ChangePositionError::NonFinitePosition { .. })
    ));
    assert_eq!(
        a.change_position(
            &at(0x41, 0.0, 0.0, 0.0),
            false,
            3.0,
            &mut t,
            &mut lb,
            &mut ev
        ),
        Err(ChangePositionError::InvalidCellId(
            at(0x41, 0.0, 0.0, 0.0).objcell_id
        ))
    );
    assert!(matches!(
        a.change_position(
            &at(3, 1.0, 1.0, 0.0),
            false,
            f64::NAN,
            &mut t,
            &mut lb,
            &mut ev
        ),
        Err(ChangePositionError::NonFiniteTime(_))
    ));
    assert_eq!(a.snapshot(), before);
    // cell 0 is an invalid cell like any other; CellManager::Reset is `reset`
    assert_eq!(
        a.change_position(
            &Position::new(0, Vec3::ZERO),
            false,
            4.0,
            &mut t,
            &mut lb,
            &mut ev
        ),
        Err(ChangePositionError::InvalidCellId(CellId(0)))
    );
    assert_eq!(a.snapshot(), before);
    a.reset(&mut t);
    assert_eq!(a.current_cell(), None);
    // with no current cell, the same cell rebuilds again
    let c = a
        .change_position(
            &at(2, 10.0, 30.0, 0.0),
            false,
            5.0,
            &mut t,
            &mut lb,
            &mut ev,
        )
        .unwrap();
    assert!(matches!(c, PositionChange::Rebuilt(_)));
}

/// `CEnvCell::add_ambient_sounds` @ 0x00694750 is an empty stub: an EnvCell hears the outdoor set
/// only when `seen_outside`.
#[test]
fn env_cell_add_ambient_sounds() {
    let mut t = tables();
    let mut lb = MemoryLandBlocks::new(vec![block(BX, BY, word(0, 0), 0)]);
    let mut ev = Vec::new();
    let inside = at(0x0105, 50.0, 50.0, 0.0);
    let mut a = new_ambient();
    let r = rebuilt(
        a.change_position(&inside, false, 0.0, &mut t, &mut lb, &mut ev)
            .unwrap(),
    );
    assert!(!r.outdoorish);
    assert_eq!(
        (r.add_sound_calls, a.total_sound_count(), lb.loads),
        (0, 0.0, 0)
    );
    let mut a = new_ambient();
    let r = rebuilt(
        a.change_position(&inside, true, 0.0, &mut t, &mut lb, &mut ev)
            .unwrap(),
    );
    assert!(r.outdoorish);
    assert_eq!(r.add_sound_calls, 64);
    assert!(a.total_sound_count() > 0.0);
}

/// `Ambient::UpdatePlayQueue` @ 0x00551A50: newly audible sounds play at once; already queued ones
/// keep their due time.
#[test]
fn update_play_queue() {
    let mut a = new_ambient();
    let mut t = tables();
    let mut lb = MemoryLandBlocks::new(vec![block(BX, BY, word(0, 0), 0)]);
    let mut ev = Vec::new();
    a.change_position(
        &at(1, 10.0, 10.0, 0.0),
        false,
        100.0,
        &mut t,
        &mut lb,
        &mut ev,
    )
    .unwrap();
    assert!(a.sounds().iter().all(|s| s.on_queue));
    assert_eq!(a.queue().len(), 3);
    // the two constant sounds played from the centre at time 100
    let constant: Vec<_> = ev
        .iter()
        .filter(|e| e.kind == SoundKind::Constant)
        .collect();
    assert_eq!(constant.len(), 2);
    assert!(
        constant
            .iter()
            .all(|e| e.time == 100.0
                && matches!(e.outcome, Outcome::Play(v) if v.position.is_none()))
    );
    // every instance was played in creation order (the draws follow that order too)
    let order: Vec<usize> = ev.iter().map(|e| e.sound).collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
    assert_eq!(order[..2], [0, 1]);
    let keys: Vec<f64> = a.queue().iter().map(|(k, _)| k).collect();
    // a rebuild in another cell keeps every queued key
    a.change_position(
        &at(9, 30.0, 10.0, 0.0),
        false,
        101.0,
        &mut t,
        &mut lb,
        &mut ev,
    )
    .unwrap();
    assert_eq!(a.queue().iter().map(|(k, _)| k).collect::<Vec<_>>(), keys);
    // disabled: no plays, no queue changes
    let mut a = new_ambient();
    a.set_settings(SoundSettings {
        ambient_sounds_enabled: false,
        ..SoundSettings::default()
    });
    ev.clear();
    a.update_play_queue(0.0, &mut ev);
    assert!(ev.is_empty() && a.queue().is_empty());
}

/// `Ambient::ReleaseSoundTables` @ 0x00455770 and `FlushSoundTables` @ 0x00452920: tables of sets
/// with `play_count == 0` are released and re-fetched lazily; loads and releases counted.
#[test]
fn release_and_flush_sound_tables() {
    let mut a = new_ambient();
    let mut t = tables();
    let mut blocks = empty_ring();
    set_cell(&mut blocks, BX, BY, 0, 0, word(0, 0), 0); // STB A at (0, 0)
    set_cell(&mut blocks, BX, BY, 7, 7, word(1, 0), 0); // STB B at (168, 168)
    let mut lb = MemoryLandBlocks::new(blocks);
    let mut ev = Vec::new();
    // at (5, 5): A is in range; B (230 m) is loaded by the gather but gets no instance, so
    // ReleaseSoundTables (which walks the instances) never releases it — retail
    a.change_position(&at(1, 5.0, 5.0, 0.0), false, 0.0, &mut t, &mut lb, &mut ev)
        .unwrap();
    assert_eq!(t.loads, [STB_A, STB_B]);
    assert!(t.releases.is_empty());
    assert!(a.region().stb_desc()[1].sound_table.is_some());
    assert!(a.sounds().iter().all(|s| s.desc == 0));
    // at (160, 160) in cell 55: B in range, A (226 m) released
    t.clear_counts();
    a.change_position(
        &at(55, 160.0, 160.0, 0.0),
        false,
        1.0,
        &mut t,
        &mut lb,
        &mut ev,
    )
    .unwrap();
    assert_eq!(
        (t.loads.as_slice(), t.releases.as_slice()),
        (&[][..], &[SoundTableId(STB_A)][..])
    );
    assert!(a.region().stb_desc()[0].sound_table.is_none());
    // back at (5, 30): A is fetched again lazily, B (now with an instance) released
    t.clear_counts();
    a.change_position(&at(2, 5.0, 30.0, 0.0), false, 2.0, &mut t, &mut lb, &mut ev)
        .unwrap();
    assert_eq!(
        (t.loads.as_slice(), t.releases.as_slice()),
        (&[SoundTableId(STB_A)][..], &[SoundTableId(STB_B)][..])
    );
    // flush: every table an instance holds goes; the queue is kept
    t.clear_counts();
    let queued = a.queue().len();
    a.reset(&mut t);
    assert_eq!(t.releases, [STB_A]);
    assert_eq!(a.queue().len(), queued);
    assert_eq!(a.total_sound_count(), 0.0);
    // stale nodes fall out when they pop: CanHear fails, on_queue cleared, no events
    ev.clear();
    a.use_time(1e9, &mut ev);
    assert!(ev.is_empty());
    assert!(a.queue().is_empty());
    assert!(a.sounds().iter().all(|s| !s.on_queue));
}

/// `AmbientSTBDesc::InitSoundTable` @ 0x004FEA60 through a whole rebuild: a missing SoundTable is
/// negative-cached and never retried, across any number of rebuilds.
#[test]
fn missing_sound_table_never_retried() {
    let mut a = new_ambient();
    let mut t = tables();
    let mut lb = MemoryLandBlocks::new(vec![block(BX, BY, word(2, 0), 0)]);
    let mut ev = Vec::new();
    for i in 1..=5 {
        let r = rebuilt(
            a.change_position(&at(i, 1.0, 1.0, 0.0), false, 0.0, &mut t, &mut lb, &mut ev)
                .unwrap(),
        );
        assert_eq!(r.add_sound_calls, 0);
    }
    assert_eq!(t.loads, [STB_MISSING]);
    assert!(a.region().stb_desc()[2].stb_not_found);
    assert!(a.sounds().is_empty() && ev.is_empty());
}

/// `Ambient::UseTime` @ 0x00551880 and `Ambient::Play` @ 0x005517A0: strict `key < now`; a
/// continuous sound re-triggers at exactly `min_rate` after *now* (drift, no catch-up) with no
/// interval draw; disabled keeps the queue.
#[test]
fn use_time_and_play() {
    let mut a = new_ambient();
    let mut t = tables();
    // STB A only, one cell 8 m away: constant sounds at full share
    let mut lb = stb_a_at_origin_only();
    let mut ev = Vec::new();
    a.change_position(&at(1, 8.0, 0.0, 0.0), false, 10.0, &mut t, &mut lb, &mut ev)
        .unwrap();
    // constant sound 0 (min_rate 5) is due at exactly 15.0
    let due: Vec<(f64, usize)> = a.queue().iter().collect();
    assert!(due.contains(&(15.0, 0)));
    assert!(due.contains(&(17.0, 1)));
    ev.clear();
    a.use_time(15.0, &mut ev);
    assert!(ev.iter().all(|e| e.sound != 0), "key == now does not fire");
    // fire late at 15.5: the next is at 20.5 (from now), and exactly one ran2 draw (the row
    // pick) and one CRT draw were used
    let rng_before = a.rng.clone();
    let crt_before = a.crt.clone();
    // make sure only sound 0 is due
    let only_zero = a.queue().iter().filter(|&(k, _)| k < 15.5).count();
    assert_eq!(only_zero, 1);
    ev.clear();
    a.use_time(15.5, &mut ev);
    assert_eq!(ev.len(), 1);
    assert_eq!(ev[0].sound, 0);
    assert!(a.queue().iter().any(|x| x == (20.5, 0)));
    let mut r = rng_before;
    r.rand();
    assert_eq!(
        a.rng, r,
        "one draw: the row pick; GetPlayInterval drew nothing"
    );
    let mut c = crt_before;
    c.rand();
    assert_eq!(a.crt, c);
    let Outcome::Play(v) = ev[0].outcome else {
        panic!()
    };
    // from centre: gain = A · (A · current_volume) = 0.6
    assert_eq!(
        (v.position, v.pan, v.distance, v.wave_id),
        (None, 0, 0.0, WaveId(0x0A00_0001))
    );
    assert_eq!(v.db, (0.6_f64.log2() * 6.0206).ceil() as i32);
    // disabled: nothing pops, the queue is kept
    a.set_settings(SoundSettings {
        ambient_sounds_enabled: false,
        ..SoundSettings::default()
    });
    let n = a.queue().len();
    ev.clear();
    a.use_time(1e6, &mut ev);
    assert_eq!((ev.len(), a.queue().len()), (0, n));
    // NaN time pops nothing
    a.set_settings(SoundSettings::default());
    a.use_time(f64::NAN, &mut ev);
    assert_eq!((ev.len(), a.queue().len()), (0, n));
}

/// `Ambient::Play` → `PlayAmbientSound`: an intermittent sound is placed around the **camera**
/// (the listener), not the player's feet used for the gather; level and pan follow from the
/// camera too.
#[test]
fn play_uses_camera_not_player() {
    let mut a = new_ambient();
    let mut t = tables();
    let mut lb = MemoryLandBlocks::new(vec![{
        let mut b = block(BX, BY, word(3, 0), 0);
        b.terrain[(3 * 9) + 3] = word(1, 0); // STB B at (72, 72)
        b
    }]);
    let camera = Listener {
        position: Position::new(
            (BX << 24) | ((BY + 2) << 16) | 1,
            Vec3::new(10.0, 10.0, 50.0),
        ),
        heading_deg: 90.0,
    };
    a.set_listener(camera).unwrap();
    let mut ev = Vec::new();
    // STB B: play_chance = 0.4/w·w = 0.4; run until an intermittent sound plays
    a.change_position(
        &at(0x13, 60.0, 60.0, 0.0),
        false,
        0.0,
        &mut t,
        &mut lb,
        &mut ev,
    )
    .unwrap();
    let mut now = 0.0;
    while !ev.iter().any(|e| matches!(e.outcome, Outcome::Play(_))) && now < 1000.0 {
        now += 0.5;
        a.use_time(now, &mut ev);
    }
    let e = ev
        .iter()
        .find(|e| matches!(e.outcome, Outcome::Play(_)))
        .unwrap();
    let Outcome::Play(v) = e.outcome else {
        panic!()
    };
    let p = v.position.unwrap();
    assert_eq!(p.objcell_id, camera.position.objcell_id);
    assert_eq!(p.origin.z, 50.0);
    // 17 m away (viewer block gives [4, 10]... the cell is at 16.97 m: slot [6.97, 26.97])
    let d = camera.position.distance(&p);
    assert!((6.9..27.0).contains(&d), "{d}");
    assert_eq!(v.distance, p.distance(&camera.position));
    assert_eq!(
        v.pan,
        crate::sound_manager::pan(&p, &camera, v.distance, &SoundSettings::default())
    );
    assert!(
        a.set_listener(Listener {
            heading_deg: f32::NAN,
            ..camera
        })
        .is_err()
    );
}

/// `SoundManager::PlayAmbientSound` @ 0x00550820 / `PlayAmbientSoundFromCenter` @ 0x005508B0: the
/// ways retail drops a sound, and the doubled slider on a centre sound.
#[test]
fn play_ambient_sound_drop_reasons() {
    // constant sounds of STB A (rows: 0x46 one row, 0x47 two rows) with various tables
    let run = |table_rows: &[(u32, &[(u32, f32)])], settings: SoundSettings| {
        let mut a = Ambient::new(&test_region(), Seeds { ran2: 1, crt: 1 }, settings).unwrap();
        let mut t = MemorySoundTables::new([table(STB_A, table_rows)]);
        let mut lb = stb_a_at_origin_only();
        let mut ev = Vec::new();
        a.change_position(&at(1, 5.0, 5.0, 0.0), false, 0.0, &mut t, &mut lb, &mut ev)
            .unwrap();
        ev.into_iter()
            .filter(|e| e.sound == 0)
            .map(|e| e.outcome)
            .collect::<Vec<_>>()
    };
    let s = SoundSettings::default();
    assert_eq!(run(&[], s), [Outcome::Drop(DropReason::NoEntry)]);
    assert_eq!(run(&[(0x46, &[])], s), [Outcome::Drop(DropReason::NoEntry)]);
    assert_eq!(
        run(&[(0x46, &[(0, 1.0)])], s),
        [Outcome::Drop(DropReason::SilentWave { row: 0 })]
    );
    assert_eq!(
        run(&[(0x46, &[(0x0A00_0001, 0.0)])], s),
        [Outcome::Drop(DropReason::Probability { row: 0 })]
    );
    let inactive = SoundSettings {
        app_active: false,
        ..s
    };
    assert_eq!(
        run(&[(0x46, &[(0x0A00_0001, 1.0)])], inactive),
        [Outcome::Drop(DropReason::Inactive { row: 0 })]
    );
    // the slider twice: current_volume 0.6 (one cell, full share), slider 0.5 → gain 0.15
    let half = SoundSettings {
        ambient_sound_volume: 0.5,
        ..s
    };
    let [Outcome::Play(v)] = run(&[(0x46, &[(0x0A00_0001, 1.0)])], half)[..] else {
        panic!()
    };
    assert!((v.gain - 0.6 * 0.25).abs() < 1e-7);
    assert_eq!(
        (v.db, v.pan, v.position),
        ((0.15_f64.log2() * 6.0206).ceil() as i32, 0, None)
    );
}

/// `Ambient::UseTime` @ 0x00551880 with a negative authored rate: retail would pop the sound
/// forever within one frame; it is re-queued at `now` and plays once per frame.
#[test]
fn use_time_negative_rate_terminates() {
    let r = region(
        vec![stb(STB_A, vec![asd(0x46, 0.6, 0.0, -5.0, 0.0)])],
        &[0],
        &[&[0]],
    );
    let mut a = Ambient::new(&r, Seeds { ran2: 1, crt: 1 }, SoundSettings::default()).unwrap();
    let mut t = tables();
    let mut lb = MemoryLandBlocks::new(vec![block(BX, BY, word(0, 0), 0)]);
    let mut ev = Vec::new();
    a.change_position(&at(1, 5.0, 5.0, 0.0), false, 0.0, &mut t, &mut lb, &mut ev)
        .unwrap();
    assert_eq!(a.queue().iter().collect::<Vec<_>>(), [(0.0, 0)]);
    ev.clear();
    a.use_time(1.0, &mut ev);
    assert_eq!(ev.len(), 1);
    assert_eq!(a.queue().iter().collect::<Vec<_>>(), [(1.0, 0)]);
}

/// One intermittent sound (0x4A, volume 0.5, `base_chance`, rates 2..6 s) in terrain type 0 and
/// a three-row table; the block has it at the SW vertices of cells (0, 0) and (4, 0) only.
fn two_cell_intermit(base_chance: f32) -> (Ambient, MemorySoundTables, MemoryLandBlocks) {
    let r = region(
        vec![stb(STB_A, vec![asd(0x4A, 0.5, base_chance, 2.0, 6.0)])],
        &[0],
        &[&[0], &[]],
    );
    let a = Ambient::new(&r, Seeds { ran2: 1, crt: 1 }, SoundSettings::default()).unwrap();
    let t = MemorySoundTables::new([table(
        STB_A,
        &[(
            0x4A,
            &[(0x0A00_0010, 1.0), (0x0A00_0011, 1.0), (0x0A00_0012, 1.0)],
        )],
    )]);
    let mut b = block(BX, BY, word(1, 0), 0);
    b.terrain[0] = word(0, 0); // vertex (0, 0)
    b.terrain[4 * 9] = word(0, 0); // vertex (96, 0)
    (a, t, MemoryLandBlocks::new(vec![b]))
}

/// `Ambient::Play` @ 0x005517A0 for an `IntermitSound`, the whole draw order of spec §3.4:
/// `PlayNow` (1 ran2 draw), `GetSoundPos` (direction, jitter, radius: 3), the table row pick
/// (1), the CRT probability gate (1 CRT draw), then `GetPlayInterval` (1) — replayed here from
/// a second generator and compared with the event and the queue key.
#[test]
fn play_intermit_draw_order() {
    let (mut a, mut t, mut lb) = two_cell_intermit(0.9);
    let mut ev = Vec::new();
    // the player at (48, 0) in land cell (2, 0): the sets lie 48 m west and 48 m east
    let player = at(2 * 8 + 1, 48.0, 0.0, 0.0);
    a.change_position(&player, false, 0.0, &mut t, &mut lb, &mut ev)
        .unwrap();
    let SoundState::Intermit(st) = a.sounds()[0].state else {
        panic!()
    };
    let dirs: Vec<_> = st.directions().iter().map(|d| d.dir).collect();
    assert_eq!(
        dirs,
        [Direction::West, Direction::East],
        "x-major gather order"
    );
    assert!(
        st.directions()
            .iter()
            .all(|d| (d.min_dist, d.max_dist) == (38.0, 58.0))
    );

    let mut r = Ran2::new(1);
    let roll = r.roll_dice(0.0, 1.0);
    assert!(roll <= st.play_chance, "seed 1 plays");
    let which = r.roll_dice(0.0, 2.0).floor() as usize;
    let heading = [3.0 * std::f64::consts::PI / 2.0, std::f64::consts::PI / 2.0][which];
    let jitter = f64::from(r.roll_dice(0.0, std::f32::consts::FRAC_PI_8));
    let u = f64::from(r.roll_dice(0.0, 1.0));
    let row = (2.0 * f64::from(r.roll_dice(0.0, 1.0))).trunc() as usize;
    let interval = r.roll_dice(2.0, 6.0);

    assert_eq!(ev.len(), 1);
    let Outcome::Play(v) = ev[0].outcome else {
        panic!("{:?}", ev[0])
    };
    assert_eq!(v.row, row);
    assert_eq!(v.wave_id, 0x0A00_0010 + row as u32);
    let p = v.position.unwrap();
    let h = heading + jitter - std::f64::consts::PI / 16.0;
    let radius = 38.0 + 20.0 * u * u;
    assert!((f64::from(p.origin.x) - (48.0 + h.sin() * radius)).abs() < 1e-4);
    assert!((f64::from(p.origin.y) - h.cos() * radius).abs() < 1e-4);
    assert_eq!((p.origin.z, p.objcell_id), (0.0, player.objcell_id));
    assert_eq!(a.rng, r, "exactly six ran2 draws");
    let mut crt = CrtRand::new(1);
    crt.rand();
    assert_eq!(a.crt, crt, "exactly one CRT draw");
    assert_eq!(
        a.queue().iter().collect::<Vec<_>>(),
        [(f64::from(interval), 0)]
    );
}

/// `Ambient::Play` @ 0x005517A0 when `IntermitSound::PlayNow` fails: no position, row or CRT
/// draw and no event, but the interval is still drawn and the sound re-queued.
#[test]
fn play_intermit_play_now_fails() {
    let (mut a, mut t, mut lb) = two_cell_intermit(0.01);
    let mut ev = Vec::new();
    a.change_position(
        &at(17, 48.0, 0.0, 0.0),
        false,
        10.0,
        &mut t,
        &mut lb,
        &mut ev,
    )
    .unwrap();
    let mut r = Ran2::new(1);
    assert!(r.roll_dice(0.0, 1.0) > 0.01);
    let interval = r.roll_dice(2.0, 6.0);
    assert!(ev.is_empty());
    assert_eq!(a.rng, r, "PlayNow and GetPlayInterval only");
    assert_eq!(a.crt, CrtRand::new(1));
    assert_eq!(
        a.queue().iter().collect::<Vec<_>>(),
        [(10.0 + f64::from(interval), 0)]
    );
    assert!(a.sounds()[0].on_queue);
}

/// `Ambient::UpdatePlayQueue` @ 0x00551A50 is skipped while ambient sounds are disabled, so every
/// `play_count` stays 0 and `ReleaseSoundTables` drops every instance's table; a queued
/// `ConstantSound` keeps its `current_volume` but then fails `CanHear` (no table) when it pops.
#[test]
fn disabled_rebuild_releases_tables() {
    let mut a = new_ambient();
    let mut t = tables();
    let mut lb = stb_a_at_origin_only();
    let mut ev = Vec::new();
    a.change_position(&at(1, 8.0, 0.0, 0.0), false, 0.0, &mut t, &mut lb, &mut ev)
        .unwrap();
    assert!(a.sounds()[0].on_queue);
    a.set_settings(SoundSettings {
        ambient_sounds_enabled: false,
        ..SoundSettings::default()
    });
    t.clear_counts();
    a.change_position(&at(2, 8.0, 30.0, 0.0), false, 1.0, &mut t, &mut lb, &mut ev)
        .unwrap();
    assert_eq!(t.releases, [STB_A]);
    assert_eq!(a.total_sound_count(), 0.0, "AddSound is gated too");
    assert_eq!(
        a.sounds()[0].state,
        SoundState::Constant {
            current_volume: 0.6
        },
        "ResetCount keeps current_volume and UpdateSound did not run"
    );
    a.set_settings(SoundSettings::default());
    ev.clear();
    a.use_time(1e6, &mut ev);
    assert!(ev.is_empty());
    assert!(a.queue().is_empty());
    assert!(a.sounds().iter().all(|s| !s.on_queue));
}

/// `CLandBlock::add_ambient_sounds` @ 0x00530310: the terrain word's type is bits 2–6 and the
/// scene ordinal bits 11–15; the road bits (0–1) and bits 7–10 are ignored.
#[test]
fn add_ambient_sounds_terrain_word_decode() {
    // terrain type 17 has two slots, the second → STB B; type 1 (17 & 0xF) has none
    let mut types: Vec<&[u32]> = vec![&[]; 18];
    types[17] = &[crate::region::NO_INDEX, 1];
    let r = region(
        vec![
            stb(STB_A, vec![asd(0x46, 0.6, 0.0, 5.0, 5.0)]),
            stb(STB_B, vec![asd(0x49, 0.5, 0.4, 3.0, 3.0)]),
        ],
        &[0, 1],
        &types,
    );
    let mut a = Ambient::new(&r, Seeds { ran2: 1, crt: 1 }, SoundSettings::default()).unwrap();
    let mut t = tables();
    let mut b = block(BX, BY, word(0, 31), 0); // ordinal 31 ≥ NumSceneType(0) = 0: skipped
    let w = (1 << 11) | 0b0111_1000_0000 | (17 << 2) | 0b11;
    assert_eq!(w, 0x0FC7);
    b.terrain[3 * 9 + 3] = w;
    a.init_sounds(&at(1, 72.0, 50.0, 0.0));
    let mut rb = Rebuild::default();
    a.add_land_block_sounds(&b, BX, BY, &mut t, &mut rb);
    assert_eq!((rb.add_sound_calls, rb.contributing_cells), (1, 1));
    assert_eq!((a.sounds().len(), a.sounds()[0].desc), (1, 1));
    assert_eq!(t.loads, [STB_B]);
}

/// The play path as it stood before it was optimised (the reference for
/// [`use_time_matches_the_unoptimised_play_path`]): `UseTime` @ 0x00551880 → `Play` @ 0x005517A0
/// → `PlaySound` → `PlayAmbientSound` @ 0x00550820 / `PlayAmbientSoundFromCenter` @ 0x005508B0,
/// with the instance and descriptor copied out, the table searched on every play,
/// `GetSoundPos`'s `floor`, the row pick's `trunc`, `GetAttenuation`'s `log2`/`ceil` and the
/// pan's `trunc` all computed afresh through the library calls.
mod reference {
    use std::cmp::Ordering;

    use super::*;
    use crate::sound_manager::{DB_PER_DOUBLING, DEG_TO_RAD_F32, MAX_PAN, VOL_MIN_DIST_SQ};
    use crate::weight::DIRECTION_JITTER;

    pub(super) fn use_time(a: &mut Ambient, now: f64, events: &mut Vec<AmbientEvent>) {
        if !a.settings.ambient_sounds_enabled {
            return;
        }
        while let Some(key) = a.queue.min_key() {
            if key.partial_cmp(&now) != Some(Ordering::Less) {
                break;
            }
            if let Some((_, i)) = a.queue.remove_min() {
                play(a, i, now, events);
            }
        }
    }

    fn play(a: &mut Ambient, i: usize, now: f64, events: &mut Vec<AmbientEvent>) {
        let listener = a.listener();
        let Some(s) = a.sounds.get(i).copied() else {
            return;
        };
        let Some(d) = a.region.stb_desc().get(s.desc) else {
            return;
        };
        let Some(asd) = d.ambient_sounds.get(s.ambient_sound_id).copied() else {
            return;
        };
        if !s.can_hear(d.sound_table.is_some()) {
            a.sounds[i].on_queue = false;
            return;
        }
        if s.play_now(&mut a.rng) {
            let mut pos = listener.position;
            let positioned = get_sound_pos(&s, &mut pos, &mut a.rng);
            let volume = s.get_volume(&asd);
            let outcome = play_sound(
                a,
                i,
                asd.s_type,
                if positioned { Some(pos) } else { None },
                volume,
                &listener,
            );
            if let Some(outcome) = outcome {
                let d = &a.region.stb_desc()[s.desc];
                events.push(AmbientEvent {
                    time: now,
                    sound: i,
                    desc: s.desc,
                    stb_id: d.stb_id,
                    ambient_sound_id: s.ambient_sound_id,
                    kind: s.kind(),
                    s_type: asd.s_type.to_u32(),
                    volume,
                    outcome,
                });
            }
        }
        let interval = s.get_play_interval(&asd, &mut a.rng);
        let interval = if interval > 0.0 { interval } else { 0.0 };
        a.queue.insert(now + f64::from(interval), i);
        a.sounds[i].on_queue = true;
    }

    fn get_sound_pos(s: &AmbientSound, pos: &mut Position, rng: &mut Ran2) -> bool {
        let SoundState::Intermit(st) = &s.state else {
            return false;
        };
        let dirs = st.directions();
        let n = dirs.len();
        let i = (rng.roll_dice(0.0, n as f32).floor() as usize).min(n.saturating_sub(1));
        let slot = dirs[i];
        let h = f64::from(slot.dir.heading()) + f64::from(rng.roll_dice(0.0, DIRECTION_JITTER))
            - f64::from(DIRECTION_JITTER) * 0.5;
        let u = f64::from(rng.roll_dice(0.0, 1.0));
        let min = f64::from(slot.min_dist);
        let r = min + (f64::from(slot.max_dist) - min) * u * u;
        pos.origin.x = (f64::from(pos.origin.x) + h.sin() * r) as f32;
        pos.origin.y = (f64::from(pos.origin.y) + h.cos() * r) as f32;
        true
    }

    fn play_sound(
        a: &mut Ambient,
        i: usize,
        s_type: resound_datformat::record::Sound,
        pos: Option<Position>,
        volume: f32,
        listener: &Listener,
    ) -> Option<Outcome> {
        if !a.settings.ambient_sounds_enabled {
            return None;
        }
        let desc = a.sounds.get(i)?.desc;
        let v = a.settings.ambient_sound_volume * volume;
        let Some(table) = a.region.stb_desc().get(desc)?.sound_table.as_deref() else {
            return Some(Outcome::Drop(DropReason::NoSoundTable));
        };
        // GetSound: the table searched on every call, `trunc` of the product
        let Some(data) = table.sound(s_type) else {
            return Some(Outcome::Drop(DropReason::NoEntry));
        };
        let n = data.entries.len();
        if n == 0 {
            return Some(Outcome::Drop(DropReason::NoEntry));
        }
        let u = a.rng.roll_dice(0.0, 1.0);
        let row = ((n - 1) as f64 * f64::from(u)).trunc() as usize;
        let Some(&entry) = data.entries.get(row) else {
            return Some(Outcome::Drop(DropReason::NoEntry));
        };
        if entry.id == 0 {
            return Some(Outcome::Drop(DropReason::SilentWave { row }));
        }
        if !sound_manager::probability_gate(entry.probability, &mut a.crt) {
            return Some(Outcome::Drop(DropReason::Probability { row }));
        }
        let settings = a.settings;
        if settings.play_sound_only_when_active && !settings.app_active {
            return Some(Outcome::Drop(DropReason::Inactive { row }));
        }
        let (distance, pan) = match &pos {
            Some(p) => {
                let dist = p.distance(&listener.position);
                (dist, pan(p, listener, dist, &settings))
            }
            None => (0.0, 0),
        };
        let Some((gain, db)) = attenuation(distance, v, &settings) else {
            return Some(Outcome::Drop(DropReason::Inaudible { row, distance }));
        };
        Some(Outcome::Play(Voice {
            wave_id: WaveId(entry.id),
            row,
            priority: entry.priority,
            gain,
            db,
            pan,
            distance,
            position: pos,
        }))
    }

    pub(super) fn attenuation(dist: f32, volume: f32, s: &SoundSettings) -> Option<(f64, i32)> {
        let v = f64::from(volume);
        let d = f64::from(dist);
        let mut g = if dist >= 5.0 {
            f64::from(VOL_MIN_DIST_SQ) * v / (d * d)
        } else {
            v
        };
        if g > 1.0 {
            g = 1.0;
        }
        g *= f64::from(s.ambient_sound_volume);
        if g.partial_cmp(&0.0) != Some(Ordering::Greater) {
            return None;
        }
        let db = (g.log2() * DB_PER_DOUBLING).ceil();
        if db < -50.0 {
            return None;
        }
        Some((g, db as i32))
    }

    pub(super) fn pan(sound: &Position, listener: &Listener, dist: f32, s: &SoundSettings) -> i32 {
        if s.mono || dist.trunc() < 5.0 {
            return 0;
        }
        let h = f64::from(sound.heading(&listener.position));
        let mut a = (h - f64::from(listener.heading_deg)) % 360.0;
        if a > 180.0 {
            a -= 360.0;
        }
        let p = ((a * f64::from(DEG_TO_RAD_F32)).sin() * -f64::from(MAX_PAN)).trunc();
        if p.is_nan() {
            return 0;
        }
        (p as i32).clamp(-MAX_PAN, MAX_PAN)
    }
}

/// A small xorshift for the randomized tests below.
struct Xorshift(u64);

impl Xorshift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1_u64 << 24) as f32
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The fixture world's sound tables, made hostile: per table, some types lose their list
/// (`NoEntry`), some lists are emptied (`NoEntry`, no draw), some rows get wave id 0
/// (`SilentWave`), and some types get a second list after the first (the first must win).
fn hostile_tables() -> Vec<resound_datformat::record::SoundTable> {
    let mut tables = resound_fixture::sound_tables();
    for (t, table) in tables.iter_mut().enumerate() {
        let mut rows = Vec::new();
        for (k, (stype, mut data)) in std::mem::take(&mut table.sounds).into_iter().enumerate() {
            match (t + k) % 5 {
                0 => continue,
                1 => data.entries.clear(),
                2 => {
                    for e in data.entries.iter_mut().step_by(2) {
                        e.id = 0;
                    }
                }
                3 => {
                    let mut second = data.clone();
                    for e in &mut second.entries {
                        e.id ^= 0x55;
                        e.probability = 0.3;
                    }
                    rows.push((stype, data));
                    rows.push((stype, second));
                    continue;
                }
                _ => {}
            }
            rows.push((stype, data));
        }
        table.sounds = rows;
    }
    tables
}

/// `Ambient::UseTime` @ 0x00551880 and the whole play path: the optimised code (borrowed state,
/// the per-instance table-lookup and level memos, the cast-only `trunc`/`floor`, the inline
/// `ceil`, the modular ran2 step, the hole-based queue) produces, frame by frame, the same
/// events (every field, floats by bits through `Debug`), the same queue slots and the same
/// generator states as the unoptimised transcription in [`reference`], over random walks
/// through the fixture world (plain and with hostile tables), with teleports, resets (tables
/// released and reloaded) and random sound settings.
#[test]
fn use_time_matches_the_unoptimised_play_path() {
    let region = resound_fixture::region();
    let blocks = resound_fixture::land_blocks();
    let mut plays = 0;
    for scenario in 0..8_u64 {
        let mut r = Xorshift(0x9E37_79B9_7F4A_7C15 ^ (scenario + 1).wrapping_mul(0x1234_5678_9ABC));
        let table_set = if scenario % 2 == 0 {
            resound_fixture::sound_tables()
        } else {
            hostile_tables()
        };
        let seeds = Seeds {
            ran2: r.next() as i32,
            crt: r.next() as u32,
        };
        let mut a = Ambient::new(&region, seeds, SoundSettings::default()).unwrap();
        let mut b = a.clone();
        let mut ta = MemorySoundTables::new(table_set.clone());
        let mut tb = MemorySoundTables::new(table_set);
        let mut la = MemoryLandBlocks::new(blocks.clone());
        let mut lb = MemoryLandBlocks::new(blocks.clone());
        let (mut ea, mut eb) = (Vec::new(), Vec::new());
        let (mut bx, mut by) = (BX, BY);
        let (mut x, mut y) = (20.0 + r.unit() * 150.0, 20.0 + r.unit() * 150.0);
        let mut now = 0.0;
        let mut heading = 0.0_f32;
        for frame in 0..10_000 {
            // a quarter second a frame (several plays a frame), with the odd long stall
            now += if r.below(40) == 0 {
                f64::from(r.unit()) * 4.0
            } else {
                0.25
            };
            x += (r.unit() - 0.5) * 3.0;
            y += (r.unit() - 0.5) * 3.0;
            if x < 0.0 {
                (x, bx) = (x + 192.0, bx - 1);
            } else if x >= 192.0 {
                (x, bx) = (x - 192.0, bx + 1);
            }
            if y < 0.0 {
                (y, by) = (y + 192.0, by - 1);
            } else if y >= 192.0 {
                (y, by) = (y - 192.0, by + 1);
            }
            let (cx, cy) = ((x / 24.0) as u32 % 8, (y / 24.0) as u32 % 8);
            let cell = (bx << 24) | (by << 16) | (cx * 8 + cy + 1);
            let player = Position::new(cell, Vec3::new(x, y, 40.0 + r.unit() * 60.0));
            heading = (heading + (r.unit() - 0.5) * 30.0).rem_euclid(360.0);
            let mut camera = player;
            camera.origin += Vec3::new((r.unit() - 0.5) * 8.0, (r.unit() - 0.5) * 8.0, 2.0);
            let listener = Listener {
                position: camera,
                heading_deg: heading,
            };
            let op = r.below(400);
            if op == 0 {
                a.reset(&mut ta);
                b.reset(&mut tb);
            } else if op < 8 {
                let vols = [1.0, 0.5, 0.05, 0.0, 2.0, 0.3];
                let settings = SoundSettings {
                    ambient_sounds_enabled: r.below(8) != 0,
                    ambient_sound_volume: vols[r.below(6) as usize],
                    mono: r.below(4) == 0,
                    play_sound_only_when_active: r.below(2) == 0,
                    app_active: r.below(4) != 0,
                    ..SoundSettings::default()
                };
                a.set_settings(settings);
                b.set_settings(settings);
            }
            ea.clear();
            eb.clear();
            // the rebuild is shared code; the tick is the code under test
            a.change_position(&player, false, now, &mut ta, &mut la, &mut ea)
                .unwrap();
            b.change_position(&player, false, now, &mut tb, &mut lb, &mut eb)
                .unwrap();
            a.set_listener(listener).unwrap();
            b.set_listener(listener).unwrap();
            a.use_time(now, &mut ea);
            reference::use_time(&mut b, now, &mut eb);
            assert_eq!(
                format!("{ea:?}"),
                format!("{eb:?}"),
                "scenario {scenario} frame {frame}"
            );
            plays += ea
                .iter()
                .filter(|e| matches!(e.outcome, Outcome::Play(_)))
                .count();

            let qa: Vec<_> = a.queue().iter().map(|(k, i)| (k.to_bits(), i)).collect();
            let qb: Vec<_> = b.queue().iter().map(|(k, i)| (k.to_bits(), i)).collect();
            assert_eq!(qa, qb, "scenario {scenario} frame {frame}");
            assert_eq!((&a.rng, &a.crt), (&b.rng, &b.crt));
        }
        assert_eq!(format!("{:?}", a.snapshot()), format!("{:?}", b.snapshot()));
    }
    assert!(plays > 2500, "{plays} plays");
}

/// `SoundManager::GetAttenuation` @ 0x00550020 and the pan of `PlaySoundInternal` @ 0x00550170:
/// the library-call-free forms equal the `trunc`/`ceil` transcription for random and edge
/// distances, volumes, headings and sliders.
#[test]
fn attenuation_and_pan_match_the_library_call_forms() {
    let mut r = Xorshift(0xA5A5_5A5A_0123_4567);
    let listener_at = Position::new(0xA9B4_0001, Vec3::new(10.0, 10.0, 0.0));
    let edges = [
        0.0,
        4.999_999_5,
        5.0,
        5.000_001,
        5.9,
        6.0,
        94.18,
        94.19,
        1e6,
    ];
    for k in 0..50_000 {
        let dist = if k < edges.len() {
            edges[k]
        } else {
            r.unit() * 150.0
        };
        let volume = [r.unit(), 1.0, 0.0, 3.0, 1e-7][r.below(5) as usize];
        let settings = SoundSettings {
            ambient_sound_volume: [1.0, 0.5, r.unit(), 0.0, f32::INFINITY][r.below(5) as usize],
            mono: r.below(8) == 0,
            ..SoundSettings::default()
        };
        assert_eq!(
            sound_manager::get_attenuation(dist, volume, true, &settings),
            reference::attenuation(dist, volume, &settings),
            "{dist} {volume} {settings:?}"
        );
        let sound = Position::new(
            0xA9B4_0001,
            Vec3::new(r.unit() * 40.0 - 10.0, r.unit() * 40.0 - 10.0, 0.0),
        );
        let listener = Listener {
            position: listener_at,
            heading_deg: r.unit() * 720.0 - 360.0,
        };
        assert_eq!(
            sound_manager::pan(&sound, &listener, dist, &settings),
            reference::pan(&sound, &listener, dist, &settings)
        );
    }
}

/// The per-instance memos of the play path: `CSoundTable::Lookup` is searched once per loaded
/// table and answers as [`SoundTable::sound`] does (first list of the type) across table
/// swaps — including a table dropped and a new one loaded, which may not reuse the address
/// while the memo pins it — and the level memo answers as `whole_db` for repeated and new
/// gains.
#[test]
fn play_memo_answers_as_the_uncached_lookups() {
    let mut r = Xorshift(0x0F0F_F0F0_1357_9BDF);
    let tables = hostile_tables();
    let asd = crate::testkit::asd(0x46, 1.0, 0.0, 1.0, 1.0);
    let mut memo = PlayMemo::new(&asd);
    let mut held: Option<Arc<SoundTable>> = None;
    for _ in 0..5_000 {
        if held.is_none() || r.below(3) == 0 {
            // drop the old table first, so the allocator may hand its block out again
            drop(held.take());
            held = Some(Arc::new(
                tables[r.below(tables.len() as u64) as usize].clone(),
            ));
        }
        let table = held.as_ref().unwrap();
        let types: Vec<_> = table.sounds.iter().map(|(k, _)| *k).collect();
        let s_type = if types.is_empty() || r.below(5) == 0 {
            resound_datformat::record::Sound::from_u32(0x7FFF)
        } else {
            types[r.below(types.len() as u64) as usize]
        };
        // one memo per instance, and an instance's type never changes: mimic that by
        // resetting the memo when the type changes
        if memo.s_type != s_type.to_u32() {
            memo = PlayMemo::new(&crate::testkit::asd(s_type.to_u32(), 1.0, 0.0, 1.0, 1.0));
        }
        let got = memo.sound_data(table, s_type).map(std::ptr::from_ref);
        let want = table.sound(s_type).map(std::ptr::from_ref);
        assert_eq!(got, want);
        let g = [f64::from(r.unit()), 1.0, 0.25, 1e-300, f64::INFINITY][r.below(5) as usize];
        assert_eq!(
            memo.whole_db(g).to_bits(),
            (g.log2() * sound_manager::DB_PER_DOUBLING).ceil().to_bits()
        );
    }
}
