//! The slot's analysis: the loop filter's responses at a log-spaced set of frequencies, the
//! band gains that make the loop decay at the set decays ([`Quadrature::loop_gains`]), and the
//! energy of a slot's impulse response worked out from them ([`Quadrature::slot_energy`]), so
//! a retuned slot is renormalised without rendering.

use super::voicing::Voicing;
use super::{COMBS, DECAY_BANDS, HIGH_CROSSOVER_HZ, LOW_CROSSOVER_HZ, band_gains};
use crate::one_pole::lowpass_coefficient;
use crate::smoothing::DEFAULT_SAMPLE_RATE;

/// Points of the energy quadrature: log-spaced from 10 Hz to Nyquist.
const QUAD_POINTS: usize = 96;

/// Frequencies (Hz) at which a comb's loop gain is matched to its band's decay: the low band's
/// plateau, the middle of the mid band (where the engine's `decay_s` is read and the voicing
/// puts the tail's energy), the high band's plateau. Capped at 0.4·fs.
pub const BAND_REFERENCE_HZ: [f32; DECAY_BANDS] = [150.0, 1000.0, 8000.0];

/// Largest loop gain a band may take (a 30 s decay of the longest comb needs 0.9932).
const MAX_LOOP_GAIN: f32 = 0.9995;

/// Fixed-point steps of [`Quadrature::loop_gains`] (converged to < 0.1 % of T60 by then).
const GAIN_STEPS: usize = 8;

/// A complex number as (re, im).
type Complex = (f32, f32);

/// The loop filter's low-pass responses at the quadrature and reference frequencies and the
/// quadrature weights, worked out at `prepare`.
#[derive(Clone, Debug)]
pub(super) struct Quadrature {
    /// `LP_lo(ω_i)`.
    lo: [Complex; QUAD_POINTS],
    /// `LP_hi(ω_i)`.
    hi: [Complex; QUAD_POINTS],
    /// Weights `Δf/(fs/2)` × the voicing's power response.
    w: [f32; QUAD_POINTS],
    /// `LP_lo`, `LP_hi` at [`BAND_REFERENCE_HZ`].
    ref_lo: [Complex; DECAY_BANDS],
    ref_hi: [Complex; DECAY_BANDS],
}

impl Default for Quadrature {
    fn default() -> Self {
        Self::new(DEFAULT_SAMPLE_RATE)
    }
}

/// One-pole low-pass `a/(1 − (1 − a)·e^{−iω})` at `w` rad/sample.
fn one_pole(a: f32, w: f32) -> Complex {
    let c = 1.0 - a;
    let (re, im) = (1.0 - c * w.cos(), c * w.sin());
    let d = re * re + im * im;
    (a * re / d, -a * im / d)
}

/// `|F|²` of the loop filter `g_h + (g_m − g_h)·LP_hi + (g_l − g_m)·LP_lo`.
#[inline]
fn loop_power(g: [f32; DECAY_BANDS], lo: Complex, hi: Complex) -> f32 {
    let [gl, gm, gh] = g;
    let (bm, bl) = (gm - gh, gl - gm);
    let re = gh + bm * hi.0 + bl * lo.0;
    let im = bm * hi.1 + bl * lo.1;
    re * re + im * im
}

impl Quadrature {
    pub(super) fn new(fs: f32) -> Self {
        let nyq = 0.5 * fs;
        let f_lo = 10.0f32.min(nyq * 0.5);
        let a1 = lowpass_coefficient(LOW_CROSSOVER_HZ, fs);
        let a2 = lowpass_coefficient(HIGH_CROSSOVER_HZ, fs);
        let voicing = Voicing::new(fs);
        let omega = |f: f32| core::f32::consts::TAU * f / fs;
        let mut q = Self {
            lo: [(0.0, 0.0); QUAD_POINTS],
            hi: [(0.0, 0.0); QUAD_POINTS],
            w: [0.0; QUAD_POINTS],
            ref_lo: BAND_REFERENCE_HZ.map(|f| one_pole(a1, omega(f.min(0.4 * fs)))),
            ref_hi: BAND_REFERENCE_HZ.map(|f| one_pole(a2, omega(f.min(0.4 * fs)))),
        };
        let ratio = (nyq / f_lo).ln();
        let edge = |i: usize| {
            if i == 0 {
                0.0
            } else {
                f_lo * (ratio * (i - 1) as f32 / (QUAD_POINTS - 1) as f32).exp()
            }
        };
        for i in 0..QUAD_POINTS {
            let (e0, e1) = (edge(i), edge(i + 1));
            let f = if i == 0 { 0.5 * e1 } else { (e0 * e1).sqrt() };
            let w = omega(f);
            q.lo[i] = one_pole(a1, w);
            q.hi[i] = one_pole(a2, w);
            q.w[i] = (e1 - e0) / nyq * voicing.power(w);
        }
        q
    }

    /// Band gains `[g_l, g_m, g_h]` of a comb of `len` frames whose loop decays at `t` (s, low,
    /// mid, high) at the [`BAND_REFERENCE_HZ`]: the one-pole crossovers' skirts reach into the
    /// neighbouring bands (a shorter low band drags the mid band down with plain
    /// `10^(−3L/(T·fs))` gains), so each gain is scaled by `target/|F(ω_b)|` until the loop
    /// filter's magnitude at the three references is the target's.
    pub(super) fn loop_gains(&self, len: usize, t: [f32; DECAY_BANDS], fs: f32) -> [f32; 3] {
        let target = band_gains(len, t, fs);
        let mut g = target;
        for _ in 0..GAIN_STEPS {
            for b in 0..DECAY_BANDS {
                let m = loop_power(g, self.ref_lo[b], self.ref_hi[b]).sqrt();
                if m > 0.0 && m.is_finite() {
                    g[b] = (g[b] * target[b] / m).clamp(0.0, MAX_LOOP_GAIN);
                }
            }
        }
        g
    }

    /// Mean energy gain of a comb with band gains `g` over the (voiced) spectrum,
    /// `Σ w_i/(1 − |F(ω_i)|²)` (the mean of `1/|1 − F·e^{−iωL}|²` over the comb's ripples is
    /// `1/(1 − |F|²)`).
    fn comb_energy(&self, g: [f32; DECAY_BANDS]) -> f64 {
        let mut e = 0.0f64;
        for i in 0..QUAD_POINTS {
            let m2 = f64::from(loop_power(g, self.lo[i], self.hi[i])).min(1.0 - 1e-9);
            e += f64::from(self.w[i]) / (1.0 - m2);
        }
        e
    }

    /// Largest `|F(ω_i)|` of a comb with band gains `g` over the quadrature frequencies.
    #[cfg(test)]
    pub(super) fn max_loop_gain(&self, g: [f32; DECAY_BANDS]) -> f32 {
        (0..QUAD_POINTS)
            .map(|i| loop_power(g, self.lo[i], self.hi[i]).sqrt())
            .fold(0.0, f32::max)
    }

    /// Left and right energies (combs 0+2, 1+3) of a slot with comb lengths `lens`, decays `t`.
    pub(super) fn slot_energy(
        &self,
        lens: [usize; COMBS],
        t: [f32; DECAY_BANDS],
        fs: f32,
    ) -> (f64, f64) {
        let e: [f64; COMBS] =
            core::array::from_fn(|j| self.comb_energy(self.loop_gains(lens[j], t, fs)));
        (e[0] + e[2], e[1] + e[3])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loop_gains_hit_the_band_decays_at_the_references_and_stay_stable() {
        let fs = 48_000.0;
        let q = Quadrature::new(fs);
        let len = 1426;
        for t in [
            [0.3f32, 0.5, 0.25],
            [4.0, 3.0, 1.5],
            [30.0, 30.0, 30.0],
            [0.6, 1.2, 0.5],
        ] {
            let g = q.loop_gains(len, t, fs);
            let want = band_gains(len, t, fs);
            for (b, w) in want.iter().enumerate() {
                let m = loop_power(g, q.ref_lo[b], q.ref_hi[b]).sqrt();
                // T60 ∝ 1/ln(g): compare decays, within 1 %.
                let (tm, tw) = (1.0 / m.ln(), 1.0 / w.ln());
                assert!((tm / tw - 1.0).abs() < 0.01, "{t:?} band {b}: {m} vs {w}");
            }
            assert!(q.max_loop_gain(g) < 1.0, "{t:?}: {g:?}");
        }
    }
}
