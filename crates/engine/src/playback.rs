//! Everyday playback beside the acoustics: [`Volume`] in amplitude or decibels, [`Tween`]s,
//! [`StartTime`] on the engine's clock, sub-mix [`Track`]s, a voice's [`VoiceState`]. (The
//! borrowed view that changes a voice, `VoiceMut`, lives with the engine's controls.)

pub use resound_mixer::{Easing, Tween};

use crate::error::{InputError, Problem};
/// As [`crate::MAX_VOLUME`] (the mixer's largest gain).
const MAX_VOLUME: f32 = resound_mixer::MAX_GAIN;

/// Quietest level [`Volume::Decibels`] distinguishes from silence: at or below −100 dB the
/// amplitude is 0.
pub const SILENCE_DB: f32 = -100.0;
/// Fastest playback rate (16 = four octaves up).
pub const MAX_RATE: f64 = resound_mixer::MAX_RATE as f64;
/// Sub-mix tracks an engine can hold, the main track included.
pub const MAX_TRACKS: usize = resound_mixer::TRACKS;

/// A level: linear amplitude (1 = as recorded) or decibels (0 dB = as recorded).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Volume {
    /// Linear amplitude, 0..=16.
    Amplitude(f32),
    /// Decibels relative to the sound as recorded, ≤ +24 dB; [`SILENCE_DB`] or below is
    /// silence.
    Decibels(f32),
}

impl Volume {
    /// Full level (amplitude 1, 0 dB).
    pub const FULL: Self = Self::Amplitude(1.0);
    /// Silence.
    pub const SILENT: Self = Self::Amplitude(0.0);

    /// The linear amplitude.
    ///
    /// # Errors
    /// [`InputError`] (`volume`) for a non-finite, negative or too large level.
    pub fn amplitude(self) -> Result<f32, InputError> {
        let a = match self {
            Self::Amplitude(a) => a,
            Self::Decibels(db) if db.is_nan() => f32::NAN,
            Self::Decibels(db) if db <= SILENCE_DB => 0.0,
            Self::Decibels(db) => 10f32.powf(db / 20.0),
        };
        if !a.is_finite() {
            return Err(InputError::new("volume", Problem::NotFinite));
        }
        if a < 0.0 {
            return Err(InputError::new("volume", Problem::Negative));
        }
        if a > MAX_VOLUME {
            return Err(InputError::new("volume", Problem::TooLarge));
        }
        Ok(a)
    }
}

impl From<f32> for Volume {
    /// A bare number is an amplitude.
    fn from(a: f32) -> Self {
        Self::Amplitude(a)
    }
}

/// When a voice starts.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum StartTime {
    /// At the next block the mixer renders.
    #[default]
    Now,
    /// At this time on the engine's clock ([`crate::Engine::clock`], seconds of audio rendered),
    /// to the frame. A time already past starts at once.
    At(f64),
}

/// A sub-mix track: voices routed to it follow its volume (their reverb sends and echoes
/// too), like a mixing desk's group fader. [`Track::MAIN`] is where every voice goes unless
/// told otherwise; make others with [`crate::Engine::add_track`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Track(pub(crate) u8);

impl Track {
    /// The main track.
    pub const MAIN: Self = Self(0);
}

/// Where a voice is in its life, as the engine last heard from the mixer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VoiceState {
    /// Playing (or scheduled to start, or fading out after a stop).
    Playing,
    /// Paused (or fading out to pause); [`crate::VoiceMut::resume`] continues it where it stopped.
    Paused,
    /// Ended: played out, stopped, stolen, or never known.
    Ended,
}

pub(crate) fn check_rate(rate: f64) -> Result<f32, InputError> {
    if !rate.is_finite() {
        return Err(InputError::new("rate", Problem::NotFinite));
    }
    if rate < 0.0 {
        return Err(InputError::new("rate", Problem::Negative));
    }
    if rate > MAX_RATE {
        return Err(InputError::new("rate", Problem::TooLarge));
    }
    Ok(rate as f32)
}

pub(crate) fn check_tween(t: Tween) -> Result<Tween, InputError> {
    match t.validate() {
        Ok(()) => Ok(t),
        Err(e) if e.problem == resound_mixer::ParamProblem::NotFinite => {
            Err(InputError::new("tween", Problem::NotFinite))
        }
        Err(_) => Err(InputError::new("tween", Problem::TooLarge)),
    }
}
