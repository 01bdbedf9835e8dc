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

/// Frames per block of [`worst_image_db`] and [`spectrum_db`].
pub const SPECTRUM_BLOCK: usize = 8192;
/// Bins each side summed into one level by [`worst_image_db`] (a frequency-spread tone or image
/// is measured whole).
const IMAGE_SPREAD: usize = 16;

/// The power spectrum of each [`SPECTRUM_BLOCK`]-frame block of `x` (hop a whole block,
/// 4-term Blackman–Harris window; a last partial block is dropped), bin `k` at
/// `k·rate/SPECTRUM_BLOCK` Hz.
#[must_use]
pub fn block_spectra(x: &[f32]) -> Vec<Vec<f64>> {
    let n = SPECTRUM_BLOCK;
    let mut planner = realfft::RealFftPlanner::<f64>::new();
    let fft = planner.plan_fft_forward(n);
    let window: Vec<f64> = (0..n)
        .map(|i| {
            let t = std::f64::consts::TAU * i as f64 / n as f64;
            0.35875 - 0.48829 * t.cos() + 0.14128 * (2.0 * t).cos() - 0.01168 * (3.0 * t).cos()
        })
        .collect();
    let mut spectrum = fft.make_output_vec();
    x.chunks_exact(n)
        .map(|block| {
            let mut input: Vec<f64> = block
                .iter()
                .zip(&window)
                .map(|(v, w)| f64::from(*v) * w)
                .collect();
            if fft.process(&mut input, &mut spectrum).is_err() {
                return vec![0.0; n / 2 + 1];
            }
            spectrum.iter().map(|c| c.norm_sqr()).collect()
        })
        .collect()
}

/// The spectrum of `x` in dB relative to its largest bin, averaged over its blocks
/// ([`block_spectra`]): `(frequency Hz, dB)` per bin, for plots.
#[must_use]
pub fn spectrum_db(x: &[f32], rate: f32) -> Vec<(f32, f32)> {
    let blocks = block_spectra(x);
    let Some(first) = blocks.first() else {
        return Vec::new();
    };
    let mut sum = vec![0.0f64; first.len()];
    for b in &blocks {
        sum.iter_mut().zip(b).for_each(|(s, v)| *s += v);
    }
    let peak = sum.iter().copied().fold(f64::MIN_POSITIVE, f64::max);
    sum.iter()
        .enumerate()
        .map(|(k, v)| {
            let hz = k as f32 * rate / SPECTRUM_BLOCK as f32;
            (hz, (10.0 * (v.max(1e-30) / peak).log10()) as f32)
        })
        .collect()
}

/// The loudest image or alias of a tone in `x`, relative to the tone, in dB, with its frequency:
/// per [`SPECTRUM_BLOCK`]-frame block, the tone is the power of the bins within `tone_hz` (its
/// lowest and highest frequency: a rate that varies spreads it) and 16 bins either side, each
/// other level the power of a bin and 16 either side, from 20 Hz to 20 kHz; the worst over
/// all blocks. `(-inf, 0)` for input shorter than a block.
#[must_use]
pub fn worst_image_db(x: &[f32], rate: f32, tone_hz: (f32, f32)) -> (f32, f32) {
    let bin_hz = f64::from(rate) / SPECTRUM_BLOCK as f64;
    let to_bin = |hz: f32| (f64::from(hz) / bin_hz).round() as usize;
    let (lo, hi) = (to_bin(tone_hz.0), to_bin(tone_hz.1));
    let (tone_lo, tone_hi) = (lo.saturating_sub(IMAGE_SPREAD), hi + IMAGE_SPREAD);
    let (band_lo, band_hi) = (to_bin(20.0), to_bin(20_000.0));
    let mut worst = (f32::NEG_INFINITY, 0.0f32);
    for power in block_spectra(x) {
        let last = power.len() - 1;
        let tone: f64 = power[tone_lo.min(last)..=tone_hi.min(last)].iter().sum();
        if tone <= 0.0 {
            continue;
        }
        for k in band_lo..=band_hi.min(last) {
            let (a, b) = (k.saturating_sub(IMAGE_SPREAD), (k + IMAGE_SPREAD).min(last));
            if b >= tone_lo && a <= tone_hi {
                continue;
            }
            let level =
                (10.0 * (power[a..=b].iter().sum::<f64>() / tone).max(1e-30).log10()) as f32;
            if level > worst.0 {
                worst = (level, (k as f64 * bin_hz) as f32);
            }
        }
    }
    worst
}

/// Root mean square of `x` (0 when empty).
#[must_use]
pub fn rms(x: &[f32]) -> f32 {
    if x.is_empty() {
        return 0.0;
    }
    let sum: f64 = x.iter().map(|&v| f64::from(v) * f64::from(v)).sum();
    (sum / x.len() as f64).sqrt() as f32
}

/// The interaural time difference of a binaural pair: the lag (seconds) in
/// `−max_lag_s..=max_lag_s` that maximises the cross-correlation `Σ left[i]·right[i + lag]`,
/// positive when the right ear is late (the source on the left). Ties keep the earliest lag;
/// 0 for silent input.
#[must_use]
pub fn interaural_time_difference_s(
    left: &[f32],
    right: &[f32],
    sample_rate: f32,
    max_lag_s: f32,
) -> f32 {
    let max_lag = (max_lag_s * sample_rate).max(0.0) as i64;
    let mut best = (f64::MIN, 0i64);
    for lag in -max_lag..=max_lag {
        let skip = lag.unsigned_abs() as usize;
        let (a, b) = if lag >= 0 {
            (left, right.get(skip..).unwrap_or(&[]))
        } else {
            (left.get(skip..).unwrap_or(&[]), right)
        };
        let s: f64 = a
            .iter()
            .zip(b)
            .map(|(&x, &y)| f64::from(x) * f64::from(y))
            .sum();
        if s > best.0 {
            best = (s, lag);
        }
    }
    if best.0 <= 0.0 {
        return 0.0;
    }
    best.1 as f32 / sample_rate
}

/// Energy (dB) of `x` between `lo_hz` and `hi_hz`: the squared magnitudes of the DFT bins of
/// the first `n` samples (zero-padded) whose frequencies `k·fs/n` lie in the band, summed
/// (a plain DFT: for tests and reports, not fast). −300 dB for silence.
#[must_use]
pub fn band_energy_db(x: &[f32], sample_rate: f32, lo_hz: f32, hi_hz: f32, n: usize) -> f32 {
    if n == 0 {
        return -300.0;
    }
    let bin = |f: f32| (f64::from(f) / f64::from(sample_rate) * n as f64) as usize;
    let (k0, k1) = (bin(lo_hz), bin(hi_hz).min(n / 2));
    let mut e = 0.0f64;
    for k in k0..=k1 {
        let (mut re, mut im) = (0.0f64, 0.0f64);
        for (i, &v) in x.iter().take(n).enumerate() {
            let ph = -core::f64::consts::TAU * ((k * i) % n) as f64 / n as f64;
            re += f64::from(v) * ph.cos();
            im += f64::from(v) * ph.sin();
        }
        e += re * re + im * im;
    }
    (10.0 * e.max(1e-30).log10()) as f32
}

/// Mean frequency of `x` (Hz at `rate`) from its rising zero crossings, each placed by linear
/// interpolation between the two samples around it: `None` with fewer than two crossings.
#[must_use]
pub fn zero_crossing_frequency(x: &[f32], rate: u32) -> Option<f64> {
    let mut first = None;
    let mut last = 0.0;
    let mut count = 0usize;
    for (i, w) in x.windows(2).enumerate() {
        if w[0] < 0.0 && w[1] >= 0.0 {
            let t = i as f64 + f64::from(w[0]) / f64::from(w[0] - w[1]);
            if first.is_none() {
                first = Some(t);
            } else {
                count += 1;
            }
            last = t;
        }
    }
    let first = first?;
    (count > 0).then(|| f64::from(rate) * count as f64 / (last - first))
}
