//! Unit tests: pan laws, the DirectSound level law, validation.

use crate::voice::StartAt;
use resound_dsp::interpolate::step_for;

use crate::{MixerSettings, Pan, ParamProblem, Tap, VoiceParams, distance_gain, pan};

#[test]
fn distance_gain_is_linear_and_clamped() {
    assert_eq!(distance_gain(0.0, 100.0), 1.0);
    assert_eq!(distance_gain(25.0, 100.0), 0.75);
    assert_eq!(distance_gain(150.0, 100.0), 0.0);
    assert_eq!(distance_gain(f32::NAN, 100.0), 0.0);
}

#[test]
fn retail_pan_law_attenuates_far_channel_by_pan_db() {
    assert_eq!(pan::retail(0), (1.0, 1.0));
    let (l, r) = pan::retail(6);
    assert_eq!(r, 1.0);
    assert!((20.0 * l.log10() + 6.0).abs() < 1e-4);
    // The pan arrives limited to ±15 by the retail port (`sound_buf_play` in resound-ambient).
    let (l, r) = pan::retail(-15);
    assert_eq!(l, 1.0);
    assert!((20.0 * r.log10() + 15.0).abs() < 1e-4);
}

#[test]
fn nan_and_infinite_parameters_are_rejected() {
    let bad = [
        VoiceParams {
            volume: f32::NAN,
            ..VoiceParams::default()
        },
        VoiceParams {
            shelf_hf: f32::INFINITY,
            ..VoiceParams::default()
        },
        VoiceParams {
            pan: Pan::EqualPower(f32::NAN),
            ..VoiceParams::default()
        },
        VoiceParams {
            sends: [0.0, 0.0, f32::NEG_INFINITY, 0.0],
            ..VoiceParams::default()
        },
        VoiceParams {
            distance: f32::NAN,
            ..VoiceParams::default()
        },
    ];
    for p in bad {
        assert_eq!(
            p.validate().unwrap_err().problem,
            ParamProblem::NotFinite,
            "{p:?}"
        );
    }
    let range = VoiceParams {
        shelf_hf: 1.5,
        ..VoiceParams::default()
    };
    assert_eq!(range.validate().unwrap_err().field, "shelf_hf");
    let tap = Tap {
        delay: f32::NAN,
        level: 1.0,
        path: 1.0,
        hf: 1.0,
        pan: 0.0,
        direction: [0.0; 3],
    };
    assert_eq!(
        crate::params::validate_taps(&[tap]).unwrap_err().problem,
        ParamProblem::NotFinite
    );
    let zero_delay = Tap { delay: 0.0, ..tap };
    assert_eq!(
        crate::params::validate_taps(&[zero_delay])
            .unwrap_err()
            .field,
        "taps[0].delay"
    );
}

#[test]
fn settings_are_validated() {
    assert!(MixerSettings::default().validate().is_ok());
    let bad_rate = MixerSettings {
        sample_rate: 0,
        ..MixerSettings::default()
    };
    assert!(bad_rate.validate().is_err());
    let mut no_voices = MixerSettings::default();
    no_voices.capacities.voices = 0;
    assert!(crate::build(no_voices).is_err());
    let mut no_taps = MixerSettings::default();
    no_taps.capacities.tap_sets = 0;
    assert!(no_taps.validate().is_ok());
    let nan_fade = MixerSettings {
        stop_fade_seconds: f32::NAN,
        ..MixerSettings::default()
    };
    assert!(nan_fade.validate().is_err());
}

/// Renders frames `done..done + n` of voice `v` into the whole-render buffers `out`
/// (left, right, the four bus inputs).
fn render_frames(
    v: &mut crate::voice::Voice,
    samples: &[f32],
    scratch: &mut [f32],
    out: (&mut [f32], &mut [f32], &mut [Vec<f32>; 4]),
    done: usize,
    n: usize,
) {
    let (l, r, bus) = out;
    let mut b: [Vec<f32>; 4] = std::array::from_fn(|_| vec![0.0f32; n]);
    v.render(
        samples,
        &mut scratch[..n],
        &mut l[done..done + n],
        &mut r[done..done + n],
        &mut b,
    );
    for (dst, src) in bus.iter_mut().zip(&b) {
        dst[done..done + n].copy_from_slice(src);
    }
}

/// The fast path (fused resample + constant gains) and the lazy grid catch-up of idle smoothers
/// give the same bits as advancing every smoother every block, for any block split.
#[test]
fn lazy_smoothers_match_eager_ones() {
    use crate::params::VoiceTargets;
    use crate::voice::Voice;
    let samples: Vec<f32> = (0..5000)
        .map(|i| ((i * 7919) % 211) as f32 / 211.0 - 0.5)
        .collect();
    let plain = VoiceTargets {
        generation: 1,
        shelf_gain: 1.0,
        shelf_hf: 1.0,
        sends: [0.0; 4],
        decay: [0.0; 3],
        left: 0.6,
        right: 0.3,
        ..VoiceTargets::default()
    };
    let busy = VoiceTargets {
        shelf_gain: 0.7,
        shelf_hf: 0.2,
        sends: [0.3, 0.4, 0.2, 0.1],
        left: 0.2,
        right: 0.9,
        ..plain
    };
    let two_sends = VoiceTargets {
        sends: [0.0, 0.4, 0.0, 0.1],
        ..busy
    };
    // Retarget after 1000 frames (not a multiple of 64), to two sends at 5000, back to plain
    // at 9000: every path (fused plain, fused six-output, mixed) and every catch-up is used.
    let run = |eager: bool, split: usize, first: VoiceTargets| {
        let mut v = Voice::new(48_000.0, 0.01, false);
        v.eager = eager;
        v.start(
            1,
            0,
            true,
            step_for(22_050, 48_000),
            first,
            0,
            StartAt::immediate(),
        );
        let (mut l, mut r) = (vec![0.0f32; 20_000], vec![0.0f32; 20_000]);
        let mut bus: [Vec<f32>; 4] = std::array::from_fn(|_| vec![0.0f32; 20_000]);
        let mut scratch = vec![0.0f32; split];
        let mut done = 0;
        while done < 20_000 {
            if done == 1000 {
                v.retarget(&busy);
            }
            if done == 5000 {
                v.retarget(&two_sends);
            }
            if done == 9000 {
                v.retarget(&plain);
            }
            // Blocks of `split` frames, cut at the retarget frames.
            let next_event = [1000, 5000, 9000, 20_000]
                .into_iter()
                .find(|e| *e > done)
                .unwrap_or(20_000);
            let n = split.min(next_event - done);
            render_frames(
                &mut v,
                &samples,
                &mut scratch,
                (&mut l, &mut r, &mut bus),
                done,
                n,
            );
            done += n;
        }
        (l, r, bus)
    };
    // Starting plain exercises the fused plain path; starting busy (settled at once) the fused
    // six-output path; both then lag and catch up at the retargets.
    for first in [plain, busy] {
        let reference = run(true, 512, first);
        for split in [512, 100, 37, 1000] {
            let lazy = run(false, split, first);
            let same =
                |a: &[f32], b: &[f32]| a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits());
            assert!(same(&reference.0, &lazy.0), "left, split {split}");
            assert!(same(&reference.1, &lazy.1), "right, split {split}");
            for k in 0..4 {
                assert!(same(&reference.2[k], &lazy.2[k]), "send {k}, split {split}");
            }
        }
    }
}

/// Under motion (new targets every 512 frames, the ramps never settle) the fused paths (moving
/// plain voices: resample into ramped gains; open sends: one six-output pass) give the same bits
/// as the eager reference, for any block split.
#[test]
fn moving_voices_match_eager_ones() {
    use crate::params::VoiceTargets;
    use crate::voice::Voice;
    let samples: Vec<f32> = (0..7000)
        .map(|i| ((i * 7919) % 211) as f32 / 211.0 - 0.5)
        .collect();
    let mut seed = 5u64;
    let mut next = move || {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((seed >> 40) as f32) / (1u64 << 24) as f32
    };
    // Per tick: plain voices (volume and pan moving), shelf + four open sends, shelf + no sends,
    // and one side held while the other moves, with some sends closed (the per-segment path).
    let targets: Vec<[VoiceTargets; 5]> = (0..40)
        .map(|_| {
            let plain = VoiceTargets {
                generation: 1,
                shelf_gain: 1.0,
                shelf_hf: 1.0,
                sends: [0.0; 4],
                decay: [0.0; 3],
                left: next(),
                right: next(),
                ..VoiceTargets::default()
            };
            let full = VoiceTargets {
                shelf_gain: 0.3 + next(),
                shelf_hf: 0.02 + 0.9 * next(),
                sends: [next(), next(), 0.5 * next() + 0.01, 0.01 + next()],
                ..plain
            };
            let shelf = VoiceTargets {
                sends: [0.0; 4],
                ..full
            };
            let right_moves = VoiceTargets {
                left: 0.5,
                sends: [0.0, next(), 0.0, 0.0],
                ..full
            };
            let left_moves = VoiceTargets {
                right: 0.25,
                sends: [0.0, 0.0, 0.3, 0.0],
                ..plain
            };
            [plain, full, shelf, right_moves, left_moves]
        })
        .collect();
    const TICK: usize = 512;
    let total = TICK * targets.len();
    let run = |eager: bool, split: usize, kind: usize| {
        let mut v = Voice::new(48_000.0, 0.01, false);
        v.eager = eager;
        v.start(
            1,
            0,
            true,
            step_for(11_025, 48_000),
            targets[0][kind],
            17,
            StartAt::immediate(),
        );
        let (mut l, mut r) = (vec![0.0f32; total], vec![0.0f32; total]);
        let mut bus: [Vec<f32>; 4] = std::array::from_fn(|_| vec![0.0f32; total]);
        let mut scratch = vec![0.0f32; split];
        let mut done = 0;
        while done < total {
            if done % TICK == 0 {
                v.retarget(&targets[done / TICK][kind]);
            }
            let n = split.min(TICK - done % TICK);
            render_frames(
                &mut v,
                &samples,
                &mut scratch,
                (&mut l, &mut r, &mut bus),
                done,
                n,
            );
            done += n;
        }
        (l, r, bus)
    };
    let same = |a: &[f32], b: &[f32]| a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits());
    for kind in 0..5 {
        let reference = run(true, TICK, kind);
        assert!(reference.0.iter().any(|x| *x != 0.0));
        for split in [512, 100, 37] {
            let lazy = run(false, split, kind);
            assert!(
                same(&reference.0, &lazy.0),
                "left, kind {kind}, split {split}"
            );
            assert!(
                same(&reference.1, &lazy.1),
                "right, kind {kind}, split {split}"
            );
            for k in 0..4 {
                assert!(
                    same(&reference.2[k], &lazy.2[k]),
                    "send {k}, kind {kind}, split {split}"
                );
            }
        }
    }
}

#[test]
fn shelves_in_lanes_match_shelves_one_by_one() {
    use crate::{PlaySettings, SoundData, build};
    // Voices started in different blocks (so their 64-frame grids differ), some with steady
    // shelves, some ramping, some plain, one stopping, odd block sizes: the renderer's
    // side-by-side shelves must give the same output, bit for bit, as filtering one by one.
    let run = |no_lanes: bool| {
        let (mut h, mut r) = build(MixerSettings::default()).unwrap();
        r.no_lanes = no_lanes;
        let samples: Vec<f32> = (0..9000)
            .map(|i| ((i * 7919) % 211) as f32 / 211.0 - 0.5)
            .collect();
        let s = h
            .load_sound(SoundData {
                samples: samples.into(),
                sample_rate: 22_050,
                stereo: None,
            })
            .unwrap();
        let mut out = Vec::new();
        let mut ids = Vec::new();
        for (b, block) in [441usize, 512, 37, 300, 512, 64, 1000, 512, 129, 512]
            .into_iter()
            .enumerate()
        {
            for k in 0..3 {
                let i = b * 3 + k;
                let params = VoiceParams {
                    volume: 0.1,
                    shelf_gain: if i % 6 == 5 {
                        1.0
                    } else {
                        0.5 + 0.05 * i as f32
                    },
                    shelf_hf: if i % 6 == 5 {
                        1.0
                    } else {
                        0.02 * (i % 7) as f32
                    },
                    pan: Pan::EqualPower((i % 5) as f32 * 0.4 - 0.8),
                    sends: if i % 2 == 0 {
                        [0.2, 0.1, 0.0, 0.3]
                    } else {
                        [0.0; 4]
                    },
                    ..VoiceParams::default()
                };
                let looping = i % 5 != 4;
                ids.push(
                    h.play(
                        s,
                        PlaySettings {
                            looping,
                            params,
                            ..PlaySettings::default()
                        },
                    )
                    .unwrap(),
                );
            }
            if b == 4 {
                // Ramping shelves on some voices.
                for id in ids.iter().step_by(4) {
                    let mut p = h.params(*id).unwrap();
                    p.shelf_hf = 0.5;
                    h.set_params(*id, p).unwrap();
                }
                h.stop(ids[1]).unwrap();
            }
            h.flush();
            let mut buf = vec![0.0f32; 2 * block];
            r.render(&mut buf);
            out.extend(buf.iter().map(|v| v.to_bits()));
        }
        out
    };
    assert_eq!(run(false), run(true));
}

/// Issue 30: a slot is tuned to the voices alive at the game's last command batch; an ended
/// voice drops out at the next batch (a new voice is not tuned to the mean with a space heard
/// long ago), and a slot nobody sends to keeps its decays while its tail rings out.
#[test]
fn ended_voices_stop_tuning_their_slot_at_the_next_command_batch() {
    use crate::{PlaySettings, SoundData, build};
    let (mut h, mut r) = build(MixerSettings::default()).unwrap();
    let s = h
        .load_sound(SoundData {
            samples: vec![0.5f32; 4800].into(),
            sample_rate: 48_000,
            stereo: None,
        })
        .unwrap();
    let play = |h: &mut crate::MixerHandle, decay: [f32; 3]| {
        h.play(
            s,
            PlaySettings {
                looping: false,
                params: VoiceParams {
                    sends: [0.0, 0.0, 1.0, 0.0],
                    reverb_decay: decay,
                    ..VoiceParams::default()
                },
                ..PlaySettings::default()
            },
        )
        .unwrap()
    };
    let mut out = vec![0.0f32; 2 * 512];
    let hall = [3.0, 3.0, 2.0];
    // Two hall voices: the new voice below reuses at most one's voice slot.
    play(&mut h, hall);
    play(&mut h, hall);
    h.flush();
    // 0.1 s of sound, then 1 s of its tail with no command: the slot keeps the hall.
    for _ in 0..100 {
        r.render(&mut out);
    }
    assert_eq!(r.slot_decays(2), hall);
    // A voice of a small room starts: the ended hall voice no longer counts. The slot is
    // still ringing, so it glides there (0.1 s on a log scale); after 1 s it is there.
    let small = [0.8, 1.0, 0.7];
    play(&mut h, small);
    h.flush();
    for _ in 0..100 {
        r.render(&mut out);
    }
    let d = r.slot_decays(2);
    assert!(
        d.iter().zip(small).all(|(a, b)| (a / b - 1.0).abs() < 1e-3),
        "{d:?}"
    );
}
