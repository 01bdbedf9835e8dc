//! The tail's voicing: a second-order high-pass at [`VOICING_HIGHPASS_HZ`] and a second-order
//! low-pass at [`VOICING_LOWPASS_HZ`] (each two one-poles) on the bus output, so the tail's
//! energy lies in the band whose decay the engine reports (the mid band, 500 Hz – 2 kHz).
//!
//! Why (issue 30): a click is flat in frequency, so ~90 % of its energy lies above 2 kHz; an
//! unvoiced tail's broadband energy-decay curve then follows the high band, and where the
//! materials make the high band decay faster, the broadband T30 a user measures misses the
//! reported (mid-band) decay by 20–30 % and bends (two slopes). Voiced, the broadband T30 stays
//! within ±8 % of the mid-band decay and one slope for band spreads up to the ones the acoustic
//! model lets through (low 0.6–1.3×, high 0.5–1.2× the mid band), while the 250 Hz and 4 kHz
//! octaves still ring with their own decays (−2 and −10 dB re the mid band).

use crate::denormal::flush_small;
use crate::one_pole::lowpass_coefficient;

/// Corner of the voicing's second-order high-pass (Hz).
pub const VOICING_HIGHPASS_HZ: f32 = 200.0;
/// Corner of the voicing's second-order low-pass (Hz).
pub const VOICING_LOWPASS_HZ: f32 = 2500.0;

/// Two-channel voicing filter state. Never allocates.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Voicing {
    /// High-pass one-pole coefficient.
    ah: f32,
    /// Low-pass one-pole coefficient.
    al: f32,
    /// Per channel: the two high-passes' inner low-pass states, the two low-pass states.
    s: [[f32; 4]; 2],
}

impl Voicing {
    /// The voicing at `fs` Hz, state zero.
    pub(super) fn new(fs: f32) -> Self {
        Self {
            ah: lowpass_coefficient(VOICING_HIGHPASS_HZ, fs),
            al: lowpass_coefficient(VOICING_LOWPASS_HZ, fs),
            s: [[0.0; 4]; 2],
        }
    }

    /// Power response `|H(e^{iω})|²` at `w` rad/sample.
    pub(super) fn power(&self, w: f32) -> f32 {
        // One-pole low-pass `a/(1 − (1 − a)·e^{−iω})`; the high-pass is `1 − LP`.
        let lp = |a: f32| {
            let c = 1.0 - a;
            let (re, im) = (1.0 - c * w.cos(), c * w.sin());
            let d = re * re + im * im;
            (a * re / d, -a * im / d)
        };
        let (hr, hi) = lp(self.ah);
        let hp2 = (1.0 - hr) * (1.0 - hr) + hi * hi;
        let (lr, li) = lp(self.al);
        let lp2 = lr * lr + li * li;
        hp2 * hp2 * lp2 * lp2
    }

    /// Filters `wet_l`/`wet_r` and adds the result into `left`/`right` (same lengths).
    pub(super) fn add_into(
        &mut self,
        wet_l: &[f32],
        wet_r: &[f32],
        left: &mut [f32],
        right: &mut [f32],
    ) {
        let (ah, al) = (self.ah, self.al);
        let [mut l, mut r] = self.s;
        let step = |s: &mut [f32; 4], x: f32| {
            s[0] += ah * (x - s[0]);
            let h1 = x - s[0];
            s[1] += ah * (h1 - s[1]);
            let h2 = h1 - s[1];
            s[2] += al * (h2 - s[2]);
            s[3] += al * (s[2] - s[3]);
            s[3]
        };
        for (((xl, xr), ol), or) in wet_l
            .iter()
            .zip(wet_r)
            .zip(left.iter_mut())
            .zip(right.iter_mut())
        {
            *ol += step(&mut l, *xl);
            *or += step(&mut r, *xr);
        }
        self.s = [l.map(flush_small), r.map(flush_small)];
    }

    /// Zeroes the state.
    pub(super) fn clear(&mut self) {
        self.s = [[0.0; 4]; 2];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn power_matches_the_filtered_sine() {
        let fs = 48_000.0;
        for f in [50.0f32, 200.0, 1000.0, 2500.0, 8000.0] {
            let mut v = Voicing::new(fs);
            let n = 48_000;
            let x: Vec<f32> = (0..n)
                .map(|i| (core::f32::consts::TAU * f * i as f32 / fs).sin())
                .collect();
            let (mut l, mut r) = (vec![0.0; n], vec![0.0; n]);
            v.add_into(&x, &x, &mut l, &mut r);
            let tail = n / 2;
            let p_in: f32 = x[tail..].iter().map(|s| s * s).sum();
            let p_out: f32 = l[tail..].iter().map(|s| s * s).sum();
            let want = v.power(core::f32::consts::TAU * f / fs);
            assert!(
                (p_out / p_in / want - 1.0).abs() < 0.02,
                "{f} Hz: {} vs {want}",
                p_out / p_in
            );
            assert_eq!(l, r);
        }
        // Mid band passes, the edges are cut.
        let v = Voicing::new(fs);
        let db = |f: f32| 10.0 * v.power(core::f32::consts::TAU * f / fs).log10();
        assert!(db(1000.0) > -2.0 && db(60.0) < -10.0 && db(10_000.0) < -20.0);
    }
}
