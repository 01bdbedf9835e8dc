//! [`HrirSet`]: measured head-related impulse responses on a sphere of directions.

use super::direction::{azimuth_elevation, normalize};
use super::error::HrirError;
use super::resample::resample_ir;
use super::rings::{Rings, Weights};

/// Most measured directions a set may hold.
pub const MAX_DIRECTIONS: usize = 16_384;
/// Most taps an HRIR keeps at the mix rate; longer responses are cut there with a
/// [`TAIL_FADE`]-sample raised-cosine fade (measured HRIRs die out within ~5 ms; 1024 taps
/// are 21 ms at 48 kHz).
pub const MAX_FILTER_TAPS: usize = 1024;
/// Length of the fade that ends a cut HRIR.
pub const TAIL_FADE: usize = 32;

/// Measured head-related impulse responses: for each direction (head coordinates, see
/// [`super::direction`]) one left-ear and one right-ear response of [`HrirSet::taps`] samples
/// at [`HrirSet::sample_rate`].
///
/// Built from raw arrays ([`HrirSet::new`]), from an AES69 SOFA file
/// ([`HrirSet::from_sofa_bytes`], [`HrirSet::from_sofa_file`]) or, with the `hrtf-default`
/// feature, from the IRCAM LISTEN subject shipped by `firewheel-ircam-hrtf`
/// (`HrirSet::ircam_1040`). [`HrirSet::resampled`] converts to another rate (rubato).
/// Directions between measurements are interpolated bilinearly in azimuth/elevation over the
/// measured elevation rings ([`super::rings`]).
#[derive(Clone, Debug)]
pub struct HrirSet {
    sample_rate: f32,
    taps: usize,
    directions: Vec<[f32; 3]>,
    angles: Vec<(f32, f32)>,
    left: Vec<f32>,
    right: Vec<f32>,
    rings: Rings,
}

impl HrirSet {
    /// A set from `directions` (head coordinates, any non-zero length) and their responses,
    /// `left`/`right` holding `directions.len() × taps` samples, direction by direction.
    /// Responses longer than [`MAX_FILTER_TAPS`] are cut there (with a fade).
    pub fn new(
        sample_rate: f32,
        taps: usize,
        directions: &[[f32; 3]],
        left: &[f32],
        right: &[f32],
    ) -> Result<Self, HrirError> {
        check_rate(f64::from(sample_rate))?;
        if directions.is_empty() || taps == 0 {
            return Err(HrirError::Empty);
        }
        if directions.len() > MAX_DIRECTIONS {
            return Err(HrirError::TooLarge {
                what: "direction count",
                value: directions.len(),
                limit: MAX_DIRECTIONS,
            });
        }
        let expected = directions.len().checked_mul(taps);
        if expected != Some(left.len()) || expected != Some(right.len()) {
            return Err(HrirError::Shape(format!(
                "{} directions of {taps} taps but {} left and {} right samples",
                directions.len(),
                left.len(),
                right.len()
            )));
        }
        if !left.iter().chain(right).all(|x| x.is_finite()) {
            return Err(HrirError::NotFinite("samples"));
        }
        let unit: Vec<[f32; 3]> = directions
            .iter()
            .map(|&d| normalize(d).ok_or(HrirError::NotFinite("directions")))
            .collect::<Result<_, _>>()?;
        let kept = taps.min(MAX_FILTER_TAPS);
        let (left, right) = if kept < taps {
            (cut(left, taps, kept), cut(right, taps, kept))
        } else {
            (left.to_vec(), right.to_vec())
        };
        let angles: Vec<(f32, f32)> = unit.iter().map(|&d| azimuth_elevation(d)).collect();
        let rings = Rings::new(&angles);
        Ok(Self {
            sample_rate,
            taps: kept,
            directions: unit,
            angles,
            left,
            right,
            rings,
        })
    }

    /// This set converted to `sample_rate` (rubato's FFT resampler, each response as one
    /// clip; amplitudes scaled by the rate ratio so the transfer functions keep their gain).
    /// The same rate (within 0.01 Hz) returns a copy.
    pub fn resampled(&self, sample_rate: f32) -> Result<Self, HrirError> {
        check_rate(f64::from(sample_rate))?;
        if (sample_rate - self.sample_rate).abs() < 0.01 {
            return Ok(self.clone());
        }
        let n = self.directions.len();
        let mut left = Vec::new();
        let mut right = Vec::new();
        let mut taps = 0;
        for i in 0..n {
            let l = resample_ir(self.left(i), self.sample_rate, sample_rate)?;
            let r = resample_ir(self.right(i), self.sample_rate, sample_rate)?;
            taps = l.len();
            left.extend_from_slice(&l);
            right.extend_from_slice(&r);
        }
        Self::new(sample_rate, taps, &self.directions, &left, &right)
    }

    /// The sample rate of the responses (Hz).
    pub fn sample_rate(&self) -> f32 {
        self.sample_rate
    }

    /// Samples per response.
    pub fn taps(&self) -> usize {
        self.taps
    }

    /// How many measured directions.
    pub fn len(&self) -> usize {
        self.directions.len()
    }

    /// Never true (a set holds at least one direction); for clippy's `len` convention.
    pub fn is_empty(&self) -> bool {
        self.directions.is_empty()
    }

    /// How many elevation rings the directions form.
    pub fn ring_count(&self) -> usize {
        self.rings.len()
    }

    /// Measured direction `i` (unit, head coordinates).
    pub fn direction(&self, i: usize) -> [f32; 3] {
        self.directions[i]
    }

    /// Measured direction `i` as (azimuth, elevation) in degrees.
    pub fn angles(&self, i: usize) -> (f32, f32) {
        self.angles[i]
    }

    /// The left-ear response of direction `i`.
    pub fn left(&self, i: usize) -> &[f32] {
        &self.left[i * self.taps..(i + 1) * self.taps]
    }

    /// The right-ear response of direction `i`.
    pub fn right(&self, i: usize) -> &[f32] {
        &self.right[i * self.taps..(i + 1) * self.taps]
    }

    /// The measurements that mix for a head-coordinate direction, and their weights
    /// (bilinear in azimuth/elevation over the elevation rings). A zero or non-finite
    /// direction counts as straight ahead.
    pub fn weights(&self, dir: [f32; 3]) -> Weights {
        let (az, el) = azimuth_elevation(dir);
        self.rings.weights(az, el)
    }

    /// The interpolated responses for a direction, written into `left` and `right`
    /// (each at least [`HrirSet::taps`] long; extra samples are zeroed). Allocates nothing.
    pub fn interpolate(&self, dir: [f32; 3], left: &mut [f32], right: &mut [f32]) {
        left.fill(0.0);
        right.fill(0.0);
        let t = self.taps.min(left.len()).min(right.len());
        for &(i, w) in self.weights(dir).as_slice() {
            let i = i as usize;
            for (o, x) in left[..t].iter_mut().zip(self.left(i)) {
                *o += w * x;
            }
            for (o, x) in right[..t].iter_mut().zip(self.right(i)) {
                *o += w * x;
            }
        }
    }
}

/// Checks a sample rate is finite and within [`crate::SAMPLE_RATE_RANGE`].
pub(crate) fn check_rate(rate: f64) -> Result<(), HrirError> {
    let (lo, hi) = crate::SAMPLE_RATE_RANGE;
    if rate.is_finite() && rate >= f64::from(lo) && rate <= f64::from(hi) {
        Ok(())
    } else {
        Err(HrirError::SampleRate(rate))
    }
}

/// Each `taps`-long response of `data` cut to `kept` samples, the last [`TAIL_FADE`] faded.
fn cut(data: &[f32], taps: usize, kept: usize) -> Vec<f32> {
    let fade = TAIL_FADE.min(kept);
    let mut out = Vec::with_capacity(data.len() / taps * kept);
    for ir in data.chunks_exact(taps) {
        let start = out.len();
        out.extend_from_slice(&ir[..kept]);
        for (k, x) in out[start + kept - fade..].iter_mut().enumerate() {
            let phase = (k as f32 + 1.0) / (fade as f32 + 1.0);
            *x *= 0.5 + 0.5 * (std::f32::consts::PI * phase).cos();
        }
    }
    out
}
