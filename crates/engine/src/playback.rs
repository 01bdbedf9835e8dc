//! Everyday playback beside the acoustics: [`Volume`] in amplitude or decibels, [`Tween`]s,
//! [`StartTime`] on the engine's clock, sub-mix [`Track`]s, and [`VoiceMut`], the borrowed view
//! through which a game changes one playing voice.

use glam::DVec3;
use resound_mixer::VoiceControl;

pub use resound_mixer::{Easing, Tween};

use crate::error::{InputError, Problem, VoiceError};
use crate::runtime::{Engine, VoiceHandle};
use crate::source::{MAX_VOLUME, check_position, check_range};

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
    /// At this time on the engine's clock ([`Engine::clock`], seconds of audio rendered),
    /// to the frame. A time already past starts at once.
    At(f64),
}

/// A sub-mix track: voices routed to it follow its volume (their reverb sends and echoes
/// too), like a mixing desk's group fader. [`Track::MAIN`] is where every voice goes unless
/// told otherwise; make others with [`Engine::add_track`].
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
    /// Paused (or fading out to pause); [`VoiceMut::resume`] continues it where it stopped.
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

/// One playing voice, borrowed from the engine ([`Engine::voice`]): change its volume, rate,
/// position or range, pause, resume or stop it.
///
/// ```
/// use resound_engine::{Engine, Source, Tween, Volume};
/// # let mut engine = Engine::builder().build()?;
/// # let sound = engine.load_mono(std::sync::Arc::from(vec![0.1f32; 4800]), 48_000)?;
/// let voice = engine.play(sound, Source { looping: true, ..Source::default() })?;
/// engine.voice(voice)?.set_volume(Volume::Decibels(-6.0), Tween::linear(0.5))?;
/// engine.voice(voice)?.set_rate(1.5, Tween::linear(0.25))?;
/// engine.voice(voice)?.stop(Tween::linear(1.0))?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct VoiceMut<'a> {
    pub(crate) engine: &'a mut Engine,
    pub(crate) handle: VoiceHandle,
}

impl VoiceMut<'_> {
    /// The voice's handle.
    #[must_use]
    pub fn handle(&self) -> VoiceHandle {
        self.handle
    }

    /// Tweens the voice's volume (the level the game gives it; distance, occlusion and reverb
    /// come on top).
    ///
    /// # Errors
    /// [`VoiceError`]: a bad volume or tween, the voice has ended, the command queue is full.
    pub fn set_volume(&mut self, volume: Volume, tween: Tween) -> Result<&mut Self, VoiceError> {
        let a = volume.amplitude()?;
        let tween = check_tween(tween)?;
        self.engine
            .voice_control(self.handle, VoiceControl::Gain, a, tween)?;
        Ok(self)
    }

    /// Tweens the playback rate: 2 plays an octave up and twice as fast, 0.5 an octave down
    /// (0..=[`MAX_RATE`]).
    ///
    /// # Errors
    /// [`VoiceError`]: a bad rate or tween, the voice has ended, the command queue is full.
    pub fn set_rate(&mut self, rate: f64, tween: Tween) -> Result<&mut Self, VoiceError> {
        let r = check_rate(rate)?;
        let tween = check_tween(tween)?;
        self.engine
            .voice_control(self.handle, VoiceControl::Rate, r, tween)?;
        Ok(self)
    }

    /// Moves the voice (a relative voice: an offset in the listener's frame). The acoustics
    /// follow at the next tick; gains glide over 80 ms.
    ///
    /// # Errors
    /// [`VoiceError`]: a non-finite or out-of-world position, the voice has ended.
    pub fn set_position(&mut self, position: DVec3) -> Result<&mut Self, VoiceError> {
        check_position("position", position)?;
        self.engine
            .voice_source(self.handle, |s| s.position = position)?;
        Ok(self)
    }

    /// Sets the voice's range (metres at which its distance gain reaches 0).
    ///
    /// # Errors
    /// [`VoiceError`]: a non-finite, zero or negative range, the voice has ended.
    pub fn set_range(&mut self, range: f32) -> Result<&mut Self, VoiceError> {
        check_range(range)?;
        self.engine.voice_source(self.handle, |s| s.range = range)?;
        Ok(self)
    }

    /// Pauses the voice: it fades out over `fade` and holds its place (echo taps too).
    ///
    /// # Errors
    /// [`VoiceError`]: a bad tween, the voice has ended, the command queue is full.
    pub fn pause(&mut self, fade: Tween) -> Result<&mut Self, VoiceError> {
        let fade = check_tween(fade)?;
        self.engine.voice_pause(self.handle, true, fade)?;
        Ok(self)
    }

    /// Resumes a paused voice where it stopped, fading in over `fade`.
    ///
    /// # Errors
    /// [`VoiceError`]: a bad tween, the voice has ended, the command queue is full.
    pub fn resume(&mut self, fade: Tween) -> Result<&mut Self, VoiceError> {
        let fade = check_tween(fade)?;
        self.engine.voice_pause(self.handle, false, fade)?;
        Ok(self)
    }

    /// Fades the voice out over `fade` and ends it ([`Tween::IMMEDIATE`]: the mixer's short
    /// click-free stop fade).
    ///
    /// # Errors
    /// [`VoiceError`]: a bad tween, the voice has ended, the command queue is full.
    pub fn stop(&mut self, fade: Tween) -> Result<(), VoiceError> {
        let fade = check_tween(fade)?;
        self.engine.stop_with(self.handle, fade)
    }
}
