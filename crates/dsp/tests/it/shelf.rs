//! Occlusion shelf: measured response (FFT of the impulse response) against the analytic
//! response, bypass, and the spec's corner values.

use resound_dsp::OcclusionShelf;
use rustfft::FftPlanner;
use rustfft::num_complex::Complex;

/// Impulse response of a shelf fixed at `gain`, `hf`.
fn impulse_response(fs: f32, gain: f32, hf: f32, n: usize) -> Vec<f32> {
    let mut shelf = OcclusionShelf::new();
    shelf.prepare(fs, 512);
    shelf.set_immediate(gain, hf);
    let mut x = vec![0.0f32; n];
    x[0] = 1.0;
    for block in x.chunks_mut(512) {
        shelf.process(block);
    }
    x
}

/// Worst |measured − analytic| in dB over 20 Hz–20 kHz (FFT bins).
fn worst_error_db(fs: f32, gain: f32, hf: f32) -> f64 {
    let n = 1 << 16;
    let ir = impulse_response(fs, gain, hf, n);
    let mut spec: Vec<Complex<f64>> = ir
        .iter()
        .map(|&x| Complex::new(f64::from(x), 0.0))
        .collect();
    FftPlanner::new().plan_fft_forward(n).process(&mut spec);
    let bin_hz = f64::from(fs) / n as f64;
    let mut worst = 0.0f64;
    for (k, c) in spec.iter().enumerate().take(n / 2) {
        let f = k as f64 * bin_hz;
        if !(20.0..=20_000.0).contains(&f) {
            continue;
        }
        let measured = c.norm();
        let analytic = OcclusionShelf::analytic_magnitude(fs, f as f32, gain, hf);
        let err = (20.0 * (measured / analytic).log10()).abs();
        worst = worst.max(err);
    }
    worst
}

#[test]
fn measured_response_matches_analytic_within_half_a_db() {
    // Unity, mild and thick walls (acoustics.md §4: occ 1/2/3 → cutoff exp(-3k), gain cutoff^0.1),
    // the mixer test value hf = 0.0025, and a gain-only case.
    let cases: [(f32, f32); 7] = [
        (1.0, 1.0),
        ((-0.75f32).exp().powf(0.1), (-0.75f32).exp()),
        ((-3.0f32).exp().powf(0.1), (-3.0f32).exp()),
        ((-6.0f32).exp().powf(0.1), (-6.0f32).exp()),
        ((-9.0f32).exp().powf(0.1), (-9.0f32).exp()),
        (0.8, 0.0025),
        (0.5, 1.0),
    ];
    for fs in [48_000.0, 44_100.0] {
        for (gain, hf) in cases {
            let err = worst_error_db(fs, gain, hf);
            eprintln!("fs {fs} gain {gain:.4} hf {hf:.5}: worst error {err:.2e} dB");
            assert!(err < 0.5, "fs {fs} gain {gain} hf {hf}: {err} dB");
        }
    }
}

#[test]
fn analytic_response_has_gain_below_and_gain_times_hf_above() {
    let (g, h) = (0.7f32, 0.01f32);
    let low = OcclusionShelf::analytic_magnitude(48_000.0, 20.0, g, h);
    let high = OcclusionShelf::analytic_magnitude(48_000.0, 20_000.0, g, h);
    assert!((low / f64::from(g) - 1.0).abs() < 0.01, "{low}");
    // Two one-poles at 1 kHz leave ~-26 dB of lp at 20 kHz, so above ≈ gain·(hf + lp).
    assert!(
        high < f64::from(g) * 0.1 && high > f64::from(g * h),
        "{high}"
    );
}

#[test]
fn unity_is_an_exact_bypass() {
    let mut shelf = OcclusionShelf::new();
    assert!(shelf.is_bypassed());
    let input: Vec<f32> = (0..1000)
        .map(|i| ((i * 7919) % 1000) as f32 / 500.0 - 1.0)
        .collect();
    let mut buf = input.clone();
    shelf.process(&mut buf);
    assert_eq!(buf, input);
    // After an excursion and a return to unity, it settles back to exact bypass.
    shelf.set_targets(0.3, 0.1);
    let mut long = vec![0.25f32; 48_000];
    shelf.process(&mut long);
    shelf.set_targets(1.0, 1.0);
    let mut long = vec![0.25f32; 96_000];
    shelf.process(&mut long);
    assert!(shelf.is_bypassed(), "{:?} {:?}", shelf.gain(), shelf.hf());
    let mut buf = input.clone();
    shelf.process(&mut buf);
    assert_eq!(buf, input);
}

#[test]
fn smoothing_time_constant_is_80_ms() {
    let mut shelf = OcclusionShelf::new();
    shelf.set_targets(0.0, 1.0);
    let mut buf = vec![1.0f32; 3840]; // 80 ms
    shelf.process(&mut buf);
    let g = shelf.gain().current();
    // exp(-1) = 0.368 of the step remains after one time constant.
    assert!((g - (-1.0f32).exp()).abs() < 0.01, "{g}");
}

#[test]
fn nan_and_out_of_range_targets_are_contained() {
    let mut shelf = OcclusionShelf::new();
    shelf.set_targets(f32::NAN, f32::INFINITY);
    assert_eq!(shelf.gain().target(), 1.0);
    assert_eq!(shelf.hf().target(), 1.0);
    shelf.set_targets(-5.0, 7.0);
    assert_eq!(shelf.gain().target(), 0.0);
    assert_eq!(shelf.hf().target(), 1.0);
    shelf.set_targets(1e9, -1.0);
    let mut buf = vec![1.0f32; 48_000];
    shelf.process(&mut buf);
    assert!(buf.iter().all(|x| x.is_finite()));
}

/// RMS of `shelf(sine)` over the last second of two, relative to the input RMS, in dB.
fn sine_gain_db(freq: f32, gain: f32, hf: f32) -> f64 {
    let fs = 48_000.0;
    let x = resound_dsp::analysis::sine(freq, 0.5, fs, 96_000);
    let mut y = x.clone();
    let mut shelf = OcclusionShelf::new();
    shelf.set_immediate(gain, hf);
    for b in y.chunks_mut(512) {
        shelf.process(b);
    }
    let e = |v: &[f32]| {
        v[48_000..]
            .iter()
            .map(|&s| f64::from(s) * f64::from(s))
            .sum::<f64>()
    };
    10.0 * (e(&y) / e(&x)).log10()
}

#[test]
fn sine_levels_follow_the_response_with_hf_0_0025() {
    // acoustics.md §4 mixer test, here at dsp level: 8 kHz follows the shelf response
    // within 1 dB; 100 Hz changes by `gain` within 0.5 dB.
    let (gain, hf) = (0.8f32, 0.0025f32);
    let at_8k = sine_gain_db(8000.0, gain, hf);
    let expect_8k = 20.0 * OcclusionShelf::analytic_magnitude(48_000.0, 8000.0, gain, hf).log10();
    assert!((at_8k - expect_8k).abs() < 1.0, "{at_8k} vs {expect_8k}");
    let at_100 = sine_gain_db(100.0, gain, hf);
    let expect_100 = 20.0 * f64::from(gain).log10();
    assert!(
        (at_100 - expect_100).abs() < 0.5,
        "{at_100} vs {expect_100}"
    );
    // Sanity: the highs really are cut by tens of dB.
    assert!(at_8k < -30.0, "{at_8k}");
}

/// A shelf in a given state: settled at (`gain`, `hf`) after `warm` frames of a sine, or still
/// ramping towards new targets when `ramping`.
fn shelf_in_state(gain: f32, hf: f32, warm: usize, ramping: bool) -> OcclusionShelf {
    let mut s = OcclusionShelf::new();
    s.set_immediate(gain, hf);
    let mut buf: Vec<f32> = (0..warm).map(|i| (i as f32 * 0.37).sin()).collect();
    s.process(&mut buf);
    if ramping {
        s.set_targets(gain * 0.5, hf * 0.5);
    }
    s
}

#[test]
fn process_lanes_equals_processing_each_shelf() {
    // Lane groups of 1..=6 shelves: steady ones at different segment phases, plus ramping,
    // half-bypassed (hf = 1) and bypassed ones that must take the one-by-one path.
    let configs: [(f32, f32, usize, bool); 6] = [
        (0.6, 0.05, 10, false),
        (1.3, 0.5, 77, false),
        (0.2, 0.0, 128, false),
        (0.9, 0.3, 5, true),
        (0.7, 1.0, 33, false),
        (2.0, 0.01, 200, false),
    ];
    for count in 1..=configs.len() {
        for skip in 0..configs.len() {
            let chosen: Vec<_> = configs.iter().cycle().skip(skip).take(count).collect();
            let mut each: Vec<OcclusionShelf> = chosen
                .iter()
                .map(|&&(g, h, w, r)| shelf_in_state(g, h, w, r))
                .collect();
            let mut lanes = each.clone();
            let input = |k: usize| -> Vec<f32> {
                (0..300)
                    .map(|i| ((i * (k + 3)) as f32 * 0.11).sin() + if i == 7 { 1.0 } else { 0.0 })
                    .collect()
            };
            let mut want: Vec<Vec<f32>> = (0..count).map(input).collect();
            let mut got = want.clone();
            for block in [0..100, 100..101, 101..300] {
                for (s, b) in each.iter_mut().zip(want.iter_mut()) {
                    s.process(&mut b[block.clone()]);
                }
                let mut sh: Vec<&mut OcclusionShelf> = lanes.iter_mut().collect();
                let mut bu: Vec<&mut [f32]> =
                    got.iter_mut().map(|b| &mut b[block.clone()]).collect();
                OcclusionShelf::process_lanes(&mut sh, &mut bu);
            }
            for (w, g) in want.iter().zip(&got) {
                let wb: Vec<u32> = w.iter().map(|v| v.to_bits()).collect();
                let gb: Vec<u32> = g.iter().map(|v| v.to_bits()).collect();
                assert_eq!(wb, gb, "count {count} skip {skip}");
            }
            // The states agree too: one more block through `process` matches.
            for (a, b) in each.iter_mut().zip(lanes.iter_mut()) {
                let mut x = vec![0.25f32; 70];
                let mut y = x.clone();
                a.process(&mut x);
                b.process(&mut y);
                assert_eq!(x, y);
            }
        }
    }
}

#[test]
fn process_bufs_equals_processing_each_shelf_with_and_without_avx2() {
    // Banks of 1..=8 lane-ready shelves (steady and ramping, one shared sample rate), blocks
    // whose lengths are and are not multiples of eight and that cross segment boundaries: the
    // bank's interleaving (8×8 transposes with AVX2, 4×4 on the baseline, single frames for
    // the rest) must leave every sample as `process` makes it.
    let configs: [(f32, f32, usize, bool); 8] = [
        (0.6, 0.05, 10, false),
        (1.3, 0.5, 77, true),
        (0.2, 0.0, 128, false),
        (0.9, 0.3, 5, true),
        (0.7, 0.8, 33, false),
        (2.0, 0.01, 200, true),
        (0.4, 0.6, 64, false),
        (1.1, 0.2, 1, true),
    ];
    // Warm-ups as listed (shelves at different grid positions), or moved to one position
    // (the mixer's case, where the bank moves the smoothers as sets).
    for (avx2, grid) in [true, false]
        .into_iter()
        .flat_map(|a| [(a, None), (a, Some(10)), (a, Some(0))])
    {
        let before = resound_dsp::simd::set_avx2_enabled(avx2);
        for count in 1..=configs.len() {
            let warm = |w: usize| grid.map_or(w, |p| w - w % 64 + p);
            let mut each: Vec<OcclusionShelf> = configs[..count]
                .iter()
                .map(|&(g, h, w, r)| shelf_in_state(g, h, warm(w), r))
                .collect();
            assert!(each.iter().all(OcclusionShelf::is_lane_ready));
            let mut bank = each.clone();
            // Odd shelves get a signal near the state floor, so the flushes at their segment
            // boundaries (at different frames per shelf) change the state.
            let input = |k: usize| -> Vec<f32> {
                let scale = if k % 2 == 1 { 3e-15 } else { 1.0 };
                (0..530)
                    .map(|i| {
                        let x =
                            ((i * (k + 3)) as f32 * 0.13).sin() + if i == 9 { 1.0 } else { 0.0 };
                        x * scale * if i > 300 { 1e-9 } else { 1.0 }
                    })
                    .collect()
            };
            let mut want: Vec<Vec<f32>> = (0..count).map(input).collect();
            let mut got = want.clone();
            for block in [0..64, 64..69, 69..77, 77..333, 333..334, 334..530] {
                for (s, b) in each.iter_mut().zip(want.iter_mut()) {
                    s.process(&mut b[block.clone()]);
                }
                let mut scratch = vec![vec![0.0f32; block.len()]; 8];
                let mut sh: Vec<&mut OcclusionShelf> = bank.iter_mut().collect();
                let mut bu = got.iter_mut().map(|b| &mut b[block.clone()]);
                let mut sc = scratch.iter_mut().map(|b| &mut b[..]);
                let bufs: [&mut [f32]; 8] = std::array::from_fn(|_| match bu.next() {
                    Some(b) => b,
                    None => sc.next().expect("eight buffers"),
                });
                assert!(OcclusionShelf::process_bufs(&mut sh, bufs));
            }
            for (k, (w, g)) in want.iter().zip(&got).enumerate() {
                let wb: Vec<u32> = w.iter().map(|v| v.to_bits()).collect();
                let gb: Vec<u32> = g.iter().map(|v| v.to_bits()).collect();
                assert_eq!(wb, gb, "avx2 {avx2} grid {grid:?} count {count} shelf {k}");
            }
        }
        resound_dsp::simd::set_avx2_enabled(before);
    }
}
