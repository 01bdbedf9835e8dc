//! The engine's sounds: [`Sounds`] is the table of sounds loaded in the mixer (length and rate
//! per sound), and the decoding of WAV, DAT `Wave` and MP3 bytes ([`crate::sound`]) into the
//! mixer's buffers: a stereo file keeps its two channels (played as stereo by non-positional
//! voices) and their downmix `(L + R) / 2` (played by positional ones); every frame is kept.

use std::collections::BTreeMap;
use std::sync::Arc;

use resound_datformat::record::Wave;
use resound_mixer::{MixerHandle, SoundData, SoundId};

use crate::error::{LoadError, UnloadError};
use crate::sound::{DecodeError, DecodeLimits, DecodedSound, decode_mp3, decode_wav, decode_wave};

/// A loaded sound.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SoundHandle(pub(crate) SoundId);

/// Why a sound could not be loaded from bytes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SoundError {
    /// The bytes could not be decoded (the engine and its mix go on).
    #[error("sound could not be decoded: {0}")]
    Decode(DecodeError),
    /// The decoded sound was refused (rate, length, capacity).
    #[error(transparent)]
    Load(LoadError),
    /// The file could not be read (missing, unreadable, not a regular file, too large).
    #[error("sound file could not be read: {0}")]
    File(String),
    /// The file is neither WAV nor MP3.
    #[error("sound file is neither WAV nor MP3")]
    UnknownFormat,
}

/// Largest sound file [`crate::Engine::load_file`] reads (256 MiB).
pub const MAX_SOUND_FILE_BYTES: u64 = 256 << 20;

/// Which decoder a file's first bytes call for: `RIFF…WAVE` is WAV; an ID3 tag or an MPEG
/// audio frame sync (11 set bits) is MP3.
pub(crate) fn sniff(bytes: &[u8]) -> Option<Encoded<'_>> {
    if bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WAVE" {
        return Some(Encoded::Wav(bytes));
    }
    let id3 = bytes.starts_with(b"ID3");
    let sync = bytes.len() >= 2 && bytes[0] == 0xFF && bytes[1] & 0xE0 == 0xE0;
    (id3 || sync).then_some(Encoded::Mp3(bytes))
}

/// Reads a sound file whole (a regular file of at most [`MAX_SOUND_FILE_BYTES`]).
pub(crate) fn read_sound_file(path: &std::path::Path) -> Result<Vec<u8>, SoundError> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| SoundError::File(io_text(&e)))?;
    let meta = file.metadata().map_err(|e| SoundError::File(io_text(&e)))?;
    if !meta.is_file() {
        return Err(SoundError::File("not a regular file".into()));
    }
    if meta.len() > MAX_SOUND_FILE_BYTES {
        return Err(SoundError::File(format!(
            "{} bytes is more than the {} byte limit",
            meta.len(),
            MAX_SOUND_FILE_BYTES
        )));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(MAX_SOUND_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| SoundError::File(io_text(&e)))?;
    if bytes.len() as u64 > MAX_SOUND_FILE_BYTES {
        return Err(SoundError::File("the file grew past the size limit".into()));
    }
    Ok(bytes)
}

/// An I/O error as one plain line (its kind, without OS error numbers or paths).
fn io_text(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        k => k.to_string(),
    }
}

/// Encoded sound bytes the engine decodes.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Encoded<'a> {
    /// A WAV file (PCM 8/16/24/32-bit or float, mono or stereo).
    Wav(&'a [u8]),
    /// A DAT `Wave` record (PCM 8/16-bit, or MPEG Layer-3, format tag 0x55).
    Wave(&'a Wave),
    /// An MP3 stream.
    Mp3(&'a [u8]),
}

/// Decodes `encoded` under the default limits into the mixer's buffer (a stereo sound keeps
/// its channels).
///
/// # Errors
/// [`SoundError::Decode`].
pub(crate) fn decode(encoded: Encoded<'_>) -> Result<SoundData, SoundError> {
    let limits = DecodeLimits::default();
    let decoded: DecodedSound = match encoded {
        Encoded::Wav(b) => decode_wav(b, &limits),
        Encoded::Wave(w) => decode_wave(w, &limits),
        Encoded::Mp3(b) => decode_mp3(b, &limits),
    }
    .map_err(SoundError::Decode)?;
    Ok(decoded.into_stereo_sound_data())
}

#[derive(Debug, Clone, Copy)]
struct SoundInfo {
    frames: usize,
    rate: u32,
}

/// The sounds loaded in the mixer that voices may play.
#[derive(Debug, Default)]
pub(crate) struct Sounds {
    map: BTreeMap<SoundId, SoundInfo>,
}

impl Sounds {
    /// Loads mono samples at `sample_rate` into the mixer.
    ///
    /// # Errors
    /// [`LoadError`]: bad rate, empty, too long, a non-finite or oversized sample, capacity.
    pub(crate) fn load(
        &mut self,
        mixer: &mut MixerHandle,
        samples: Arc<[f32]>,
        sample_rate: u32,
    ) -> Result<SoundHandle, LoadError> {
        self.load_data(mixer, SoundData::mono(samples, sample_rate))
    }

    /// Loads a mono or stereo buffer into the mixer.
    ///
    /// # Errors
    /// As [`Sounds::load`], and [`LoadError::ChannelLengths`].
    pub(crate) fn load_data(
        &mut self,
        mixer: &mut MixerHandle,
        data: SoundData,
    ) -> Result<SoundHandle, LoadError> {
        let sample_rate = data.sample_rate;
        if sample_rate == 0 || sample_rate > resound_mixer::MAX_SOUND_RATE {
            return Err(LoadError::SampleRate(sample_rate));
        }
        let frames = data.frames();
        let id = mixer.load_sound(data).map_err(LoadError::from)?;
        self.map.insert(
            id,
            SoundInfo {
                frames,
                rate: sample_rate,
            },
        );
        Ok(SoundHandle(id))
    }

    /// True while `id` is loaded.
    pub(crate) fn contains(&self, id: SoundId) -> bool {
        self.map.contains_key(&id)
    }

    /// Unloads a sound (the caller has checked no voice plays it).
    ///
    /// # Errors
    /// [`UnloadError::QueueFull`] when the command ring is full.
    pub(crate) fn unload(
        &mut self,
        mixer: &mut MixerHandle,
        id: SoundId,
    ) -> Result<(), UnloadError> {
        mixer.unload_sound(id).map_err(|_| UnloadError::QueueFull)?;
        self.map.remove(&id);
        Ok(())
    }

    /// Length of a loaded sound in seconds.
    pub(crate) fn length(&self, id: SoundId) -> Option<f64> {
        self.map
            .get(&id)
            .map(|s| s.frames as f64 / f64::from(s.rate))
    }
}
