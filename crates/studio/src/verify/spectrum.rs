//! Band energies from one real FFT of the whole signal (acoustics.md §4, "Offline check"):
//! < 300, 300–1500, 1500–5000 and > 5000 Hz, and a fractional-octave spectrum for the plots.

use anyhow::{Context, bail};
use realfft::RealFftPlanner;

/// Upper edges of the first three bands in Hz; the fourth band runs to Nyquist.
pub const BAND_EDGES_HZ: [f64; 3] = [300.0, 1500.0, 5000.0];

/// The four bands' names, as the report prints them.
pub const BAND_NAMES: [&str; 4] = ["< 300 Hz", "300–1500 Hz", "1500–5000 Hz", "> 5000 Hz"];

/// Power of each FFT bin (one-sided: the bins other than DC and Nyquist count twice, so the
/// sum is the signal's energy times its length, as Parseval says) and the bin spacing in Hz.
fn power_spectrum(x: &[f32], sample_rate: f32) -> anyhow::Result<(Vec<f64>, f64)> {
    if x.is_empty() {
        bail!("cannot take the spectrum of an empty signal");
    }
    if !(sample_rate.is_finite() && sample_rate > 0.0) {
        bail!("sample rate {sample_rate} is not a positive number");
    }
    // realfft wants an even length; one zero at the end changes no energy.
    let n = x.len() + x.len() % 2;
    let fft = RealFftPlanner::<f64>::new().plan_fft_forward(n);
    let mut input = fft.make_input_vec();
    for (slot, &v) in input.iter_mut().zip(x) {
        *slot = f64::from(v);
    }
    let mut spectrum = fft.make_output_vec();
    fft.process(&mut input, &mut spectrum)
        .context("real FFT of the render failed")?;
    let last = spectrum.len() - 1;
    let power = spectrum
        .iter()
        .enumerate()
        .map(|(k, c)| {
            let p = c.norm_sqr();
            if k == 0 || k == last { p } else { 2.0 * p }
        })
        .collect();
    Ok((power, f64::from(sample_rate) / n as f64))
}

/// Index of the band a frequency falls in.
fn band_of(freq_hz: f64) -> usize {
    BAND_EDGES_HZ
        .iter()
        .position(|&edge| freq_hz < edge)
        .unwrap_or(BAND_EDGES_HZ.len())
}

/// Energy of `x` in each of the four bands (in units of squared samples; the sum over the bands
/// equals Σx²).
pub fn band_energies(x: &[f32], sample_rate: f32) -> anyhow::Result<[f64; 4]> {
    let (power, bin_hz) = power_spectrum(x, sample_rate)?;
    let n = 2.0 * (power.len() - 1) as f64;
    let mut bands = [0.0f64; 4];
    for (k, p) in power.iter().enumerate() {
        bands[band_of(k as f64 * bin_hz)] += p / n;
    }
    Ok(bands)
}

/// Band energy ratios in dB, `10·log10(E_test / E_reference)` per band (−∞ when the test band
/// is silent, +∞ when only the reference band is).
pub fn band_ratios_db(
    test: &[f32],
    reference: &[f32],
    sample_rate: f32,
) -> anyhow::Result<[f64; 4]> {
    let t = band_energies(test, sample_rate)?;
    let r = band_energies(reference, sample_rate)?;
    Ok(std::array::from_fn(|b| ratio_db(t[b], r[b])))
}

/// `10·log10(a / b)` with the silent cases spelled out (0/0 is −∞: nothing was measured).
pub fn ratio_db(a: f64, b: f64) -> f64 {
    if a <= 0.0 {
        f64::NEG_INFINITY
    } else if b <= 0.0 {
        f64::INFINITY
    } else {
        10.0 * (a / b).log10()
    }
}

/// One point of a smoothed spectrum: a band's centre frequency and its mean power in dB.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpectrumPoint {
    /// Geometric centre of the fractional-octave band, Hz.
    pub freq_hz: f64,
    /// Mean bin power in the band, dB (arbitrary reference, the same for every signal).
    pub level_db: f64,
}

/// The power spectrum averaged over `per_octave` bands per octave from 20 Hz to Nyquist (bands
/// holding no bin are left out; silent bands too, they have no level in dB).
pub fn smoothed_spectrum(
    x: &[f32],
    sample_rate: f32,
    per_octave: u32,
) -> anyhow::Result<Vec<SpectrumPoint>> {
    if per_octave == 0 {
        bail!("a spectrum needs at least one band per octave");
    }
    let (power, bin_hz) = power_spectrum(x, sample_rate)?;
    let nyquist = f64::from(sample_rate) / 2.0;
    let step = 2f64.powf(1.0 / f64::from(per_octave));
    let mut points = Vec::new();
    let mut lo = 20.0f64;
    while lo < nyquist {
        let hi = (lo * step).min(nyquist);
        let first = (lo / bin_hz).ceil() as usize;
        let last = ((hi / bin_hz).ceil() as usize).min(power.len());
        if first < last {
            let mean = power[first..last].iter().sum::<f64>() / (last - first) as f64;
            if mean > 0.0 {
                points.push(SpectrumPoint {
                    freq_hz: (lo * hi).sqrt(),
                    level_db: 10.0 * mean.log10(),
                });
            }
        }
        lo = hi;
    }
    Ok(points)
}

#[cfg(test)]
mod tests;
