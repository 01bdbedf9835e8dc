//! Unit tests of crate-private helpers.

use super::*;

#[test]
fn sanitize_handles_nan_and_range() {
    assert_eq!(sanitize(f32::NAN, 0.0, 1.0, 0.5), 0.5);
    assert_eq!(sanitize(f32::INFINITY, 0.0, 1.0, 0.5), 1.0);
    assert_eq!(sanitize(-3.0, 0.0, 1.0, 0.5), 0.0);
    assert_eq!(sanitize_sample_rate(f32::NAN), 48_000.0);
    assert_eq!(sanitize_sample_rate(1.0), 8_000.0);
}

#[test]
fn complex_division_inverts_multiplication() {
    let a = Complex::new(0.3, -1.2);
    let b = Complex::new(2.0, 0.5);
    let c = a.mul(b).div(b);
    assert!((c.re - a.re).abs() < 1e-12 && (c.im - a.im).abs() < 1e-12);
}

mod smoothing_tests {
    use crate::smoothing::{LinearRamp, RAMP_SEGMENT, Ramp, Smoothed, SmoothedSet};

    fn run(s: &mut Smoothed, frames: usize) -> Vec<f32> {
        let mut out = Vec::new();
        let mut left = frames;
        while left > 0 {
            let n = left.min(s.segment_left());
            let r = s.advance(n);
            out.extend((0..n).map(|i| r.at(i)));
            left -= n;
        }
        out
    }

    #[test]
    fn advance_all_equals_advancing_each_in_turn() {
        // Six values with their own targets, time constants and (sometimes) positions, moved
        // together by chunks of every length: the same ramps and the same states as one by one.
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 40) as f32 / (1u64 << 24) as f32
        };
        for round in 0..400 {
            let mut a: Vec<Smoothed> = (0..6)
                .map(|k| {
                    let mut s = Smoothed::new(next(), 0.002 + 0.3 * next(), 0.0, 1.0);
                    s.prepare(48_000.0);
                    if k % 2 == 0 || round % 3 == 0 {
                        s.set_target(next());
                    }
                    // Some rounds start off the grid (the one-by-one fallback).
                    if round % 5 == 0 && k == 3 {
                        s.advance(7);
                    }
                    s
                })
                .collect();
            let mut b = a.clone();
            for step in 0..40 {
                let frames = 1 + (next() * 80.0) as usize;
                if step % 9 == 4 {
                    for (s, t) in a.iter_mut().zip(b.iter_mut()) {
                        let target = next();
                        s.set_target(target);
                        t.set_target(target);
                    }
                }
                let m = a
                    .iter()
                    .map(Smoothed::segment_left)
                    .fold(frames, usize::min);
                let want: Vec<Ramp> = a.iter_mut().map(|s| s.advance(m)).collect();
                let [b0, b1, b2, b3, b4, b5] = &mut b[..] else {
                    unreachable!()
                };
                let got = Smoothed::advance_all([b0, b1, b2, b3, b4, b5], m);
                assert_eq!(want, got, "round {round} step {step}");
                for (s, t) in a.iter().zip(&b) {
                    assert_eq!(s.current().to_bits(), t.current().to_bits());
                    assert_eq!(s.segment_left(), t.segment_left());
                }
            }
        }
    }

    #[test]
    fn smoothed_set_equals_one_smoothed_per_value() {
        // Six values with their own initial values, time constants and targets (some out of
        // range, NaN, or jumps), moved by chunks of every length, skipped, reset and re-prepared:
        // every ramp and every state the same bits as six `Smoothed` advanced in turn.
        let mut seed = 0x6a09_e667_f3bc_c908_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 40) as f32 / (1u64 << 24) as f32
        };
        for round in 0..300 {
            let initial: [f32; 6] = std::array::from_fn(|_| next() * 1.2 - 0.1);
            let tcs: [f32; 6] = std::array::from_fn(|k| {
                if k == 5 && round % 7 == 0 {
                    0.0
                } else {
                    0.001 + 0.3 * next()
                }
            });
            let mut one: Vec<Smoothed> = (0..6)
                .map(|k| Smoothed::new(initial[k], tcs[k], 0.0, 1.0))
                .collect();
            let mut set = SmoothedSet::new(initial, tcs, 0.0, 1.0);
            let rate = [48_000.0, 44_100.0, 8_000.0][round % 3];
            one.iter_mut().for_each(|s| s.prepare(rate));
            set.prepare(rate);
            for step in 0..60 {
                let action = next();
                if action < 0.25 {
                    for (k, s) in one.iter_mut().enumerate() {
                        if next() < 0.5 {
                            let t = match step % 11 {
                                3 => f32::NAN,
                                7 => 2.0,
                                _ => next(),
                            };
                            s.set_target(t);
                            set.set_target(k, t);
                        }
                    }
                } else if action < 0.3 {
                    let (k, v) = ((next() * 6.0) as usize, next());
                    one[k].set_immediate(v);
                    set.set_immediate(k, v);
                } else if action < 0.4 {
                    let frames = (next() * 300.0) as usize;
                    for s in &mut one {
                        let mut left = frames;
                        while left > 0 {
                            let n = left.min(s.segment_left());
                            s.advance(n);
                            left -= n;
                        }
                    }
                    set.skip(frames);
                } else if action < 0.42 {
                    one.iter_mut().for_each(Smoothed::reset);
                    set.reset();
                } else {
                    let frames = 1 + (next() * 80.0) as usize;
                    let want: Vec<Ramp> = one.iter_mut().map(|s| s.advance(frames)).collect();
                    let got = set.advance(frames);
                    assert_eq!(want, got.ramps(), "round {round} step {step}");
                }
                for (k, s) in one.iter().enumerate() {
                    assert_eq!(s.current().to_bits(), set.current(k).to_bits());
                    assert_eq!(s.target().to_bits(), set.target(k).to_bits());
                    assert_eq!(s.is_settled(), set.is_settled(k));
                    assert_eq!(s.segment_left(), set.segment_left());
                }
                assert_eq!(one.iter().all(Smoothed::is_settled), set.all_settled());
            }
            // Then long enough for every value to arrive (the snaps near the target).
            for _ in 0..(48_000 / RAMP_SEGMENT) {
                let want: Vec<Ramp> = one.iter_mut().map(|s| s.advance(RAMP_SEGMENT)).collect();
                assert_eq!(want, set.advance(RAMP_SEGMENT).ramps(), "round {round}");
            }
        }
    }

    #[test]
    fn smoothed_follows_the_exponential_at_segment_ends_and_settles_exactly() {
        let mut s = Smoothed::new(0.0, 0.01, 0.0, 1.0);
        s.prepare(48_000.0);
        s.set_target(1.0);
        let v = run(&mut s, 48_000);
        // End of the first segment: 1 − exp(−64/480).
        let expect = 1.0 - (-(RAMP_SEGMENT as f32) / 480.0).exp();
        assert_eq!(s.current(), 1.0);
        assert!(
            (v[RAMP_SEGMENT] - expect).abs() < 1e-6,
            "{}",
            v[RAMP_SEGMENT]
        );
        // Linear inside a segment, monotonic throughout.
        assert!(v.windows(2).all(|w| w[1] >= w[0]));
        assert!(s.is_settled());
    }

    #[test]
    fn smoothed_clamps_and_ignores_nan() {
        let mut s = Smoothed::new(0.5, 0.05, 0.0, 2.0);
        s.set_target(f32::NAN);
        assert_eq!(s.target(), 0.5);
        s.set_target(5.0);
        assert_eq!(s.target(), 2.0);
        s.set_immediate(-1.0);
        assert_eq!(s.current(), 0.0);
        s.reset();
        assert_eq!((s.current(), s.target()), (0.5, 0.5));
        let odd = Smoothed::new(f32::NAN, f32::NAN, f32::NAN, f32::NAN);
        assert!(odd.current().is_finite());
    }

    #[test]
    fn a_target_set_mid_segment_waits_for_the_boundary() {
        let mut s = Smoothed::new(0.0, 0.0, 0.0, 1.0);
        let r = s.advance(10);
        assert_eq!(r, Ramp::constant(0.0));
        s.set_target(1.0);
        let r = s.advance(s.segment_left());
        assert_eq!(r.at(0), 0.0);
        // Time constant 0: the next segment ramps linearly all the way to the target.
        let r = s.advance(RAMP_SEGMENT);
        assert_eq!(r.at(RAMP_SEGMENT), 1.0);
    }

    #[test]
    fn linear_ramp_reaches_its_target_in_its_duration() {
        let mut r = LinearRamp::new(0.0, 0.05);
        r.prepare(48_000.0);
        r.set_target(1.0);
        assert_eq!(r.frames_left(), 2400);
        let a = r.advance(1200);
        assert_eq!(a.at(600), 0.25);
        let b = r.advance(5000);
        assert_eq!(b.at(1200), 1.0);
        assert!(r.is_settled());
        assert_eq!(r.current(), 1.0);
        assert_eq!(r.advance(64), Ramp::constant(1.0));
        r.reset();
        assert_eq!(r.current(), 0.0);
    }

    /// The frame-index table gives exactly `Ramp::at` within a segment, and nothing past it.
    #[test]
    fn frame_table_reads_equal_ramp_at() {
        for offset in 0..RAMP_SEGMENT {
            let r = Ramp {
                start: 0.3,
                step: -0.0017,
                offset,
            };
            let n = RAMP_SEGMENT - offset;
            let ts = r.frames(n).expect("within the segment");
            for (i, t) in ts.iter().enumerate() {
                assert_eq!((r.start + r.step * t).to_bits(), r.at(i).to_bits());
            }
            assert_eq!(r.frames(n + 1), None);
        }
    }
}

mod interpolate_tests {
    use crate::interpolate::{
        FRAC_BITS, ONE, lerp, prefetch, read_linear, render_linear, resample, resample_mix,
        step_for,
    };
    use proptest::prelude::*;

    const S: [f32; 4] = [1.0, 2.0, 4.0, 8.0];

    #[test]
    fn reads_between_frames_and_zero_outside() {
        assert_eq!(read_linear(&S, 0.0), 1.0);
        assert_eq!(read_linear(&S, 1.5), 3.0);
        assert_eq!(read_linear(&S, -0.5), 0.5);
        assert_eq!(read_linear(&S, 3.5), 4.0);
        assert_eq!(read_linear(&S, -1.0), 0.0);
        assert_eq!(read_linear(&S, 4.0), 0.0);
        assert_eq!(read_linear(&S, f64::NAN), 0.0);
        assert_eq!(read_linear(&S, 1e300), 0.0);
        assert_eq!(read_linear(&[], 0.5), 0.0);
    }

    #[test]
    fn looping_wraps_to_the_first_frame() {
        let mut out = [0.0f32; 6];
        let mut pos = 2 * ONE;
        resample(&S, &mut pos, ONE, true, &mut out);
        assert_eq!(out, [4.0, 8.0, 1.0, 2.0, 4.0, 8.0]);
        assert_eq!(pos, 4 * ONE);
        // The last frame interpolates toward frame 0.
        let mut pos = 3 * ONE + ONE / 2;
        let mut one = [0.0f32; 1];
        resample(&S, &mut pos, ONE, true, &mut one);
        assert_eq!(one, [4.5]);
    }

    #[test]
    fn step_is_exact_for_common_rates() {
        assert_eq!(step_for(48_000, 48_000), ONE);
        assert_eq!(step_for(24_000, 48_000), ONE / 2);
        assert_eq!(step_for(96_000, 48_000), 2 * ONE);
    }

    #[test]
    fn same_rate_copies_samples() {
        let s: Vec<f32> = (0..10).map(|i| i as f32).collect();
        let mut out = [0.0; 12];
        let mut pos = 0;
        resample(&s, &mut pos, ONE, false, &mut out);
        assert_eq!(&out[..10], &s[..]);
        assert_eq!(&out[10..], &[0.0, 0.0]);
        assert_eq!(pos, 12 * ONE);
    }

    #[test]
    fn half_rate_interpolates_linearly() {
        let s = [0.0, 1.0, 3.0];
        let mut out = [0.0; 6];
        let mut pos = 0;
        resample(&s, &mut pos, ONE / 2, false, &mut out);
        // Frame 2.5 interpolates toward the silence after a one-shot's end.
        assert_eq!(out, [0.0, 0.5, 1.0, 2.0, 3.0, 1.5]);
    }

    #[test]
    fn looping_wraps_and_interpolates_across_the_seam() {
        let s = [1.0, 2.0, 3.0, 4.0];
        let mut out = [0.0; 10];
        let mut pos = 0;
        resample(&s, &mut pos, ONE / 2, true, &mut out);
        assert_eq!(out, [1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 2.5, 1.0, 1.5]);
        assert_eq!(pos, ONE); // 5.0 wrapped at the 4-frame loop
    }

    #[test]
    fn resample_is_split_invariant() {
        let s: Vec<f32> = (0..1000)
            .map(|i| ((i * 7919) % 113) as f32 / 113.0)
            .collect();
        let step = step_for(22_050, 48_000);
        let mut whole = vec![0.0; 3000];
        let mut p = 0;
        resample(&s, &mut p, step, true, &mut whole);
        let mut parts = vec![0.0; 3000];
        let mut q = 0;
        for chunk in parts.chunks_mut(37) {
            resample(&s, &mut q, step, true, chunk);
        }
        assert_eq!(whole, parts);
        assert_eq!(p, q);
    }

    /// Every frame of [`resample`] is the per-frame formula `lerp(s[i], s[i + 1], frac(p))`
    /// (the next frame 0 / silence past the end), with the AVX2 kernels and without, for
    /// seeded random sounds, start positions (fractional) and steps from 0.1 to 2.3 frames.
    #[test]
    fn resample_matches_the_per_frame_formula_with_and_without_avx2() {
        let mut seed = 5u64;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            seed >> 11
        };
        let reference = |s: &[f32], pos: u64, step: u64, looping: bool, n: usize| {
            let len = s.len() as u64;
            (0..n as u64)
                .map(|i| {
                    let mut p = pos + i * step;
                    if looping {
                        p %= len << FRAC_BITS;
                    }
                    let idx = (p >> FRAC_BITS) as usize;
                    let f = (p as u32) as f32 / 4_294_967_296.0;
                    let a = s.get(idx).copied().unwrap_or(0.0);
                    let b = match s.get(idx + 1) {
                        Some(b) => *b,
                        None if looping => s[0],
                        None => 0.0,
                    };
                    if idx >= s.len() { 0.0 } else { lerp(a, b, f) }
                })
                .collect::<Vec<f32>>()
        };
        let before = crate::simd::set_avx2_enabled(true);
        for case in 0..300 {
            let len = 2 + (next() % 700) as usize;
            let s: Vec<f32> = (0..len)
                .map(|_| (next() % 2001) as f32 / 1000.0 - 1.0)
                .collect();
            let step = ONE / 10 + next() % (ONE * 22 / 10);
            let pos = next() % ((len as u64) << FRAC_BITS);
            let looping = case % 3 != 0;
            let n = 1 + (next() % 900) as usize;
            let want = reference(&s, pos, step, looping, n);
            for avx2 in [true, false] {
                crate::simd::set_avx2_enabled(avx2);
                let mut out = vec![0.0f32; n];
                let mut p = pos;
                resample(&s, &mut p, step, looping, &mut out);
                let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&out), bits(&want), "case {case}, avx2 {avx2}");
                // The fused constant-gain mix adds the same reads.
                let init: Vec<f32> = (0..n).map(|i| (i % 7) as f32 * 0.1).collect();
                let (mut l, mut r) = (init.clone(), init.clone());
                let mut p = pos;
                resample_mix(&s, &mut p, step, looping, (0.3, 0.7), &mut l, &mut r);
                let mixed = |g: f32| {
                    init.iter()
                        .zip(&want)
                        .map(|(o, x)| o + x * g)
                        .collect::<Vec<f32>>()
                };
                assert_eq!(bits(&l), bits(&mixed(0.3)), "mix left, case {case}");
                assert_eq!(bits(&r), bits(&mixed(0.7)), "mix right, case {case}");
            }
        }
        crate::simd::set_avx2_enabled(before);
    }

    #[test]
    fn empty_sound_reads_silence() {
        let mut out = [1.0; 4];
        let mut pos = 0;
        resample(&[], &mut pos, ONE, true, &mut out);
        assert_eq!(out, [0.0; 4]);
    }

    #[test]
    fn prefetch_stays_inside_the_sound_whatever_the_position() {
        // A hint only: it must not panic or read outside for any position, step or length.
        let s = vec![0.5f32; 1000];
        for (pos, step, frames) in [
            (0, ONE, 512),
            (999 * ONE, ONE, 512),
            (5000 * ONE, ONE, 512),
            (u64::MAX, u64::MAX, usize::MAX),
            (0, u64::MAX, 512),
            (123 * ONE + 7, ONE / 3, 0),
        ] {
            prefetch(&s, pos, step, frames);
            prefetch(&[], pos, step, frames);
        }
    }

    #[test]
    fn fused_resample_mix_equals_store_then_mix() {
        let s: Vec<f32> = (0..777)
            .map(|i| ((i * 31) % 97) as f32 / 97.0 - 0.5)
            .collect();
        for (rate, looping) in [
            (22_050, true),
            (48_000, true),
            (44_100, false),
            (11_025, false),
        ] {
            let step = step_for(rate, 48_000);
            let (mut p, mut q) = (123 * ONE / 7, 123 * ONE / 7);
            let mut x = vec![0.0; 3000];
            resample(&s, &mut p, step, looping, &mut x);
            let (gl, gr) = (0.3f32, 0.8f32);
            let base: Vec<f32> = (0..3000).map(|i| i as f32 * 1e-4).collect();
            let (mut l, mut r) = (base.clone(), base.clone());
            resample_mix(&s, &mut q, step, looping, (gl, gr), &mut l, &mut r);
            for i in 0..3000 {
                assert_eq!(l[i].to_bits(), (base[i] + x[i] * gl).to_bits());
                assert_eq!(r[i].to_bits(), (base[i] + x[i] * gr).to_bits());
            }
            assert_eq!(p, q);
        }
    }

    #[test]
    fn unit_step_fast_path_equals_per_frame_reads() {
        let data: Vec<f32> = (0..100).map(|i| ((i * 13) % 7) as f32 - 3.0).collect();
        for start in [-3.25, -0.5, 0.0, 0.3, 10.75, 40.0, 60.5, 98.9] {
            let mut out = [0.0f32; 40];
            render_linear(&data, start, 1.0, &mut out);
            for (i, &o) in out.iter().enumerate() {
                assert_eq!(
                    o.to_bits(),
                    read_linear(&data, start + i as f64).to_bits(),
                    "{start} {i}"
                );
            }
        }
    }

    proptest! {
        #[test]
        fn render_equals_per_frame_reads(
            data in proptest::collection::vec(-1.0f32..1.0, 0..40),
            start in -50.0f64..50.0,
            step in 0.01f64..3.0,
        ) {
            // Dyadic positions: the fixed-point sum is exact, so render == read.
            let start = (start * 1024.0).round() / 1024.0;
            let step = (step * 1024.0).round() / 1024.0;
            let mut out = [0.0f32; 70];
            render_linear(&data, start, step, &mut out);
            for (i, &o) in out.iter().enumerate() {
                prop_assert_eq!(o.to_bits(), read_linear(&data, start + i as f64 * step).to_bits());
            }
        }

        #[test]
        fn resample_in_any_split_equals_one_call(
            data in proptest::collection::vec(-1.0f32..1.0, 1..40),
            start in 0u64..(80 << 32),
            step in 1u64..(3 << 32),
            looping in any::<bool>(),
            cut in 0usize..70,
        ) {
            let mut whole = [0.0f32; 70];
            let mut p = start;
            resample(&data, &mut p, step, looping, &mut whole);
            let mut parts = [0.0f32; 70];
            let mut q = start;
            let (a, b) = parts.split_at_mut(cut);
            resample(&data, &mut q, step, looping, a);
            resample(&data, &mut q, step, looping, b);
            prop_assert_eq!(whole, parts);
            prop_assert_eq!(p, q);
        }
    }
}

mod misc_tests {
    use crate::denormal::{flush, flush_small, is_denormal};
    use crate::one_pole::{air_coefficient, air_cutoff_hz, lowpass_coefficient};
    use crate::pan::equal_power_pan;
    use crate::{OnePoleHighPass, OnePoleLowPass};

    #[test]
    fn flush_zeroes_tiny_values_only() {
        assert_eq!(flush(1e-30), 0.0);
        assert_eq!(flush(-1e-30), 0.0);
        assert_eq!(flush(0.5), 0.5);
        assert!((flush(1e-20) - 1e-20).abs() < 1e-24);
        assert_eq!(flush_small(1e-16), 0.0);
        assert_eq!(flush_small(f32::NAN), 0.0);
        assert_eq!(flush_small(1e-3), 1e-3);
        assert!(is_denormal(f32::MIN_POSITIVE / 2.0));
        assert!(!is_denormal(0.0) && !is_denormal(f32::MIN_POSITIVE));
    }

    #[test]
    fn pan_is_equal_power() {
        for p in [-1.0f32, -0.5, 0.0, 0.3, 1.0, 7.0, f32::NAN] {
            let (l, r) = equal_power_pan(p);
            assert!((l * l + r * r - 1.0).abs() < 1e-6, "{p}");
        }
        assert_eq!(equal_power_pan(-1.0), (1.0, 0.0));
        assert_eq!(equal_power_pan(1.0), (0.0, 1.0));
        let (l, r) = equal_power_pan(0.0);
        assert!((l - r).abs() < 1e-7);
    }

    #[test]
    fn air_formula_matches_the_spec() {
        // g = 0.994^(path − d); fc = 5000/sqrt(1/g² − 1).
        let g = 0.994f32.powf(54.5);
        let fc = air_cutoff_hz(g);
        assert!((fc - 5000.0 / (1.0 / (g * g) - 1.0).sqrt()).abs() < 1e-3);
        assert_eq!(air_coefficient(1.0, 48_000.0), None);
        assert_eq!(
            air_coefficient(0.998, 48_000.0),
            None,
            "fc 79 kHz ≥ 0.45·fs"
        );
        assert!(air_coefficient(0.5, 48_000.0).is_some());
        assert!(air_coefficient(f32::NAN, 48_000.0).is_none());
        let a = lowpass_coefficient(1000.0, 48_000.0);
        assert!((a - (1.0 - (-std::f32::consts::TAU / 48.0).exp())).abs() < 1e-7);
    }

    #[test]
    fn one_poles_split_the_signal() {
        let mut lp = OnePoleLowPass::new(500.0);
        let mut hp = OnePoleHighPass::new(500.0);
        let x: Vec<f32> = (0..1000)
            .map(|i| ((i * 37) % 17) as f32 / 8.0 - 1.0)
            .collect();
        let (mut a, mut b) = (x.clone(), x.clone());
        lp.process(&mut a);
        hp.process(&mut b);
        for ((l, h), x) in a.iter().zip(&b).zip(&x) {
            assert!((l + h - x).abs() < 1e-6);
        }
        // DC passes the low-pass, not the high-pass.
        let mut dc = vec![1.0f32; 48_000];
        lp.reset();
        lp.process(&mut dc);
        assert!((dc[47_999] - 1.0).abs() < 1e-6);
        assert!((lp.process_sample(1.0) - 1.0).abs() < 1e-6);
    }
}

#[test]
fn shelf_lane_filter_matches_its_portable_version() {
    use crate::shelf::{LaneRamps, LaneState, filter_rows, filter_rows_portable};
    use crate::smoothing::Ramp;
    let rows0: Vec<[f32; 4]> = (0..200)
        .map(|i| {
            let t = i as f32;
            [
                (t * 0.3).sin(),
                (t * 0.71).cos(),
                if i == 3 { 1.0 } else { 0.0 },
                -0.5,
            ]
        })
        .collect();
    let coef = ([0.12f32; 4], [0.1056f32; 4], [0.7744f32; 4]);
    let (gc, hc) = (
        LaneRamps::constant([0.6, 1.3, 0.2, 4.0]),
        LaneRamps::constant([0.05, 0.5, 0.0, 0.99]),
    );
    let (mut gr, mut hr) = (LaneRamps::default(), LaneRamps::default());
    for k in 0..4 {
        let ramp = |start: f32, step: f32| Ramp {
            start,
            step,
            offset: 3 * k,
        };
        gr.set(k, ramp(0.6 + 0.1 * k as f32, -0.001));
        hr.set(k, ramp(0.05 * k as f32, 0.002));
    }
    for ramped in [false, true] {
        let mut rows = rows0.clone();
        let mut reference = rows0.clone();
        let (mut fast, mut slow) = (LaneState::default(), LaneState::default());
        // Two calls each: the state carries over.
        for range in [0..77, 77..200] {
            if ramped {
                filter_rows::<true>(&mut fast, &mut rows[range.clone()], coef, gr, hr);
                filter_rows_portable::<true, 4>(&mut slow, &mut reference[range], coef, gr, hr);
            } else {
                filter_rows::<false>(&mut fast, &mut rows[range.clone()], coef, gc, hc);
                filter_rows_portable::<false, 4>(&mut slow, &mut reference[range], coef, gc, hc);
            }
        }
        let bits = |v: &[[f32; 4]]| v.iter().flatten().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&rows), bits(&reference));
        assert_eq!(format!("{fast:?}"), format!("{slow:?}"));
        assert!(rows.iter().flatten().any(|x| *x != 0.0));
    }
}

mod mix_tests {
    use crate::mix::{SixOutputs, SixRamps};
    use crate::smoothing::{Ramp, RampSet};

    fn outs(v: &mut [Vec<f32>; 6]) -> SixOutputs<'_> {
        let [l, r, s0, s1, s2, s3] = v;
        SixOutputs {
            left: l,
            right: r,
            sends: [s0, s1, s2, s3],
        }
    }

    #[test]
    fn mix_pieces_equals_one_mix_ramped_per_piece_with_and_without_avx2() {
        // Pieces of every length up to a segment (multiples of eight and not), at offsets in
        // their segments: the same bits as a `mix_ramped` per piece.
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 40) as f32 / (1u64 << 24) as f32
        };
        for avx2 in [true, false] {
            let before = crate::simd::set_avx2_enabled(avx2);
            for round in 0..200 {
                let x: Vec<f32> = (0..400).map(|_| next() * 2.0 - 1.0).collect();
                let mut pieces = Vec::new();
                let mut total = 0;
                while total < 380 {
                    let offset = (next() * 40.0) as usize;
                    let frames = 1 + (next() * (64 - offset) as f32) as usize;
                    let ramps = RampSet {
                        start: std::array::from_fn(|_| next()),
                        step: std::array::from_fn(|_| (next() - 0.5) * 0.01),
                        offset,
                    };
                    pieces.push(SixRamps {
                        frames: frames.min(64 - offset),
                        ramps,
                    });
                    total += frames;
                }
                let start: Vec<f32> = (0..400).map(|_| next()).collect();
                let mut want: [Vec<f32>; 6] = std::array::from_fn(|_| start.clone());
                let mut got = want.clone();
                let mut done = 0;
                for p in &pieces {
                    let m = p.frames.min(x.len() - done);
                    outs(&mut want)
                        .range(done..done + m)
                        .mix_ramped(&x[done..done + m], p.ramps.ramps());
                    done += m;
                }
                outs(&mut got).mix_pieces(&x[..done], &pieces);
                for k in 0..6 {
                    let w: Vec<u32> = want[k].iter().map(|v| v.to_bits()).collect();
                    let g: Vec<u32> = got[k].iter().map(|v| v.to_bits()).collect();
                    assert_eq!(w, g, "avx2 {avx2} round {round} output {k}");
                }
            }
            crate::simd::set_avx2_enabled(before);
        }
    }

    #[test]
    fn mix_ramped_with_separate_offsets_equals_one_mix_ramp_per_output() {
        // Ramps that do not share an offset take `mix_ramped`'s general loop: the same bits as
        // six `mix_ramp` passes.
        let x: Vec<f32> = (0..50)
            .map(|i| ((i * 37) % 23) as f32 / 11.0 - 1.0)
            .collect();
        let ramps: [Ramp; 6] = std::array::from_fn(|k| Ramp {
            start: 0.1 * k as f32,
            step: 0.003 * (k as f32 - 2.5),
            offset: 3 * k,
        });
        let mut want: [Vec<f32>; 6] = std::array::from_fn(|k| vec![0.25 * k as f32; 50]);
        let mut got = want.clone();
        for (k, out) in want.iter_mut().enumerate() {
            crate::mix_ramp(&x, out, ramps[k]);
        }
        outs(&mut got).mix_ramped(&x, ramps);
        assert_eq!(want, got);
    }
}
