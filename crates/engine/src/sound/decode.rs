//! Decoding sound bytes into one shape, [`DecodedSound`]: WAV files (via `hound`), DAT `Wave`
//! records (PCM 8-bit unsigned / 16-bit signed, or MPEG Layer-3 under format tag 0x55) and raw
//! MP3 streams (via `symphonia`'s MP3 decoder, MPL-2.0).
//!
//! Every input is untrusted: a bad one gives a typed [`DecodeError`], never a panic, and memory
//! is bounded by [`DecodeLimits::max_frames`] (checked against the header's own length claim
//! before anything is reserved, and again while MP3 frames are appended).
//!
//! Channels: mono and stereo are decoded; the result keeps them interleaved. 3-D voices are
//! points, so [`DecodedSound::to_mono`] downmixes a stereo sound to the average of its two
//! channels (a centred, correlated signal keeps its level; nothing is truncated or dropped);
//! [`DecodedSound::to_stereo_sound_data`] keeps both channels beside that downmix, for
//! non-positional voices that play stereo. More than two channels is [`DecodeError::UnsupportedChannels`].

use std::io::Cursor;
use std::sync::Arc;

use resound_datformat::record::{DecodePcmError, WAVE_FORMAT_MPEGLAYER3, WAVE_FORMAT_PCM, Wave};
use resound_mixer::{MAX_SOUND_FRAMES, MAX_SOUND_RATE, SoundData};
use thiserror::Error;

/// Default cap on decoded length: 2²⁶ frames (about 23 minutes at 48 kHz; 256 MiB of mono f32).
pub const DEFAULT_MAX_FRAMES: usize = 1 << 26;

/// Largest channel count decoded (stereo).
pub const MAX_CHANNELS: u16 = 2;

/// Bounds on what a decode may produce.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecodeLimits {
    /// Most frames (samples per channel) a decoded sound may have. Values at or above the
    /// mixer's [`MAX_SOUND_FRAMES`] act as `MAX_SOUND_FRAMES − 1`.
    pub max_frames: usize,
}

impl Default for DecodeLimits {
    fn default() -> Self {
        Self {
            max_frames: DEFAULT_MAX_FRAMES,
        }
    }
}

impl DecodeLimits {
    /// The effective frame cap (never at or above what the mixer accepts).
    #[must_use]
    pub fn frame_cap(&self) -> usize {
        self.max_frames.min(MAX_SOUND_FRAMES - 1)
    }
}

/// A decoded sound: interleaved f32 samples (nominal −1..1) at their own rate.
#[derive(Debug, Clone, PartialEq)]
pub struct DecodedSound {
    /// Samples per second, `1..=MAX_SOUND_RATE`.
    pub sample_rate: u32,
    /// Channels, 1 or 2.
    pub channels: u16,
    /// Interleaved samples, `frames · channels` of them, every one finite.
    pub samples: Vec<f32>,
}

impl DecodedSound {
    /// Frames (samples per channel).
    #[must_use]
    pub fn frames(&self) -> usize {
        self.samples.len() / usize::from(self.channels.max(1))
    }

    /// Length in seconds.
    #[must_use]
    pub fn seconds(&self) -> f64 {
        self.frames() as f64 / f64::from(self.sample_rate.max(1))
    }

    /// Mono samples: the sound itself when mono; a stereo sound downmixed to `(L + R) / 2`
    /// per frame (every frame kept).
    #[must_use]
    pub fn to_mono(&self) -> Vec<f32> {
        match self.channels {
            1 => self.samples.clone(),
            c => {
                let c = usize::from(c);
                self.samples
                    .chunks_exact(c)
                    .map(|f| f.iter().sum::<f32>() / c as f32)
                    .collect()
            }
        }
    }

    /// The mixer's buffer keeping a stereo sound's channels (and their downmix for positional
    /// voices); a mono sound as [`to_sound_data`](Self::to_sound_data).
    #[must_use]
    pub fn to_stereo_sound_data(&self) -> SoundData {
        if self.channels != 2 {
            return self.to_sound_data();
        }
        let left: Arc<[f32]> = self.samples.iter().step_by(2).copied().collect();
        let right: Arc<[f32]> = self.samples.iter().skip(1).step_by(2).copied().collect();
        SoundData::stereo(left, right, self.sample_rate)
    }

    /// The mixer's buffer: [`to_mono`](Self::to_mono) at the sound's rate.
    #[must_use]
    pub fn to_sound_data(&self) -> SoundData {
        SoundData {
            samples: Arc::from(self.to_mono()),
            sample_rate: self.sample_rate,
            stereo: None,
        }
    }

    /// [`to_sound_data`](Self::to_sound_data), consuming the sound: a mono sound's samples
    /// move into the mixer's buffer (one copy, into the shared allocation) and a stereo
    /// sound's are freed as soon as their downmix exists, so at most two buffers of the
    /// sound's size are live at once instead of three.
    #[must_use]
    pub fn into_sound_data(self) -> SoundData {
        let rate = self.sample_rate;
        let mono = if self.channels == 1 {
            self.samples
        } else {
            self.to_mono()
        };
        SoundData {
            samples: Arc::from(mono),
            sample_rate: rate,
            stereo: None,
        }
    }

    /// [`to_stereo_sound_data`](Self::to_stereo_sound_data), consuming the sound (a mono
    /// sound as [`into_sound_data`](Self::into_sound_data)).
    #[must_use]
    pub fn into_stereo_sound_data(self) -> SoundData {
        if self.channels != 2 {
            return self.into_sound_data();
        }
        self.to_stereo_sound_data()
    }
}

/// Why bytes could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum DecodeError {
    /// The WAV container is malformed (bad RIFF/fmt/data chunks).
    #[error("malformed WAV: {0}")]
    MalformedWav(&'static str),
    /// The Wave record's WAVEFORMATEX is shorter than the 16 bytes every format needs.
    #[error("wave header has {len} bytes, at least 16 are needed")]
    HeaderTooShort {
        /// Header length.
        len: usize,
    },
    /// A format tag other than PCM (1) or MPEG Layer-3 (0x55).
    #[error("unsupported format tag {0:#06x}")]
    UnsupportedFormat(u16),
    /// A sample width this format does not allow (Wave PCM: 8 or 16; WAV int: 8/16/24/32,
    /// float: 32).
    #[error("unsupported {bits}-bit {kind} samples")]
    UnsupportedBits {
        /// Bits per sample.
        bits: u16,
        /// `"integer"` or `"float"`.
        kind: &'static str,
    },
    /// Zero or more than two channels.
    #[error("unsupported channel count {0} (mono or stereo only)")]
    UnsupportedChannels(u16),
    /// A sample rate of 0 or above the mixer's `MAX_SOUND_RATE`.
    #[error("sample rate {0} Hz is out of range (1..=384000)")]
    SampleRate(u32),
    /// The data ends inside a sample or the container claims more than is there.
    #[error("sample data is truncated")]
    Truncated,
    /// No samples at all.
    #[error("the sound has no samples")]
    Empty,
    /// Longer than the decode limit (and so than the mixer may hold).
    #[error("the sound has more than {max_frames} frames (the decode frame cap)")]
    TooLong {
        /// The cap in force.
        max_frames: usize,
    },
    /// The MP3 stream could not be decoded.
    #[error("malformed MP3: {0}")]
    MalformedMp3(&'static str),
    /// The MP3 stream holds no MPEG audio frame.
    #[error("no MPEG audio frame found")]
    NoMp3Frames,
    /// The MP3 stream changes channel count or rate between frames.
    #[error("MP3 frames change rate or channel count mid-stream")]
    InconsistentMp3,
    /// A decoded sample is NaN or infinite (only float WAV can carry one).
    #[error("sample {index} is not finite")]
    NonFiniteSample {
        /// Its index in the interleaved samples.
        index: usize,
    },
}

fn check_rate(rate: u32) -> Result<(), DecodeError> {
    if rate == 0 || rate > MAX_SOUND_RATE {
        return Err(DecodeError::SampleRate(rate));
    }
    Ok(())
}

fn check_channels(channels: u16) -> Result<(), DecodeError> {
    if channels == 0 || channels > MAX_CHANNELS {
        return Err(DecodeError::UnsupportedChannels(channels));
    }
    Ok(())
}

fn check_frames(frames: usize, limits: &DecodeLimits) -> Result<(), DecodeError> {
    let cap = limits.frame_cap();
    if frames > cap {
        return Err(DecodeError::TooLong { max_frames: cap });
    }
    Ok(())
}

fn finish(sample_rate: u32, channels: u16, samples: Vec<f32>) -> Result<DecodedSound, DecodeError> {
    if samples.is_empty() {
        return Err(DecodeError::Empty);
    }
    if let Some(index) = samples.iter().position(|s| !s.is_finite()) {
        return Err(DecodeError::NonFiniteSample { index });
    }
    Ok(DecodedSound {
        sample_rate,
        channels,
        samples,
    })
}

/// Decodes a RIFF/WAVE file: integer PCM of 8, 16, 24 or 32 bits or 32-bit float, mono or
/// stereo, any rate up to the mixer's `MAX_SOUND_RATE`.
///
/// # Errors
/// [`DecodeError`]: a malformed container, an unsupported format, width, channel count or
/// rate, data that ends early, no samples, or more than `limits.max_frames` frames.
pub fn decode_wav(bytes: &[u8], limits: &DecodeLimits) -> Result<DecodedSound, DecodeError> {
    let mut reader = hound::WavReader::new(Cursor::new(bytes)).map_err(wav_error)?;
    let spec = reader.spec();
    check_channels(spec.channels)?;
    check_rate(spec.sample_rate)?;
    check_frames(reader.duration() as usize, limits)?;
    // The header's claim is bounded by the frame cap; the bytes present bound it too.
    let claimed = reader.len() as usize;
    let mut samples = Vec::with_capacity(claimed.min(bytes.len()));
    match spec.sample_format {
        hound::SampleFormat::Float => {
            if spec.bits_per_sample != 32 {
                return Err(DecodeError::UnsupportedBits {
                    bits: spec.bits_per_sample,
                    kind: "float",
                });
            }
            for s in reader.samples::<f32>() {
                samples.push(s.map_err(wav_error)?);
            }
        }
        hound::SampleFormat::Int => {
            let bits = spec.bits_per_sample;
            if !matches!(bits, 8 | 16 | 24 | 32) {
                return Err(DecodeError::UnsupportedBits {
                    bits,
                    kind: "integer",
                });
            }
            let scale = 1.0 / f64::from(1u32 << (bits - 1)) as f32;
            for s in reader.samples::<i32>() {
                samples.push(s.map_err(wav_error)? as f32 * scale);
            }
        }
    }
    if samples.len() < claimed {
        return Err(DecodeError::Truncated);
    }
    if samples.len() % usize::from(spec.channels) != 0 {
        return Err(DecodeError::Truncated);
    }
    finish(spec.sample_rate, spec.channels, samples)
}

fn wav_error(e: hound::Error) -> DecodeError {
    match e {
        hound::Error::IoError(_) => DecodeError::Truncated,
        hound::Error::FormatError(msg) => DecodeError::MalformedWav(msg),
        hound::Error::TooWide | hound::Error::InvalidSampleFormat => {
            DecodeError::MalformedWav("sample width does not match the format")
        }
        hound::Error::UnfinishedSample => DecodeError::Truncated,
        hound::Error::Unsupported => DecodeError::MalformedWav("unsupported WAVE format"),
    }
}

/// Decodes a DAT `Wave` record (spec `dat-format.md` §4.3): its WAVEFORMATEX header chooses PCM
/// (8-bit unsigned or 16-bit signed, mono or stereo, any rate) or MPEG Layer-3 (tag 0x55, the
/// data is a raw MPEG audio stream, decoded like [`decode_mp3`]). A trailing partial PCM
/// frame is dropped, as a sound card plays whole frames only.
///
/// # Errors
/// [`DecodeError`]: a short header, an unsupported tag, width, channel count or rate, no
/// samples, or too many frames.
pub fn decode_wave(wave: &Wave, limits: &DecodeLimits) -> Result<DecodedSound, DecodeError> {
    if wave.header.len() < 16 {
        return Err(DecodeError::HeaderTooShort {
            len: wave.header.len(),
        });
    }
    let tag = wave.format_tag().unwrap_or(0);
    let channels = wave.channels().unwrap_or(0);
    let rate = wave.sample_rate().unwrap_or(0);
    match tag {
        WAVE_FORMAT_PCM => {
            check_channels(channels)?;
            check_rate(rate)?;
            let bits = wave.bits_per_sample().unwrap_or(0);
            let width = match bits {
                8 => 1,
                16 => 2,
                _ => {
                    return Err(DecodeError::UnsupportedBits {
                        bits,
                        kind: "integer",
                    });
                }
            };
            let frame = width * usize::from(channels);
            check_frames(wave.data.len() / frame, limits)?;
            let samples = wave.decode_pcm_f32().map_err(|e| match e {
                DecodePcmError::HeaderTooShort { len } => DecodeError::HeaderTooShort { len },
                _ => DecodeError::UnsupportedFormat(tag),
            })?;
            finish(rate, channels, samples)
        }
        WAVE_FORMAT_MPEGLAYER3 => decode_mp3(&wave.data, limits),
        other => Err(DecodeError::UnsupportedFormat(other)),
    }
}

/// The frames [`decode_wave`] would give `wave`, found without decoding: a PCM Wave's from its
/// data length, an MPEG Layer-3 Wave's by walking its frame headers
/// ([`mp3_frames`]). A caller with a byte budget (the wave cache) checks this before decoding.
///
/// # Errors
/// [`DecodeError`]: a short header, an unsupported tag, width or channel count, a stream
/// without MPEG frames, or more than `limits.max_frames` frames (found as they are counted,
/// before anything is decoded).
pub fn wave_frames(wave: &Wave, limits: &DecodeLimits) -> Result<usize, DecodeError> {
    if wave.header.len() < 16 {
        return Err(DecodeError::HeaderTooShort {
            len: wave.header.len(),
        });
    }
    match wave.format_tag().unwrap_or(0) {
        WAVE_FORMAT_PCM => {
            let channels = wave.channels().unwrap_or(0);
            check_channels(channels)?;
            let width = match wave.bits_per_sample().unwrap_or(0) {
                8 => 1,
                16 => 2,
                bits => {
                    return Err(DecodeError::UnsupportedBits {
                        bits,
                        kind: "integer",
                    });
                }
            };
            let frames = wave.data.len() / (width * usize::from(channels));
            check_frames(frames, limits)?;
            Ok(frames)
        }
        WAVE_FORMAT_MPEGLAYER3 => mp3_frames(&wave.data, limits),
        other => Err(DecodeError::UnsupportedFormat(other)),
    }
}

/// The frames of a raw MPEG audio stream as its frame headers declare them (each frame's
/// length with the encoder delay and padding the decoder also outputs), counted as the stream
/// is read without decoding, stopping as soon as the count passes `limits.max_frames`: an
/// upper bound of what [`decode_mp3`] gives. [`decode_mp3`] counts first, so a stream over
/// the cap is refused before any sample is held.
///
/// # Errors
/// [`DecodeError::TooLong`] past the cap; no MPEG frame; a malformed stream.
pub fn mp3_frames(bytes: &[u8], limits: &DecodeLimits) -> Result<usize, DecodeError> {
    mp3::count(bytes, limits)
}

/// Decodes a raw MPEG audio stream (MP3; an ID3v2 tag or Xing/Info frame in front is skipped)
/// with `symphonia`'s MP3 decoder: every frame, mono or stereo, at the stream's rate.
///
/// # Errors
/// [`DecodeError`]: no MPEG frame, a malformed stream, a rate or channel change mid-stream,
/// or more than `limits.max_frames` frames.
pub fn decode_mp3(bytes: &[u8], limits: &DecodeLimits) -> Result<DecodedSound, DecodeError> {
    mp3::decode(bytes, limits)
}

mod mp3 {
    //! The `symphonia` glue: MPEG audio demuxer and decoder straight, no probing.

    use std::io::Cursor;

    use symphonia::core::codecs::audio::{AudioCodecParameters, AudioDecoder, AudioDecoderOptions};
    use symphonia::core::errors::Error as SymError;
    use symphonia::core::formats::{FormatOptions, FormatReader, TrackType};
    use symphonia::core::io::{MediaSourceStream, MediaSourceStreamOptions};
    use symphonia::default::codecs::MpaDecoder;
    use symphonia::default::formats::MpaReader;

    use super::{
        DecodeError, DecodeLimits, DecodedSound, check_channels, check_frames, check_rate, finish,
    };

    /// Corrupt frames in a row after which the stream is given up as malformed.
    const MAX_BAD_FRAMES: usize = 8;

    fn sym(e: &SymError) -> DecodeError {
        match e {
            SymError::IoError(_) => DecodeError::Truncated,
            SymError::DecodeError(msg) | SymError::Unsupported(msg) | SymError::LimitError(msg) => {
                DecodeError::MalformedMp3(msg)
            }
            _ => DecodeError::MalformedMp3("stream cannot be read on"),
        }
    }

    /// The stream's demuxer, its audio track's id and codec parameters.
    fn open(bytes: &[u8]) -> Result<(MpaReader<'static>, u32, AudioCodecParameters), DecodeError> {
        if bytes.is_empty() {
            return Err(DecodeError::Empty);
        }
        let source = Box::new(Cursor::new(bytes.to_vec()));
        let mss = MediaSourceStream::new(source, MediaSourceStreamOptions::default());
        let reader = MpaReader::try_new(mss, FormatOptions::default()).map_err(|e| match e {
            SymError::IoError(_) => DecodeError::NoMp3Frames,
            other => sym(&other),
        })?;
        let track = reader
            .default_track(TrackType::Audio)
            .ok_or(DecodeError::NoMp3Frames)?;
        let track_id = track.id;
        let params = track
            .codec_params
            .as_ref()
            .and_then(|p| p.audio())
            .ok_or(DecodeError::NoMp3Frames)?
            .clone();
        Ok((reader, track_id, params))
    }

    pub(super) fn count(bytes: &[u8], limits: &DecodeLimits) -> Result<usize, DecodeError> {
        let (mut reader, track_id, _) = open(bytes)?;
        let mut frames: u64 = 0;
        loop {
            let packet = match reader.next_packet() {
                Ok(Some(p)) => p,
                Ok(None) => break,
                Err(SymError::IoError(_)) if frames > 0 => break,
                Err(e) => return Err(sym(&e)),
            };
            if packet.track_id != track_id {
                continue;
            }
            let declared = packet.dur.get() + packet.trim_start.get() + packet.trim_end.get();
            frames = frames.saturating_add(declared);
            check_frames(usize::try_from(frames).unwrap_or(usize::MAX), limits)?;
        }
        if frames == 0 {
            return Err(DecodeError::NoMp3Frames);
        }
        Ok(frames as usize)
    }

    pub(super) fn decode(bytes: &[u8], limits: &DecodeLimits) -> Result<DecodedSound, DecodeError> {
        // Counted first: a stream over the cap is refused before a sample exists, and the
        // samples are held in one allocation of their count.
        let declared = count(bytes, limits)?;
        let (mut reader, track_id, params) = open(bytes)?;
        let mut decoder =
            MpaDecoder::try_new(&params, &AudioDecoderOptions::default()).map_err(|e| sym(&e))?;
        let cap = limits.frame_cap();
        let mut samples: Vec<f32> = Vec::new();
        let mut spec: Option<(u32, u16)> = None;
        let mut bad_in_a_row = 0;
        loop {
            let packet = match reader.next_packet() {
                Ok(Some(p)) => p,
                Ok(None) => break,
                // A stream cut inside its last frame ends there.
                Err(SymError::IoError(_)) if spec.is_some() => break,
                Err(e) => return Err(sym(&e)),
            };
            if packet.track_id != track_id {
                continue;
            }
            let buf = match decoder.decode(&packet) {
                Ok(buf) => buf,
                Err(SymError::DecodeError(msg)) => {
                    // One corrupt frame is skipped (a decoder's normal recovery); many are not.
                    bad_in_a_row += 1;
                    if bad_in_a_row > MAX_BAD_FRAMES {
                        return Err(DecodeError::MalformedMp3(msg));
                    }
                    continue;
                }
                Err(e) => return Err(sym(&e)),
            };
            bad_in_a_row = 0;
            let rate = buf.spec().rate();
            let channels = u16::try_from(buf.spec().channels().count()).unwrap_or(u16::MAX);
            match spec {
                None => {
                    check_rate(rate)?;
                    check_channels(channels)?;
                    spec = Some((rate, channels));
                }
                Some(s) if s != (rate, channels) => return Err(DecodeError::InconsistentMp3),
                Some(_) => {}
            }
            let frames_after = samples.len() / usize::from(channels) + buf.frames();
            check_frames(frames_after, limits)?;
            if samples.is_empty() {
                samples.reserve_exact(declared.max(frames_after) * usize::from(channels));
            }
            let start = samples.len();
            samples.resize(start + buf.samples_interleaved(), 0.0);
            buf.copy_to_slice_interleaved::<f32, _>(&mut samples[start..]);
            debug_assert!(frames_after <= cap);
        }
        let (rate, channels) = spec.ok_or(DecodeError::NoMp3Frames)?;
        finish(rate, channels, samples)
    }
}
