//! Whole-response sample-rate conversion (rubato's synchronous FFT resampler), load time only.

use rubato::audioadapter_buffers::owned::InterleavedOwned;
use rubato::{Fft, FixedSync, Resampler};

use super::error::HrirError;

/// `ir` at `from` Hz converted to `to` Hz: `ceil(len × to / from)` samples, amplitudes scaled
/// by `from / to` (an impulse response's sum, hence its gain at DC, is kept). Both rates are
/// rounded to whole hertz (rubato's FFT resampler works on integer ratios).
pub fn resample_ir(ir: &[f32], from: f32, to: f32) -> Result<Vec<f32>, HrirError> {
    let (fi, ti) = (from.round() as usize, to.round() as usize);
    if fi == 0 || ti == 0 {
        return Err(HrirError::SampleRate(f64::from(from.min(to))));
    }
    let n = ir.len();
    let out_len = (n as f64 * ti as f64 / fi as f64).ceil() as usize;
    if fi == ti || n == 0 {
        return Ok(ir.to_vec());
    }
    let mut resampler = Fft::<f32>::new(fi, ti, 1024, 1, FixedSync::Input)
        .map_err(|e| HrirError::Resample(e.to_string()))?;
    let input = InterleavedOwned::new_from(ir.to_vec(), 1, n)
        .map_err(|e| HrirError::Resample(e.to_string()))?;
    let output = resampler
        .process_all(&input, n, None)
        .map_err(|e| HrirError::Resample(e.to_string()))?;
    let mut data = output.take_data();
    data.resize(out_len, 0.0);
    let scale = fi as f32 / ti as f32;
    for x in &mut data {
        *x *= scale;
    }
    Ok(data)
}
