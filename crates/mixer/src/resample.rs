//! Linear-interpolation resampling with a 32.32 fixed-point read position.
//!
//! Fixed point keeps positions exact and identical on every platform (no float drift over a long
//! loop); the step for a sound at `rate` played at `fs` is `round(rate·2³²/fs)`.

/// Fractional bits of a read position.
pub const FRAC_BITS: u32 = 32;
/// One source frame in fixed point.
pub const ONE: u64 = 1 << FRAC_BITS;
const FRAC_SCALE: f32 = 1.0 / 4_294_967_296.0;

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
    if v >= u64::MAX as f64 { u64::MAX } else { v as u64 }
}

/// Reads `out.len()` frames of `samples` from `*pos` (fixed point) with linear interpolation,
/// advancing `*pos` by `step` per frame.
///
/// - looping: the position wraps at the end and the last frame interpolates toward frame 0;
/// - one-shot: past the end the output is 0 and `*pos` keeps counting (the tail).
///
/// `samples` must not be empty (the handle refuses empty sounds); an empty slice gives silence.
pub fn resample(samples: &[f32], pos: &mut u64, step: u64, looping: bool, out: &mut [f32]) {
    let len = samples.len() as u64;
    if len == 0 {
        out.fill(0.0);
        *pos = pos.saturating_add(step.saturating_mul(out.len() as u64));
        return;
    }
    let end = len << FRAC_BITS;
    let safe_end = (len - 1) << FRAC_BITS;
    let mut p = *pos;
    let mut i = 0;
    while i < out.len() {
        if p >= end {
            if looping {
                p %= end;
            } else {
                out[i..].fill(0.0);
                p = p.saturating_add(step.saturating_mul((out.len() - i) as u64));
                break;
            }
        }
        if p < safe_end {
            let left = out.len() - i;
            let avail = if step == 0 {
                left as u64
            } else {
                (safe_end - p).div_ceil(step)
            };
            let n = left.min(usize::try_from(avail).unwrap_or(usize::MAX));
            let chunk = &mut out[i..i + n];
            if step == ONE && p & (ONE - 1) == 0 {
                // Same rate, on a sample: a plain copy.
                let start = (p >> FRAC_BITS) as usize;
                chunk.copy_from_slice(&samples[start..start + n]);
                p += ONE * n as u64;
            } else {
                interpolate(samples, &mut p, step, chunk);
            }
            i += n;
        } else {
            // The last source frame: interpolate toward frame 0 (loop) or silence (one-shot).
            let a = samples[(len - 1) as usize];
            let b = if looping { samples[0] } else { 0.0 };
            let f = (p as u32) as f32 * FRAC_SCALE;
            out[i] = a + (b - a) * f;
            p += step;
            i += 1;
        }
    }
    *pos = p;
}

/// The hot loop: every `p` visited stays below `(len − 1)·2³²`, so `idx + 1` is in bounds.
#[inline]
fn interpolate(samples: &[f32], pos: &mut u64, step: u64, out: &mut [f32]) {
    let mut p = *pos;
    for o in out.iter_mut() {
        let idx = (p >> FRAC_BITS) as usize;
        let f = (p as u32) as f32 * FRAC_SCALE;
        if let Some(&[a, b]) = samples.get(idx..idx + 2).and_then(|s| <&[f32; 2]>::try_from(s).ok()) {
            *o = a + (b - a) * f;
        } else {
            *o = 0.0;
        }
        p += step;
    }
    *pos = p;
}
