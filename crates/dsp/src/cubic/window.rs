//! The 4-point read's AVX2 loop for sources read at or below their rate (`step ≤ 1` frame, as
//! for every sound raised to ≥ 44.1 kHz on a 48 kHz mix): eight output frames per step.
//!
//! Eight reads at `q + k·step` (`k < 8`, `step ≤ 1`) fall `0..=7` frames after `floor(q)`, so
//! their four neighbours lie in the eleven frames from `floor(q) − 1`: four loads of that
//! window shifted by 0..3 and one lane permute each give every read's `a, b, c, d`, where the
//! portable loop gathers 32 scalars. Positions and fractions are the linear loop's
//! ([`crate::interpolate`]'s `Reads`), and the kernel is the portable one's operations in the
//! same order, lane for lane: the samples are bit-identical to it.

use core::arch::x86_64::{
    __m256, __m256i, _mm256_add_ps, _mm256_mul_ps, _mm256_permutevar8x32_ps, _mm256_set1_ps,
    _mm256_sub_ps,
};

use super::{HALF, SIXTH, THIRD};
use crate::interpolate::window::{Reads, load, store};
use crate::interpolate::{FRAC_BITS, ONE};

/// The eleven-frame window from `floor(q) − 1`, if it lies inside `samples`.
#[inline(always)]
fn window(samples: &[f32], q: u64) -> Option<&[f32; 11]> {
    let first = (q >> FRAC_BITS) as usize;
    samples
        .get(first.checked_sub(1)?..first + 10)?
        .try_into()
        .ok()
}

/// The eight reads at `q + k·step` from the window `w`.
#[target_feature(enable = "avx2")]
#[inline]
fn at(reads: &Reads, w: &[f32; 11], q: u64) -> __m256 {
    let (whole, f) = reads.split(q);
    let lane = |k: usize, whole: __m256i| {
        let v = load(w[k..k + 8].try_into().unwrap_or(&[0.0; 8]));
        _mm256_permutevar8x32_ps(v, whole)
    };
    let (a, b, c, d) = (
        lane(0, whole),
        lane(1, whole),
        lane(2, whole),
        lane(3, whole),
    );
    let (half, third, sixth) = (
        _mm256_set1_ps(HALF),
        _mm256_set1_ps(THIRD),
        _mm256_set1_ps(SIXTH),
    );
    // c₁ = c − a/3 − b/2 − d/6, c₂ = (a + c)/2 − b, c₃ = (d − a)/6 + (b − c)/2.
    let c1 = _mm256_sub_ps(
        _mm256_sub_ps(
            _mm256_sub_ps(c, _mm256_mul_ps(a, third)),
            _mm256_mul_ps(b, half),
        ),
        _mm256_mul_ps(d, sixth),
    );
    let c2 = _mm256_sub_ps(_mm256_mul_ps(_mm256_add_ps(a, c), half), b);
    let c3 = _mm256_add_ps(
        _mm256_mul_ps(_mm256_sub_ps(d, a), sixth),
        _mm256_mul_ps(_mm256_sub_ps(b, c), half),
    );
    // b + f·(c₁ + f·(c₂ + f·c₃))
    let inner = _mm256_add_ps(c2, _mm256_mul_ps(f, c3));
    let mid = _mm256_add_ps(c1, _mm256_mul_ps(f, inner));
    _mm256_add_ps(b, _mm256_mul_ps(f, mid))
}

/// Fills `out` from `q` advancing by `step` (at most [`ONE`]), eight frames at a time, while
/// the window of the next eight reads lies inside `samples`. Returns the frames written.
#[target_feature(enable = "avx2")]
pub(super) fn store8(samples: &[f32], q: u64, step: u64, out: &mut [f32]) -> usize {
    if step > ONE {
        return 0;
    }
    let reads = Reads::new(step);
    let (mut q, mut done) = (q, 0);
    for dst in out.chunks_exact_mut(8) {
        let (Some(w), Ok(dst)) = (window(samples, q), <&mut [f32; 8]>::try_from(dst)) else {
            break;
        };
        store(dst, at(&reads, w, q));
        q += 8 * step;
        done += 8;
    }
    done
}

/// Like [`store8`], but adds the reads times `gl` / `gr` into `left` / `right` (the portable
/// mix's products and sums).
#[target_feature(enable = "avx2")]
pub(super) fn mix8(
    samples: &[f32],
    q: u64,
    step: u64,
    (left, right): (&mut [f32], &mut [f32]),
    (gl, gr): (f32, f32),
) -> usize {
    if step > ONE {
        return 0;
    }
    let reads = Reads::new(step);
    let (gl, gr) = (_mm256_set1_ps(gl), _mm256_set1_ps(gr));
    let (mut q, mut done) = (q, 0);
    for (l, r) in left.chunks_exact_mut(8).zip(right.chunks_exact_mut(8)) {
        let (Some(w), Ok(l), Ok(r)) = (
            window(samples, q),
            <&mut [f32; 8]>::try_from(l),
            <&mut [f32; 8]>::try_from(r),
        ) else {
            break;
        };
        let x = at(&reads, w, q);
        store(l, _mm256_add_ps(load(l), _mm256_mul_ps(x, gl)));
        store(r, _mm256_add_ps(load(r), _mm256_mul_ps(x, gr)));
        q += 8 * step;
        done += 8;
    }
    done
}
