//! [`HrtfBank`]: an HRIR set's responses as partitioned spectra, shared by every renderer.

use std::sync::Arc;

use realfft::num_complex::Complex;
use realfft::{RealFftPlanner, RealToComplex};
use rustfft::{Fft, FftPlanner};

use super::kernels::blend4;
use super::rings::Weights;
use super::set::HrirSet;

/// Partition length of the convolution (frames): the renderer's latency and filter-update
/// grain. 128 frames are 2.7 ms at 48 kHz.
pub const PARTITION: usize = 128;
/// FFT length of one partition (two partitions: overlap-save).
pub(crate) const FFT_LEN: usize = 2 * PARTITION;
/// Bins of one partition's real spectrum.
pub(crate) const BINS: usize = PARTITION + 1;

/// An [`HrirSet`] prepared for [`super::BinauralRenderer`]: every response cut into
/// [`PARTITION`]-frame pieces, each zero-padded to `FFT_LEN` (2 × the partition) and transformed (realfft),
/// scaled by `1/FFT_LEN` so the inverse transform needs no scaling. Built once (allocates,
/// plans the FFTs), then shared read-only behind an `Arc`.
///
/// Interpolation happens on these spectra: the filter of a direction is the weighted sum of
/// up to four measured spectra (the FFT is linear, so this equals blending the responses in
/// time).
pub struct HrtfBank {
    set: HrirSet,
    partitions: usize,
    /// Per direction, per ear, per partition: `BINS` real parts then `BINS` imaginary parts.
    spectra: Vec<f32>,
    /// Real forward transform of one input frame (`FFT_LEN` samples).
    pub(crate) fft: Arc<dyn RealToComplex<f32>>,
    /// Complex inverse transform of `FFT_LEN` bins: both ears at once (left in the real
    /// parts, right in the imaginary parts, see `kernels::pack_ears`).
    pub(crate) inverse: Arc<dyn Fft<f32>>,
}

impl std::fmt::Debug for HrtfBank {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HrtfBank")
            .field("directions", &self.set.len())
            .field("taps", &self.set.taps())
            .field("partitions", &self.partitions)
            .finish()
    }
}

impl HrtfBank {
    /// Prepares `set` (already at the mix rate) for rendering.
    pub fn new(set: HrirSet) -> Self {
        let mut planner = RealFftPlanner::<f32>::new();
        let fft = planner.plan_fft_forward(FFT_LEN);
        let inverse = FftPlanner::<f32>::new().plan_fft_inverse(FFT_LEN);
        let partitions = set.taps().div_ceil(PARTITION).max(1);
        let stride = filter_len(partitions);
        let mut spectra = vec![0.0f32; set.len() * stride];
        let mut time = vec![0.0f32; FFT_LEN];
        let mut spec = vec![Complex::new(0.0f32, 0.0); BINS];
        let mut scratch = fft.make_scratch_vec();
        let scale = 1.0 / FFT_LEN as f32;
        for i in 0..set.len() {
            for (ear, ir) in [set.left(i), set.right(i)].into_iter().enumerate() {
                for (k, piece) in ir.chunks(PARTITION).enumerate() {
                    time.fill(0.0);
                    time[..piece.len()].copy_from_slice(piece);
                    // Lengths come from the plan itself: the transform cannot fail.
                    let _ = fft.process_with_scratch(&mut time, &mut spec, &mut scratch);
                    let at = i * stride + (ear * partitions + k) * 2 * BINS;
                    for (b, c) in spec.iter().enumerate() {
                        spectra[at + b] = c.re * scale;
                        spectra[at + BINS + b] = c.im * scale;
                    }
                }
            }
        }
        Self {
            set,
            partitions,
            spectra,
            fft,
            inverse,
        }
    }

    /// The set this bank was made from.
    pub fn set(&self) -> &HrirSet {
        &self.set
    }

    /// Partitions per response (`ceil(taps / PARTITION)`).
    pub fn partitions(&self) -> usize {
        self.partitions
    }

    /// Floats in one direction's filter (both ears, all partitions, split re/im).
    pub(crate) fn filter_len(&self) -> usize {
        filter_len(self.partitions)
    }

    /// Writes the weighted sum of the measured spectra into `out` ([`Self::filter_len`]), in
    /// one pass (`kernels::blend4`).
    pub(crate) fn blend(&self, weights: &Weights, out: &mut [f32]) {
        let stride = self.filter_len();
        let spectrum = |i: u32| {
            let start = i as usize * stride;
            self.spectra.get(start..start + stride)
        };
        let entries = weights.as_slice();
        let Some(first) = entries.first().and_then(|e| spectrum(e.0)) else {
            out.fill(0.0);
            return;
        };
        // Unused entries: the first spectrum at weight 0 (adds exact zeros).
        let mut s = [first; 4];
        let mut w = [0.0f32; 4];
        for (k, &(i, wi)) in entries.iter().enumerate().take(4) {
            if let Some(src) = spectrum(i) {
                s[k] = src;
                w[k] = wi;
            }
        }
        blend4(out, s, w);
    }
}

fn filter_len(partitions: usize) -> usize {
    2 * partitions * 2 * BINS
}
