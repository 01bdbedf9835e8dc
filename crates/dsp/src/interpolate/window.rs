//! The resampler's AVX2 loop for sources read at or below their rate (`step ≤ 1` frame, e.g.
//! 11.025–48 kHz sounds on a 48 kHz mix): eight output frames per step.
//!
//! Eight consecutive reads at `q + k·step` (`k < 8`, `step ≤ 1`) fall in the nine source
//! frames from `floor(q)`: one unaligned load of that window (and of the window shifted by
//! one) and a lane permute give every read's two neighbours, where the portable loop gathers
//! sixteen scalars. The arithmetic is the portable loop's, lane for lane: the fraction is the
//! position's low 32 bits converted as `hi·2¹⁶ + lo` and scaled by 2⁻³², the read is
//! `a + (b − a)·f`, so the samples are bit-identical to it.

use core::arch::x86_64::{
    __m256, __m256i, _mm256_add_epi64, _mm256_add_ps, _mm256_and_si256, _mm256_castps_si256,
    _mm256_castsi256_ps, _mm256_cvtepi32_ps, _mm256_mul_ps, _mm256_permute4x64_epi64,
    _mm256_permutevar8x32_ps, _mm256_set1_epi32, _mm256_set1_epi64x, _mm256_set1_ps,
    _mm256_setr_epi64x, _mm256_setr_ps, _mm256_shuffle_ps, _mm256_srli_epi32, _mm256_storeu_ps,
    _mm256_sub_ps,
};

use super::{FRAC_BITS, FRAC_SCALE, ONE};

/// The constants of the eight-frame reads at `step`.
pub(crate) struct Reads {
    /// `k·step` for lanes 0..4 and 4..8, as 64-bit integers (below 8·2³²).
    k0: __m256i,
    k1: __m256i,
    low16: __m256i,
    two16: __m256,
    scale: __m256,
}

impl Reads {
    #[target_feature(enable = "avx2")]
    pub(crate) fn new(step: u64) -> Self {
        let ks = |k: i64| k * step as i64;
        Self {
            k0: _mm256_setr_epi64x(0, ks(1), ks(2), ks(3)),
            k1: _mm256_setr_epi64x(ks(4), ks(5), ks(6), ks(7)),
            low16: _mm256_set1_epi32(0xFFFF),
            two16: _mm256_set1_ps(65_536.0),
            scale: _mm256_set1_ps(FRAC_SCALE),
        }
    }

    /// The eight reads at `q + k·step` from the window `w` of the nine source frames from
    /// `floor(q)`.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn at(&self, w: &[f32; 9], q: u64) -> __m256 {
        let (whole, f) = self.split(q);
        let a = _mm256_setr_ps(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]);
        let b = _mm256_setr_ps(w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8]);
        let a = _mm256_permutevar8x32_ps(a, whole);
        let b = _mm256_permutevar8x32_ps(b, whole);
        _mm256_add_ps(a, _mm256_mul_ps(_mm256_sub_ps(b, a), f))
    }

    /// The eight reads' whole frames relative to `floor(q)` (0..=7, lane indices for a
    /// permute) and their fractions (as the portable loop converts them).
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(crate) fn split(&self, q: u64) -> (__m256i, __m256) {
        // Positions relative to `floor(q)`: whole frames in the high half (0..=7), the
        // fraction in the low half.
        let base = _mm256_set1_epi64x((q & (ONE - 1)) as i64);
        let p0 = _mm256_castsi256_ps(_mm256_add_epi64(base, self.k0));
        let p1 = _mm256_castsi256_ps(_mm256_add_epi64(base, self.k1));
        // 32-bit halves in frame order: the shuffles give frames 0, 1, 4, 5 | 2, 3, 6, 7;
        // the 64-bit permute puts them back in order.
        let order = |v: __m256| _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_castps_si256(v));
        let frac = order(_mm256_shuffle_ps::<0b10_00_10_00>(p0, p1));
        let whole = order(_mm256_shuffle_ps::<0b11_01_11_01>(p0, p1));
        let hi = _mm256_cvtepi32_ps(_mm256_srli_epi32::<16>(frac));
        let lo = _mm256_cvtepi32_ps(_mm256_and_si256(frac, self.low16));
        let f = _mm256_mul_ps(_mm256_add_ps(_mm256_mul_ps(hi, self.two16), lo), self.scale);
        (whole, f)
    }
}

/// The nine-frame window from `floor(q)`, if it lies inside `samples`.
#[inline(always)]
fn window(samples: &[f32], q: u64) -> Option<&[f32; 9]> {
    let first = (q >> FRAC_BITS) as usize;
    samples.get(first..first + 9)?.try_into().ok()
}

/// Stores `x` into the eight `f32`s of `dst`.
#[target_feature(enable = "avx2")]
#[inline]
pub(crate) fn store(dst: &mut [f32; 8], x: __m256) {
    #[allow(unsafe_code)]
    // SAFETY: `dst` is exactly eight `f32`s, valid for writes; the store is unaligned
    // (`storeu`), so any address is allowed.
    unsafe {
        _mm256_storeu_ps(dst.as_mut_ptr(), x)
    };
}

/// Eight `f32`s of `s` as a vector.
#[target_feature(enable = "avx2")]
#[inline]
pub(crate) fn load(s: &[f32; 8]) -> __m256 {
    _mm256_setr_ps(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7])
}

/// Fills `out` from position `q` (fixed point) advancing by `step` (at most [`ONE`]), eight
/// frames at a time, while the nine-frame window of the next eight reads lies inside
/// `samples`. Returns the frames written (a multiple of 8; the caller finishes the rest).
#[target_feature(enable = "avx2")]
pub(super) fn store8(samples: &[f32], q: u64, step: u64, out: &mut [f32]) -> usize {
    if step > ONE {
        return 0;
    }
    let reads = Reads::new(step);
    let mut q = q;
    let mut done = 0;
    for dst in out.chunks_exact_mut(8) {
        let Some(w) = window(samples, q) else {
            break;
        };
        let Ok(dst) = <&mut [f32; 8]>::try_from(dst) else {
            break;
        };
        store(dst, reads.at(w, q));
        q += 8 * step;
        done += 8;
    }
    done
}

/// Like [`store8`], but adds the reads times `gl` / `gr` into `left` / `right` (the same
/// products and sums as the portable constant-gain mix).
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
    let mut q = q;
    let mut done = 0;
    for (l, r) in left.chunks_exact_mut(8).zip(right.chunks_exact_mut(8)) {
        let Some(w) = window(samples, q) else {
            break;
        };
        let (Ok(l), Ok(r)) = (<&mut [f32; 8]>::try_from(l), <&mut [f32; 8]>::try_from(r)) else {
            break;
        };
        let x = reads.at(w, q);
        store(l, _mm256_add_ps(load(l), _mm256_mul_ps(x, gl)));
        store(r, _mm256_add_ps(load(r), _mm256_mul_ps(x, gr)));
        q += 8 * step;
        done += 8;
    }
    done
}
