//! The renderer's hot loops, compiled for the baseline and AVX2 (`crate::simd::multiversion`;
//! element-wise IEEE operations in a fixed order, no FMA: identical bits either way).
//!
//! Spectra are stored split: `BINS` real parts then `BINS` imaginary parts.

use realfft::num_complex::Complex;

use super::bank::{BINS, FFT_LEN, PARTITION};
use crate::simd::multiversion;

multiversion! {
/// `out = w[0]·s[0] + w[1]·s[1] + w[2]·s[2] + w[3]·s[3]`, element by element, left to right
/// (one pass: the interpolated filter of a direction from up to four measured ones; unused
/// entries carry weight 0). Runs over the shortest of the slices.
pub(crate) fn blend4(out: &mut [f32], s: [&[f32]; 4], w: [f32; 4]) {
    let [s0, s1, s2, s3] = s;
    let [w0, w1, w2, w3] = w;
    for ((((o, &a), &b), &c), &d) in out.iter_mut().zip(s0).zip(s1).zip(s2).zip(s3) {
        *o = w0 * a + w1 * b + w2 * c + w3 * d;
    }
}
}

/// Bins summed side by side in [`convolve_filter`] (two AVX registers' worth).
const LANES: usize = 16;

/// `LANES` values of `v` from `at`, if there are that many.
#[inline(always)]
fn lanes(v: &[f32], at: usize) -> Option<&[f32; LANES]> {
    v.get(at..at + LANES)?.try_into().ok()
}

multiversion! {
/// One filter applied to the frequency-domain delay line: for each ear `e`,
/// `acc_e = Σ_k X[head − k] · H_e[k]` (complex products, summed in partition order).
///
/// `fdl` holds `P` input spectra (slot `head` the newest), `filter` the two ears' `P`
/// partition spectra (ear-major), `acc` the two ears' sums (`4 × BINS`: left re, left im,
/// right re, right im), each summed from zero in partition order.
pub(crate) fn convolve_filter(fdl: &[f32], head: usize, filter: &[f32], acc: &mut [f32]) {
    let stride = 2 * BINS;
    let p_count = fdl.len() / stride;
    if p_count == 0 || filter.len() < 2 * p_count * stride || acc.len() < 2 * stride {
        return;
    }
    for (ear, out) in acc.chunks_exact_mut(stride).take(2).enumerate() {
        let (ar, ai) = out.split_at_mut(BINS);
        // Bins in register-sized groups, summed over the partitions before one store.
        let mut b0 = 0;
        while b0 + LANES <= BINS {
            let mut sr = [0.0f32; LANES];
            let mut si = [0.0f32; LANES];
            for k in 0..p_count {
                let x = ((head + p_count - k) % p_count) * stride + b0;
                let h = (ear * p_count + k) * stride + b0;
                let (Some(xr), Some(xi), Some(hr), Some(hi)) = (
                    lanes(fdl, x),
                    lanes(fdl, x + BINS),
                    lanes(filter, h),
                    lanes(filter, h + BINS),
                ) else {
                    return;
                };
                for l in 0..LANES {
                    sr[l] += xr[l] * hr[l] - xi[l] * hi[l];
                    si[l] += xr[l] * hi[l] + xi[l] * hr[l];
                }
            }
            ar[b0..b0 + LANES].copy_from_slice(&sr);
            ai[b0..b0 + LANES].copy_from_slice(&si);
            b0 += LANES;
        }
        for b in b0..BINS {
            let (mut sr, mut si) = (0.0f32, 0.0f32);
            for k in 0..p_count {
                let x = ((head + p_count - k) % p_count) * stride + b;
                let h = (ear * p_count + k) * stride + b;
                let (xr, xi, hr, hi) = (fdl[x], fdl[x + BINS], filter[h], filter[h + BINS]);
                sr += xr * hr - xi * hi;
                si += xr * hi + xi * hr;
            }
            ar[b] = sr;
            ai[b] = si;
        }
    }
}
}

multiversion! {
/// Packs the two ears' half spectra (`acc`, as [`convolve_filter`] leaves them) into one full
/// complex spectrum `z` of `FFT_LEN` bins, `Z = L + i·R` (each extended Hermitian), so that
/// one complex inverse transform gives the left ear in the real parts and the right ear in
/// the imaginary parts.
pub(crate) fn pack_ears(acc: &[f32], z: &mut [Complex<f32>]) {
    if acc.len() < 4 * BINS || z.len() < FFT_LEN {
        return;
    }
    let (l, r) = acc.split_at(2 * BINS);
    let (lr, li) = l.split_at(BINS);
    let (rr, ri) = r[..2 * BINS].split_at(BINS);
    // A real signal's DC and Nyquist bins are real.
    z[0] = Complex::new(lr[0], rr[0]);
    z[PARTITION] = Complex::new(lr[PARTITION], rr[PARTITION]);
    let (low, high) = z[..FFT_LEN].split_at_mut(PARTITION + 1);
    let bins = || {
        lr[1..PARTITION]
            .iter()
            .zip(&li[1..PARTITION])
            .zip(rr[1..PARTITION].iter().zip(&ri[1..PARTITION]))
    };
    for (o, ((&a, &b), (&c, &d))) in low[1..].iter_mut().zip(bins()) {
        *o = Complex::new(a - d, b + c);
    }
    for (o, ((&a, &b), (&c, &d))) in high.iter_mut().rev().zip(bins()) {
        *o = Complex::new(a + d, c - b);
    }
}
}

multiversion! {
/// The valid half of an overlap-save transform `z` (its last [`PARTITION`] samples): left
/// ear from the real parts, right ear from the imaginary parts.
pub(crate) fn unpack_ears(z: &[Complex<f32>], left: &mut [f32], right: &mut [f32]) {
    let tail = z.get(PARTITION..FFT_LEN).unwrap_or(&[]);
    for ((c, l), r) in tail.iter().zip(left.iter_mut()).zip(right.iter_mut()) {
        *l = c.re;
        *r = c.im;
    }
}
}

multiversion! {
/// Like [`unpack_ears`], crossfading linearly from the transform `old` to `new` across the
/// partition: sample `i` is `a + g·(b − a)` with `g = (i + 1) / PARTITION`.
pub(crate) fn crossfade_ears(
    old: &[Complex<f32>],
    new: &[Complex<f32>],
    left: &mut [f32],
    right: &mut [f32],
) {
    let a = old.get(PARTITION..FFT_LEN).unwrap_or(&[]);
    let b = new.get(PARTITION..FFT_LEN).unwrap_or(&[]);
    let step = 1.0 / PARTITION as f32;
    for (i, (((a, b), l), r)) in a
        .iter()
        .zip(b)
        .zip(left.iter_mut())
        .zip(right.iter_mut())
        .enumerate()
    {
        let g = (i as f32 + 1.0) * step;
        *l = a.re + g * (b.re - a.re);
        *r = a.im + g * (b.im - a.im);
    }
}
}
