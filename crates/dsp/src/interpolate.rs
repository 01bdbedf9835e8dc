//! Linear-interpolation reading of decoded sample buffers (voice resampling and echo taps).
//!
//! A buffer is treated as zero outside its frames: position `p` reads
//! `s[i]·(1 − f) + s[i + 1]·f` with `i = floor(p)`, `f = p − i`, and `s[k] = 0` for
//! `k < 0` or `k >= len`. Positions are `f64` so a 12 s sample at 48 kHz keeps a
//! sub-sample resolution far below 1e-6 frames.

/// Reads `samples` at fractional frame position `pos` (zero outside; NaN → 0).
#[inline]
#[must_use]
pub fn read_linear(samples: &[f32], pos: f64) -> f32 {
    if pos.is_nan() || pos <= -1.0 || pos >= samples.len() as f64 {
        return 0.0;
    }
    if pos < 0.0 {
        // Between the (zero) frame -1 and frame 0.
        let b = samples.first().copied().unwrap_or(0.0);
        return b * (pos + 1.0) as f32;
    }
    let i = pos as usize;
    let frac = (pos - i as f64) as f32;
    let a = samples.get(i).copied().unwrap_or(0.0);
    let b = samples.get(i + 1).copied().unwrap_or(0.0);
    a + (b - a) * frac
}

/// Reads `samples` at a fractional position wrapped into `0..len` (looping voices):
/// the frame after the last one is the first one. Empty buffers and NaN read 0.
#[inline]
#[must_use]
pub fn read_linear_looping(samples: &[f32], pos: f64) -> f32 {
    let len = samples.len();
    if len == 0 || !pos.is_finite() {
        return 0.0;
    }
    let p = pos.rem_euclid(len as f64);
    let i = (p as usize).min(len - 1);
    let frac = (p - i as f64) as f32;
    let j = if i + 1 >= len { 0 } else { i + 1 };
    let a = samples.get(i).copied().unwrap_or(0.0);
    let b = samples.get(j).copied().unwrap_or(0.0);
    a + (b - a) * frac
}

/// Fills `out[i] = read_linear(samples, start + i·step)` (one-shot, zero outside).
/// Frames fully inside the buffer take a fast path without per-frame range checks
/// beyond the slice indexing.
pub fn render_linear(samples: &[f32], start: f64, step: f64, out: &mut [f32]) {
    if !start.is_finite() || !step.is_finite() {
        out.fill(0.0);
        return;
    }
    let last = samples.len() as f64 - 1.0;
    for (i, o) in out.iter_mut().enumerate() {
        let p = start + i as f64 * step;
        *o = if p >= 0.0 && p < last {
            let i0 = p as usize;
            let frac = (p - i0 as f64) as f32;
            match (samples.get(i0), samples.get(i0 + 1)) {
                (Some(&a), Some(&b)) => a + (b - a) * frac,
                _ => 0.0,
            }
        } else {
            read_linear(samples, p)
        };
    }
}

/// Fills `out[i] = read_linear_looping(samples, start + i·step)`.
pub fn render_linear_looping(samples: &[f32], start: f64, step: f64, out: &mut [f32]) {
    if !start.is_finite() || !step.is_finite() || samples.is_empty() {
        out.fill(0.0);
        return;
    }
    for (i, o) in out.iter_mut().enumerate() {
        *o = read_linear_looping(samples, start + i as f64 * step);
    }
}
