//! One-pole low- and high-pass filters and the coefficient formulas shared by the
//! shelf, the echo taps and the reverb loop filters.

use crate::denormal::flush_small;
use crate::smoothing::DEFAULT_SAMPLE_RATE;
use crate::{sanitize, sanitize_sample_rate};

/// Reference frequency of the air and loop-filter formulas (acoustics.md §5 item 7): 5 kHz.
pub const AIR_REFERENCE_HZ: f32 = 5000.0;

/// Above this fraction of the sample rate a one-pole low-pass is bypassed (acoustics.md §6).
pub const BYPASS_FRACTION: f32 = 0.45;

/// Samples between state flushes of a free-running one-pole (see [`crate::denormal`]).
const FLUSH_PERIOD: usize = crate::RAMP_SEGMENT;

/// One-pole low-pass coefficient `a = 1 - exp(-2π fc / fs)` (acoustics.md §4);
/// `y = a·x + (1 − a)·y`. Cutoffs are clamped to `0..=fs/2`.
#[must_use]
pub fn lowpass_coefficient(cutoff_hz: f32, sample_rate: f32) -> f32 {
    let fs = sanitize_sample_rate(sample_rate);
    let fc = sanitize(cutoff_hz, 0.0, fs * 0.5, fs * 0.5);
    1.0 - (-core::f32::consts::TAU * fc / fs).exp()
}

/// Cutoff of the one-pole whose gain at 5 kHz is `hf_gain` (acoustics.md §5 item 7):
/// `fc = 5000 / sqrt(1/g² - 1)`, with `g` clamped to `0.001..=0.999` (NaN → 0.999).
#[must_use]
pub fn air_cutoff_hz(hf_gain: f32) -> f32 {
    let g = sanitize(hf_gain, 0.001, 0.999, 0.999);
    AIR_REFERENCE_HZ / (1.0 / (g * g) - 1.0).sqrt()
}

/// Low-pass coefficient for a 5 kHz gain `hf_gain`, or `None` (bypass) when the cutoff
/// reaches [`BYPASS_FRACTION`]·fs or `hf_gain >= 0.999`.
#[must_use]
pub fn air_coefficient(hf_gain: f32, sample_rate: f32) -> Option<f32> {
    let fs = sanitize_sample_rate(sample_rate);
    if hf_gain.is_nan() || hf_gain >= 0.999 {
        return None;
    }
    let fc = air_cutoff_hz(hf_gain);
    if fc >= BYPASS_FRACTION * fs {
        None
    } else {
        Some(lowpass_coefficient(fc, fs))
    }
}

/// A one-pole low-pass filter `y[n] = a·x[n] + (1 − a)·y[n-1]`.
#[derive(Clone, Debug)]
pub struct OnePoleLowPass {
    initial_cutoff_hz: f32,
    cutoff_hz: f32,
    sample_rate: f32,
    a: f32,
    state: f32,
    phase: usize,
}

impl OnePoleLowPass {
    /// A low-pass at `cutoff_hz` (clamped to `0..=fs/2`; NaN → fs/2).
    #[must_use]
    pub fn new(cutoff_hz: f32) -> Self {
        let mut f = Self {
            initial_cutoff_hz: cutoff_hz,
            cutoff_hz,
            sample_rate: DEFAULT_SAMPLE_RATE,
            a: 1.0,
            state: 0.0,
            phase: 0,
        };
        f.prepare(DEFAULT_SAMPLE_RATE, 0);
        f
    }

    /// Recomputes the coefficient for `sample_rate`. Allocates nothing (no buffers needed).
    pub fn prepare(&mut self, sample_rate: f32, _max_block: usize) {
        self.sample_rate = sanitize_sample_rate(sample_rate);
        self.a = lowpass_coefficient(self.cutoff_hz, self.sample_rate);
    }

    /// Changes the cutoff (takes effect at the next sample; the state is kept).
    pub fn set_cutoff(&mut self, cutoff_hz: f32) {
        self.cutoff_hz = cutoff_hz;
        self.a = lowpass_coefficient(cutoff_hz, self.sample_rate);
    }

    /// The coefficient `a`.
    #[must_use]
    pub fn coefficient(&self) -> f32 {
        self.a
    }

    /// Filters one sample.
    #[inline]
    pub fn process_sample(&mut self, x: f32) -> f32 {
        self.state = self.a * x + (1.0 - self.a) * self.state;
        let y = self.state;
        self.tick(1);
        y
    }

    /// Filters `buf` in place.
    pub fn process(&mut self, buf: &mut [f32]) {
        let mut rest = buf;
        while !rest.is_empty() {
            let n = rest.len().min(FLUSH_PERIOD - self.phase);
            let (chunk, tail) = rest.split_at_mut(n);
            let a = self.a;
            let c = 1.0 - a;
            let mut s = self.state;
            for x in chunk.iter_mut() {
                s = a * *x + c * s;
                *x = s;
            }
            self.state = s;
            self.tick(n);
            rest = tail;
        }
    }

    #[inline]
    fn tick(&mut self, n: usize) {
        self.phase += n;
        if self.phase >= FLUSH_PERIOD {
            self.phase = 0;
            self.state = flush_small(self.state);
        }
    }

    /// Clears the state and restores the cutoff given to `new`.
    pub fn reset(&mut self) {
        self.state = 0.0;
        self.phase = 0;
        self.set_cutoff(self.initial_cutoff_hz);
    }
}

/// A one-pole high-pass filter: `x - lowpass(x)` with the same coefficient.
#[derive(Clone, Debug)]
pub struct OnePoleHighPass {
    low: OnePoleLowPass,
}

impl OnePoleHighPass {
    /// A high-pass at `cutoff_hz` (clamped to `0..=fs/2`).
    #[must_use]
    pub fn new(cutoff_hz: f32) -> Self {
        Self {
            low: OnePoleLowPass::new(cutoff_hz),
        }
    }

    /// Recomputes the coefficient for `sample_rate`.
    pub fn prepare(&mut self, sample_rate: f32, max_block: usize) {
        self.low.prepare(sample_rate, max_block);
    }

    /// Changes the cutoff.
    pub fn set_cutoff(&mut self, cutoff_hz: f32) {
        self.low.set_cutoff(cutoff_hz);
    }

    /// Filters one sample.
    #[inline]
    pub fn process_sample(&mut self, x: f32) -> f32 {
        x - self.low.process_sample(x)
    }

    /// Filters `buf` in place.
    pub fn process(&mut self, buf: &mut [f32]) {
        let mut rest = buf;
        while !rest.is_empty() {
            let n = rest.len().min(FLUSH_PERIOD - self.low.phase);
            let (chunk, tail) = rest.split_at_mut(n);
            let a = self.low.a;
            let c = 1.0 - a;
            let mut s = self.low.state;
            for x in chunk.iter_mut() {
                s = a * *x + c * s;
                *x -= s;
            }
            self.low.state = s;
            self.low.tick(n);
            rest = tail;
        }
    }

    /// Clears the state and restores the cutoff given to `new`.
    pub fn reset(&mut self) {
        self.low.reset();
    }
}
