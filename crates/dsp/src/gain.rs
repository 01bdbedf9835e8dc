//! Smoothed gains: plain volume, reverb sends (0.3 s) and ramped gain kernels.

use crate::smoothing::{PAN_SMOOTHING_S, Ramp, SEND_SMOOTHING_S, Smoothed};

/// Largest accepted gain (targets are clamped to `0..=MAX_GAIN`).
pub const MAX_GAIN: f32 = 16.0;

/// A gain that approaches its target with a time constant (see [`Smoothed`]).
#[derive(Clone, Debug)]
pub struct SmoothedGain {
    value: Smoothed,
}

impl SmoothedGain {
    /// A gain starting at `initial` with `time_constant_s`; clamped to `0..=MAX_GAIN`.
    #[must_use]
    pub fn new(initial: f32, time_constant_s: f32) -> Self {
        Self {
            value: Smoothed::new(initial, time_constant_s, 0.0, MAX_GAIN),
        }
    }

    /// A reverb send: starts at 0, 0.3 s time constant ([`SEND_SMOOTHING_S`]).
    #[must_use]
    pub fn send() -> Self {
        Self::new(0.0, SEND_SMOOTHING_S)
    }

    /// A volume gain: starts at 1, 50 ms time constant.
    #[must_use]
    pub fn volume() -> Self {
        Self::new(1.0, PAN_SMOOTHING_S)
    }

    /// Sets the sample rate (no buffers needed).
    pub fn prepare(&mut self, sample_rate: f32, _max_block: usize) {
        self.value.prepare(sample_rate);
    }

    /// Sets the target (NaN ignored, clamped to `0..=MAX_GAIN`).
    pub fn set_target(&mut self, gain: f32) {
        self.value.set_target(gain);
    }

    /// Jumps to `gain` now.
    pub fn set_immediate(&mut self, gain: f32) {
        self.value.set_immediate(gain);
    }

    /// The underlying smoother.
    #[must_use]
    pub fn smoothed(&self) -> &Smoothed {
        &self.value
    }

    /// True when the gain is exactly 0 now and will stay 0 (a send that can be skipped;
    /// call [`SmoothedGain::skip`] instead of mixing to keep time moving).
    #[must_use]
    pub fn is_silent(&self) -> bool {
        self.value.is_settled() && self.value.target() == 0.0
    }

    /// Multiplies `buf` in place by the ramped gain.
    pub fn process(&mut self, buf: &mut [f32]) {
        let mut rest = buf;
        while !rest.is_empty() {
            let n = rest.len().min(self.value.segment_left());
            let (chunk, tail) = rest.split_at_mut(n);
            let r = self.value.advance(n);
            apply_ramp(chunk, r);
            rest = tail;
        }
    }

    /// Adds `input × gain` into `output` (lengths: the shorter one is used).
    pub fn mix(&mut self, input: &[f32], output: &mut [f32]) {
        let len = input.len().min(output.len());
        let (mut src, mut dst) = (&input[..len], &mut output[..len]);
        while !src.is_empty() {
            let n = src.len().min(self.value.segment_left());
            let (s, s_rest) = src.split_at(n);
            let (d, d_rest) = dst.split_at_mut(n);
            let r = self.value.advance(n);
            mix_ramp(s, d, r);
            src = s_rest;
            dst = d_rest;
        }
    }

    /// Consumes `frames` frames (at most the current segment's, see [`Smoothed::advance`]) and
    /// returns the ramp covering them, for callers that apply the gain in their own loop.
    #[inline]
    pub fn advance(&mut self, frames: usize) -> Ramp {
        self.value.advance(frames)
    }

    /// Advances time by `frames` without producing output (keeps the segment grid).
    pub fn skip(&mut self, frames: usize) {
        let mut left = frames;
        while left > 0 {
            let n = left.min(self.value.segment_left());
            self.value.advance(n);
            left -= n;
        }
    }

    /// Returns to the initial state.
    pub fn reset(&mut self) {
        self.value.reset();
    }
}

/// `buf[i] *= r.start + r.step·i`. Skips work for a constant 1. Vectorises.
#[inline]
pub fn apply_ramp(buf: &mut [f32], r: Ramp) {
    if r.is_exactly(1.0) {
        return;
    }
    if r.is_constant() {
        for x in buf.iter_mut() {
            *x *= r.start;
        }
        return;
    }
    for (i, x) in buf.iter_mut().enumerate() {
        *x *= r.at(i);
    }
}

/// `output[i] += input[i]·(r.start + r.step·i)` over the shorter length. Vectorises.
#[inline]
pub fn mix_ramp(input: &[f32], output: &mut [f32], r: Ramp) {
    let len = input.len().min(output.len());
    let (input, output) = (&input[..len], &mut output[..len]);
    if r.is_exactly(0.0) {
        return;
    }
    if r.is_constant() {
        for (o, x) in output.iter_mut().zip(input) {
            *o += *x * r.start;
        }
        return;
    }
    for (i, (o, x)) in output.iter_mut().zip(input).enumerate() {
        *o += *x * (r.at(i));
    }
}
