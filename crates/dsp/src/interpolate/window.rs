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
    __m256, _mm256_add_epi64, _mm256_add_ps, _mm256_and_si256, _mm256_castps_si256,
    _mm256_castsi256_ps, _mm256_cvtepi32_ps, _mm256_mul_ps, _mm256_permute4x64_epi64,
    _mm256_permutevar8x32_ps, _mm256_set1_epi32, _mm256_set1_epi64x, _mm256_set1_ps,
    _mm256_setr_epi64x, _mm256_setr_ps, _mm256_shuffle_ps, _mm256_srli_epi32, _mm256_storeu_ps,
    _mm256_sub_ps,
};

use super::{FRAC_BITS, FRAC_SCALE, ONE};

/// Fills `out` from position `q` (fixed point) advancing by `step` (at most [`ONE`]), eight
/// frames at a time, while the nine-frame window of the next eight reads lies inside
/// `samples`. Returns the frames written (a multiple of 8; the caller finishes the rest).
/// The caller must ensure every frame of `out` reads inside the buffer (both neighbours).
#[target_feature(enable = "avx2")]
pub(super) fn store8(samples: &[f32], q: u64, step: u64, out: &mut [f32]) -> usize {
    if step > ONE {
        return 0;
    }
    // `k·step` for the eight lanes, as 64-bit integers (below 8·2³²).
    let ks = |k: i64| k * step as i64;
    let k0 = _mm256_setr_epi64x(0, ks(1), ks(2), ks(3));
    let k1 = _mm256_setr_epi64x(ks(4), ks(5), ks(6), ks(7));
    let low16 = _mm256_set1_epi32(0xFFFF);
    let (two16, scale) = (_mm256_set1_ps(65_536.0), _mm256_set1_ps(FRAC_SCALE));
    let mut q = q;
    let mut done = 0;
    for dst in out.chunks_exact_mut(8) {
        let first = (q >> FRAC_BITS) as usize;
        let Some(w) = samples.get(first..first + 9) else {
            break;
        };
        // Positions relative to `first`: whole frames in the high half (0..=7), the
        // fraction in the low half.
        let base = _mm256_set1_epi64x((q & (ONE - 1)) as i64);
        let p0 = _mm256_castsi256_ps(_mm256_add_epi64(base, k0));
        let p1 = _mm256_castsi256_ps(_mm256_add_epi64(base, k1));
        // 32-bit halves in frame order: the shuffles give frames 0, 1, 4, 5 | 2, 3, 6, 7;
        // the 64-bit permute puts them back in order.
        let order = |v: __m256| _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_castps_si256(v));
        let frac = order(_mm256_shuffle_ps::<0b10_00_10_00>(p0, p1));
        let whole = order(_mm256_shuffle_ps::<0b11_01_11_01>(p0, p1));
        let a = _mm256_setr_ps(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]);
        let b = _mm256_setr_ps(w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8]);
        let a = _mm256_permutevar8x32_ps(a, whole);
        let b = _mm256_permutevar8x32_ps(b, whole);
        let hi = _mm256_cvtepi32_ps(_mm256_srli_epi32::<16>(frac));
        let lo = _mm256_cvtepi32_ps(_mm256_and_si256(frac, low16));
        let f = _mm256_mul_ps(_mm256_add_ps(_mm256_mul_ps(hi, two16), lo), scale);
        let x = _mm256_add_ps(a, _mm256_mul_ps(_mm256_sub_ps(b, a), f));
        #[allow(unsafe_code)]
        // SAFETY: `dst` is a chunk of exactly eight `f32`s, valid for writes; the store is
        // unaligned (`storeu`), so any address is allowed.
        unsafe {
            _mm256_storeu_ps(dst.as_mut_ptr(), x)
        };
        q += 8 * step;
        done += 8;
    }
    done
}
