//! The engine's sounds: [`Sounds`] is the table of sounds loaded in the mixer (length and rate
//! per sound), and the decoding of WAV, DAT `Wave` and MP3 bytes ([`crate::sound`]) to the
//! engine's mono voices: a stereo sound is downmixed to `(L + R) / 2` per frame (every frame
//! kept, never truncated).

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

/// Decodes `encoded` under the default limits to mono samples and their rate.
///
/// # Errors
/// [`SoundError::Decode`].
pub(crate) fn decode_mono(encoded: Encoded<'_>) -> Result<(Arc<[f32]>, u32), SoundError> {
    let limits = DecodeLimits::default();
    let decoded: DecodedSound = match encoded {
        Encoded::Wav(b) => decode_wav(b, &limits),
        Encoded::Wave(w) => decode_wave(w, &limits),
        Encoded::Mp3(b) => decode_mp3(b, &limits),
    }
    .map_err(SoundError::Decode)?;
    Ok((decoded.to_mono().into(), decoded.sample_rate))
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
        if sample_rate == 0 || sample_rate > resound_mixer::MAX_SOUND_RATE {
            return Err(LoadError::SampleRate(sample_rate));
        }
        let frames = samples.len();
        let id = mixer
            .load_sound(SoundData {
                samples,
                sample_rate,
                stereo: None,
            })
            .map_err(LoadError::Mixer)?;
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
    /// [`UnloadError::Mixer`] when the command ring is full.
    pub(crate) fn unload(
        &mut self,
        mixer: &mut MixerHandle,
        id: SoundId,
    ) -> Result<(), UnloadError> {
        mixer.unload_sound(id).map_err(UnloadError::Mixer)?;
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
