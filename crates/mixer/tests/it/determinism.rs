//! Offline renders are bit-identical: across runs, and across render-call sizes when the game
//! acts at the same frames.

use resound_mixer::{
    MixerHandle, MixerRenderer, MixerSettings, Pan, PlaySettings, Resampler, SoundId, Spatial, Tap,
    VoiceId, VoiceParams, build_with_hrtf,
};

use crate::common::{load, mixer, mixer_with, sine};

/// A small seeded LCG (deterministic, no dependency).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 40) as f32) / (1u64 << 24) as f32
    }
}

fn params(rng: &mut Lcg) -> VoiceParams {
    VoiceParams {
        volume: 0.05 + 0.2 * rng.next(),
        range: 100.0,
        distance: 60.0 * rng.next(),
        shelf_gain: 0.3 + 0.7 * rng.next(),
        shelf_hf: rng.next(),
        pan: Pan::EqualPower(2.0 * rng.next() - 1.0),
        sends: [rng.next() * 0.5, rng.next() * 0.5, 0.0, rng.next() * 0.3],
        // Slots retuned as the voices change (the sum must not depend on the call size).
        reverb_decay: {
            let d = 0.3 + 2.0 * rng.next();
            [d, d, 0.7 * d]
        },
        // Heard only in binaural output.
        direction: [
            2.0 * rng.next() - 1.0,
            0.5 * rng.next(),
            2.0 * rng.next() - 1.0,
        ],
    }
}

/// 2 s of a scene: 40 loops + one-shots with taps, changing every 2400-frame tick.
/// `call` is the render-call size in frames (a divisor of 2400).
fn scene(call: usize) -> Vec<f32> {
    scene_in(call, mixer())
}

/// [`scene`] on the given mixer.
fn scene_in(call: usize, mixer: (MixerHandle, MixerRenderer)) -> Vec<f32> {
    let (mut h, mut r) = mixer;
    let mut rng = Lcg(42);
    let sounds: Vec<SoundId> = [(220.0, 22_050), (330.0, 44_100), (97.0, 48_000)]
        .into_iter()
        .map(|(f, rate)| load(&mut h, sine(f, rate, 0.7, 0.3), rate))
        .collect();
    let mut voices: Vec<VoiceId> = Vec::new();
    for i in 0..40 {
        let p = params(&mut rng);
        voices.push(
            h.play(
                sounds[i % 3],
                PlaySettings {
                    looping: true,
                    params: p,
                    ..PlaySettings::default()
                },
            )
            .unwrap(),
        );
    }
    // Plain voices (constant gains, no shelf, no sends) take the fused path, their smoothers
    // idle; at tick 12 they get a shelf, a send and a new pan, which must start on the same
    // grid whatever the call size.
    let plain: Vec<VoiceId> = (0..10)
        .map(|i| {
            let p = VoiceParams {
                volume: 0.05,
                pan: Pan::EqualPower(0.1 * i as f32 - 0.5),
                ..VoiceParams::default()
            };
            h.play(
                sounds[i % 3],
                PlaySettings {
                    looping: true,
                    params: p,
                    ..PlaySettings::default()
                },
            )
            .unwrap()
        })
        .collect();
    let mut out = vec![0.0f32; 2 * 96_000];
    for (tick, block) in out.chunks_mut(2 * 2400).enumerate() {
        for v in &voices {
            if h.is_playing(*v) {
                let p = params(&mut rng);
                h.set_params(*v, p).unwrap();
            }
        }
        if tick % 5 == 0 {
            let shot = h
                .play(
                    sounds[tick % 3],
                    PlaySettings {
                        looping: false,
                        params: params(&mut rng),
                        ..PlaySettings::default()
                    },
                )
                .unwrap();
            let taps: Vec<Tap> = (0..6)
                .map(|k| Tap {
                    delay: 0.03 + 0.045 * k as f32 + 0.01 * rng.next(),
                    level: 0.5 * rng.next(),
                    path: 40.0 * rng.next(),
                    hf: 0.2 + 0.79 * rng.next(),
                    pan: 2.0 * rng.next() - 1.0,
                    // Binaural output: the taps take renderers beside the voices.
                    direction: [k as f32 - 2.5, 0.3, 1.0 - 0.4 * k as f32],
                })
                .collect();
            h.set_taps(shot, &taps).unwrap();
        }
        if tick == 12 {
            for (i, v) in plain.iter().enumerate() {
                let p = VoiceParams {
                    volume: 0.04,
                    shelf_hf: 0.3,
                    shelf_gain: 0.8,
                    pan: Pan::EqualPower(0.5 - 0.1 * i as f32),
                    sends: [0.0, 0.3, 0.0, 0.0],
                    ..VoiceParams::default()
                };
                h.set_params(*v, p).unwrap();
            }
        }
        if tick == 20 {
            h.stop(voices[3]).unwrap();
        }
        h.flush();
        for c in block.chunks_mut(2 * call) {
            r.render(c);
        }
    }
    out
}

#[test]
fn offline_render_is_bit_identical_across_runs() {
    let a = scene(480);
    let b = scene(480);
    assert!(a.iter().all(|x| x.is_finite()));
    assert!(a.iter().any(|x| x.abs() > 0.01));
    assert!(a.iter().zip(&b).all(|(x, y)| x.to_bits() == y.to_bits()));
}

#[test]
fn offline_render_does_not_depend_on_call_size() {
    let a = scene(2400);
    let b = scene(480);
    let c = scene(80);
    let d = scene(25);
    assert!(a.iter().zip(&b).all(|(x, y)| x.to_bits() == y.to_bits()));
    assert!(a.iter().zip(&c).all(|(x, y)| x.to_bits() == y.to_bits()));
    assert!(a.iter().zip(&d).all(|(x, y)| x.to_bits() == y.to_bits()));
}

fn binaural_mixer(budget: usize) -> (MixerHandle, MixerRenderer) {
    let s = MixerSettings {
        spatial: Spatial::Binaural,
        binaural_voices: budget,
        ..MixerSettings::default()
    };
    build_with_hrtf(s, crate::hrir::bank(48_000)).unwrap()
}

/// Binaural output (a budget of 24 for 50-odd voices: ranking, draining renderers, panned
/// voices beside binaural ones) does not depend on the call size either, though its renderers
/// work on their own 128-frame grid.
#[test]
fn binaural_render_does_not_depend_on_call_size() {
    let a = scene_in(2400, binaural_mixer(24));
    let b = scene_in(480, binaural_mixer(24));
    let c = scene_in(25, binaural_mixer(24));
    for (call, other) in [(480, &b), (25, &c)] {
        if let Some(i) = a
            .iter()
            .zip(other.iter())
            .position(|(x, y)| x.to_bits() != y.to_bits())
        {
            eprintln!(
                "call {call}: first diff at sample {i} (frame {}): {} vs {}",
                i / 2,
                a[i],
                other[i]
            );
        }
    }
    assert!(a.iter().all(|x| x.is_finite()));
    assert!(a.iter().any(|x| x.abs() > 0.01));
    assert!(a.iter().zip(&b).all(|(x, y)| x.to_bits() == y.to_bits()));
    assert!(a.iter().zip(&c).all(|(x, y)| x.to_bits() == y.to_bits()));
    // And it is not the panned output.
    let p = scene(2400);
    assert!(a.iter().zip(&p).any(|(x, y)| (x - y).abs() > 1e-3));
}

/// `Pan` output is what it was: a mixer built with an HRIR bank but `Spatial::Pan` renders the
/// same bits as one built without (the voices carry random directions; pan ignores them).
#[test]
fn pan_output_ignores_directions_and_the_bank() {
    let a = scene(480);
    let s = MixerSettings {
        spatial: Spatial::Pan,
        ..MixerSettings::default()
    };
    let b = scene_in(480, build_with_hrtf(s, crate::hrir::bank(48_000)).unwrap());
    assert!(a.iter().zip(&b).all(|(x, y)| x.to_bits() == y.to_bits()));
}

/// A game's tick under motion (issue 16): 24 distinct looping sounds at 11.025/22.05/44.1 kHz,
/// a third plain (volume and pan only), a third with the shelf, a third with shelf and all four
/// sends; every voice gets new values every 512-frame tick, so every ramp always runs (the
/// fused plain path, the lane-filtered ramping shelves, the one-pass sends). `call` is the
/// render-call size in frames.
fn motion_scene(call: usize, resampler: Resampler) -> Vec<f32> {
    let (mut h, mut r): (MixerHandle, MixerRenderer) = mixer_with(|s| s.resampler = resampler);
    let mut rng = Lcg(7);
    let rates = [11_025, 22_050, 44_100];
    let voices: Vec<VoiceId> = (0..24)
        .map(|i| {
            let rate = rates[i % 3];
            let s = load(
                &mut h,
                sine(90.0 + 13.0 * i as f32, rate, 0.5, 0.1 * i as f32),
                rate,
            );
            h.play(
                s,
                PlaySettings {
                    looping: true,
                    params: VoiceParams::default(),
                    ..PlaySettings::default()
                },
            )
            .unwrap()
        })
        .collect();
    let mut out = vec![0.0f32; 2 * 512 * 60];
    for block in out.chunks_mut(2 * 512) {
        for (i, v) in voices.iter().enumerate() {
            let mut p = VoiceParams {
                volume: 0.02 + 0.05 * rng.next(),
                pan: Pan::EqualPower(2.0 * rng.next() - 1.0),
                ..VoiceParams::default()
            };
            if i % 3 > 0 {
                p.shelf_gain = 0.2 + rng.next();
                p.shelf_hf = 0.01 + 0.9 * rng.next();
            }
            if i % 3 == 2 {
                p.sends = [0.01 + 0.3 * rng.next(), 0.2 * rng.next() + 0.01, 0.1, 0.05];
            }
            h.set_params(*v, p).unwrap();
        }
        h.flush();
        for c in block.chunks_mut(2 * call) {
            r.render(c);
        }
    }
    out
}

#[test]
fn render_under_motion_is_bit_identical_across_runs_and_call_sizes() {
    for resampler in [Resampler::Linear, Resampler::Oversampled] {
        let a = motion_scene(512, resampler);
        assert!(a.iter().all(|x| x.is_finite()));
        assert!(a.iter().any(|x| x.abs() > 0.01));
        for call in [512, 100, 37] {
            let b = motion_scene(call, resampler);
            assert!(
                a.iter().zip(&b).all(|(x, y)| x.to_bits() == y.to_bits()),
                "{resampler:?} call size {call}"
            );
        }
    }
}

#[test]
fn the_oversampled_read_differs_from_the_linear_one() {
    let a = motion_scene(512, Resampler::Linear);
    let b = motion_scene(512, Resampler::Oversampled);
    assert!(a.iter().zip(&b).any(|(x, y)| (x - y).abs() > 1e-4));
}

/// 30 ticks of a busy scene under motion laid out so the renderer's wide paths all run:
/// 16 shelved voices in a row (two full banks of eight side-by-side shelves), 16 with shelf
/// and all four sends, 8 plain, and 4 one-shots with 6 echo taps whose delays move every tick.
/// Sources at 11.025/22.05/44.1 kHz and at 96 kHz (read faster than the mix rate). Every voice
/// plays behind a propagation delay that glides every tick, now and then cut (issue 31).
fn wide_motion_scene(resampler: Resampler) -> Vec<u32> {
    let (mut h, mut r): (MixerHandle, MixerRenderer) = mixer_with(|s| s.resampler = resampler);
    let mut rng = Lcg(99);
    let rates = [11_025, 22_050, 44_100, 96_000];
    let mut voices: Vec<VoiceId> = Vec::new();
    for i in 0..44 {
        let rate = rates[i % 4];
        let s = load(&mut h, sine(70.0 + 11.0 * i as f32, rate, 1.5, 0.2), rate);
        let looping = i < 40;
        let v = h
            .play(
                s,
                PlaySettings {
                    looping,
                    params: VoiceParams::default(),
                    delay: 0.01,
                    ..PlaySettings::default()
                },
            )
            .unwrap();
        voices.push(v);
    }
    let mut out = Vec::new();
    let mut buf = vec![0.0f32; 2 * 512];
    for tick in 0..30 {
        for (i, v) in voices.iter().enumerate() {
            let mut p = VoiceParams {
                volume: 0.01 + 0.03 * rng.next(),
                pan: Pan::EqualPower(2.0 * rng.next() - 1.0),
                ..VoiceParams::default()
            };
            if i < 32 {
                p.shelf_gain = 0.2 + rng.next();
                p.shelf_hf = 0.01 + 0.9 * rng.next();
            }
            if (16..32).contains(&i) {
                p.sends = [0.3 * rng.next(), 0.2 * rng.next(), 0.1 * rng.next(), 0.05];
            }
            h.set_params(*v, p).unwrap();
            let d = resound_mixer::DirectDelay {
                seconds: 0.01 + 0.000_3 * ((tick + i) % 10) as f32,
                glide: 512.0 / 48_000.0,
                cut: (tick + i) % 7 == 0,
            };
            h.set_delay(*v, d).unwrap();
            if i >= 40 {
                let wobble = (tick % 8) as f32 * 0.000_25;
                let taps: Vec<Tap> = (0..6)
                    .map(|k| Tap {
                        delay: 0.03 + 0.04 * k as f32 + wobble,
                        level: 0.2 + 0.1 * rng.next(),
                        path: 10.0,
                        hf: 0.4,
                        pan: k as f32 / 3.0 - 1.0,
                        direction: [k as f32 / 3.0 - 1.0, 0.0, -1.0 + wobble * 400.0],
                    })
                    .collect();
                h.set_taps(*v, &taps).unwrap();
            }
        }
        h.flush();
        r.render(&mut buf);
        out.extend(buf.iter().map(|x| x.to_bits()));
    }
    out
}

/// The AVX2 kernels (`resound_dsp::simd`) and the baseline ones give the same bits. On a CPU
/// without AVX2 both runs take the baseline kernels and the test only checks determinism.
#[test]
fn render_under_motion_is_identical_with_and_without_avx2() {
    for resampler in [Resampler::Linear, Resampler::Oversampled] {
        let before = resound_dsp::simd::set_avx2_enabled(false);
        let baseline = wide_motion_scene(resampler);
        resound_dsp::simd::set_avx2_enabled(true);
        let wide = wide_motion_scene(resampler);
        resound_dsp::simd::set_avx2_enabled(before);
        assert!(baseline.iter().any(|x| f32::from_bits(*x).abs() > 0.01));
        let first = baseline.iter().zip(&wide).position(|(a, b)| a != b);
        assert_eq!(first, None, "{resampler:?}: first differing sample");
    }
}
