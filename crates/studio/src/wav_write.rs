//! Writing renders as WAV files (`hound`): 32-bit float (analysis) or 16-bit PCM (delivery).

use std::path::Path;

/// Sample format of a written WAV file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum WavFormat {
    /// IEEE float, 32 bits.
    #[default]
    F32,
    /// Signed 16-bit PCM (clipped to ±1, rounded).
    S16,
}

/// Writing a WAV file failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WavError {
    /// The sample buffer is not whole frames of `channels`.
    #[error("{len} samples are not whole frames of {channels} channels")]
    Frames {
        /// Samples given.
        len: usize,
        /// Channels.
        channels: u16,
    },
    /// hound failed (I/O or format).
    #[error("cannot write WAV: {0}")]
    Hound(hound::Error),
}

/// Writes interleaved `samples` of `channels` channels at `rate` Hz to `path`.
///
/// # Errors
/// [`WavError`].
pub fn write_wav(
    path: &Path,
    samples: &[f32],
    channels: u16,
    rate: u32,
    format: WavFormat,
) -> Result<(), WavError> {
    if channels == 0 || !samples.len().is_multiple_of(usize::from(channels)) {
        return Err(WavError::Frames {
            len: samples.len(),
            channels,
        });
    }
    let spec = hound::WavSpec {
        channels,
        sample_rate: rate,
        bits_per_sample: match format {
            WavFormat::F32 => 32,
            WavFormat::S16 => 16,
        },
        sample_format: match format {
            WavFormat::F32 => hound::SampleFormat::Float,
            WavFormat::S16 => hound::SampleFormat::Int,
        },
    };
    let mut w = hound::WavWriter::create(path, spec).map_err(WavError::Hound)?;
    for &s in samples {
        match format {
            WavFormat::F32 => w.write_sample(s),
            WavFormat::S16 => {
                let v = if s.is_finite() {
                    s.clamp(-1.0, 1.0)
                } else {
                    0.0
                };
                w.write_sample((v * 32_767.0).round() as i16)
            }
        }
        .map_err(WavError::Hound)?;
    }
    w.finalize().map_err(WavError::Hound)
}
