//! Late-reverb figures (acoustics.md §6, "Offline check"): the tail starts 5 ms after the direct
//! peak; RT60 is the Schroeder T30 of the tail (`resound_dsp::analysis::schroeder_t30`: twice
//! the time between the −5 dB and −35 dB crossings of the energy decay curve); tail/click is the
//! tail's energy over the energy of the first 5 ms.

use resound_engine::dsp::analysis::{energy_decay_curve_db, schroeder_t30};

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

#[cfg(test)]
mod tests;
