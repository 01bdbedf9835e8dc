//! Late-reverb figures (acoustics.md §6, "Offline check"): the tail starts 5 ms after the direct
//! peak; RT60 is the Schroeder T30 of the tail (`resound_dsp::analysis::schroeder_t30`: twice
//! the time between the −5 dB and −35 dB crossings of the energy decay curve); tail/click is the
//! tail's energy over the energy of the first 5 ms.
//!
//! The run measures these on [`super::render::magnitude`] (`sqrt(L² + R²)` per frame): the energy
//! of both channels, so a figure of the space does not move with the source's pan (§9 fixes no
//! listener orientation; §8: listener = camera). The mono mix `(L + R)/2` would count a
//! hard-panned direct sound 3 dB under a centred one and decorrelated reverb 6 dB under its
//! energy.
//!
//! [`slot_mix_rt60`] is verify's own reading of a slot mix's decay (§6 `effective_decay`), to
//! check the decay an engine model predicts from its sends.

use resound_engine::advanced::dsp::analysis::{energy_decay_curve_db, schroeder_t30};

use super::spectrum::ratio_db;

/// Length of the "click" window after the direct peak, ms.
pub const CLICK_MS: f64 = 5.0;

/// The decay figures of one render.
#[derive(Clone, Debug, PartialEq)]
pub struct Tail {
    /// Sample index of the direct peak (largest |x|).
    pub direct_index: usize,
    /// Sample index where the tail starts (5 ms after the direct peak).
    pub tail_start: usize,
    /// Schroeder T30 of the tail, s; `None` when the tail never decays by 35 dB (or is silent).
    pub rt60_s: Option<f64>,
    /// Tail energy over click energy, dB (−∞ for a silent tail).
    pub tail_to_click_db: f64,
    /// The tail's energy decay curve, dB re the tail's energy, one value per sample.
    pub edc_db: Vec<f64>,
}

impl Tail {
    /// Time of the first EDC sample at or below `db`, s after the tail start.
    pub fn crossing_s(&self, db: f64, sample_rate: f32) -> Option<f64> {
        self.edc_db
            .iter()
            .position(|&d| d <= db)
            .map(|i| i as f64 / f64::from(sample_rate))
    }
}

/// Measures the tail of a mono render of a click: the direct peak and the click energy come
/// from `mono`, the tail from `late` (the same render, or its late reverb alone; see
/// `run::reverb_checks`) from 5 ms after the direct peak. `None` for a silent or empty `mono`.
pub fn measure_tail(mono: &[f32], late: &[f32], sample_rate: f32) -> Option<Tail> {
    let (direct_index, peak) =
        mono.iter()
            .map(|v| v.abs())
            .enumerate()
            .fold(
                (0, 0.0f32),
                |best, (i, a)| if a > best.1 { (i, a) } else { best },
            );
    if !(peak > 0.0 && peak.is_finite()) {
        return None;
    }
    let click_len = (CLICK_MS * f64::from(sample_rate) / 1000.0).round() as usize;
    let click_end = (direct_index + click_len).min(mono.len());
    let tail_start = (direct_index + click_len).min(late.len());
    let energy = |x: &[f32]| x.iter().map(|&v| f64::from(v) * f64::from(v)).sum::<f64>();
    let click = energy(&mono[direct_index..click_end]);
    let tail = &late[tail_start..];
    let tail_energy = energy(tail);
    Some(Tail {
        direct_index,
        tail_start,
        // A silent tail has no decay (the EDC is −∞ throughout, which would read as T30 = 0).
        rt60_s: (tail_energy > 0.0)
            .then(|| schroeder_t30(tail, sample_rate).map(f64::from))
            .flatten(),
        tail_to_click_db: ratio_db(tail_energy, click),
        edc_db: energy_decay_curve_db(tail),
    })
}

/// §6's prediction of the RT60 of a slot mix: 2 × the time between the −5 dB and −35 dB
/// crossings of `EDC(τ) = Σ a_k²·exp(−13.82τ/T_k)` (normalised to `EDC(0)`), for amplitudes
/// `a_k` and decay times `T_k` (s). Read on a 0.1 ms grid up to 30 s; `None` when every
/// amplitude is 0 or no decay is positive.
pub fn slot_mix_rt60(slots: &[(f64, f64)]) -> Option<f64> {
    let terms: Vec<(f64, f64)> = slots
        .iter()
        .filter(|(a, t)| *a != 0.0 && *t > 0.0 && a.is_finite() && t.is_finite())
        .map(|&(a, t)| (a * a, 13.82 / t))
        .collect();
    let e0: f64 = terms.iter().map(|(w, _)| w).sum();
    if e0 <= 0.0 {
        return None;
    }
    let edc_db = |tau: f64| {
        10.0 * (terms.iter().map(|(w, k)| w * (-k * tau).exp()).sum::<f64>() / e0).log10()
    };
    const STEP: f64 = 1e-4;
    let crossing = |db: f64| {
        (0..300_000)
            .map(|i| f64::from(i) * STEP)
            .find(|&tau| edc_db(tau) <= db)
    };
    Some(2.0 * (crossing(-35.0)? - crossing(-5.0)?))
}

/// The tail/click a slot mix gives a click, dB: the tail's energy (both channels) is
/// `Σ (send_k·gain_k)²` of the energy the voice feeds the bus (each slot carries unit stereo
/// energy before its gain, `resound_dsp::reverb::CHANNEL_ENERGY`), while the click also gets
/// the dry distance gain, which the sends do not (§6: "dry `distance_gain` not applied on top").
/// −∞ when every send is 0.
pub fn slot_mix_tail_to_click_db(sends: &[f64; 4], gains: &[f64; 4], distance_gain: f64) -> f64 {
    let wet: f64 = sends.iter().zip(gains).map(|(s, g)| (s * g).powi(2)).sum();
    ratio_db(wet, distance_gain * distance_gain)
}

#[cfg(test)]
mod tests;

/// Octave and wider bands the per-band decay is read in (Hz): the 250 Hz octave (low), 500
/// Hz–2 kHz (mid, the band the engine's `decay_s` names) and the 4 kHz octave (high).
pub const DECAY_BANDS_HZ: [(f64, f64); 3] = [
    (
        250.0 / std::f64::consts::SQRT_2,
        250.0 * std::f64::consts::SQRT_2,
    ),
    (500.0, 2000.0),
    (
        4000.0 / std::f64::consts::SQRT_2,
        4000.0 * std::f64::consts::SQRT_2,
    ),
];

/// Width of the band edges of [`band_limit`]: the gain rises over `lo/EDGE..lo` and falls over
/// `hi..hi·EDGE`.
pub const EDGE: f64 = 1.25;

/// `x` band-limited to `lo..hi` Hz: one real FFT of the whole signal, each bin scaled by the
/// band's gain (1 inside, 0 outside, a smootherstep `6u⁵ − 15u⁴ + 10u³` over the edges of
/// [`EDGE`]) and back, zero-padded so nothing wraps round. Zero phase; the smooth edges keep the mask's ringing to milliseconds
/// and far below the tail (a brick wall rings as `1/t`, a floor that reads as a slow second
/// decay).
pub fn band_limit(x: &[f32], sample_rate: f32, lo: f64, hi: f64) -> Vec<f32> {
    if x.is_empty() {
        return Vec::new();
    }
    // Zero-padded to twice the length: the zero-phase mask's response reaches back in time,
    // and without the padding the onset's share would wrap round onto the end of the tail.
    let n = 2 * x.len();
    let mut planner = realfft::RealFftPlanner::<f64>::new();
    let fwd = planner.plan_fft_forward(n);
    let inv = planner.plan_fft_inverse(n);
    let mut input = fwd.make_input_vec();
    for (slot, &v) in input.iter_mut().zip(x) {
        *slot = f64::from(v);
    }
    let mut spectrum = fwd.make_output_vec();
    if fwd.process(&mut input, &mut spectrum).is_err() {
        return vec![0.0; x.len()];
    }
    let bin_hz = f64::from(sample_rate) / n as f64;
    let smoother = |u: f64| {
        let u = u.clamp(0.0, 1.0);
        u * u * u * (u * (u * 6.0 - 15.0) + 10.0)
    };
    for (k, c) in spectrum.iter_mut().enumerate() {
        let f = k as f64 * bin_hz;
        let rise = smoother((f - lo / EDGE) / (lo - lo / EDGE));
        let fall = 1.0 - smoother((f - hi) / (hi * EDGE - hi));
        *c *= rise.min(fall);
    }
    let mut out = inv.make_output_vec();
    if inv.process(&mut spectrum, &mut out).is_err() {
        return vec![0.0; x.len()];
    }
    out.iter()
        .take(x.len())
        .map(|v| (v / n as f64) as f32)
        .collect()
}

/// `sqrt(L² + R²)` per frame of interleaved stereo, each channel band-limited to `lo..hi` Hz
/// first ([`band_limit`]).
pub fn band_magnitude(stereo: &[f32], sample_rate: f32, lo: f64, hi: f64) -> Vec<f32> {
    let left: Vec<f32> = stereo.iter().step_by(2).copied().collect();
    let right: Vec<f32> = stereo.iter().skip(1).step_by(2).copied().collect();
    let (l, r) = (
        band_limit(&left, sample_rate, lo, hi),
        band_limit(&right, sample_rate, lo, hi),
    );
    l.iter().zip(&r).map(|(a, b)| a.hypot(*b)).collect()
}

/// The two slopes of an energy decay curve (dB per sample, one value per sample): the time the
/// EDC takes from −25 to −45 dB over the time from −5 to −25 dB. 1 for one exponential; above
/// 1 when the decay slows (fast, then slow). `None` when it never reaches −45 dB.
pub fn slope_ratio(edc_db: &[f64]) -> Option<f64> {
    let at = |db: f64| edc_db.iter().position(|&d| d <= db);
    let (a, b, c) = (at(-5.0)?, at(-25.0)?, at(-45.0)?);
    (b > a).then(|| (c - b) as f64 / (b - a) as f64)
}
