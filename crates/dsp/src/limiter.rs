//! The master peak limiter: instant attack, exponential release, engagement counter.

use crate::smoothing::DEFAULT_SAMPLE_RATE;
use crate::{sanitize, sanitize_sample_rate};

/// Default output ceiling (linear): -0.01 dBFS.
pub const DEFAULT_CEILING: f32 = 0.9989;
/// Default release time constant: 100 ms.
pub const DEFAULT_RELEASE_S: f32 = 0.1;
/// The gain snaps to exactly 1 within this distance of 1.
const RELEASE_EPSILON: f32 = 1e-6;
/// An engagement ends once the gain has recovered above this (-0.009 dB).
const DISENGAGE_GAIN: f32 = 0.999;

/// A stereo-linked peak limiter.
///
/// Per frame: `needed = ceiling / max(|l|, |r|)` if that peak exceeds the ceiling, else 1.
/// The gain drops to `needed` at once (no overshoot: the output never exceeds the
/// ceiling) and otherwise returns towards `needed` with the release time constant.
/// An *engagement* starts with a frame above the ceiling while the limiter was not
/// engaged; it ends when the gain has recovered above 0.999 (-0.009 dB).
/// Non-finite input samples are replaced by 0, so the output is always finite.
#[derive(Clone, Debug)]
pub struct PeakLimiter {
    ceiling: f32,
    release_s: f32,
    release: f32,
    gain: f32,
    engaged: bool,
    engagements: u64,
    peak: f32,
    sample_rate: f32,
}

impl Default for PeakLimiter {
    fn default() -> Self {
        Self::new(DEFAULT_CEILING, DEFAULT_RELEASE_S)
    }
}

impl PeakLimiter {
    /// A limiter with `ceiling` (clamped to `0.001..=1`, NaN → default) and
    /// `release_s` (clamped to `0.001..=10` s).
    #[must_use]
    pub fn new(ceiling: f32, release_s: f32) -> Self {
        let mut l = Self {
            ceiling: sanitize(ceiling, 0.001, 1.0, DEFAULT_CEILING),
            release_s: sanitize(release_s, 0.001, 10.0, DEFAULT_RELEASE_S),
            release: 0.0,
            gain: 1.0,
            engaged: false,
            engagements: 0,
            peak: 0.0,
            sample_rate: DEFAULT_SAMPLE_RATE,
        };
        l.prepare(DEFAULT_SAMPLE_RATE, 0);
        l
    }

    /// Sets the sample rate (no buffers needed).
    pub fn prepare(&mut self, sample_rate: f32, _max_block: usize) {
        self.sample_rate = sanitize_sample_rate(sample_rate);
        self.release = (-1.0 / (self.release_s * self.sample_rate)).exp();
    }

    /// The ceiling.
    #[must_use]
    pub fn ceiling(&self) -> f32 {
        self.ceiling
    }

    /// The current gain (1 = not limiting).
    #[must_use]
    pub fn gain(&self) -> f32 {
        self.gain
    }

    /// Engagements counted since construction, `reset` or `take_stats`.
    #[must_use]
    pub fn engagements(&self) -> u64 {
        self.engagements
    }

    /// Largest input magnitude since construction, `reset` or `take_stats`.
    #[must_use]
    pub fn peak(&self) -> f32 {
        self.peak
    }

    /// Returns `(engagements, peak)` and clears both (telemetry).
    pub fn take_stats(&mut self) -> (u64, f32) {
        let s = (self.engagements, self.peak);
        self.engagements = 0;
        self.peak = 0.0;
        s
    }

    #[inline]
    fn frame(&mut self, l: f32, r: f32) -> (f32, f32) {
        let l = if l.is_finite() { l } else { 0.0 };
        let r = if r.is_finite() { r } else { 0.0 };
        let p = l.abs().max(r.abs());
        self.peak = self.peak.max(p);
        let needed = if p > self.ceiling {
            self.ceiling / p
        } else {
            1.0
        };
        if needed < self.gain {
            if !self.engaged {
                self.engaged = true;
                self.engagements += 1;
            }
            self.gain = needed;
        } else {
            let g = needed - (needed - self.gain) * self.release;
            // Snap when close or when f32 rounding stops the approach.
            self.gain = if needed - g <= RELEASE_EPSILON || g == self.gain {
                needed
            } else {
                g
            };
            if self.gain > DISENGAGE_GAIN {
                self.engaged = false;
            }
        }
        let c = self.ceiling;
        ((l * self.gain).clamp(-c, c), (r * self.gain).clamp(-c, c))
    }

    /// Limits planar stereo in place (the shorter length is used).
    ///
    /// While the limiter is released and the block is finite and below the ceiling, the
    /// block passes untouched after one vectorisable scan (the per-frame path would give
    /// the same bits).
    pub fn process(&mut self, left: &mut [f32], right: &mut [f32]) {
        let n = left.len().min(right.len());
        let (left, right) = (&mut left[..n], &mut right[..n]);
        if self.gain == 1.0 {
            let bits = peak_bits(left).max(peak_bits(right));
            let peak = f32::from_bits(bits);
            if bits < f32::INFINITY.to_bits() && peak <= self.ceiling {
                self.peak = self.peak.max(peak);
                self.engaged = false;
                return;
            }
        }
        for (l, r) in left.iter_mut().zip(right.iter_mut()) {
            (*l, *r) = self.frame(*l, *r);
        }
    }

    /// Limits interleaved stereo (`L R L R …`) in place; a trailing odd sample is
    /// limited as a frame with a silent right channel.
    pub fn process_interleaved(&mut self, frames: &mut [f32]) {
        let mut chunks = frames.chunks_exact_mut(2);
        for f in &mut chunks {
            let (l, r) = self.frame(f[0], f[1]);
            f[0] = l;
            f[1] = r;
        }
        if let [x] = chunks.into_remainder() {
            *x = self.frame(*x, 0.0).0;
        }
    }

    /// Returns to the state after construction (gain 1, statistics cleared).
    pub fn reset(&mut self) {
        self.gain = 1.0;
        self.engaged = false;
        self.engagements = 0;
        self.peak = 0.0;
    }
}

/// Largest `|x|` as raw bits (for finite values the bit order is the numeric order;
/// any NaN or infinity gives bits ≥ `f32::INFINITY.to_bits()`). Vectorises.
#[inline]
fn peak_bits(x: &[f32]) -> u32 {
    x.iter().fold(0u32, |m, v| m.max(v.to_bits() & 0x7FFF_FFFF))
}
