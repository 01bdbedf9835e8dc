//! The device callback never allocates or frees, proved mechanically.
//!
//! This binary installs `assert_no_alloc`'s `AllocDisabler` as the global allocator (process
//! wide, hence its own test binary; the `warn_*` features count violations instead of
//! aborting). A real `MixerRenderer` with looping voices plays through `DeviceOutput` on the
//! test backend, whose `pump` runs the exact closure the cpal backend runs (render into the
//! scratch buffer in chunks, convert to f32/i16/u16 and 1, 2 or 6 channels, count the timing in
//! atomics), each call inside `assert_no_alloc`.
//!
//! No lock and no wait: the callback owns its source and scratch buffer and touches only
//! relaxed atomics; the source goes back through a one-slot `rtrb` ring when it is dropped.

#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use assert_no_alloc::{AllocDisabler, assert_no_alloc, reset_violation_count, violation_count};
use resound_engine::advanced::mixer::{
    MixerRenderer, MixerSettings, Pan, PlaySettings, SoundData, VoiceParams, build,
};
use resound_engine::device::{
    Backend, DeviceConfig, DeviceOutput, LossKind, SampleFormat, TestBackend,
};

#[global_allocator]
static A: AllocDisabler = AllocDisabler;

fn mixer(rate: u32) -> (resound_engine::advanced::mixer::MixerHandle, MixerRenderer) {
    let (mut h, r) = build(MixerSettings {
        sample_rate: rate,
        ..MixerSettings::default()
    })
    .unwrap();
    for (k, pan) in [-0.8f32, 0.0, 0.5, 0.9].into_iter().enumerate() {
        let n = 10_000 + 1_000 * k;
        let samples: Arc<[f32]> = (0..n)
            .map(|i| (i as f32 * 0.01 * (k + 1) as f32).sin())
            .collect();
        let s = h
            .load_sound(SoundData {
                samples,
                sample_rate: 22_050,
                stereo: None,
            })
            .unwrap();
        let params = VoiceParams {
            volume: 0.2,
            pan: Pan::EqualPower(pan),
            ..VoiceParams::default()
        };
        h.play(
            s,
            PlaySettings {
                looping: true,
                params,
                ..PlaySettings::default()
            },
        )
        .unwrap();
    }
    h.flush();
    (h, r)
}

/// The guard itself works: an allocation inside `assert_no_alloc` is counted.
#[test]
fn the_guard_counts_allocations() {
    reset_violation_count();
    let v = assert_no_alloc(|| Vec::<u64>::with_capacity(16));
    drop(v);
    assert_eq!(violation_count(), 1);
}

#[test]
fn the_callback_never_allocates_in_any_format_layout_or_chunking() {
    let cases = [
        (2u16, SampleFormat::F32, 512usize, None),
        (2, SampleFormat::I16, 480, None),
        (2, SampleFormat::U16, 1024, Some(100u32)),
        (1, SampleFormat::F32, 256, None),
        (6, SampleFormat::I16, 2048, Some(300)),
    ];
    for (channels, format, frames, chunk) in cases {
        let (mut backend, ctl) = TestBackend::new(48_000, channels, format, frames);
        let config = DeviceConfig {
            buffer_frames: chunk,
            ..DeviceConfig::default()
        };
        let device = backend.resolve(&config).unwrap();
        let (_handle, renderer) = mixer(device.sample_rate);
        let out = DeviceOutput::open_with(Box::new(backend), device, renderer).unwrap();
        reset_violation_count();
        let mut ran = true;
        for _ in 0..50 {
            ran &= assert_no_alloc(|| ctl.pump());
        }
        assert_eq!(
            violation_count(),
            0,
            "{channels} ch {format}: the callback allocated"
        );
        assert!(ran);
        let buf = ctl.last_buffer();
        assert!(
            buf.iter().any(|x| x.abs() > 0.01),
            "{channels} ch {format}: silent"
        );
        assert_eq!(out.status().callbacks, 50);
        // The renderer comes back (dropped here, on the game thread, not in the callback).
        assert!(out.close().is_some());
    }
}

#[test]
fn the_callback_never_allocates_around_a_loss_and_reopen() {
    let (mut backend, ctl) = TestBackend::new(44_100, 2, SampleFormat::F32, 441);
    let device = backend.resolve(&DeviceConfig::default()).unwrap();
    let (_handle, renderer) = mixer(device.sample_rate);
    let mut out = DeviceOutput::open_with(Box::new(backend), device, renderer).unwrap();
    reset_violation_count();
    for _ in 0..10 {
        assert_no_alloc(|| ctl.pump());
    }
    // The error side runs on the audio thread too: atomics only.
    assert_no_alloc(|| ctl.fail(LossKind::DeviceNotAvailable));
    assert_eq!(violation_count(), 0);
    let t0 = std::time::Instant::now();
    out.poll(t0); // game thread: drops the dead stream, reopens at once
    assert!(out.is_running());
    reset_violation_count();
    for _ in 0..10 {
        assert_no_alloc(|| ctl.pump());
    }
    assert_eq!(violation_count(), 0, "the reopened callback allocated");
    assert_eq!(out.status().reopens, 1);
}

/// The engine's device output: the callback `Output::Device` installs (the engine's mixer
/// renderer, with voices the engine started and acoustics applied) never allocates, before
/// and after a loss and reopen driven by `Engine::update`.
#[test]
fn the_engine_device_callback_never_allocates() {
    use resound_engine::glam::DVec3;
    use resound_engine::{Engine, Mode, Orientation, Output, Source};

    let (backend, ctl) = TestBackend::new(48_000, 2, SampleFormat::I16, 480);
    let mut engine = Engine::builder()
        .output(Output::Device {
            name: None,
            sample_rate: None,
            buffer_frames: None,
        })
        .mode(Mode::Direct)
        .device_backend(Box::new(backend))
        .build()
        .unwrap();
    let tone: Arc<[f32]> = resound_studio::test_signal::Signal::Loop
        .samples(48_000)
        .into();
    let sound = engine.load_mono(tone, 48_000).unwrap();
    engine
        .set_listener(DVec3::new(10.5, 1.5, 0.5), Orientation::default())
        .unwrap();
    for k in 0..4 {
        let source = Source {
            position: DVec3::new(0.5 + f64::from(k), 1.5, 0.5),
            looping: true,
            ..Source::default()
        };
        engine.play(sound, source).unwrap();
    }
    engine.update(0.01).unwrap();
    engine.settle().unwrap();
    reset_violation_count();
    for _ in 0..20 {
        assert!(assert_no_alloc(|| ctl.pump()));
    }
    assert_eq!(violation_count(), 0, "the engine's callback allocated");
    assert!(ctl.last_buffer().iter().any(|x| x.abs() > 1e-3));
    ctl.fail(LossKind::StreamInvalidated);
    engine.update(0.01).unwrap(); // game thread: drops the dead stream, reopens at once
    assert_eq!(engine.status().device.unwrap().reopens, 1);
    reset_violation_count();
    for _ in 0..20 {
        assert!(assert_no_alloc(|| ctl.pump()));
    }
    assert_eq!(
        violation_count(),
        0,
        "the reopened engine callback allocated"
    );
}
