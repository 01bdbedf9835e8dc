//! Linear-interpolation resampling of decoded sample buffers: the one resampler of the
//! workspace (mixer voices and echo taps).
//!
//! Positions are 32.32 fixed point, so they are exact and identical on every platform (no
//! float drift over a long loop). Every read is `s[i] + (s[i + 1] − s[i])·f` with
//! `i = floor(p)` and `f` the 32 fractional bits of `p` rounded to `f32` ([`lerp`]).
//!
//! - Voices ([`resample`], [`resample_mix`]): an unsigned position that
//!   advances by a fixed step ([`step_for`]); a looping sound wraps and its last frame
//!   interpolates toward frame 0, a one-shot reads silence past its end.
//! - Taps ([`read_linear`], [`render_linear`]): `f64` positions (truncated to 32.32, within
//!   ±2³¹ frames), the buffer read as zero outside its frames. Frame `i` of a render reads
//!   `start + i·step` computed exactly in fixed point, so a render split into several calls
//!   gives identical samples whenever the split positions are exact in it (e.g. a dyadic step
//!   such as 0.5, 0.75 or 1.0); in every case the error is below 2⁻³² frames.

use wide::{f32x4, i32x4, u32x4};

use crate::simd::multiversion;

#[cfg(target_arch = "x86_64")]
pub(crate) mod window;

/// Fractional bits of a read position.
pub const FRAC_BITS: u32 = 32;
/// One source frame in fixed point.
pub const ONE: u64 = 1 << FRAC_BITS;
pub(crate) const FRAC_SCALE: f32 = 1.0 / 4_294_967_296.0;

/// Fixed-point step per output frame for a source at `source_rate` played at `output_rate`.
#[must_use]
pub fn step_for(source_rate: u32, output_rate: u32) -> u64 {
    let out = u64::from(output_rate.max(1));
    ((u64::from(source_rate) << FRAC_BITS) + out / 2) / out
}

/// Converts a duration in source frames (fractional) to fixed point (saturating, ≥ 0).
#[must_use]
pub fn frames_to_fixed(frames: f64) -> u64 {
    if frames.is_nan() || frames <= 0.0 {
        return 0;
    }
    let v = frames * ONE as f64;
    if v >= u64::MAX as f64 {
        u64::MAX
    } else {
        v as u64
    }
}

/// Reads `out.len()` frames of `samples` from `*pos` (fixed point) with linear interpolation,
/// advancing `*pos` by `step` per frame.
///
/// - looping: the position wraps at the end and the last frame interpolates toward frame 0;
/// - one-shot: past the end the output is 0 and `*pos` keeps counting (the tail).
///
/// `samples` must not be empty (the handle refuses empty sounds); an empty slice gives silence.
pub fn resample(samples: &[f32], pos: &mut u64, step: u64, looping: bool, out: &mut [f32]) {
    drive(samples, pos, step, looping, &mut Store(out));
}

/// Asks the CPU to start loading the samples the next [`resample`] of `frames` frames from
/// `pos` will read (one prefetch per cache line, into every cache level), so a voice's reads
/// of a sound that is not cached overlap with other voices' work. A hint only: no effect on
/// any result; reads nothing past the end (a looping sound's wrap is not followed).
#[inline]
pub fn prefetch(samples: &[f32], pos: u64, step: u64, frames: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        const LINE: usize = 64 / std::mem::size_of::<f32>();
        let first = (pos >> FRAC_BITS) as usize;
        let span = (step.saturating_mul(frames as u64) >> FRAC_BITS) as usize + 2;
        let Some(end) = first.checked_add(span) else {
            return;
        };
        let end = end.min(samples.len());
        let mut i = first;
        while i < end {
            #[allow(unsafe_code)]
            // SAFETY: the intrinsic needs SSE, part of the x86-64 baseline every build targets;
            // a prefetch never faults and the address is inside `samples` anyway.
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(samples[i..].as_ptr().cast());
            }
            i += LINE;
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (samples, pos, step, frames);
    }
}

/// Like [`resample`], but adds `x·gain_l` / `x·gain_r` into `left` / `right` instead of storing
/// `x` (the fused path of a voice with constant gains and no shelf or sends). Bit-identical to
/// storing and then mixing with constant gains.
pub fn resample_mix(
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

/// Where resampled frames go.
trait Sink {
    fn len(&self) -> usize;
    /// Frames `start..start + n`, all with `p < (len − 1)·2³²` (both neighbours in bounds).
    fn interpolate(&mut self, samples: &[f32], p: &mut u64, step: u64, start: usize, n: usize);
    fn put(&mut self, i: usize, x: f32);
    /// Frames `start..` are silent.
    fn silence(&mut self, start: usize);
}

struct Store<'a>(&'a mut [f32]);

impl Sink for Store<'_> {
    fn len(&self) -> usize {
        self.0.len()
    }

    #[inline(always)]
    fn interpolate(&mut self, samples: &[f32], p: &mut u64, step: u64, start: usize, n: usize) {
        let chunk = &mut self.0[start..start + n];
        if step == ONE && *p & (ONE - 1) == 0 {
            // Same rate, on a sample: a plain copy.
            let first = (*p >> FRAC_BITS) as usize;
            if let Some(src) = samples.get(first..first + n) {
                chunk.copy_from_slice(src);
                *p += ONE * n as u64;
                return;
            }
        }
        if step == ONE {
            // Same rate between samples: one fraction for the whole chunk (vectorises).
            let first = (*p >> FRAC_BITS) as usize;
            if let Some(src) = samples.get(first..first + n + 1) {
                let f = frac(*p);
                for (o, w) in chunk.iter_mut().zip(src.windows(2)) {
                    *o = lerp(w[0], w[1], f);
                }
                *p += ONE * n as u64;
                return;
            }
        }
        let mut q = *p;
        #[cfg(target_arch = "x86_64")]
        let chunk = if crate::simd::avx2() {
            #[allow(unsafe_code)]
            // SAFETY: the one requirement of calling a `#[target_feature(enable = "avx2")]`
            // function is that the CPU has AVX2, which `avx2()` has just checked.
            let done = unsafe { window::store8(samples, q, step, chunk) };
            q += step * done as u64;
            &mut chunk[done..]
        } else {
            chunk
        };
        let mut quads = chunk.chunks_exact_mut(4);
        let mut fr = Quad::fractions(q, step);
        for o in &mut quads {
            o.copy_from_slice(&read_quad(samples, q, step, fr.get()));
            q += 4 * step;
            fr.advance();
        }
        for o in quads.into_remainder() {
            *o = read_inside(samples, q);
            q += step;
        }
        *p = q;
    }

    fn put(&mut self, i: usize, x: f32) {
        self.0[i] = x;
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

    #[inline(always)]
    fn interpolate(&mut self, samples: &[f32], p: &mut u64, step: u64, start: usize, n: usize) {
        let (gl, gr) = (self.gl, self.gr);
        let l = &mut self.left[start..start + n];
        let r = &mut self.right[start..start + n];
        let mut q = *p;
        #[cfg(target_arch = "x86_64")]
        let (l, r) = if crate::simd::avx2() {
            #[allow(unsafe_code)]
            // SAFETY: the one requirement of calling a `#[target_feature(enable = "avx2")]`
            // function is that the CPU has AVX2, which `avx2()` has just checked.
            let done = unsafe { window::mix8(samples, q, step, (&mut *l, &mut *r), (gl, gr)) };
            q += step * done as u64;
            (&mut l[done..], &mut r[done..])
        } else {
            (l, r)
        };
        let mut fr = Quad::fractions(q, step);
        let mut quads = l.chunks_exact_mut(4).zip(r.chunks_exact_mut(4));
        for (ql, qr) in &mut quads {
            let x = read_quad(samples, q, step, fr.get());
            for ((ol, or), v) in ql.iter_mut().zip(qr.iter_mut()).zip(x) {
                *ol += v * gl;
                *or += v * gr;
            }
            q += 4 * step;
            fr.advance();
        }
        let done = l.len() - l.len() % 4;
        for (ol, or) in l[done..].iter_mut().zip(r[done..].iter_mut()) {
            let x = read_inside(samples, q);
            *ol += x * gl;
            *or += x * gr;
            q += step;
        }
        *p = q;
    }

    fn put(&mut self, i: usize, x: f32) {
        self.left[i] += x * self.gl;
        self.right[i] += x * self.gr;
    }

    fn silence(&mut self, _start: usize) {}
}

/// The interpolation fraction of a position: its 32 fractional bits rounded to `f32`.
#[inline(always)]
pub(crate) fn frac(p: u64) -> f32 {
    (p as u32) as f32 * FRAC_SCALE
}

/// The fractional parts (low 32 bits) of four consecutive positions `q + k·step`, advanced four
/// frames at a time: the low 32 bits of a sum are the wrapping sum of the low 32 bits.
pub(crate) struct Quad {
    low: u32x4,
    step4: u32x4,
}

impl Quad {
    #[inline(always)]
    pub(crate) fn fractions(q: u64, step: u64) -> Self {
        let (q, s) = (q as u32, step as u32);
        Self {
            low: u32x4::new([
                q,
                q.wrapping_add(s),
                q.wrapping_add(s.wrapping_mul(2)),
                q.wrapping_add(s.wrapping_mul(3)),
            ]),
            step4: u32x4::splat(s.wrapping_mul(4)),
        }
    }

    #[inline(always)]
    pub(crate) fn get(&self) -> u32x4 {
        self.low
    }

    #[inline(always)]
    pub(crate) fn advance(&mut self) {
        self.low += self.step4;
    }
}

/// [`frac`] of four positions given their low 32 bits, in one SIMD pass: the 32-bit value as
/// `hi·2¹⁶ + lo` (both exact in `f32`) rounded once by the sum, which is the rounded
/// conversion of the whole value; the scale by 2⁻³² is exact.
#[inline(always)]
pub(crate) fn frac4(low: u32x4) -> f32x4 {
    // Both halves are below 2¹⁶, so they are the same as i32.
    let hi = i32x4::new((low >> 16_u32).to_array().map(|v| v as i32));
    let lo = i32x4::new((low & u32x4::splat(0xFFFF)).to_array().map(|v| v as i32));
    (hi.round_float() * f32x4::splat(65_536.0) + lo.round_float()) * f32x4::splat(FRAC_SCALE)
}

/// Four interpolated reads at `q + k·step` (`fr`: their low 32 bits), all with both neighbours
/// in bounds (else 0 for that frame); the same values as four [`read_inside`] calls.
#[inline(always)]
fn read_quad(samples: &[f32], q: u64, step: u64, fr: u32x4) -> [f32; 4] {
    let pair = |k: u64| {
        let idx = ((q + k * step) >> FRAC_BITS) as usize;
        match samples.get(idx..idx + 2) {
            Some(&[a, b]) => (a, b),
            _ => (0.0, 0.0),
        }
    };
    let (p0, p1, p2, p3) = (pair(0), pair(1), pair(2), pair(3));
    let a = f32x4::new([p0.0, p1.0, p2.0, p3.0]);
    let b = f32x4::new([p0.1, p1.1, p2.1, p3.1]);
    (a + (b - a) * frac4(fr)).to_array()
}

/// The interpolation formula every read uses: `a + (b − a)·f`.
#[inline(always)]
#[must_use]
pub fn lerp(a: f32, b: f32, f: f32) -> f32 {
    a + (b - a) * f
}

/// One interpolated read; `p` must satisfy `p < (len − 1)·2³²` (else 0).
#[inline(always)]
fn read_inside(samples: &[f32], p: u64) -> f32 {
    let idx = (p >> FRAC_BITS) as usize;
    match samples.get(idx..idx + 2) {
        Some(&[a, b]) => lerp(a, b, frac(p)),
        _ => 0.0,
    }
}

multiversion! {
    /// The resampler's loop over the frames of one call, into `sink`.
    fn drive(samples: &[f32], pos: &mut u64, step: u64, looping: bool, sink: &mut impl Sink) {
        let total = sink.len();
        let len = samples.len() as u64;
        if len == 0 {
            sink.silence(0);
            *pos = pos.saturating_add(step.saturating_mul(total as u64));
            return;
        }
        let end = len << FRAC_BITS;
        let safe_end = (len - 1) << FRAC_BITS;
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
            if p < safe_end {
                let left = total - i;
                let avail = if step == 0 {
                    left as u64
                } else {
                    (safe_end - p).div_ceil(step)
                };
                let n = left.min(usize::try_from(avail).unwrap_or(usize::MAX));
                sink.interpolate(samples, &mut p, step, i, n);
                i += n;
            } else {
                // The last source frame: interpolate toward frame 0 (loop) or silence (one-shot).
                let a = samples[(len - 1) as usize];
                let b = if looping { samples[0] } else { 0.0 };
                let f = frac(p);
                sink.put(i, lerp(a, b, f));
                p += step;
                i += 1;
            }
        }
        *pos = p;
    }
}

/// Positions of the `f64` API must lie within ±2³¹ frames.
const LIMIT: f64 = 2_147_483_648.0;

/// `pos` in signed 32.32 fixed point (truncated toward zero), or `None` if NaN or too large.
#[inline]
pub(crate) fn to_fixed(pos: f64) -> Option<i64> {
    if pos.abs() < LIMIT {
        Some((pos * ONE as f64) as i64)
    } else {
        None
    }
}

/// Reads at signed fixed-point position `p`, zero outside the buffer.
#[inline]
fn read_fixed(samples: &[f32], p: i64) -> f32 {
    let idx = p >> FRAC_BITS;
    let at = |k: i64| {
        usize::try_from(k)
            .ok()
            .and_then(|k| samples.get(k))
            .copied()
            .unwrap_or(0.0)
    };
    // Two's complement: the low 32 bits are the fraction above `floor(p)` for negative `p` too.
    lerp(at(idx), at(idx + 1), frac(p as u64))
}

/// Reads `samples` at fractional frame position `pos` (zero outside; NaN → 0).
#[inline]
#[must_use]
pub fn read_linear(samples: &[f32], pos: f64) -> f32 {
    to_fixed(pos).map_or(0.0, |p| read_fixed(samples, p))
}

/// Fills `out[i] = read_linear(samples, start + i·step)` (zero outside the buffer).
///
/// Runs the voices' resampler (no per-frame range checks) over the part of the block that lies
/// inside the buffer; non-finite `start`/`step` give silence.
pub fn render_linear(samples: &[f32], start: f64, step: f64, out: &mut [f32]) {
    let (Some(s0), Some(st)) = (to_fixed(start), to_fixed(step)) else {
        out.fill(0.0);
        return;
    };
    let n = out.len() as i64;
    let last = s0.saturating_add(st.saturating_mul(n.saturating_sub(1)));
    let len = samples.len() as i64;
    let inside = |p: i64| p >= 0 && (p >> FRAC_BITS) + 1 < len;
    if n > 0 && st >= 0 && inside(s0) && inside(last) && n < (1 << 31) {
        // Every frame has both neighbours in the buffer: the voices' inner loop.
        let mut p = s0 as u64;
        let frames = out.len();
        Store(out).interpolate(samples, &mut p, st as u64, 0, frames);
    } else {
        for (i, o) in out.iter_mut().enumerate() {
            let p = s0.saturating_add((i as i64).saturating_mul(st));
            *o = read_fixed(samples, p);
        }
    }
}
