//! Tests of the 4-point read: image rejection at 48 kHz (steady and ±6 %), edges, the AVX2
//! loop against the portable one, the taps' render against single reads.

use super::*;
use crate::analysis::{rms, sine, worst_image_db};
use crate::interpolate::{resample, step_for};
use crate::oversample::oversample;

const OUT_RATE: f32 = 48_000.0;

/// `frames` output frames of `samples` (at `rate`) read at 48 kHz, the step scaled per 64-frame
/// segment by `1 + depth·sin(2π·0.5 Hz·t)` (a Doppler-like ±depth wobble).
fn read_wobbling(samples: &[f32], rate: u32, depth: f64, frames: usize, cubic: bool) -> Vec<f32> {
    let base = step_for(rate, 48_000) as f64;
    let mut out = vec![0.0f32; frames];
    // Half a second in: away from the buffer's start, which the raising filter sees as silence.
    let mut pos = u64::from(rate / 2) << 32;
    for (s, seg) in out.chunks_mut(64).enumerate() {
        let t = (s * 64) as f64 / f64::from(OUT_RATE);
        let step = (base * (1.0 + depth * (std::f64::consts::TAU * 0.5 * t).sin())) as u64;
        if cubic {
            resample_cubic(samples, &mut pos, step, false, seg);
        } else {
            resample(samples, &mut pos, step, false, seg);
        }
    }
    out
}

/// The worst image (dB re the tone) and the tone's level (dB re its true level) of a sine at
/// `hz` of an 11.025 kHz sound read at 48 kHz (raised ×4 first for the cubic read).
fn measure(hz: f32, depth: f64, cubic: bool) -> (f32, f32, f32) {
    let x = sine(hz, 0.5, 11_025.0, 11_025 * 5);
    let (buf, rate) = if cubic {
        (oversample(&x, 4), 44_100)
    } else {
        (x, 11_025)
    };
    let y = read_wobbling(&buf, rate, depth, 48_000 * 3, cubic);
    let spread = (hz * (1.0 - depth as f32), hz * (1.0 + depth as f32));
    let (worst, at) = worst_image_db(&y, OUT_RATE, spread);
    let level = 20.0 * (rms(&y) / (0.5 / 2f32.sqrt())).log10();
    (worst, at, level)
}

#[test]
fn images_of_1k_and_4k_are_60_db_down_steady_and_wobbling() {
    for hz in [1_000.0f32, 4_000.0] {
        for depth in [0.0, 0.06] {
            let (worst, at, level) = measure(hz, depth, true);
            eprintln!(
                "{hz} Hz ±{depth}: worst image {worst:.1} dB at {at:.0} Hz, level {level:+.3} dB"
            );
            assert!(
                worst <= -60.0,
                "{hz} Hz ±{depth}: image {worst} dB at {at} Hz"
            );
            assert!(level.abs() <= 0.5, "{hz} Hz ±{depth}: level {level} dB");
        }
    }
}

#[test]
fn the_linear_read_of_the_raw_buffer_fails_the_same_measure() {
    // Why the oversampled read exists: linear from 11.025 kHz leaves the 4 kHz sine's image
    // (7.025 kHz) within 20 dB of it.
    let (worst, at, _) = measure(4_000.0, 0.0, false);
    assert!(worst > -20.0, "linear image {worst} dB at {at} Hz");
    assert!((at - 7_025.0).abs() < 100.0, "{at}");
}

#[test]
fn the_kernel_passes_through_its_samples_and_cubics() {
    let w = [0.3, -0.2, 0.9, 0.4];
    assert_eq!(read4(w, 0.0), -0.2);
    // A cubic through the four points is reproduced between them.
    let c = |t: f32| 0.1 + 0.4 * t - 0.3 * t * t + 0.2 * t * t * t;
    let w = [c(-1.0), c(0.0), c(1.0), c(2.0)];
    for f in [0.25f32, 0.5, 0.8] {
        assert!((read4(w, f) - c(f)).abs() < 1e-6);
    }
}

#[test]
fn quads_edges_and_single_reads_agree() {
    let x = sine(700.0, 0.8, 44_100.0, 300);
    for looping in [false, true] {
        let step = step_for(44_100, 48_000) + 12_345;
        let mut pos = 0u64;
        let mut all = vec![0.0f32; 400];
        resample_cubic(&x, &mut pos, step, looping, &mut all);
        // The same frames one at a time.
        let mut p = 0u64;
        for (i, v) in all.iter().enumerate() {
            let mut one = [0.0f32];
            resample_cubic(&x, &mut p, step, looping, &mut one);
            assert_eq!(one[0].to_bits(), v.to_bits(), "looping {looping} frame {i}");
        }
        assert_eq!(p, pos);
        if !looping {
            // Past the end: silence.
            let end = (300u64 << 32).div_ceil(step) as usize;
            assert!(all[end..].iter().all(|v| *v == 0.0));
            assert!(all[end - 5..end].iter().any(|v| *v != 0.0));
        } else {
            // The wrap reads round the loop: no silence.
            assert!(all[280..400].iter().filter(|v| **v == 0.0).count() < 2);
        }
    }
}

#[test]
fn mix_equals_store_then_gains() {
    let x = sine(900.0, 0.6, 44_100.0, 2_000);
    let step = step_for(44_100, 48_000);
    let (mut p1, mut p2) = (777u64 << 20, 777u64 << 20);
    let mut stored = vec![0.0f32; 1_000];
    resample_cubic(&x, &mut p1, step, false, &mut stored);
    let (mut l, mut r) = (vec![0.25f32; 1_000], vec![-0.5f32; 1_000]);
    resample_cubic_mix(&x, &mut p2, step, false, (0.7, 0.3), &mut l, &mut r);
    assert_eq!(p1, p2);
    for i in 0..1_000 {
        assert_eq!(l[i].to_bits(), (0.25 + stored[i] * 0.7).to_bits());
        assert_eq!(r[i].to_bits(), (-0.5 + stored[i] * 0.3).to_bits());
    }
}

#[test]
fn avx2_and_baseline_give_the_same_bits() {
    let x = sine(1_234.0, 0.6, 44_100.0, 5_000);
    let step = step_for(44_100, 48_000) - 99_999;
    let run = || {
        let mut p = 3u64 << 31;
        let mut out = vec![0.0f32; 6_000];
        resample_cubic(&x, &mut p, step, true, &mut out);
        (p, out)
    };
    let before = crate::simd::set_avx2_enabled(false);
    let base = run();
    crate::simd::set_avx2_enabled(true);
    let wide = run();
    crate::simd::set_avx2_enabled(before);
    assert_eq!(base.0, wide.0);
    assert!(
        base.1
            .iter()
            .zip(&wide.1)
            .all(|(a, b)| a.to_bits() == b.to_bits())
    );
}

#[test]
fn tap_render_equals_single_reads_and_is_zero_outside() {
    let x = sine(500.0, 0.5, 44_100.0, 1_000);
    for (start, step) in [
        (10.25, 0.91875),
        (-40.5, 0.75),
        (990.0, 1.0),
        (f64::NAN, 1.0),
    ] {
        let mut out = vec![1.0f32; 100];
        render_cubic(&x, start, step, &mut out);
        let (s0, st) = (to_fixed(start), to_fixed(step));
        for (i, v) in out.iter().enumerate() {
            let want = match (s0, st) {
                (Some(s0), Some(st)) => read_fixed(&x, s0 + i as i64 * st),
                _ => 0.0,
            };
            assert_eq!(v.to_bits(), want.to_bits(), "{start} {step} frame {i}");
        }
    }
    assert_eq!(read_cubic(&x, 10.0), x[10]);
    assert_eq!(read_cubic(&x, -3.0), 0.0);
    assert_eq!(read_cubic(&x, 1_002.0), 0.0);
    assert_eq!(read_cubic(&[], 1.0), 0.0);
}
