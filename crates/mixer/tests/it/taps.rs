//! Echo taps: exact frame, exact tail, release of cleared sets.

use std::sync::Arc;

use resound_mixer::{PlaySettings, Tap, VoiceParams};

use crate::common::{FS, load, mixer_with, render};

fn impulse(len: usize) -> Arc<[f32]> {
    let mut v = vec![0.0f32; len];
    v[0] = 1.0;
    v.into()
}

fn tap(delay: f32) -> Tap {
    Tap {
        delay,
        level: 1.0,
        path: 0.0,
        hf: 1.0,
        pan: 0.0,
        direction: [0.0; 3],
    }
}

#[test]
fn tap_sounds_on_its_exact_frame_and_the_tail_is_exactly_max_delay() {
    let (mut h, mut r) = mixer_with(|s| s.limiter = false);
    let s = load(&mut h, impulse(4800), FS);
    let v = h.play(s, PlaySettings::default()).unwrap();
    h.set_taps(v, &[tap(0.125), tap(0.0625)]).unwrap();
    h.flush();
    let (l, _) = render(&mut r, 10_800);
    let centre = std::f32::consts::FRAC_1_SQRT_2;
    assert!((l[0] - centre).abs() < 1e-6);
    assert!((l[3000] - centre).abs() < 1e-6, "{}", l[3000]);
    assert!((l[6000] - centre).abs() < 1e-6, "{}", l[6000]);
    let nonzero: Vec<usize> = l
        .iter()
        .enumerate()
        .filter(|(_, x)| **x != 0.0)
        .map(|(i, _)| i)
        .collect();
    assert_eq!(nonzero, vec![0, 3000, 6000]);
    // 4800 sample frames + 0.125 s tail = 10 800 frames: playing until then, ended right after.
    assert_eq!(h.status().active_voices, 1);
    render(&mut r, 1);
    assert_eq!(h.status().active_voices, 0);
    assert!(!h.is_playing(v));
}

#[test]
fn taps_respect_hf_gain_and_level() {
    let (mut h, mut r) = mixer_with(|s| s.limiter = false);
    let s = load(&mut h, impulse(4800), FS);
    let v = h
        .play(
            s,
            PlaySettings {
                looping: false,
                params: VoiceParams {
                    volume: 0.5,
                    range: 100.0,
                    ..VoiceParams::default()
                },
                ..PlaySettings::default()
            },
        )
        .unwrap();
    // level 0.8 · volume 0.5 · distance_gain(50 of 100) 0.5 = 0.2, then the air low-pass.
    h.set_taps(
        v,
        &[Tap {
            delay: 0.0625,
            level: 0.8,
            path: 50.0,
            hf: 0.5,
            pan: -1.0,
            direction: [0.0; 3],
        }],
    )
    .unwrap();
    h.flush();
    let (l, rr) = render(&mut r, 6000);
    let tap_energy: f32 = l[3000..3600].iter().sum();
    // A one-pole low-pass has unity DC gain: its impulse response sums to ~1.
    assert!((tap_energy - 0.2).abs() < 0.01, "{tap_energy}");
    assert!(
        l[3001] > 0.0 && l[3001] < l[3000],
        "the low-pass smears the tap"
    );
    assert!(rr[3000..3600].iter().all(|x| *x == 0.0), "panned hard left");
}

#[test]
fn cleared_tap_set_is_released_for_another_voice() {
    let (mut h, mut r) = mixer_with(|s| s.capacities.tap_sets = 1);
    let s = load(&mut h, impulse(48_000), FS);
    let a = h.play(s, PlaySettings::default()).unwrap();
    let b = h.play(s, PlaySettings::default()).unwrap();
    h.set_taps(a, &[tap(0.1)]).unwrap();
    assert_eq!(
        h.set_taps(b, &[tap(0.1)]),
        Err(resound_mixer::UpdateError::TapSetsFull)
    );
    h.flush();
    render(&mut r, 4800);
    h.set_taps(a, &[]).unwrap();
    h.flush();
    // Still draining: the set fades out over 50 ms before it is reported free.
    assert_eq!(
        h.set_taps(b, &[tap(0.1)]),
        Err(resound_mixer::UpdateError::TapSetsFull)
    );
    render(&mut r, 4800);
    h.set_taps(b, &[tap(0.1)]).unwrap();
}

#[test]
fn ended_voice_frees_its_tap_set() {
    let (mut h, mut r) = mixer_with(|s| s.capacities.tap_sets = 1);
    let s = load(&mut h, impulse(480), FS);
    let a = h.play(s, PlaySettings::default()).unwrap();
    h.set_taps(a, &[tap(0.02)]).unwrap();
    h.flush();
    render(&mut r, 4800);
    assert!(!h.is_playing(a));
    let b = h.play(s, PlaySettings::default()).unwrap();
    h.set_taps(b, &[tap(0.02)]).unwrap();
}
