//! Faults injected into the engine (issue 15, `docs/reliability.md`): a panicking acoustic
//! worker, a full command ring, a Wave that fails to decode, a world replaced while a tick is
//! in flight. Each one: the mix goes on, the fault is reported, nothing blocks.

use std::io::Cursor;
use std::sync::Arc;
use std::time::{Duration, Instant};

use resound_engine::advanced::acoustics::{Absent, WorldStore};
use resound_engine::advanced::ambient::Outcome;
use resound_engine::advanced::datformat::container::{DatWriter, EntryOptions};
use resound_engine::advanced::datformat::record::{Record, Wave};
use resound_engine::advanced::mixer::MixerSettings;
use resound_engine::sound::AmbientSettings;
use resound_engine::terrain::ac_to_voxel;
use resound_engine::{
    Engine, EngineBuilder, LoadError, Mode, Orientation, Pacing, PlayError, Source, VoiceError,
    VoiceHandle, VoicePolicy,
};
use resound_fixture::{self as fixture, FixtureOptions, FixtureWorld};
use resound_studio::test_signal::looped;

/// A looping voice 20 blocks from the listener behind a stone wall (muffled: gain and hf < 1).
fn walled(builder: EngineBuilder) -> (Engine, VoiceHandle) {
    let mut e = builder.mode(Mode::Direct).build().unwrap();
    let v = crate::common::loop_behind_a_wall(&mut e, 10, 20.5, 128.0);
    (e, v)
}

fn finite_and_audible(out: &[f32]) {
    assert!(out.iter().all(|s| s.is_finite()));
    assert!(out.iter().any(|s| *s != 0.0), "the mix went silent");
}

fn worker_panic_case(builder: EngineBuilder) {
    let (mut e, v) = walled(builder);
    let tf = e.tick_frames() as usize;
    finite_and_audible(&e.render_frames(10 * tf).unwrap());
    let before = e.voice_acoustics(v).unwrap();
    assert!(before.results >= 1, "{before:?}");
    assert!(before.applied.hf < 1.0, "the wall muffles: {before:?}");

    e.inject_worker_panic();
    // The tick at which the worker panics renders on, without an error.
    let out = e.render_frames(tf).unwrap();
    finite_and_audible(&out);
    let status = e.status();
    assert_eq!(status.worker_restarts, 1, "{status:?}");
    let during = e.voice_acoustics(v).unwrap();
    assert_eq!(
        during.applied, before.applied,
        "the mix keeps the last parameters"
    );
    assert_eq!(
        during.results, before.results,
        "the lost tick applied nothing"
    );

    // The restarted worker serves the voice again from the next tick.
    finite_and_audible(&e.render_frames(3 * tf).unwrap());
    let after = e.voice_acoustics(v).unwrap();
    assert!(after.results > before.results, "{after:?}");
    assert_eq!(after.applied, before.applied, "same world, same result");
    assert_eq!(e.status().worker_restarts, 1);

    // A second fault is survived the same way.
    e.inject_worker_panic();
    finite_and_audible(&e.render_frames(3 * tf).unwrap());
    assert_eq!(e.status().worker_restarts, 2);
    assert!(e.voice_acoustics(v).unwrap().results > after.results);
}

#[test]
fn a_panicking_worker_thread_restarts_and_the_mix_keeps_its_parameters() {
    worker_panic_case(Engine::builder());
}

#[test]
fn a_panicking_inline_worker_is_rebuilt_and_the_mix_keeps_its_parameters() {
    worker_panic_case(Engine::builder().inline_worker(true));
}

#[test]
fn a_worker_panic_under_update_pacing_is_survived() {
    let (mut e, v) = walled(Engine::builder().pacing(Pacing::Update));
    for _ in 0..5 {
        e.update(0.05).unwrap();
        e.settle().unwrap();
    }
    let before = e.voice_acoustics(v).unwrap();
    e.inject_worker_panic();
    e.update(0.05).unwrap();
    e.settle().unwrap();
    assert_eq!(e.status().worker_restarts, 1);
    assert_eq!(e.voice_acoustics(v).unwrap().applied, before.applied);
    for _ in 0..3 {
        e.update(0.05).unwrap();
        e.settle().unwrap();
    }
    assert!(e.voice_acoustics(v).unwrap().results > before.results);
    finite_and_audible(&e.render_frames(4800).unwrap_or_else(|_| vec![1.0]));
}

#[test]
fn a_full_command_ring_is_a_typed_error_never_a_block() {
    let mut e = Engine::builder().build().unwrap();
    let s = e.load_mono(Arc::from(looped(48_000)), 48_000).unwrap();
    let v = e.play(s, Source::default()).unwrap();
    // Nothing renders: every stop_all is a command that stays in the ring until it is full.
    let started = Instant::now();
    let mut sent = 0usize;
    let err = loop {
        match e.stop_all() {
            Ok(()) => sent += 1,
            Err(err) => break err,
        }
        assert!(
            sent <= MixerSettings::default().capacities.commands,
            "never fills"
        );
    };
    assert_eq!(err, VoiceError::QueueFull);
    assert!(sent > 0);
    // Every other command entry refuses the same way, at once.
    assert_eq!(e.play(s, Source::default()), Err(PlayError::QueueFull));
    assert_eq!(
        e.load_mono(Arc::from(looped(48_000)), 48_000),
        Err(LoadError::QueueFull)
    );
    assert!(!e.is_playing(v));
    // Telemetry only: refusing thousands of commands took no waiting.
    assert!(started.elapsed() < Duration::from_secs(30));
    // One render drains the ring; commands are taken again.
    e.render_frames(480).unwrap();
    let w = e
        .play(
            s,
            Source {
                looping: true,
                ..Source::default()
            },
        )
        .unwrap();
    finite_and_audible(&e.render_frames(4800).unwrap());
    assert!(e.is_playing(w));
}

/// The fixture world with every other Wave damaged (its channel count zeroed).
fn damaged_world() -> (FixtureWorld, Vec<u32>) {
    let w = fixture::write_world_with(&FixtureOptions::compact()).unwrap();
    let mut portal = DatWriter::from_bytes(w.portal.clone()).unwrap();
    let mut damaged = Vec::new();
    for spec in fixture::WAVES.iter().step_by(2) {
        let bytes =
            resound_engine::advanced::datformat::container::DatReader::new(Cursor::new(&w.portal))
                .unwrap()
                .read(spec.id)
                .unwrap()
                .unwrap();
        let mut wave = Wave::from_bytes(&bytes).unwrap();
        wave.header[2] = 0;
        wave.header[3] = 0;
        portal
            .insert(
                spec.id,
                &wave.to_bytes().unwrap(),
                EntryOptions {
                    compress: false,
                    raw_date: 0,
                    iteration: 1,
                },
            )
            .unwrap();
        damaged.push(spec.id);
    }
    let world = FixtureWorld {
        portal: portal.finish(),
        cell: w.cell,
    };
    (world, damaged)
}

#[test]
fn a_wave_that_fails_to_decode_skips_its_voice_and_is_reported() {
    let (world, damaged) = damaged_world();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("client_portal.dat"), &world.portal).unwrap();
    std::fs::write(dir.path().join("client_cell_1.dat"), &world.cell).unwrap();
    let mut e = Engine::builder()
        .voice_policy(VoicePolicy::Retail16)
        .mode(Mode::Off)
        .build()
        .unwrap();
    // A spot in the fixture valley, heard for 40 s at 60 ticks a second.
    let spot = resound_engine::advanced::ambient::Position::new(
        0xA9B4_0025,
        resound_engine::advanced::ambient::glam::Vec3::new(96.0, 96.0, 70.0),
    );
    e.set_listener(ac_to_voxel(&spot), Orientation::default())
        .unwrap();
    e.attach_ambient(dir.path(), AmbientSettings::default())
        .unwrap();
    let mut out = vec![0.0f32; 2 * 800];
    let (mut good, mut bad) = (0u64, 0u64);
    let mut loud = false;
    for _ in 0..(40 * 60) {
        e.update(1.0 / 60.0).unwrap();
        for ev in e.ambient_bridge().unwrap().last_events() {
            if let Outcome::Play(v) = ev.outcome {
                if damaged.contains(&v.wave_id.get()) {
                    bad += 1;
                } else {
                    good += 1;
                }
            }
        }
        e.render(&mut out).unwrap();
        assert!(out.iter().all(|s| s.is_finite()));
        loud |= out.iter().any(|s| *s != 0.0);
    }
    let a = e.status().ambient;
    let c = a.counters;
    assert!(c.dropped.decode_failed > 0, "reported: {c:?}");
    assert!(c.played > 0, "the good waves still play: {c:?}");
    assert!(loud);
    // every damaged wave's play is the engine's decode drop; only the good ones started
    assert_eq!(c.dropped.decode_failed, bad, "{c:?}");
    assert_eq!(c.dropped.pool_full, 0, "{c:?}");
    assert_eq!(a.started, good, "no damaged wave was played: {a:?}");
    assert_eq!(c.events, c.played + c.dropped.total());
    let s = a.cache;
    assert!(
        s.decode_failures >= 1 && s.decode_failures <= damaged.len() as u64,
        "each damaged wave is decoded once, then remembered: {s:?}"
    );
}

#[test]
fn a_world_replaced_while_a_tick_is_in_flight_drops_the_stale_result() {
    let (mut e, v) = walled(
        Engine::builder()
            .pacing(Pacing::Update)
            .worker_delay(Duration::from_millis(100)),
    );
    let start = e.voice_acoustics(v).unwrap();
    assert_eq!(start.results, 0);
    assert!(
        start.applied.hf < 1.0,
        "inline trace behind the wall: {start:?}"
    );
    // Tick 0 goes out on the walled world; the worker takes 100 ms.
    e.update(0.05).unwrap();
    assert_eq!(e.status().ticks_in_flight, 1);
    // Meanwhile the host switches to an open world.
    e.world().replace(WorldStore::new(Absent::Air));
    let discarded = e.status().discarded;
    e.settle().unwrap();
    let stale = e.voice_acoustics(v).unwrap();
    assert_eq!(stale.results, 0, "the walled result was dropped: {stale:?}");
    assert_eq!(stale.applied, start.applied);
    assert!(e.status().discarded > discarded);
    // The next tick traces the new world.
    e.update(0.05).unwrap();
    e.settle().unwrap();
    e.update(0.05).unwrap();
    let fresh = e.voice_acoustics(v).unwrap();
    assert!(fresh.results >= 1, "{fresh:?}");
    assert_eq!(fresh.applied.hf, 1.0, "open world: {fresh:?}");
}
