//! The game's controls on a voice: gain tweens, scheduled starts, pause and resume, playback
//! rate, stereo sounds and track gains, checked on the rendered samples.

use std::sync::Arc;

use resound_mixer::{
    Easing, MixerHandle, MixerRenderer, PlaySettings, SoundData, SoundId, Tween, VoiceControl,
};

use crate::common::{FS, load, max_diff, mixer, render};

/// A constant 1.0 (DC) sound of `frames` frames at the mix rate.
fn dc(h: &mut MixerHandle, frames: usize) -> SoundId {
    load(h, vec![1.0f32; frames].into(), FS)
}

/// The left gain of a centred mono voice (equal-power law).
fn centre() -> f32 {
    resound_dsp::equal_power_pan(0.0).0
}

fn looping() -> PlaySettings {
    PlaySettings {
        looping: true,
        ..PlaySettings::default()
    }
}

#[test]
fn a_gain_tween_follows_its_curve() {
    for easing in [Easing::Linear, Easing::InPowi(2)] {
        let (mut h, mut r) = mixer();
        let s = dc(&mut h, 4800);
        let v = h.play(s, looping()).unwrap();
        let (before, _) = render(&mut r, 1024);
        assert!(before.iter().all(|x| (x - centre()).abs() < 1e-6));
        let tween = Tween {
            duration: 0.1,
            easing,
        };
        h.tween(v, VoiceControl::Gain, 0.0, tween).unwrap();
        let (l, _) = render(&mut r, 6000);
        for k in (0..4800).step_by(64) {
            let t = k as f32 / 4800.0;
            let want = 1.0 - easing.apply(t);
            let got = l[k] / centre();
            assert!(
                (got - want).abs() < 1e-4,
                "{easing:?} frame {k}: {got} vs {want}"
            );
        }
        assert!(l[4800..].iter().all(|x| *x == 0.0), "{easing:?} ends at 0");
        assert!(max_diff(&l) < 0.01, "{easing:?}: no step");
    }
}

#[test]
fn a_scheduled_start_lands_on_its_frame_whatever_the_call_size() {
    for call in [512usize, 333, 64, 1000] {
        let (mut h, mut r) = mixer();
        let mut click = vec![0.0f32; 4800];
        click[0] = 1.0;
        let s = load(&mut h, click.into(), FS);
        h.play(
            s,
            PlaySettings {
                start_frame: Some(1077),
                ..PlaySettings::default()
            },
        )
        .unwrap();
        let mut out = vec![0.0f32; 2 * 4096];
        for chunk in out.chunks_mut(2 * call) {
            r.render(chunk);
        }
        let first = out.iter().step_by(2).position(|x| *x != 0.0);
        assert_eq!(first, Some(1077), "call size {call}");
        assert!((out[2 * 1077] - centre()).abs() < 1e-6);
    }
}

#[test]
fn a_voice_scheduled_in_the_past_starts_at_once() {
    let (mut h, mut r) = mixer();
    render(&mut r, 2048);
    let s = dc(&mut h, 4800);
    h.play(
        s,
        PlaySettings {
            start_frame: Some(100),
            ..PlaySettings::default()
        },
    )
    .unwrap();
    let (l, _) = render(&mut r, 512);
    assert!(l[0] != 0.0);
}

#[test]
fn pause_and_resume_continue_the_sound_where_it_stopped() {
    let (mut h, mut r) = mixer();
    // A ramp: sample i is i / 48000, read at step 1 (the mix rate), so the output names
    // the position.
    let ramp: Arc<[f32]> = (0..48_000).map(|i| i as f32 / 48_000.0).collect();
    let s = load(&mut h, ramp, FS);
    let v = h.play(s, PlaySettings::default()).unwrap();
    let (a, _) = render(&mut r, 2048);
    h.pause(v, Tween::IMMEDIATE).unwrap();
    let (p, _) = render(&mut r, 4096);
    assert!(p.iter().all(|x| *x == 0.0), "paused: silent");
    assert!(h.is_playing(v), "a paused voice lives");
    h.resume(v, Tween::IMMEDIATE).unwrap();
    let (b, _) = render(&mut r, 512);
    let pos = |x: f32| (x / centre() * 48_000.0).round() as i64;
    assert_eq!(pos(a[2047]), 2047);
    assert_eq!(pos(b[0]), 2048, "resumes at the next sample");
    assert_eq!(pos(b[511]), 2048 + 511);
}

#[test]
fn a_pause_fade_is_smooth_and_holds_its_place() {
    let (mut h, mut r) = mixer();
    let sine = crate::common::sine(440.0, FS, 2.0, 0.0);
    let s = load(&mut h, sine, FS);
    let v = h.play(s, looping()).unwrap();
    let (a, _) = render(&mut r, 4096);
    h.pause(v, Tween::linear(0.02)).unwrap();
    let (p, _) = render(&mut r, 4096);
    h.resume(v, Tween::linear(0.02)).unwrap();
    let (b, _) = render(&mut r, 4096);
    let all: Vec<f32> = a.iter().chain(&p).chain(&b).copied().collect();
    // A 440 Hz sine at 48 kHz moves at most 2π·440/48000 ≈ 0.058 per frame (× the centre gain).
    assert!(max_diff(&all) < 0.06, "no click: {}", max_diff(&all));
    assert!(
        p[960 + 64..].iter().all(|x| *x == 0.0),
        "held after the fade"
    );
    assert!(
        b[1024..].iter().any(|x| x.abs() > 0.5),
        "back at full level"
    );
}

#[test]
fn rate_two_halves_a_sounds_length() {
    for (rate, frames) in [(1.0f32, 4800usize), (2.0, 2400), (0.5, 9600)] {
        let (mut h, mut r) = mixer();
        let s = dc(&mut h, 4800);
        let v = h
            .play(
                s,
                PlaySettings {
                    rate,
                    ..PlaySettings::default()
                },
            )
            .unwrap();
        let (l, _) = render(&mut r, 12_000);
        let sounding = l.iter().filter(|x| **x != 0.0).count();
        assert!(
            sounding.abs_diff(frames) <= 1,
            "rate {rate}: {sounding} frames, want {frames}"
        );
        assert!(!h.is_playing(v), "rate {rate}: ended");
    }
}

#[test]
fn a_rate_tween_raises_the_pitch_smoothly() {
    let (mut h, mut r) = mixer();
    let sine = crate::common::sine(200.0, FS, 4.0, 0.0);
    let s = load(&mut h, sine, FS);
    let v = h.play(s, looping()).unwrap();
    h.tween(v, VoiceControl::Rate, 2.0, Tween::linear(0.5))
        .unwrap();
    let (l, _) = render(&mut r, 48_000);
    let crossings = |x: &[f32]| x.windows(2).filter(|w| w[0] < 0.0 && w[1] >= 0.0).count();
    // First 0.1 s near 200 Hz (rate 1..1.2), last 0.4 s at 400 Hz.
    let early = crossings(&l[..4800]);
    let late = crossings(&l[28_800..]);
    assert!((20..=23).contains(&early), "early {early}");
    assert!((158..=162).contains(&late), "late {late}");
    assert!(max_diff(&l) < 0.06);
}

/// A 300 Hz sine at half scale (below the limiter's threshold).
fn half_sine() -> Arc<[f32]> {
    crate::common::sine(300.0, FS, 0.5, 0.0)
        .iter()
        .map(|x| 0.5 * x)
        .collect()
}

fn stereo_sound(h: &mut MixerHandle) -> SoundId {
    let left = half_sine();
    let right: Arc<[f32]> = vec![0.25f32; left.len()].into();
    h.load_sound(SoundData::stereo(left, right, FS)).unwrap()
}

#[test]
fn a_stereo_sound_plays_as_stereo() {
    let (mut h, mut r) = mixer();
    let s = stereo_sound(&mut h);
    h.play(
        s,
        PlaySettings {
            stereo: true,
            ..PlaySettings::default()
        },
    )
    .unwrap();
    let (l, rr) = render(&mut r, 4096);
    let left = half_sine();
    for i in 0..4096 {
        assert!(
            (l[i] - left[i]).abs() < 1e-6,
            "left {i}: {} vs {}",
            l[i],
            left[i]
        );
        assert!((rr[i] - 0.25).abs() < 1e-6, "right {i}");
    }
}

#[test]
fn a_stereo_sound_played_mono_is_its_downmix() {
    let (mut h, mut r) = mixer();
    let s = stereo_sound(&mut h);
    h.play(s, PlaySettings::default()).unwrap();
    let (l, rr) = render(&mut r, 4096);
    let left = half_sine();
    for i in 0..4096 {
        let mono = 0.5 * (left[i] + 0.25) * centre();
        assert!(
            (l[i] - mono).abs() < 1e-6 && (rr[i] - mono).abs() < 1e-6,
            "{i}"
        );
    }
}

#[test]
fn unequal_stereo_channels_are_refused() {
    let (mut h, _r) = mixer();
    let d = SoundData {
        samples: vec![0.0f32; 10].into(),
        sample_rate: FS,
        stereo: Some([vec![0.0f32; 10].into(), vec![0.0f32; 9].into()]),
    };
    assert_eq!(
        h.load_sound(d),
        Err(resound_mixer::LoadSoundError::ChannelLengths)
    );
}

#[test]
fn a_track_gain_scales_its_voices_only() {
    let (mut h, mut r) = mixer();
    let s = load(&mut h, vec![0.25f32; 48_000].into(), FS);
    h.play(s, looping()).unwrap();
    h.play(
        s,
        PlaySettings {
            looping: true,
            track: 3,
            ..PlaySettings::default()
        },
    )
    .unwrap();
    let (a, _) = render(&mut r, 512);
    assert!((a[100] - 0.5 * centre()).abs() < 1e-5, "{}", a[100]);
    h.tween_track(3, 0.5, Tween::linear(0.05)).unwrap();
    let (b, _) = render(&mut r, 4096);
    assert!((b[4000] - 0.375 * centre()).abs() < 1e-5, "{}", b[4000]);
    assert!(max_diff(&b) < 0.01);
    assert!(h.tween_track(16, 1.0, Tween::IMMEDIATE).is_err());
}

/// Renders the same controlled voices with render calls of `call` frames.
fn controlled(call: usize) -> Vec<f32> {
    let (mut h, mut r): (MixerHandle, MixerRenderer) = mixer();
    let sine = crate::common::sine(330.0, FS, 1.0, 0.0);
    let s = load(&mut h, sine, FS);
    let v = h.play(s, looping()).unwrap();
    let w = h
        .play(
            s,
            PlaySettings {
                track: 1,
                rate: 0.75,
                start_frame: Some(777),
                ..PlaySettings::default()
            },
        )
        .unwrap();
    h.tween(v, VoiceControl::Rate, 1.5, Tween::linear(0.1))
        .unwrap();
    h.tween(
        v,
        VoiceControl::Gain,
        0.3,
        Tween {
            duration: 0.07,
            easing: Easing::OutPowi(3),
        },
    )
    .unwrap();
    h.pause(w, Tween::linear(0.05)).unwrap();
    h.tween_track(1, 2.0, Tween::linear(0.03)).unwrap();
    let mut out = vec![0.0f32; 2 * 9600];
    for chunk in out.chunks_mut(2 * call) {
        r.render(chunk);
    }
    out
}

#[test]
fn controlled_voices_render_bit_identically_whatever_the_call_size() {
    let a = controlled(480);
    let b = controlled(320);
    let c = controlled(9600);
    assert!(a.iter().any(|x| *x != 0.0));
    for (name, o) in [("320", &b), ("9600", &c)] {
        let first = a
            .iter()
            .zip(o.iter())
            .position(|(x, y)| x.to_bits() != y.to_bits());
        assert_eq!(first, None, "calls of {name} differ from calls of 480");
    }
}

#[test]
fn bad_controls_are_refused() {
    let (mut h, _r) = mixer();
    let s = dc(&mut h, 100);
    let v = h.play(s, looping()).unwrap();
    assert!(
        h.tween(v, VoiceControl::Gain, f32::NAN, Tween::IMMEDIATE)
            .is_err()
    );
    assert!(
        h.tween(v, VoiceControl::Rate, 17.0, Tween::IMMEDIATE)
            .is_err()
    );
    assert!(
        h.tween(v, VoiceControl::Gain, 1.0, Tween::linear(f32::INFINITY))
            .is_err()
    );
    let bad = PlaySettings {
        rate: -1.0,
        ..PlaySettings::default()
    };
    assert!(h.play(s, bad).is_err());
}

#[test]
fn a_stop_with_a_fade_follows_it_and_ends_the_voice() {
    let (mut h, mut r) = mixer();
    let s = dc(&mut h, 48_000);
    let v = h.play(s, looping()).unwrap();
    render(&mut r, 512);
    h.stop_after(v, Tween::linear(0.05)).unwrap();
    let (l, _) = render(&mut r, 4096);
    for k in (0..2400).step_by(64) {
        let want = 1.0 - k as f32 / 2400.0;
        assert!((l[k] / centre() - want).abs() < 1e-4, "frame {k}");
    }
    assert!(l[2432..].iter().all(|x| *x == 0.0));
    assert!(!h.is_playing(v), "ended after its fade");
}

/// A one-shot click with one echo tap 10 ms behind, at game gain `gain`; returns the left
/// channel.
fn click_with_tap(gain: f32) -> Vec<f32> {
    let (mut h, mut r) = mixer();
    let mut click = vec![0.0f32; 4800];
    click[0] = 0.5;
    let s = load(&mut h, click.into(), FS);
    let v = h
        .play(
            s,
            PlaySettings {
                gain,
                ..PlaySettings::default()
            },
        )
        .unwrap();
    let tap = resound_mixer::Tap {
        delay: 0.01,
        level: 0.5,
        path: 0.0,
        hf: 1.0,
        pan: 0.0,
        direction: [0.0; 3],
    };
    h.set_taps(v, &[tap]).unwrap();
    h.flush();
    render(&mut r, 9600).0
}

#[test]
fn echo_taps_follow_the_voices_gain() {
    let full = click_with_tap(1.0);
    let half = click_with_tap(0.5);
    // The tap fades in over 50 ms: compare the whole echo region, frame by frame.
    let echo = 400..9600;
    assert!(
        full[echo.clone()].iter().any(|x| x.abs() > 1e-4),
        "the tap sounds"
    );
    for i in echo {
        assert!((half[i] - 0.5 * full[i]).abs() < 1e-6, "frame {i}");
    }
    assert!((half[0] - 0.5 * full[0]).abs() < 1e-7);
}
