//! Criterion benches of the two hot paths: one rebuild (576 `AddSound` calls over the 3×3 ring)
//! and one `UseTime` frame with 64 live sounds (the criterion figure averages over every frame,
//! most of which play nothing).
//!
//! `use_time_playing_frames` (printed, not a criterion bench): the per-frame cost of `UseTime`
//! over the frames that actually play something (at least one `Outcome::Play`), as median and
//! 99th percentile, timed frame by frame (criterion has no percentiles). Wall clock per frame
//! (`Instant`, a few ns to read; a frame is far shorter than a scheduler slice), minus the
//! clock's own median cost.

#![allow(clippy::unwrap_used, reason = "bench setup from constants")]

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use glam::Vec3;
use resound_ambient::{
    Ambient, AmbientRegion, MemoryLandBlocks, MemorySoundTables, Outcome, Position, PositionChange,
    Seeds, SoundSettings,
};
use resound_datformat::record::{
    AmbientSoundDesc, AmbientStbDesc, LandBlock, SceneDesc, SceneType, Sound, SoundData, SoundDesc,
    SoundEntry, SoundTable,
};
use resound_fixture as fixture;

const CENTRE: (u32, u32) = (0xA9, 0xB4);

/// The fixture world with every land cell of the 3×3 ring around the centre block resolving to a
/// loaded STB set, so a rebuild makes exactly 576 `AddSound` calls.
fn rebuild_world() -> (Ambient, MemorySoundTables, MemoryLandBlocks) {
    let region = fixture::region();
    let resolved = AmbientRegion::new(&region).unwrap();
    let mut blocks: Vec<LandBlock> = fixture::land_blocks();
    for b in &mut blocks {
        for x in 0..8 {
            for y in 0..8 {
                let i = x * 9 + y;
                let w = b.terrain[i];
                let d = resolved.terrain_stb_desc(u32::from((w >> 2) & 0x1F), u32::from(w >> 11));
                if d.is_none() || d == Some(fixture::MISSING_STB_INDEX) {
                    b.terrain[i] = 1 << 2; // Grassland, scene 0: the meadow set
                }
            }
        }
    }
    let ambient =
        Ambient::new(&region, Seeds { ran2: 1, crt: 1 }, SoundSettings::default()).unwrap();
    (
        ambient,
        MemorySoundTables::new(fixture::sound_tables()),
        MemoryLandBlocks::new(blocks),
    )
}

fn cell(cx: u32, cy: u32) -> Position {
    Position::new(
        (CENTRE.0 << 24) | (CENTRE.1 << 16) | (cx * 8 + cy + 1),
        Vec3::new(cx as f32 * 24.0 + 5.0, cy as f32 * 24.0 + 5.0, 70.0),
    )
}

fn bench_rebuild(c: &mut Criterion) {
    let (mut a, mut t, mut lb) = rebuild_world();
    let mut events = Vec::with_capacity(256);
    let cells = [cell(3, 3), cell(4, 3)];
    // warm: create every instance once
    for p in &cells {
        a.change_position(p, false, 0.0, &mut t, &mut lb, &mut events)
            .unwrap();
    }
    let PositionChange::Rebuilt(r) = a
        .change_position(&cells[0], false, 0.0, &mut t, &mut lb, &mut events)
        .unwrap()
    else {
        panic!("no rebuild");
    };
    assert_eq!(r.add_sound_calls, 576);
    let mut i = 0_usize;
    let mut now = 1.0;
    c.bench_function("rebuild_576_add_sound", |b| {
        b.iter(|| {
            i ^= 1;
            now += 0.001;
            events.clear();
            t.clear_counts();
            let r = a.change_position(&cells[i], false, now, &mut t, &mut lb, &mut events);
            black_box(r).ok();
        });
    });
}

/// 8 sound tables × 8 ambient sounds (half continuous, half intermittent), every cell of the
/// centre block resolving to one of the 8 sets: 64 live sounds.
fn use_time_world() -> (Ambient, MemorySoundTables, MemoryLandBlocks) {
    let mut region = fixture::region();
    let mut stbs = Vec::new();
    let mut tables = Vec::new();
    for s in 0..8_u32 {
        let id = 0x2000_0100 + s;
        let mut sounds = Vec::new();
        let mut rows = Vec::new();
        for k in 0..8_u32 {
            let continuous = k % 2 == 0;
            sounds.push(AmbientSoundDesc {
                s_type: Sound::from_u32(0x46 + k),
                volume: 1.0,
                base_chance: if continuous { 0.0 } else { 0.5 },
                min_rate: 2.0 + k as f32 * 0.5,
                max_rate: if continuous { 0.0 } else { 8.0 + k as f32 },
            });
            rows.push((
                Sound::from_u32(0x46 + k),
                SoundData {
                    entries: (0..3)
                        .map(|r| SoundEntry {
                            id: 0x0A00_0100 + k * 4 + r,
                            priority: 0.0,
                            probability: 0.9,
                            volume: 1.0,
                        })
                        .collect(),
                    unknown: 0,
                },
            ));
        }
        stbs.push(AmbientStbDesc {
            stb_id: id,
            ambient_sounds: sounds,
        });
        tables.push(SoundTable {
            id,
            sounds: rows,
            ..SoundTable::default()
        });
    }
    region.sound_info = Some(SoundDesc { stb_desc: stbs });
    region.scene_info = Some(SceneDesc {
        scene_types: (0..8)
            .map(|s| SceneType {
                stb_index: s,
                scenes: Vec::new(),
            })
            .collect(),
    });
    for (t, tt) in region.terrain_info.terrain_types.iter_mut().enumerate() {
        tt.scene_types = vec![(t % 8) as u32];
    }
    let mut block = LandBlock {
        id: (CENTRE.0 << 24) | (CENTRE.1 << 16) | 0xFFFF,
        ..LandBlock::default()
    };
    for x in 0..9 {
        for y in 0..9 {
            block.terrain[x * 9 + y] = (((x + y) % 8) as u16) << 2;
            block.height[x * 9 + y] = 35;
        }
    }
    let ambient =
        Ambient::new(&region, Seeds { ran2: 7, crt: 7 }, SoundSettings::default()).unwrap();
    (
        ambient,
        MemorySoundTables::new(tables),
        MemoryLandBlocks::new([block]),
    )
}

fn bench_use_time(c: &mut Criterion) {
    let (mut a, mut t, mut lb) = use_time_world();
    let mut events = Vec::with_capacity(256);
    a.change_position(&cell(3, 3), false, 0.0, &mut t, &mut lb, &mut events)
        .unwrap();
    assert_eq!(a.sounds().len(), 64);
    let live = a.sounds().iter().filter(|s| s.on_queue).count();
    assert_eq!(live, 64, "{live} queued");
    let mut now = 0.0;
    c.bench_function("use_time_frame_64_sounds", |b| {
        b.iter(|| {
            now += 1.0 / 60.0;
            events.clear();
            a.use_time(black_box(now), &mut events);
            black_box(events.len());
        });
    });
}

/// Frames timed by [`use_time_playing_frames`]: 30 000 s of game time at 60 frames a second.
const TIMED_FRAMES: usize = 1_800_000;

/// The `p`-quantile (0..=1) of sorted `xs` (nearest rank).
fn quantile(xs: &[Duration], p: f64) -> Duration {
    let i = ((xs.len() as f64 * p).ceil() as usize).clamp(1, xs.len()) - 1;
    xs[i]
}

/// Median and 99th percentile of `UseTime` over the frames that play something.
fn use_time_playing_frames(_c: &mut Criterion) {
    let (mut a, mut t, mut lb) = use_time_world();
    let mut events = Vec::with_capacity(256);
    a.change_position(&cell(3, 3), false, 0.0, &mut t, &mut lb, &mut events)
        .unwrap();
    // The clock's own cost, to subtract.
    let mut empty: Vec<Duration> = (0..10_000)
        .map(|_| {
            let t0 = Instant::now();
            black_box(());
            t0.elapsed()
        })
        .collect();
    empty.sort_unstable();
    let overhead = quantile(&empty, 0.5);
    let mut playing = Vec::with_capacity(TIMED_FRAMES / 4);
    let mut plays = 0_usize;
    let mut now = 0.0;
    for _ in 0..TIMED_FRAMES {
        now += 1.0 / 60.0;
        events.clear();
        let t0 = Instant::now();
        a.use_time(black_box(now), &mut events);
        let dt = t0.elapsed();
        let n = events
            .iter()
            .filter(|e| matches!(e.outcome, Outcome::Play(_)))
            .count();
        if n > 0 {
            plays += n;
            playing.push(dt.saturating_sub(overhead));
        }
    }
    assert!(!playing.is_empty(), "no frame played a sound");
    playing.sort_unstable();
    println!(
        "use_time_playing_frames: {} of {TIMED_FRAMES} frames play ({plays} sounds); \
         median {:.3} µs, p99 {:.3} µs, max {:.3} µs (wall per frame, clock overhead {} ns \
         subtracted)",
        playing.len(),
        quantile(&playing, 0.5).as_secs_f64() * 1e6,
        quantile(&playing, 0.99).as_secs_f64() * 1e6,
        quantile(&playing, 1.0).as_secs_f64() * 1e6,
        overhead.as_nanos(),
    );
}

criterion_group!(
    benches,
    bench_rebuild,
    bench_use_time,
    use_time_playing_frames
);
criterion_main!(benches);
