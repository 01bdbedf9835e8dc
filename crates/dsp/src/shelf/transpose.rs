//! The bank's interleaving with AVX2: eight buffers ⇄ frame-major rows, eight frames at a time
//! through one 8×8 transpose in registers (eight 256-bit loads, 24 shuffles, eight stores).
//! Pure data movement, so the bits are those of the portable interleaving.

use core::arch::x86_64::{
    __m256, _mm256_loadu_ps, _mm256_permute2f128_ps, _mm256_shuffle_ps, _mm256_storeu_ps,
    _mm256_unpackhi_ps, _mm256_unpacklo_ps,
};

use super::BANK_LANES;

const L: usize = BANK_LANES;

/// `out[j][k] = r[k][j]`: the transpose of eight vectors of eight lanes.
#[target_feature(enable = "avx2")]
#[inline]
fn transpose(r: [__m256; L]) -> [__m256; L] {
    // Pairs of rows interleaved: t0 = r0[0] r1[0] r0[1] r1[1] | r0[4] r1[4] r0[5] r1[5], …
    let t0 = _mm256_unpacklo_ps(r[0], r[1]);
    let t1 = _mm256_unpackhi_ps(r[0], r[1]);
    let t2 = _mm256_unpacklo_ps(r[2], r[3]);
    let t3 = _mm256_unpackhi_ps(r[2], r[3]);
    let t4 = _mm256_unpacklo_ps(r[4], r[5]);
    let t5 = _mm256_unpackhi_ps(r[4], r[5]);
    let t6 = _mm256_unpacklo_ps(r[6], r[7]);
    let t7 = _mm256_unpackhi_ps(r[6], r[7]);
    // Quads: u0 = r0[0] r1[0] r2[0] r3[0] | r0[4] r1[4] r2[4] r3[4], …
    let u0 = _mm256_shuffle_ps::<0x44>(t0, t2);
    let u1 = _mm256_shuffle_ps::<0xEE>(t0, t2);
    let u2 = _mm256_shuffle_ps::<0x44>(t1, t3);
    let u3 = _mm256_shuffle_ps::<0xEE>(t1, t3);
    let u4 = _mm256_shuffle_ps::<0x44>(t4, t6);
    let u5 = _mm256_shuffle_ps::<0xEE>(t4, t6);
    let u6 = _mm256_shuffle_ps::<0x44>(t5, t7);
    let u7 = _mm256_shuffle_ps::<0xEE>(t5, t7);
    // Halves joined: lanes 0..4 from the first four rows, 4..8 from the last four.
    [
        _mm256_permute2f128_ps::<0x20>(u0, u4),
        _mm256_permute2f128_ps::<0x20>(u1, u5),
        _mm256_permute2f128_ps::<0x20>(u2, u6),
        _mm256_permute2f128_ps::<0x20>(u3, u7),
        _mm256_permute2f128_ps::<0x31>(u0, u4),
        _mm256_permute2f128_ps::<0x31>(u1, u5),
        _mm256_permute2f128_ps::<0x31>(u2, u6),
        _mm256_permute2f128_ps::<0x31>(u3, u7),
    ]
}

/// `rows[i][k] = bufs[k][start + i]` for the first multiple of eight rows; returns how many
/// rows it filled (0 when a buffer is shorter than `start + rows.len()`).
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn interleave8(bufs: &[&mut [f32]; L], start: usize, rows: &mut [[f32; L]]) -> usize {
    let m = rows.len() / L * L;
    let Some(end) = start.checked_add(m) else {
        return 0;
    };
    if bufs.iter().any(|b| b.len() < end) {
        return 0;
    }
    let src: [*const f32; L] = std::array::from_fn(|k| bufs[k][start..end].as_ptr());
    for (c, block) in rows[..m].chunks_exact_mut(L).enumerate() {
        let i = c * L;
        #[allow(unsafe_code)]
        // SAFETY: every buffer holds `start + m` frames (checked above) and `i + 8 <= m`, so
        // each load reads eight `f32`s inside its buffer; `block` is eight rows of eight
        // `f32`s, valid for writes. Loads and stores are unaligned (`loadu`/`storeu`).
        unsafe {
            let r = src.map(|p| _mm256_loadu_ps(p.add(i)));
            for (row, v) in block.iter_mut().zip(transpose(r)) {
                _mm256_storeu_ps(row.as_mut_ptr(), v);
            }
        }
    }
    m
}

/// `bufs[k][start + i] = rows[i][k]` (the inverse of [`interleave8`]) for the first multiple
/// of eight rows; returns how many rows it wrote back (0 when a buffer is too short).
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn deinterleave8(rows: &[[f32; L]], bufs: &mut [&mut [f32]; L], start: usize) -> usize {
    let m = rows.len() / L * L;
    let Some(end) = start.checked_add(m) else {
        return 0;
    };
    if bufs.iter().any(|b| b.len() < end) {
        return 0;
    }
    let dst: [*mut f32; L] = std::array::from_fn(|k| bufs[k][start..end].as_mut_ptr());
    for (c, block) in rows[..m].chunks_exact(L).enumerate() {
        let i = c * L;
        #[allow(unsafe_code)]
        // SAFETY: `block` is eight rows of eight `f32`s; every buffer holds `start + m` frames
        // (checked above) and `i + 8 <= m`, so each store writes eight `f32`s inside its
        // buffer (the eight buffers are distinct `&mut` slices). Unaligned loads and stores.
        unsafe {
            let r: [__m256; L] = std::array::from_fn(|j| _mm256_loadu_ps(block[j].as_ptr()));
            for (p, v) in dst.iter().zip(transpose(r)) {
                _mm256_storeu_ps(p.add(i), v);
            }
        }
    }
    m
}
