//! Loading sounds from bytes: WAV, a DAT `Wave` record and MP3, decoded by [`crate::sound`]
//! and loaded through [`Engine::load_mono`]. The engine's voices are mono: a stereo sound is
//! downmixed to `(L + R) / 2` per frame (every frame kept, never truncated).

use std::sync::Arc;

use resound_datformat::record::Wave;

use super::{Engine, SoundHandle};
use crate::error::LoadError;
use crate::sound::{DecodeError, DecodeLimits, DecodedSound, decode_mp3, decode_wav, decode_wave};

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

impl Engine {
    /// Loads a WAV file's bytes (PCM 8/16/24/32-bit or float, mono or stereo; stereo is
    /// downmixed to mono).
    ///
    /// # Errors
    /// [`SoundError::Decode`] for bytes that are not a supported WAV; [`SoundError::Load`].
    pub fn load_wav(&mut self, bytes: &[u8]) -> Result<SoundHandle, SoundError> {
        let decoded = decode_wav(bytes, &DecodeLimits::default()).map_err(SoundError::Decode)?;
        self.load_decoded(&decoded)
    }

    /// Loads a DAT `Wave` record (PCM 8/16-bit at any rate, mono or stereo, or MPEG Layer-3,
    /// format tag 0x55; stereo is downmixed to mono).
    ///
    /// # Errors
    /// [`SoundError::Decode`] for a Wave that fails to decode; [`SoundError::Load`].
    pub fn load_wave(&mut self, wave: &Wave) -> Result<SoundHandle, SoundError> {
        let decoded = decode_wave(wave, &DecodeLimits::default()).map_err(SoundError::Decode)?;
        self.load_decoded(&decoded)
    }

    /// Loads an MP3 stream (decoded with `symphonia`; stereo is downmixed to mono).
    ///
    /// # Errors
    /// [`SoundError::Decode`] for bytes without a decodable MPEG stream; [`SoundError::Load`].
    pub fn load_mp3(&mut self, bytes: &[u8]) -> Result<SoundHandle, SoundError> {
        let decoded = decode_mp3(bytes, &DecodeLimits::default()).map_err(SoundError::Decode)?;
        self.load_decoded(&decoded)
    }

    fn load_decoded(&mut self, decoded: &DecodedSound) -> Result<SoundHandle, SoundError> {
        let mono: Arc<[f32]> = decoded.to_mono().into();
        self.load_mono(mono, decoded.sample_rate)
            .map_err(SoundError::Load)
    }
}
