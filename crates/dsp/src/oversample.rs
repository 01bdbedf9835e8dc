//! Whole-buffer oversampling at load time: the heavy half of the Modern resampler.
//!
//! Game waves are 11.025 and 22.05 kHz. Read at 48 kHz straight from such a buffer, any short
//! interpolator leaves the buffer's own images (at `rate − f`, e.g. 7 kHz for a 4 kHz partial)
//! barely touched. So a sound loaded for Modern voices is first raised once, off the audio
//! thread, by an integer factor ([`factor_for`]: the smallest power of two bringing it to at
//! least [`TARGET_RATE`], at most [`MAX_FACTOR`]) through a long Kaiser-windowed sinc
//! ([`oversample`]); the voices then read the raised buffer with the cheap 4-point kernel of
//! [`crate::cubic`], whose own images now lie far above the audio band where it rejects them.
//!
//! The filter: `sinc(τ)·kaiser(τ/HALF_WIDTH, β = 9)` on original-frame time `τ`, ±[`HALF_WIDTH`]
//! original frames (64 taps per phase), cut at the original Nyquist: flat (within 0.01 dB) to
//! 0.45 of the original rate, at least 85 dB down from 0.55. Frame `k·factor` of the output is
//! original frame `k` exactly (the sinc's zeros); each phase is normalised to unit DC gain.
//! Outside the buffer the signal is taken as zero (a loop's wrap is not filtered round).
//!
//! Memory: the raised buffer holds `factor` times the frames (4× for 11.025 kHz, 2× for
//! 22.05 kHz, 1× — no copy — from 44.1 kHz up). Arithmetic in `f64`, rounded once to `f32`:
//! the same bits on every machine.

/// The rate a Modern sound is raised to at least (Hz).
pub const TARGET_RATE: u32 = 44_100;
/// Largest oversampling factor (8 kHz sounds).
pub const MAX_FACTOR: u32 = 8;
/// Half the filter's length in original frames (each output frame sums `2·HALF_WIDTH` inputs).
pub const HALF_WIDTH: usize = 32;
/// The Kaiser window's β.
const BETA: f64 = 9.0;

/// The oversampling factor for a sound at `rate` Hz: the smallest power of two `f` with
/// `rate·f ≥ TARGET_RATE`, at most [`MAX_FACTOR`]; 1 from 44.1 kHz up (and for rate 0).
#[must_use]
pub fn factor_for(rate: u32) -> u32 {
    let mut f = 1;
    while rate > 0 && u64::from(rate) * u64::from(f) < u64::from(TARGET_RATE) && f < MAX_FACTOR {
        f *= 2;
    }
    f
}

/// `samples` raised by `factor` (1..=[`MAX_FACTOR`]; others are clamped): `len·factor` frames,
/// frame `k·factor` equal to `samples[k]`. Allocates; for load time, never the audio thread.
#[must_use]
pub fn oversample(samples: &[f32], factor: u32) -> Vec<f32> {
    let factor = factor.clamp(1, MAX_FACTOR) as usize;
    if factor == 1 {
        return samples.to_vec();
    }
    let phases: Vec<[f64; 2 * HALF_WIDTH]> = (0..factor).map(|k| phase(k, factor)).collect();
    let len = samples.len();
    let mut out = vec![0.0f32; len * factor];
    let w = HALF_WIDTH as isize;
    for n in 0..len {
        let frame = &mut out[n * factor..(n + 1) * factor];
        frame[0] = samples[n];
        // Output time n + k/factor reads original frames n − W + 1 ..= n + W.
        let first = n as isize - w + 1;
        for (k, coeffs) in phases.iter().enumerate().skip(1) {
            let mut acc = 0.0f64;
            for (j, c) in coeffs.iter().enumerate() {
                let m = first + j as isize;
                if m >= 0 && (m as usize) < len {
                    acc += c * f64::from(samples[m as usize]);
                }
            }
            frame[k] = acc as f32;
        }
    }
    out
}

/// The coefficients of phase `k` (output time `n + k/factor`) for original frames
/// `n − HALF_WIDTH + 1 ..= n + HALF_WIDTH`, summing to 1.
fn phase(k: usize, factor: usize) -> [f64; 2 * HALF_WIDTH] {
    let offset = k as f64 / factor as f64;
    let mut c: [f64; 2 * HALF_WIDTH] = std::array::from_fn(|j| {
        // τ = (n + k/factor) − m with m = n − W + 1 + j.
        let tau = offset + HALF_WIDTH as f64 - 1.0 - j as f64;
        sinc(tau) * kaiser(tau / HALF_WIDTH as f64)
    });
    let sum: f64 = c.iter().sum();
    if sum != 0.0 {
        c.iter_mut().for_each(|v| *v /= sum);
    }
    c
}

/// The normalised sinc, `sin(πx)/(πx)`.
fn sinc(x: f64) -> f64 {
    if x == 0.0 {
        1.0
    } else {
        let a = std::f64::consts::PI * x;
        a.sin() / a
    }
}

/// The Kaiser window at `x` in −1..1 (0 outside).
fn kaiser(x: f64) -> f64 {
    if x.abs() >= 1.0 {
        return 0.0;
    }
    bessel_i0(BETA * (1.0 - x * x).sqrt()) / bessel_i0(BETA)
}

/// The modified Bessel function of the first kind, order 0 (power series).
fn bessel_i0(x: f64) -> f64 {
    let q = x * x / 4.0;
    let (mut term, mut sum) = (1.0f64, 1.0f64);
    for k in 1..64 {
        term *= q / (k * k) as f64;
        sum += term;
        if term < sum * 1e-17 {
            break;
        }
    }
    sum
}

#[cfg(test)]
mod tests;
