//! The 4-point read of oversampled buffers: the cheap half of the Modern resampler.
//!
//! A sound raised to at least 44.1 kHz by [`crate::oversample`] holds nothing above the
//! original Nyquist, so the images a short kernel leaves sit near multiples of the raised rate
//! (≥ 40 kHz for a 4 kHz partial), where the third-order Lagrange polynomial through four
//! neighbours rejects them (its response has fourth-order zeros at the multiples of the rate):
//! read at 48 kHz ± 6 %, a 1 kHz and a 4 kHz partial of an 11.025 kHz sound keep every image
//! and alias ≥ 60 dB down across 20 Hz–20 kHz, and the partials within 0.05 dB (the tests and
//! `resound verify` measure it).
//!
//! Positions and their fractions are those of [`crate::interpolate`] (32.32 fixed point, the
//! fraction its low 32 bits rounded to `f32`); the read at `i + f` is
//! `b + f·(c₁ + f·(c₂ + f·c₃))` with `a, b, c, d` the frames `i − 1 ..= i + 2` and
//! `c₁ = c − a/3 − b/2 − d/6`, `c₂ = (a + c)/2 − b`, `c₃ = (d − a)/6 + (b − c)/2`, in this
//! order of operations on every path (four lanes at a time or one), so every path, split and
//! build (baseline or AVX2) gives the same bits. At `f = 0` the read is `b` exactly.
//!
//! - Voices ([`resample_cubic`], [`resample_cubic_mix`]): as [`crate::resample`]: a looping
//!   sound wraps (its neighbours round the loop), a one-shot reads zero outside its frames and
//!   silence from its end on.
//! - Taps ([`render_cubic`]): as [`crate::render_linear`], `f64` positions, zero outside.

use std::ops::{Add, Mul, Sub};

use wide::f32x4;

use crate::interpolate::{FRAC_BITS, ONE, Quad, frac, frac4, to_fixed};
use crate::simd::multiversion;

/// The Lagrange polynomial through `(−1, a), (0, b), (1, c), (2, d)` at `f`, with the constants
/// `half = 1/2`, `third = 1/3`, `sixth = 1/6` (scalars or vectors: the same operations).
#[inline(always)]
fn kernel<T>(a: T, b: T, c: T, d: T, f: T, [half, third, sixth]: [T; 3]) -> T
where
    T: Copy + Add<Output = T> + Sub<Output = T> + Mul<Output = T>,
{
    let c1 = c - a * third - b * half - d * sixth;
    let c2 = (a + c) * half - b;
    let c3 = (d - a) * sixth + (b - c) * half;
    b + f * (c1 + f * (c2 + f * c3))
}

const HALF: f32 = 0.5;
const THIRD: f32 = 1.0 / 3.0;
const SIXTH: f32 = 1.0 / 6.0;

/// One read from the four frames `w` at fraction `f`.
#[inline(always)]
#[must_use]
pub fn read4(w: [f32; 4], f: f32) -> f32 {
    kernel(w[0], w[1], w[2], w[3], f, [HALF, THIRD, SIXTH])
}

/// Four reads, lane `k` from `w[k]` at fraction lane `k` of `f`.
#[inline(always)]
fn read4x4(w: [[f32; 4]; 4], f: f32x4) -> [f32; 4] {
    let lane = |j: usize| f32x4::new([w[0][j], w[1][j], w[2][j], w[3][j]]);
    let k = [f32x4::splat(HALF), f32x4::splat(THIRD), f32x4::splat(SIXTH)];
    kernel(lane(0), lane(1), lane(2), lane(3), f, k).to_array()
}

/// Frames `idx − 1 ..= idx + 2` (in bounds: `1 ≤ idx ≤ len − 3`; else zeros).
#[inline(always)]
fn window(samples: &[f32], idx: usize) -> [f32; 4] {
    samples
        .get(idx.wrapping_sub(1)..idx.wrapping_add(3))
        .and_then(|s| s.try_into().ok())
        .unwrap_or([0.0; 4])
}

/// The four frames round `idx` with the loop's wrap or zero outside (the edges).
#[inline]
fn window_edge(samples: &[f32], idx: i64, looping: bool) -> [f32; 4] {
    let len = samples.len() as i64;
    std::array::from_fn(|j| {
        let m = idx - 1 + j as i64;
        if looping {
            samples[m.rem_euclid(len) as usize]
        } else if (0..len).contains(&m) {
            samples[m as usize]
        } else {
            0.0
        }
    })
}

#[cfg(target_arch = "x86_64")]
mod window;

/// Where read frames go.
trait Sink {
    fn len(&self) -> usize;
    /// Frames from `start` (at most `n`) by the AVX2 loop, from `q` (every read of them in the
    /// fast range); returns how many it wrote. Only called when [`crate::simd::avx2`] is true.
    #[cfg(target_arch = "x86_64")]
    fn wide(&mut self, samples: &[f32], q: u64, step: u64, start: usize, n: usize) -> usize;
    fn put(&mut self, i: usize, x: f32);
    fn put4(&mut self, i: usize, x: [f32; 4]);
    /// Frames `start..` are silent.
    fn silence(&mut self, start: usize);
}

struct Store<'a>(&'a mut [f32]);

impl Sink for Store<'_> {
    fn len(&self) -> usize {
        self.0.len()
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn wide(&mut self, samples: &[f32], q: u64, step: u64, start: usize, n: usize) -> usize {
        #[allow(unsafe_code)]
        // SAFETY: the one requirement of calling a `#[target_feature(enable = "avx2")]`
        // function is that the CPU has AVX2, which the caller has checked (`simd::avx2`).
        unsafe {
            window::store8(samples, q, step, &mut self.0[start..start + n])
        }
    }
    #[inline(always)]
    fn put(&mut self, i: usize, x: f32) {
        self.0[i] = x;
    }
    #[inline(always)]
    fn put4(&mut self, i: usize, x: [f32; 4]) {
        self.0[i..i + 4].copy_from_slice(&x);
    }
    fn silence(&mut self, start: usize) {
        self.0[start..].fill(0.0);
    }
}

struct Mix<'a> {
    left: &'a mut [f32],
    right: &'a mut [f32],
    gl: f32,
    gr: f32,
}

impl Sink for Mix<'_> {
    fn len(&self) -> usize {
        self.left.len()
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn wide(&mut self, samples: &[f32], q: u64, step: u64, start: usize, n: usize) -> usize {
        let (l, r) = (
            &mut self.left[start..start + n],
            &mut self.right[start..start + n],
        );
        #[allow(unsafe_code)]
        // SAFETY: as for `Store::wide`: the caller has checked that the CPU has AVX2.
        unsafe {
            window::mix8(samples, q, step, (l, r), (self.gl, self.gr))
        }
    }
    #[inline(always)]
    fn put(&mut self, i: usize, x: f32) {
        self.left[i] += x * self.gl;
        self.right[i] += x * self.gr;
    }
    #[inline(always)]
    fn put4(&mut self, i: usize, x: [f32; 4]) {
        let (l, r) = (&mut self.left[i..i + 4], &mut self.right[i..i + 4]);
        for ((ol, or), v) in l.iter_mut().zip(r.iter_mut()).zip(x) {
            *ol += v * self.gl;
            *or += v * self.gr;
        }
    }
    fn silence(&mut self, _start: usize) {}
}

/// Reads `n` frames from `*p` (all with `1 ≤ floor ≤ len − 3`) into `sink` from frame `start`.
#[inline(always)]
fn run(samples: &[f32], p: &mut u64, step: u64, start: usize, n: usize, sink: &mut impl Sink) {
    let mut q = *p;
    #[cfg(target_arch = "x86_64")]
    let (start, n) = if crate::simd::avx2() {
        let done = sink.wide(samples, q, step, start, n);
        q += step * done as u64;
        (start + done, n - done)
    } else {
        (start, n)
    };
    let mut fr = Quad::fractions(q, step);
    let quads = n / 4;
    for k in 0..quads {
        let w: [[f32; 4]; 4] =
            std::array::from_fn(|j| window(samples, ((q + j as u64 * step) >> FRAC_BITS) as usize));
        sink.put4(start + 4 * k, read4x4(w, frac4(fr.get())));
        q += 4 * step;
        fr.advance();
    }
    for i in start + 4 * quads..start + n {
        sink.put(
            i,
            read4(window(samples, (q >> FRAC_BITS) as usize), frac(q)),
        );
        q += step;
    }
    *p = q;
}

multiversion! {
    /// The read loop over the frames of one call, into `sink`.
    fn drive(samples: &[f32], pos: &mut u64, step: u64, looping: bool, sink: &mut impl Sink) {
        let total = sink.len();
        let len = samples.len() as u64;
        if len == 0 {
            sink.silence(0);
            *pos = pos.saturating_add(step.saturating_mul(total as u64));
            return;
        }
        let end = len << FRAC_BITS;
        // Inside `ONE..fast_end` all four neighbours are in the buffer.
        let fast_end = len.saturating_sub(2) << FRAC_BITS;
        let mut p = *pos;
        let mut i = 0;
        while i < total {
            if p >= end {
                if looping {
                    p %= end;
                } else {
                    sink.silence(i);
                    p = p.saturating_add(step.saturating_mul((total - i) as u64));
                    break;
                }
            }
            if p >= ONE && p < fast_end {
                let left = total - i;
                let avail = if step == 0 {
                    left as u64
                } else {
                    (fast_end - p).div_ceil(step)
                };
                let n = left.min(usize::try_from(avail).unwrap_or(usize::MAX));
                run(samples, &mut p, step, i, n, sink);
                i += n;
            } else {
                let w = window_edge(samples, (p >> FRAC_BITS) as i64, looping);
                sink.put(i, read4(w, frac(p)));
                p += step;
                i += 1;
            }
        }
        *pos = p;
    }
}

/// [`crate::resample`] with the 4-point kernel: reads `out.len()` frames of `samples` from
/// `*pos`, advancing it by `step` per frame (looping: wraps; one-shot: silence past the end).
pub fn resample_cubic(samples: &[f32], pos: &mut u64, step: u64, looping: bool, out: &mut [f32]) {
    drive(samples, pos, step, looping, &mut Store(out));
}

/// Like [`resample_cubic`], but adds `x·gain_l` / `x·gain_r` into `left` / `right`
/// (bit-identical to storing and then mixing with constant gains).
pub fn resample_cubic_mix(
    samples: &[f32],
    pos: &mut u64,
    step: u64,
    looping: bool,
    gains: (f32, f32),
    left: &mut [f32],
    right: &mut [f32],
) {
    let n = left.len().min(right.len());
    drive(
        samples,
        pos,
        step,
        looping,
        &mut Mix {
            left: &mut left[..n],
            right: &mut right[..n],
            gl: gains.0,
            gr: gains.1,
        },
    );
}

/// Reads at signed fixed-point position `p`, zero outside the buffer.
#[inline]
fn read_fixed(samples: &[f32], p: i64) -> f32 {
    read4(window_edge(samples, p >> FRAC_BITS, false), frac(p as u64))
}

/// Reads `samples` at fractional frame `pos` with the 4-point kernel (zero outside; NaN → 0).
#[must_use]
pub fn read_cubic(samples: &[f32], pos: f64) -> f32 {
    if samples.is_empty() {
        return 0.0;
    }
    to_fixed(pos).map_or(0.0, |p| read_fixed(samples, p))
}

/// Fills `out[i] = read_cubic(samples, start + i·step)` (zero outside the buffer; the echo
/// taps' read). Non-finite `start`/`step` give silence.
pub fn render_cubic(samples: &[f32], start: f64, step: f64, out: &mut [f32]) {
    let (Some(s0), Some(st)) = (to_fixed(start), to_fixed(step)) else {
        out.fill(0.0);
        return;
    };
    if samples.is_empty() {
        out.fill(0.0);
        return;
    }
    let n = out.len() as i64;
    let last = s0.saturating_add(st.saturating_mul(n.saturating_sub(1)));
    let len = samples.len() as i64;
    let inside = |p: i64| p >= ONE as i64 && (p >> FRAC_BITS) + 2 < len;
    if n > 0 && st >= 0 && inside(s0) && inside(last) && n < (1 << 31) {
        let mut p = s0 as u64;
        let frames = out.len();
        run(samples, &mut p, st as u64, 0, frames, &mut Store(out));
    } else {
        for (i, o) in out.iter_mut().enumerate() {
            *o = read_fixed(samples, s0.saturating_add((i as i64).saturating_mul(st)));
        }
    }
}

#[cfg(test)]
mod tests;
