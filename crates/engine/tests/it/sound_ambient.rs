//! The ambient bridge over the fixture world: a 60 s walk through `Retail16` (every emitted Play
//! event becomes one play request, in order, with the retail level and pan), `Modern` plays,
//! the retail frame order, bad input; and through the engine, which loads the Waves: bad Waves
//! skipped and counted.

#![allow(
    clippy::unwrap_used,
    reason = "test helpers unwrap known-good fixtures"
)]

use std::io::Cursor;

use resound_ambient::glam::Vec3;
use resound_ambient::walk::Walk;
use resound_ambient::{AmbientEvent, Outcome, Position, Voice};
use resound_datformat::container::{DatWriter, EntryOptions};
use resound_datformat::record::{Record, Wave};
use resound_engine::sound::{
    AmbientBridge, AmbientPlay, AmbientPolicy, AmbientSettings, AmbientTickError, AttachError,
    ListenerPose,
};
use resound_engine::{Engine, Mode, VoicePolicy};
use resound_fixture::{self as fixture, FixtureOptions, FixtureWorld};

const RATE: u32 = 48_000;
/// 60 ticks a second at 48 kHz.
const TICK_FRAMES: usize = 800;

type Bridge = AmbientBridge<Cursor<Vec<u8>>>;

fn world(scale: f64) -> FixtureWorld {
    fixture::write_world_with(&FixtureOptions {
        wave_duration_scale: scale,
    })
    .unwrap()
}

fn bridge(world: &FixtureWorld, policy: AmbientPolicy) -> Bridge {
    AmbientBridge::from_readers(
        Cursor::new(world.portal.clone()),
        Cursor::new(world.cell.clone()),
        policy,
        AmbientSettings::default(),
    )
    .unwrap()
}

fn walk() -> Walk {
    crate::common::example_walk(true)
}

fn pose_at(walk: &Walk, t: f64) -> ListenerPose {
    let pose = walk.pose(t).unwrap();
    ListenerPose {
        position: pose.player.position,
        heading_deg: pose.camera.heading_deg,
        seen_outside: pose.player.seen_outside,
    }
}

fn play_voices(events: &[AmbientEvent]) -> Vec<Voice> {
    events
        .iter()
        .filter_map(|e| match e.outcome {
            Outcome::Play(v) => Some(v),
            Outcome::Drop(_) => None,
        })
        .collect()
}

#[derive(Debug, Default)]
struct WalkFigures {
    /// Wall time spent in `tick` (telemetry only, never asserted).
    tick_time: std::time::Duration,
    ticks: u64,
    plays: u64,
}

/// Walks `seconds` through `Retail16` at 60 ticks a second; checks every tick's plays against
/// its Play events: one each, in order, with the retail level, pan and conversion.
fn retail_walk(world: &FixtureWorld, seconds: f64) -> (Bridge, WalkFigures) {
    let walk = walk();
    let mut b = bridge(world, AmbientPolicy::Retail16);
    let mut plays = Vec::new();
    let mut fig = WalkFigures::default();
    let mut seen_events = 0u64;
    let ticks = (seconds * 60.0) as u64;
    for k in 0..=ticks {
        let frame = k as usize * TICK_FRAMES;
        let now = frame as f64 / f64::from(RATE);
        plays.clear();
        let pose = pose_at(&walk, now);
        let t0 = std::time::Instant::now();
        b.tick(now, pose, &mut plays).unwrap();
        fig.tick_time += t0.elapsed();
        let events = b.last_events();
        seen_events += events.len() as u64;
        let voices = play_voices(events);
        assert_eq!(
            voices.len(),
            plays.len(),
            "t = {now}: one play per Play event"
        );
        for (p, v) in plays.iter().zip(&voices) {
            let AmbientPlay::Retail {
                wave_id,
                db,
                pan: pan_db,
                time,
            } = *p
            else {
                panic!("Retail16 gave {p:?}");
            };
            assert_eq!(time, now);
            assert_eq!((wave_id, db, pan_db), (v.wave_id.get(), v.db, v.pan));
            assert!(
                (-14..=14).contains(&v.pan)
                    && (resound_ambient::sound_manager::VOL_MIN..=0).contains(&v.db)
            );
            // the one retail conversion: the level (already within SoundBuf::Play's limits, as
            // checked above) as a linear volume, the pan as the mixer's DirectSound law
            let params = p.params().expect("a retail play has fixed parameters");
            assert_eq!(
                params.volume,
                resound_engine::advanced::mixer::pan::db_to_amplitude(db as f32)
            );
            // the portable powf (the same bits natively and on wasm32), within 1 ulp of the
            // platform's
            let platform = 10f32.powf(db as f32 / 20.0);
            assert!((params.volume - platform).abs() <= platform * f32::EPSILON);
            assert_eq!(
                params.pan,
                resound_engine::advanced::mixer::Pan::Retail(pan_db)
            );
        }
        fig.plays += plays.len() as u64;
        fig.ticks += 1;
    }
    let c = b.counters();
    assert_eq!(c.events, seen_events);
    assert_eq!(c.events, c.played + c.dropped.total(), "{c:?}");
    assert_eq!(c.played, fig.plays);
    assert_eq!(c.frames, fig.ticks);
    (b, fig)
}

#[test]
fn retail16_walk_of_60_s_asks_for_every_play_event() {
    let w = world(1.0);
    let (b, fig) = retail_walk(&w, 60.0);
    let c = b.counters();
    assert!(c.played > 20, "{c:?}");
    assert!(c.rebuilds >= 3, "{c:?}");
    // the bridge drops only what the runtime drops; the engine counts the rest
    let d = c.dropped;
    assert_eq!(
        d.pool_full + d.decode_failed + d.wave_missing + d.no_room,
        0
    );
    eprintln!(
        "retail16 60 s walk: {c:?}; bridge tick wall time {:?} total",
        fig.tick_time
    );
}

#[test]
fn retail16_walk_is_deterministic() {
    let w = world(1.0);
    let run = || {
        let walk = walk();
        let mut b = bridge(&w, AmbientPolicy::Retail16);
        let mut plays = Vec::new();
        for k in 0..=(20 * 60) {
            let now = f64::from(k) / 60.0;
            b.tick(now, pose_at(&walk, now), &mut plays).unwrap();
        }
        (plays, b.counters())
    };
    let (a, b) = (run(), run());
    assert!(!a.0.is_empty());
    assert_eq!(a, b);
}

#[test]
fn modern_plays_are_positioned_or_centred_as_emitted() {
    let w = world(1.0);
    let walk = walk();
    let mut b = bridge(&w, AmbientPolicy::Modern);
    let mut plays = Vec::new();
    let (mut positioned, mut centred) = (0, 0);
    for k in 0..=(40 * 60) {
        let now = f64::from(k) / 60.0;
        plays.clear();
        b.tick(now, pose_at(&walk, now), &mut plays).unwrap();
        let voices = play_voices(b.last_events());
        assert_eq!(
            voices.len(),
            plays.len(),
            "Modern drops nothing at t = {now}"
        );
        for (p, v) in plays.iter().zip(&voices) {
            assert_eq!(p.wave_id(), v.wave_id.get());
            match *p {
                AmbientPlay::Positioned {
                    position,
                    volume,
                    distance,
                    ..
                } => {
                    assert_eq!(Some(position), v.position, "the AC position, unconverted");
                    assert_eq!(distance, v.distance);
                    assert!((0.0..=1.0).contains(&volume));
                    // the unrounded source level is at least the distance-attenuated retail gain
                    assert!(f64::from(volume) + 1e-6 >= v.gain);
                    assert!(p.params().is_none());
                    positioned += 1;
                }
                AmbientPlay::Centred { volume, .. } => {
                    assert_eq!(v.position, None);
                    assert_eq!(f64::from(volume), v.gain as f32 as f64);
                    let params = p.params().unwrap();
                    assert_eq!(params.pan, resound_mixer::Pan::EqualPower(0.0));
                    centred += 1;
                }
                AmbientPlay::Retail { .. } => panic!("Modern gave a retail play"),
            }
        }
    }
    assert!(positioned > 0 && centred > 0, "{positioned} / {centred}");
    let c = b.counters();
    assert_eq!(c.events, c.played + c.dropped.total());
}

fn on_cell(bx: u32, by: u32, cx: u32, cy: u32) -> Position {
    Position::new(
        (bx << 24) | (by << 16) | (cx * 8 + cy + 1),
        Vec3::new(cx as f32 * 24.0 + 12.0, cy as f32 * 24.0 + 12.0, 60.0),
    )
}

fn pose(position: Position) -> ListenerPose {
    ListenerPose {
        position,
        heading_deg: 0.0,
        seen_outside: false,
    }
}

#[test]
fn the_retail_frame_order_lags_one_frame_and_a_teleport_does_not() {
    let w = world(0.02);
    let mut b = bridge(&w, AmbientPolicy::Retail16);
    let mut plays = Vec::new();
    let (a, c, d) = (
        on_cell(0xA9, 0xB4, 3, 3),
        on_cell(0xA9, 0xB4, 4, 3),
        on_cell(0xA8, 0xB3, 2, 2),
    );
    // frame 0: the first pose is both the previous and the current one
    let r = b.tick(0.0, pose(a), &mut plays).unwrap();
    assert_eq!(r.map(|r| r.cell), Some(a.objcell_id));
    // frame 1 moves into the next cell: ChangePosition still sees frame 0's cell
    let r = b.tick(1.0 / 60.0, pose(c), &mut plays).unwrap();
    assert!(r.is_none());
    assert_eq!(b.ambient().current_cell(), Some(a.objcell_id));
    // frame 2 rebuilds on frame 1's pose, at frame 2's clock
    let r = b.tick(2.0 / 60.0, pose(c), &mut plays).unwrap();
    assert_eq!(r.map(|r| r.cell), Some(c.objcell_id));
    // a teleport rebuilds at once
    let r = b.teleport(2.5 / 60.0, pose(d), &mut plays).unwrap();
    assert_eq!(r.map(|r| r.cell), Some(d.objcell_id));
    let r = b.tick(3.0 / 60.0, pose(d), &mut plays).unwrap();
    assert!(r.is_none());
    assert_eq!(b.counters().rebuilds, 3);
}

#[test]
fn waves_that_fail_to_decode_are_skipped_and_counted() {
    let w = world(0.02);
    let mut portal = DatWriter::from_bytes(w.portal.clone()).unwrap();
    for spec in &fixture::WAVES {
        // ADPCM (tag 2): a format the engine does not decode
        let bad = Wave {
            id: spec.id,
            header: vec![2, 0, 1, 0, 0x22, 0x56, 0, 0, 0, 0, 0, 0, 2, 0, 4, 0, 0, 0],
            data: vec![0x5A; 64],
        };
        portal
            .insert(
                spec.id,
                &bad.to_bytes().unwrap(),
                EntryOptions {
                    compress: false,
                    raw_date: 0,
                    iteration: 1,
                },
            )
            .unwrap();
    }
    let bad_world = FixtureWorld {
        portal: portal.finish(),
        cell: w.cell.clone(),
    };
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("client_portal.dat"), &bad_world.portal).unwrap();
    std::fs::write(dir.path().join("client_cell_1.dat"), &bad_world.cell).unwrap();
    let walk = walk();
    let mut e = Engine::builder()
        .sample_rate(RATE)
        .mode(Mode::Off)
        .voice_policy(VoicePolicy::Retail16)
        .build()
        .unwrap();
    e.attach_ambient(dir.path(), AmbientSettings::default())
        .unwrap();
    let mut out = vec![0.0f32; 2 * TICK_FRAMES];
    for k in 0..(30 * 60) {
        let pose = walk.pose(f64::from(k) / 60.0).unwrap();
        let position = resound_engine::terrain::ac_to_voxel(&pose.camera.position);
        e.set_listener(position, resound_engine::Orientation::default())
            .unwrap();
        e.update(1.0 / 60.0).unwrap();
        e.render(&mut out).unwrap();
    }
    let a = e.status().ambient;
    let c = a.counters;
    assert!(c.events > 0, "{c:?}");
    assert!(c.dropped.decode_failed > 0, "{c:?}");
    assert_eq!(c.played, 0);
    assert_eq!(a.started, 0);
    assert_eq!(c.events, c.dropped.total());
    let s = a.cache;
    assert!(
        s.decode_failures > 0 && s.decode_failures <= 16,
        "each wave decoded once: {s:?}"
    );
    assert_eq!(s.bytes, 0);
}

#[test]
fn bad_clock_and_pose_are_refused_and_change_nothing() {
    let w = world(0.02);
    let mut b = bridge(&w, AmbientPolicy::Modern);
    let mut plays = Vec::new();
    let a = on_cell(0xA9, 0xB4, 3, 3);
    b.tick(1.0, pose(a), &mut plays).unwrap();
    let before = b.counters();
    let nan = Position::new(a.objcell_id.get(), Vec3::new(f32::NAN, 0.0, 0.0));
    for (now, p) in [
        (f64::NAN, pose(a)),
        (f64::INFINITY, pose(a)),
        (0.5, pose(a)),
        (2.0, pose(nan)),
        (2.0, pose(Position::new(0, Vec3::ZERO))),
        (
            2.0,
            ListenerPose {
                heading_deg: f32::INFINITY,
                ..pose(a)
            },
        ),
    ] {
        let e = b.tick(now, p, &mut plays).unwrap_err();
        assert!(!e.to_string().contains('\n'));
        if now == 0.5 {
            assert!(matches!(e, AmbientTickError::ClockBackwards { .. }));
        }
        assert!(b.teleport(now, p, &mut plays).is_err());
    }
    assert_eq!(b.counters(), before);
    b.tick(2.0, pose(a), &mut plays).unwrap();
}

#[test]
fn attach_opens_a_dat_folder_with_typed_errors() {
    let w = world(0.02);
    let dir = tempfile::tempdir().unwrap();
    let settings = AmbientSettings::default();
    let retail = AmbientPolicy::Retail16;
    let e = AmbientBridge::open(dir.path(), retail, settings).unwrap_err();
    assert!(matches!(e, AttachError::Open { .. }), "{e}");
    std::fs::write(dir.path().join("client_portal.dat"), b"garbage").unwrap();
    std::fs::write(dir.path().join("client_cell_1.dat"), &w.cell).unwrap();
    let e = AmbientBridge::open(dir.path(), retail, settings).unwrap_err();
    assert!(matches!(e, AttachError::Dat { .. }), "{e}");
    // the cell dat has no Region
    std::fs::write(dir.path().join("client_portal.dat"), &w.cell).unwrap();
    let e = AmbientBridge::open(dir.path(), retail, settings).unwrap_err();
    assert!(matches!(e, AttachError::NoRegion(0x1300_0000)), "{e}");
    std::fs::write(dir.path().join("client_portal.dat"), &w.portal).unwrap();
    let mut b = AmbientBridge::open(dir.path(), retail, settings).unwrap();
    let mut plays = Vec::new();
    b.tick(0.0, pose(on_cell(0xA9, 0xB4, 3, 3)), &mut plays)
        .unwrap();
    assert_eq!(b.counters().rebuilds, 1);
    assert_eq!(b.policy(), retail);
}
