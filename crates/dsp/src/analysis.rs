//! Measurement helpers for tests, benches and `xtask verify` (not for the audio
//! thread: some of these allocate).

/// `n` frames of `amplitude·sin(2π·freq·i/fs)`.
#[must_use]
pub fn sine(freq_hz: f32, amplitude: f32, sample_rate: f32, n: usize) -> Vec<f32> {
    let w = core::f64::consts::TAU * f64::from(freq_hz) / f64::from(sample_rate);
    (0..n)
        .map(|i| (f64::from(amplitude) * (w * i as f64).sin()) as f32)
        .collect()
}

/// Largest `|x[i] − x[i−1]|` (0 for fewer than two samples): the click measure of
/// acoustics.md §4 ("max adjacent-sample difference < step/50").
#[must_use]
pub fn max_adjacent_difference(x: &[f32]) -> f32 {
    x.windows(2).fold(0.0f32, |m, w| m.max((w[1] - w[0]).abs()))
}

/// True if every sample is finite.
#[must_use]
pub fn all_finite(x: &[f32]) -> bool {
    x.iter().all(|v| v.is_finite())
}

/// True if any sample is subnormal.
#[must_use]
pub fn has_denormal(x: &[f32]) -> bool {
    x.iter().any(|&v| crate::denormal::is_denormal(v))
}

/// Sum of squares over consecutive windows of `window` frames (a last partial window is
/// dropped; `window` 0 gives nothing).
#[must_use]
pub fn window_energies(x: &[f32], window: usize) -> Vec<f64> {
    if window == 0 {
        return Vec::new();
    }
    x.chunks_exact(window)
        .map(|w| w.iter().map(|&v| f64::from(v) * f64::from(v)).sum())
        .collect()
}

/// Schroeder energy decay curve in dB re the total energy (backward integration).
#[must_use]
pub fn energy_decay_curve_db(ir: &[f32]) -> Vec<f64> {
    let mut acc = 0.0f64;
    let mut edc: Vec<f64> = ir
        .iter()
        .rev()
        .map(|&v| {
            acc += f64::from(v) * f64::from(v);
            acc
        })
        .collect();
    edc.reverse();
    let total = edc.first().copied().unwrap_or(0.0);
    edc.iter()
        .map(|&e| {
            if total > 0.0 && e > 0.0 {
                10.0 * (e / total).log10()
            } else {
                f64::NEG_INFINITY
            }
        })
        .collect()
}

/// Schroeder T30 of an impulse response in seconds: 2 × the time between the -5 dB and
/// -35 dB crossings of the energy decay curve. `None` if the curve never reaches -35 dB.
#[must_use]
pub fn schroeder_t30(ir: &[f32], sample_rate: f32) -> Option<f32> {
    let edc = energy_decay_curve_db(ir);
    let t5 = edc.iter().position(|&d| d <= -5.0)?;
    let t35 = edc.iter().position(|&d| d <= -35.0)?;
    Some(2.0 * (t35 - t5) as f32 / sample_rate)
}
