//! A coarse spectrogram of the tour's render, accumulated as the blocks stream out (the 90 s
//! are never held): one column per [`COLUMN_S`] of the mono mix, the mean power of the
//! [`FFT_LEN`]-sample Hann windows ending in it (a window every half length, so a short clap
//! is never missed), summed into [`BANDS`] log-spaced bands from [`LOW_HZ`] to [`HIGH_HZ`],
//! in dB (0 dB: a full-scale sine's power in its band).

use std::sync::Arc;

use realfft::{RealFftPlanner, RealToComplex, num_complex::Complex};

/// Seconds of audio per column.
pub const COLUMN_S: f64 = 0.05;
/// Bands per column.
pub const BANDS: usize = 64;
/// FFT length (samples of the mono mix analysed per column).
pub const FFT_LEN: usize = 2048;
/// The lowest band's lower edge, Hz.
pub const LOW_HZ: f64 = 40.0;
/// The highest band's upper edge, Hz (clamped to the rate's Nyquist frequency).
pub const HIGH_HZ: f64 = 20_000.0;
/// The floor a band's level is clamped to, dB.
pub const FLOOR_DB: f32 = -120.0;

/// The accumulating spectrogram (push stereo blocks, read [`Spectrogram::columns`]).
#[derive(Clone)]
pub struct Spectrogram {
    rate: u32,
    column_frames: usize,
    /// The last `FFT_LEN` mono samples, a ring.
    ring: Vec<f32>,
    at: usize,
    /// Frames into the current column.
    filled: usize,
    /// Frames since the last window.
    since: usize,
    /// The column's summed band powers and the windows summed.
    sum: [f32; BANDS],
    windows: u32,
    window: Vec<f32>,
    /// For each band, the bins `[lo, hi)` it sums.
    edges: Vec<(usize, usize)>,
    fft: Arc<dyn RealToComplex<f32>>,
    input: Vec<f32>,
    spectrum: Vec<Complex<f32>>,
    scratch: Vec<Complex<f32>>,
    columns: Vec<[f32; BANDS]>,
}

impl std::fmt::Debug for Spectrogram {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Spectrogram")
            .field("rate", &self.rate)
            .field("columns", &self.columns.len())
            .finish_non_exhaustive()
    }
}

/// The band edges (Hz) of band `k` of [`BANDS`] between `LOW_HZ` and `high`.
#[must_use]
pub fn band_edges_hz(k: usize, high: f64) -> (f64, f64) {
    let ratio = (high / LOW_HZ).max(1.0);
    let at = |i: usize| LOW_HZ * ratio.powf(i as f64 / BANDS as f64);
    (at(k), at(k + 1))
}

impl Spectrogram {
    /// An empty spectrogram for stereo at `rate` Hz.
    #[must_use]
    pub fn new(rate: u32) -> Self {
        let mut planner = RealFftPlanner::<f32>::new();
        let fft = planner.plan_fft_forward(FFT_LEN);
        let bin_hz = f64::from(rate) / FFT_LEN as f64;
        let high = HIGH_HZ.min(f64::from(rate) / 2.0);
        let edges = (0..BANDS)
            .map(|k| {
                let (lo, hi) = band_edges_hz(k, high);
                let a = (lo / bin_hz).round() as usize;
                let b = ((hi / bin_hz).round() as usize).max(a + 1);
                (a.min(FFT_LEN / 2), b.min(FFT_LEN / 2 + 1))
            })
            .collect();
        let window = (0..FFT_LEN)
            .map(|i| {
                let x = std::f64::consts::TAU * i as f64 / FFT_LEN as f64;
                (0.5 - 0.5 * x.cos()) as f32
            })
            .collect();
        Self {
            rate,
            column_frames: ((COLUMN_S * f64::from(rate)).round() as usize).max(1),
            ring: vec![0.0; FFT_LEN],
            at: 0,
            filled: 0,
            since: 0,
            sum: [0.0; BANDS],
            windows: 0,
            window,
            edges,
            input: fft.make_input_vec(),
            spectrum: fft.make_output_vec(),
            scratch: fft.make_scratch_vec(),
            fft,
            columns: Vec::new(),
        }
    }

    /// Feeds interleaved stereo; a column is added every [`COLUMN_S`] of it.
    pub fn push(&mut self, stereo: &[f32]) {
        for f in stereo.chunks_exact(2) {
            self.ring[self.at] = 0.5 * (f[0] + f[1]);
            self.at = (self.at + 1) % FFT_LEN;
            self.filled += 1;
            self.since += 1;
            if self.since == FFT_LEN / 2 {
                self.since = 0;
                self.analyse();
            }
            if self.filled == self.column_frames {
                self.filled = 0;
                self.column();
            }
        }
    }

    /// One window's band powers added to the column's sums.
    fn analyse(&mut self) {
        for (i, x) in self.input.iter_mut().enumerate() {
            *x = self.ring[(self.at + i) % FFT_LEN] * self.window[i];
        }
        let ok =
            self.fft
                .process_with_scratch(&mut self.input, &mut self.spectrum, &mut self.scratch);
        if ok.is_ok() {
            for (sum, &(a, b)) in self.sum.iter_mut().zip(&self.edges) {
                *sum += self.spectrum[a..b]
                    .iter()
                    .map(Complex::norm_sqr)
                    .sum::<f32>();
            }
            self.windows += 1;
        }
    }

    /// Closes a column: the mean of its windows (the last window when none ended in it).
    fn column(&mut self) {
        if self.windows == 0 {
            self.analyse();
        }
        // A full-scale sine's power over its bins under the Hann window (Parseval: the
        // window's energy 3N/8, half the sine's power per side): 3N²/32.
        let n = FFT_LEN as f32;
        let norm = 3.0 * n * n / 32.0 * self.windows.max(1) as f32;
        let mut col = [FLOOR_DB; BANDS];
        for (c, sum) in col.iter_mut().zip(&self.sum) {
            *c = (10.0 * (sum / norm).max(1e-12).log10()).max(FLOOR_DB);
        }
        self.sum = [0.0; BANDS];
        self.windows = 0;
        self.columns.push(col);
    }

    /// The columns so far, in time order (column `i` covers `[i, i + 1) × COLUMN_S`).
    #[must_use]
    pub fn columns(&self) -> &[[f32; BANDS]] {
        &self.columns
    }

    /// The highest band's upper edge for this rate, Hz.
    #[must_use]
    pub fn high_hz(&self) -> f64 {
        HIGH_HZ.min(f64::from(self.rate) / 2.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sine_lands_in_its_band_at_its_level() {
        let rate = 48_000;
        let hz = 1000.0;
        let stereo: Vec<f32> = (0..rate as usize)
            .flat_map(|i| {
                let v = (std::f64::consts::TAU * hz * i as f64 / f64::from(rate)).sin() as f32;
                [v, v]
            })
            .collect();
        let mut s = Spectrogram::new(rate);
        s.push(&stereo[..1000]);
        s.push(&stereo[1000..]);
        assert_eq!(s.columns().len(), 20);
        let col = s.columns()[10];
        let loudest = (0..BANDS)
            .max_by(|&a, &b| col[a].total_cmp(&col[b]))
            .unwrap();
        let (lo, hi) = band_edges_hz(loudest, s.high_hz());
        assert!(lo <= hz && hz < hi, "loudest band {lo}..{hi} Hz");
        assert!(col[loudest].abs() < 0.5, "{} dB", col[loudest]);
        // Far bands are far below.
        assert!(col[2] < -60.0 && col[BANDS - 2] < -60.0, "{col:?}");
    }

    #[test]
    fn silence_sits_on_the_floor() {
        let mut s = Spectrogram::new(48_000);
        s.push(&vec![0.0; 2 * 4800]);
        assert_eq!(s.columns().len(), 2);
        assert!(s.columns().iter().flatten().all(|&v| v == FLOOR_DB));
    }
}
