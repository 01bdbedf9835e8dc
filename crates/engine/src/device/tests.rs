//! Unit tests of the device module's small pieces: conversion, channel layout, error lines.

use super::convert::write_frames;
use super::*;

#[test]
fn i16_conversion_rounds_and_clamps() {
    assert_eq!(f32_to_i16(0.0), 0);
    assert_eq!(f32_to_i16(1.0), 32_767);
    assert_eq!(f32_to_i16(-1.0), -32_767);
    assert_eq!(f32_to_i16(2.5), 32_767);
    assert_eq!(f32_to_i16(-7.0), -32_767);
    assert_eq!(f32_to_i16(0.5 / 32_767.0 * 0.999), 0);
    assert_eq!(f32_to_i16(1.5 / 32_767.0), 2);
    assert_eq!(f32_to_i16(f32::NAN), 0);
}

#[test]
fn u16_conversion_is_i16_offset() {
    assert_eq!(f32_to_u16(0.0), 32_768);
    assert_eq!(f32_to_u16(1.0), 65_535);
    assert_eq!(f32_to_u16(-1.0), 1);
    for x in [-0.9f32, -0.1, 0.3, 0.77] {
        assert_eq!(i32::from(f32_to_u16(x)) - 32_768, i32::from(f32_to_i16(x)));
    }
}

#[test]
fn channel_layouts() {
    let stereo = [0.5f32, -0.25, 1.0, 0.0];
    let mut mono = [9.0f32; 2];
    write_frames(&stereo, &mut mono, 1);
    assert_eq!(mono, [0.125, 0.5]);
    let mut two = [0i16; 4];
    write_frames(&stereo, &mut two, 2);
    assert_eq!(two, [16_384, -8_192, 32_767, 0]);
    let mut four = [0u16; 8];
    write_frames(&stereo, &mut four, 4);
    assert_eq!(
        four,
        [
            49_152, 24_576, 32_768, 32_768, 65_535, 32_768, 32_768, 32_768
        ]
    );
}

#[test]
fn sample_format_names_round_trip() {
    for f in SampleFormat::ALL {
        assert_eq!(SampleFormat::from_name(f.name()), Some(f));
    }
    assert_eq!(SampleFormat::from_name("i24"), None);
}

#[test]
fn errors_are_one_line_and_play_line_names_the_fallback() {
    let e = DeviceError::Open {
        host: "ALSA".into(),
        device: "default".into(),
        reason: "device not available".into(),
    };
    assert_eq!(
        e.play_line(),
        "no audio output device could be opened (ALSA: default: device not available); \
         use resound render to write a WAV"
    );
    let e = DeviceError::NotFound {
        host: "ALSA".into(),
        name: "hdmi".into(),
        available: "default, null".into(),
    };
    assert_eq!(
        e.to_string(),
        "no audio output device named \"hdmi\" (ALSA has: default, null)"
    );
    assert!(!e.to_string().contains('\n'));
}

#[test]
fn a_failed_open_is_a_typed_error() {
    struct Src(u32);
    impl AudioSource for Src {
        fn render(&mut self, out: &mut [f32]) {
            out.fill(0.0);
            self.0 += 1;
        }
    }
    let (mut backend, ctl) = TestBackend::new(48_000, 2, SampleFormat::F32, 64);
    let device = backend.resolve(&DeviceConfig::default()).unwrap();
    ctl.set_available(false);
    let err = DeviceOutput::open_with(Box::new(backend), device, Src(0)).unwrap_err();
    assert!(err.to_string().contains("device not available"), "{err}");
}
