//! The engine on a device output (issue 12), through the test backend injected with the
//! builder's `device_backend` hook (the same `Backend` trait the cpal backend implements, and
//! the same callback): the engine runs at the device's rate, a stream failing mid-stream is
//! reported in `status()` while the engine goes on (rendering into nothing) without a panic,
//! and it reopens when the device comes back; a paused start makes the device play exactly
//! what the offline render writes.

// Test helpers outside #[test] fns unwrap too (clippy.toml only covers #[test] bodies).
#![allow(clippy::unwrap_used)]

use std::sync::Arc;
use std::time::Duration;

use resound_engine::device::{LossKind, SampleFormat, TestBackend, TestControl};
use resound_engine::glam::DVec3;
use resound_engine::{Engine, EngineBuilder, Mode, Orientation, Output, Source, TickError};
use resound_studio::scene_render::{self as scene, SceneOptions};
use resound_studio::test_signal::Signal;

fn device() -> Output {
    Output::Device {
        name: None,
        sample_rate: None,
        buffer_frames: None,
    }
}

fn on_test_device(rate: u32, frames: usize) -> (EngineBuilder, TestControl) {
    let (backend, ctl) = TestBackend::new(rate, 2, SampleFormat::F32, frames);
    let b = Engine::builder()
        .output(device())
        .device_backend(Box::new(backend));
    (b, ctl)
}

fn loud(ctl: &TestControl) -> bool {
    ctl.last_buffer().iter().any(|x| x.abs() > 1e-3)
}

#[test]
fn a_device_engine_runs_at_the_device_rate_and_refuses_render() {
    let (b, ctl) = on_test_device(44_100, 256);
    let mut engine = b.sample_rate(48_000).mode(Mode::Direct).build().unwrap();
    assert_eq!(engine.sample_rate(), 44_100);
    assert_eq!(engine.tick_frames(), 2205);
    assert!(matches!(
        engine.render(&mut [0.0; 64]),
        Err(TickError::NotOffline)
    ));
    let d = engine.status().device.unwrap();
    assert_eq!((d.host.as_str(), d.sample_rate), ("test", 44_100));
    assert_eq!(d.format, SampleFormat::F32);
    assert!(d.running);
    assert!(ctl.pump(), "the stream starts at build");
}

#[test]
fn a_stream_failing_mid_stream_is_reported_the_engine_goes_on_and_reopens() {
    let (b, ctl) = on_test_device(48_000, 480);
    let mut engine = b.mode(Mode::Direct).build().unwrap();
    let tone: Arc<[f32]> = Signal::Loop.samples(48_000).into();
    let sound = engine.load_mono(tone, 48_000).unwrap();
    engine
        .set_listener(DVec3::new(10.5, 1.5, 0.5), Orientation::default())
        .unwrap();
    let source = Source {
        position: DVec3::new(0.5, 1.5, 0.5),
        looping: true,
        ..Source::default()
    };
    engine.play(sound, source).unwrap();
    engine.update(0.01).unwrap();
    for _ in 0..5 {
        assert!(ctl.pump());
    }
    assert!(loud(&ctl));
    assert_eq!(engine.status().device.unwrap().callbacks, 5);

    // The device goes away mid-stream.
    ctl.fail(LossKind::DeviceNotAvailable);
    ctl.set_available(false);
    let t0 = std::time::Instant::now();
    engine.update(0.01).unwrap();
    let s = engine.status();
    let d = s.device.clone().unwrap();
    assert!(!d.running);
    assert_eq!((d.lost, d.reopen_attempts, d.reopens), (1, 1, 0));
    let why = d.last_error.unwrap();
    assert!(why.contains("device not available"), "{why}");
    assert!(!why.contains('\n'));
    assert!(!ctl.pump(), "no stream runs");

    // The engine goes on: ticks, new voices, the mix rendered into nothing meanwhile.
    for _ in 0..20 {
        std::thread::sleep(Duration::from_millis(10));
        engine.update(0.01).unwrap();
    }
    let v = engine.play(sound, source).unwrap();
    assert!(engine.is_playing(v));
    engine.update(0.01).unwrap();
    let d = engine.status().device.unwrap();
    assert!(d.discarded_frames > 0, "rendered into nothing: {d}");
    let most = 1 + t0.elapsed().as_secs();
    assert!(
        d.reopen_attempts <= most,
        "at most one attempt a second: {d}"
    );
    assert_eq!(engine.status().live_voices, 2);

    // The device comes back: the next attempt (a second after the last) reopens it.
    ctl.set_available(true);
    std::thread::sleep(Duration::from_millis(1050));
    engine.update(0.01).unwrap();
    let d = engine.status().device.unwrap();
    assert_eq!((d.lost, d.reopens), (1, 1), "{d}");
    assert!(d.running);
    assert!(ctl.pump());
    assert!(loud(&ctl), "the voices play on after the reopen");
    assert_eq!(ctl.opens(), 2);
}

/// `scene::start_live` on the test device: pumped buffers, whatever their size, are the
/// offline render of the same scene sample for sample (here in `direct`, the source muffled
/// behind W2's wall, and `full` in R).
#[test]
fn a_paused_start_plays_what_the_offline_render_writes() {
    for (name, mode, signal) in [
        ("W2", Mode::Direct, Signal::Noise),
        ("R", Mode::Full, Signal::Click),
    ] {
        let text = scene::builtin(name).unwrap();
        let options = SceneOptions {
            mode,
            signal,
            seconds: 0.3,
            ..SceneOptions::default()
        };
        let s = scene::parse(text, &options.model).unwrap();
        let want = scene::render(&s, &options, &mut |_, _| {}).unwrap().samples;
        let (b, ctl) = on_test_device(48_000, 333);
        let mut p = scene::start_live(&s, &options, b).unwrap();
        let mut got = Vec::new();
        while got.len() < want.len() {
            assert!(ctl.pump());
            got.extend(ctl.last_buffer());
            p.engine.update(333.0 / 48_000.0).unwrap();
        }
        got.truncate(want.len());
        let differ = got
            .iter()
            .zip(&want)
            .filter(|(g, w)| g.to_bits() != w.to_bits())
            .count();
        assert_eq!(differ, 0, "{name}");
        assert!(want.iter().any(|x| x.abs() > 1e-3), "{name}: silent");
    }
}

#[test]
fn a_paused_engine_runs_no_callback_until_started() {
    let (b, ctl) = on_test_device(48_000, 256);
    let mut engine = b.start_paused(true).build().unwrap();
    assert!(!ctl.pump(), "paused: no callback");
    engine.update(0.01).unwrap();
    assert!(!ctl.pump());
    assert!(ctl.has_stream(), "the device is open");
    engine.start_output().unwrap();
    assert!(ctl.pump());
    engine.start_output().unwrap();
    assert_eq!(engine.status().device.unwrap().callbacks, 1);
}

#[test]
fn an_unopenable_device_fails_the_build_naming_it() {
    let (backend, ctl) = TestBackend::new(48_000, 2, SampleFormat::F32, 256);
    ctl.set_available(false);
    let err = Engine::builder()
        .output(device())
        .device_backend(Box::new(backend))
        .build()
        .unwrap_err();
    let line = err.to_string();
    assert_eq!(
        line,
        "no audio output device could be opened (test: default: device not available)"
    );
    let resound_engine::BuildError::Output(e) = err else {
        panic!("not an output error: {line}");
    };
    assert!(
        e.device()
            .unwrap()
            .play_line()
            .ends_with("use resound render to write a WAV")
    );
    assert_eq!(ctl.opens(), 0);
}
