//! Writing renders as WAV files (`hound`): 32-bit float (analysis) or 16-bit PCM (delivery).
//!
//! [`write_wav`] writes a buffer held whole; [`WavStream`] writes block by block to any
//! [`Write`] (a pipe too): its length is fixed before the first byte, so the header is final
//! when written and nothing ever seeks back. Both write the same bytes for the same samples.
//!
//! A stream whose sizes do not fit RIFF's 32-bit fields (4 GiB) is written as RF64 (EBU Tech
//! 3306): the same file with `RF64` for `RIFF`, both 32-bit sizes `0xFFFFFFFF`, and a `ds64`
//! chunk after `WAVE` holding the 64-bit RIFF size, data size and frame count.

use std::io::Write;
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
    /// No channels, or a sample rate of 0 Hz: no player can play it.
    #[error(
        "a WAV needs at least 1 channel and a sample rate above 0 Hz, not {channels} channel(s) at {rate} Hz"
    )]
    Degenerate {
        /// Channels asked for.
        channels: u16,
        /// Sample rate asked for.
        rate: u32,
    },
    /// The samples do not fit a WAV file's sizes (RF64's 64-bit ones).
    #[error(
        "{frames} frames of {channels}-channel {bits}-bit audio are {gib:.1} GiB, more than a WAV file holds (RF64: 2^64 bytes)"
    )]
    TooLong {
        /// Frames asked for.
        frames: u64,
        /// Channels.
        channels: u16,
        /// Bits per sample.
        bits: u16,
        /// The data size in GiB.
        gib: f64,
    },
    /// Writing the stream failed.
    #[error("cannot write WAV: {0}")]
    Io(std::io::Error),
    /// A stream was finished before (or written past) the length its header gives.
    #[error("the WAV header gives {frames} frames but {written} were written")]
    Length {
        /// Frames in the header.
        frames: u64,
        /// Frames written.
        written: u64,
    },
}

fn spec(channels: u16, rate: u32, format: WavFormat) -> hound::WavSpec {
    hound::WavSpec {
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
    }
}

/// The 16-bit sample of `s` (clipped to ±1, rounded; NaN and infinities are 0).
fn to_s16(s: f32) -> i16 {
    let v = if s.is_finite() {
        s.clamp(-1.0, 1.0)
    } else {
        0.0
    };
    (v * 32_767.0).round() as i16
}

/// The header of a WAV file of `frames` frames, byte for byte what [`write_wav`] writes before
/// the samples; over RIFF's 4 GiB an RF64 header (the module's note).
///
/// # Errors
/// [`WavError::Degenerate`], [`WavError::TooLong`] (over 2^64 bytes).
pub fn wav_header(
    channels: u16,
    rate: u32,
    format: WavFormat,
    frames: u64,
) -> Result<Vec<u8>, WavError> {
    if channels == 0 || rate == 0 {
        return Err(WavError::Degenerate { channels, rate });
    }
    let spec = spec(channels, rate, format);
    let bytes_per_frame = u64::from(channels) * u64::from(spec.bits_per_sample / 8);
    // hound's header as it writes it for no samples: the sizes are patched below.
    let mut cursor = std::io::Cursor::new(Vec::new());
    hound::WavWriter::new(&mut cursor, spec)
        .and_then(hound::WavWriter::finalize)
        .map_err(WavError::Hound)?;
    let mut header = cursor.into_inner();
    let n = header.len();
    if n < 12
        || &header[..4] != b"RIFF"
        || &header[8..12] != b"WAVE"
        || &header[n - 8..n - 4] != b"data"
    {
        return Err(WavError::Hound(hound::Error::Unsupported));
    }
    let data = frames.checked_mul(bytes_per_frame);
    let riff = data.and_then(|d| d.checked_add(n as u64 - 8));
    let too_long = || WavError::TooLong {
        frames,
        channels,
        bits: spec.bits_per_sample,
        gib: frames as f64 * bytes_per_frame as f64 / f64::from(1u32 << 30),
    };
    if let (Some(Ok(data)), Some(Ok(riff))) = (data.map(u32::try_from), riff.map(u32::try_from)) {
        header[4..8].copy_from_slice(&riff.to_le_bytes());
        header[n - 4..].copy_from_slice(&data.to_le_bytes());
        return Ok(header);
    }
    let (Some(data), Some(riff)) = (data, riff.and_then(|r| r.checked_add(DS64_BYTES as u64)))
    else {
        return Err(too_long());
    };
    header[..4].copy_from_slice(b"RF64");
    header[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
    header[n - 4..].copy_from_slice(&u32::MAX.to_le_bytes());
    let mut ds64 = Vec::with_capacity(DS64_BYTES);
    ds64.extend_from_slice(b"ds64");
    ds64.extend_from_slice(&28u32.to_le_bytes());
    ds64.extend_from_slice(&riff.to_le_bytes());
    ds64.extend_from_slice(&data.to_le_bytes());
    ds64.extend_from_slice(&frames.to_le_bytes());
    ds64.extend_from_slice(&0u32.to_le_bytes());
    header.splice(12..12, ds64);
    Ok(header)
}

/// The length of the `ds64` chunk RF64 adds: id, size, RIFF size, data size, sample count,
/// table length.
const DS64_BYTES: usize = 8 + 28;

/// A WAV file written block by block: the header (with the final sizes) goes out at
/// [`WavStream::new`], the samples at each [`WavStream::write`]; nothing seeks, so `out` can
/// be a pipe.
#[derive(Debug)]
pub struct WavStream<W: Write> {
    out: W,
    format: WavFormat,
    channels: u16,
    frames: u64,
    written: u64,
    bytes: Vec<u8>,
}

impl<W: Write> WavStream<W> {
    /// Writes the header of a `frames`-frame file to `out`.
    ///
    /// # Errors
    /// [`WavError`]: degenerate or too long a file, or the write failed.
    pub fn new(
        mut out: W,
        channels: u16,
        rate: u32,
        format: WavFormat,
        frames: u64,
    ) -> Result<Self, WavError> {
        let header = wav_header(channels, rate, format, frames)?;
        out.write_all(&header).map_err(WavError::Io)?;
        Ok(Self {
            out,
            format,
            channels,
            frames,
            written: 0,
            bytes: Vec::new(),
        })
    }

    /// Writes interleaved `samples` (whole frames).
    ///
    /// # Errors
    /// [`WavError::Frames`], [`WavError::Length`] past the header's length, [`WavError::Io`].
    pub fn write(&mut self, samples: &[f32]) -> Result<(), WavError> {
        let channels = usize::from(self.channels);
        if !samples.len().is_multiple_of(channels) {
            return Err(WavError::Frames {
                len: samples.len(),
                channels: self.channels,
            });
        }
        let written = self.written + (samples.len() / channels) as u64;
        if written > self.frames {
            return Err(WavError::Length {
                frames: self.frames,
                written,
            });
        }
        self.bytes.clear();
        for &s in samples {
            match self.format {
                WavFormat::F32 => self.bytes.extend_from_slice(&s.to_le_bytes()),
                WavFormat::S16 => self.bytes.extend_from_slice(&to_s16(s).to_le_bytes()),
            }
        }
        self.out.write_all(&self.bytes).map_err(WavError::Io)?;
        self.written = written;
        Ok(())
    }

    /// Checks that every frame the header promised was written, flushes, and returns `out`.
    ///
    /// # Errors
    /// [`WavError::Length`], [`WavError::Io`].
    pub fn finish(mut self) -> Result<W, WavError> {
        if self.written != self.frames {
            return Err(WavError::Length {
                frames: self.frames,
                written: self.written,
            });
        }
        self.out.flush().map_err(WavError::Io)?;
        Ok(self.out)
    }
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
    if channels == 0 || rate == 0 {
        return Err(WavError::Degenerate { channels, rate });
    }
    if !samples.len().is_multiple_of(usize::from(channels)) {
        return Err(WavError::Frames {
            len: samples.len(),
            channels,
        });
    }
    let mut w =
        hound::WavWriter::create(path, spec(channels, rate, format)).map_err(WavError::Hound)?;
    for &s in samples {
        match format {
            WavFormat::F32 => w.write_sample(s),
            WavFormat::S16 => w.write_sample(to_s16(s)),
        }
        .map_err(WavError::Hound)?;
    }
    w.finalize().map_err(WavError::Hound)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_writes_the_same_bytes_as_write_wav() {
        let dir = tempfile::tempdir().unwrap();
        let samples: Vec<f32> = (0..4000).map(|i| ((i as f32) * 0.01).sin() * 1.2).collect();
        for format in [WavFormat::F32, WavFormat::S16] {
            let path = dir.path().join("a.wav");
            write_wav(&path, &samples, 2, 44_100, format).unwrap();
            let mut s = WavStream::new(Vec::new(), 2, 44_100, format, 2000).unwrap();
            for block in samples.chunks(2 * 333) {
                s.write(block).unwrap();
            }
            assert_eq!(s.finish().unwrap(), std::fs::read(&path).unwrap());
        }
    }

    #[test]
    fn degenerate_and_oversized_files_are_refused() {
        assert!(matches!(
            wav_header(0, 48_000, WavFormat::F32, 10),
            Err(WavError::Degenerate { .. })
        ));
        assert!(matches!(
            wav_header(2, 0, WavFormat::F32, 10),
            Err(WavError::Degenerate { .. })
        ));
        let err = wav_header(2, 192_000, WavFormat::F32, u64::MAX / 4).unwrap_err();
        assert_eq!(
            err.to_string(),
            "4611686018427387903 frames of 2-channel 32-bit audio are 34359738368.0 GiB, more than a WAV file holds (RF64: 2^64 bytes)"
        );
        assert!(wav_header(2, 192_000, WavFormat::S16, 3600 * 192_000).is_ok());
    }

    fn le32(b: &[u8], at: usize) -> u32 {
        u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
    }

    fn le64(b: &[u8], at: usize) -> u64 {
        u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
    }

    #[test]
    fn a_file_over_4_gib_gets_an_rf64_header() {
        // One hour of stereo f32 at 192 kHz: 5 529 600 000 bytes of data.
        let frames = 3600 * 192_000;
        let small = wav_header(2, 192_000, WavFormat::F32, 1000).unwrap();
        let big = wav_header(2, 192_000, WavFormat::F32, frames).unwrap();
        assert_eq!(&small[..4], b"RIFF");
        assert_eq!(&big[..4], b"RF64");
        assert_eq!(big.len(), small.len() + DS64_BYTES);
        assert_eq!(le32(&big, 4), u32::MAX);
        assert_eq!(&big[8..16], b"WAVEds64");
        assert_eq!(le32(&big, 16), 28);
        let data = frames * 8;
        assert_eq!(data, 5_529_600_000);
        // RIFF size: the whole file but its first 8 bytes.
        assert_eq!(le64(&big, 20), big.len() as u64 + data - 8);
        assert_eq!(le64(&big, 28), data);
        assert_eq!(le64(&big, 36), frames);
        assert_eq!(le32(&big, 44), 0);
        let n = big.len();
        assert_eq!(&big[n - 8..n - 4], b"data");
        assert_eq!(le32(&big, n - 4), u32::MAX);
        // Between ds64 and data: the same fmt chunk a small file has.
        assert_eq!(big[48..n - 8], small[12..small.len() - 8]);
        // The largest plain RIFF: data + header − 8 = 2^32 − 1 still fits; one frame more
        // does not.
        let most = (u64::from(u32::MAX) - (small.len() as u64 - 8)) / 8;
        assert_eq!(
            &wav_header(2, 192_000, WavFormat::F32, most).unwrap()[..4],
            b"RIFF"
        );
        assert_eq!(
            &wav_header(2, 192_000, WavFormat::F32, most + 1).unwrap()[..4],
            b"RF64"
        );
    }

    #[test]
    fn a_stream_must_be_written_to_its_length() {
        let mut s = WavStream::new(Vec::new(), 2, 48_000, WavFormat::F32, 2).unwrap();
        s.write(&[0.0; 2]).unwrap();
        assert!(s.write(&[0.0; 4]).is_err());
        assert!(matches!(s.finish(), Err(WavError::Length { .. })));
    }
}
