//! Equal-power panning.

use crate::gain::mix_ramp;
use crate::smoothing::{PAN_SMOOTHING_S, Smoothed};

/// Equal-power pan gains `(left, right)` for `pan` in `-1..=1` (-1 left, 0 centre,
/// 1 right): `θ = (pan + 1)·π/4`, `left = cos θ`, `right = sin θ`, so
/// `left² + right² = 1`. NaN → centre; out-of-range values are clamped.
#[must_use]
pub fn equal_power_pan(pan: f32) -> (f32, f32) {
    let p = crate::sanitize(pan, -1.0, 1.0, 0.0);
    let theta = (p + 1.0) * core::f32::consts::FRAC_PI_4;
    // `libm`, not the platform's `sinf`/`cosf`: the same bits natively and in wasm32.
    let (s, c) = (libm::sinf(theta), libm::cosf(theta));
    // Exact values at the ends and the centre.
    if p == -1.0 {
        (1.0, 0.0)
    } else if p == 1.0 {
        (0.0, 1.0)
    } else {
        (c, s)
    }
}

/// A mono-to-stereo equal-power panner whose left and right gains are smoothed
/// (50 ms, [`PAN_SMOOTHING_S`]) towards `equal_power_pan(pan)·gain`.
#[derive(Clone, Debug)]
pub struct StereoPanner {
    left: Smoothed,
    right: Smoothed,
}

impl Default for StereoPanner {
    fn default() -> Self {
        Self::new()
    }
}

impl StereoPanner {
    /// A centred panner with unity gain.
    #[must_use]
    pub fn new() -> Self {
        let (l, r) = equal_power_pan(0.0);
        Self {
            left: Smoothed::new(l, PAN_SMOOTHING_S, 0.0, crate::gain::MAX_GAIN),
            right: Smoothed::new(r, PAN_SMOOTHING_S, 0.0, crate::gain::MAX_GAIN),
        }
    }

    /// Sets the sample rate (no buffers needed).
    pub fn prepare(&mut self, sample_rate: f32, _max_block: usize) {
        self.left.prepare(sample_rate);
        self.right.prepare(sample_rate);
    }

    /// Sets the pan (`-1..=1`) and an overall gain (`0..=16`, e.g. the voice's volume ×
    /// distance gain) to approach. NaN pan → centre, NaN gain → 0.
    pub fn set_target(&mut self, pan: f32, gain: f32) {
        let (l, r) = equal_power_pan(pan);
        let g = crate::sanitize(gain, 0.0, crate::gain::MAX_GAIN, 0.0);
        self.left.set_target(l * g);
        self.right.set_target(r * g);
    }

    /// Jumps to `pan` and `gain` now.
    pub fn set_immediate(&mut self, pan: f32, gain: f32) {
        let (l, r) = equal_power_pan(pan);
        let g = crate::sanitize(gain, 0.0, crate::gain::MAX_GAIN, 0.0);
        self.left.set_immediate(l * g);
        self.right.set_immediate(r * g);
    }

    /// Current `(left, right)` gains.
    #[must_use]
    pub fn gains(&self) -> (f32, f32) {
        (self.left.current(), self.right.current())
    }

    /// Adds `input` panned into `left` and `right` (the shortest length is used).
    pub fn mix(&mut self, input: &[f32], left: &mut [f32], right: &mut [f32]) {
        let len = input.len().min(left.len()).min(right.len());
        let (mut src, mut l, mut r) = (&input[..len], &mut left[..len], &mut right[..len]);
        while !src.is_empty() {
            let n = src.len().min(self.left.segment_left());
            let (s, s_rest) = src.split_at(n);
            let (lc, l_rest) = l.split_at_mut(n);
            let (rc, r_rest) = r.split_at_mut(n);
            let gl = self.left.advance(n);
            let gr = self.right.advance(n);
            mix_ramp(s, lc, gl);
            mix_ramp(s, rc, gr);
            src = s_rest;
            l = l_rest;
            r = r_rest;
        }
    }

    /// Returns to the initial state (centre, unity).
    pub fn reset(&mut self) {
        self.left.reset();
        self.right.reset();
    }
}
