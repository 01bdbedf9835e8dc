//! The game's controls on voices and tracks ([`VoiceMut`], [`Engine::voice`],
//! [`Engine::add_track`]): volume and rate tweens, pause, stop with a fade, sub-mix tracks, and
//! the engine's clock that scheduled starts count on.

use glam::DVec3;
use resound_mixer::VoiceControl;

use super::{Engine, VoiceHandle};
use crate::error::{InputError, Problem, TrackError, VoiceError};
use crate::playback::{MAX_TRACKS, Track, Tween, VoiceState, Volume, check_rate, check_tween};
use crate::source::{Source, check_position, check_range};

/// Longest track name, in bytes.
pub const MAX_TRACK_NAME: usize = 64;

impl Engine {
    /// The voice behind `h`, to change it (`engine.voice(h)?.set_volume(…)`).
    ///
    /// # Errors
    /// [`VoiceError::Ended`] once the voice has ended.
    pub fn voice(&mut self, h: VoiceHandle) -> Result<VoiceMut<'_>, VoiceError> {
        self.voices.live(&mut self.shared, h)?;
        Ok(VoiceMut {
            engine: self,
            handle: h,
        })
    }

    /// Where a voice is in its life, as of the last [`Engine::update`] or render.
    #[must_use]
    pub fn voice_state(&self, h: VoiceHandle) -> VoiceState {
        match self.voices.get(h) {
            None => VoiceState::Ended,
            Some(v) if v.paused => VoiceState::Paused,
            Some(_) => VoiceState::Playing,
        }
    }

    /// The engine's clock: seconds of audio the mixer has rendered (offline: by
    /// [`Engine::render`]; live: by the device, as of the last [`Engine::update`]). Scheduled
    /// starts ([`crate::StartTime::At`]) count on it.
    #[must_use]
    pub fn clock(&self) -> f64 {
        self.shared.audio_frames as f64 / f64::from(self.shared.rate)
    }

    /// Adds a sub-mix track named `name` (at full volume); voices reach it through
    /// [`Source::track`](crate::Source::track).
    ///
    /// # Errors
    /// [`TrackError`]: every track taken ([`MAX_TRACKS`] with the main one), an empty, too
    /// long or duplicate name.
    pub fn add_track(&mut self, name: &str) -> Result<Track, TrackError> {
        if name.is_empty() || name.len() > MAX_TRACK_NAME {
            return Err(TrackError::Name);
        }
        if self.shared.tracks.iter().any(|t| t == name) {
            return Err(TrackError::Duplicate);
        }
        if self.shared.tracks.len() >= MAX_TRACKS {
            return Err(TrackError::Full);
        }
        self.shared.tracks.push(name.to_owned());
        Ok(Track((self.shared.tracks.len() - 1) as u8))
    }

    /// The track named `name` (`"main"` is [`Track::MAIN`]).
    #[must_use]
    pub fn track(&self, name: &str) -> Option<Track> {
        let i = self.shared.tracks.iter().position(|t| t == name)?;
        Some(Track(i as u8))
    }

    /// Tweens a track's volume; every voice on it follows (its reverb sends and echoes too).
    ///
    /// # Errors
    /// [`TrackError`]: an unknown track, a bad volume or tween, the command queue full.
    pub fn set_track_volume(
        &mut self,
        track: Track,
        volume: Volume,
        tween: Tween,
    ) -> Result<(), TrackError> {
        if usize::from(track.0) >= self.shared.tracks.len() {
            return Err(TrackError::Unknown);
        }
        let a = volume.amplitude()?;
        let tween = check_tween(tween)?;
        self.shared
            .mixer
            .tween_track(track.0, a, tween)
            .map_err(|_| TrackError::QueueFull)
    }

    /// Tweens a voice's game control (a checked value).
    pub(crate) fn voice_control(
        &mut self,
        h: VoiceHandle,
        control: VoiceControl,
        value: f32,
        tween: Tween,
    ) -> Result<(), VoiceError> {
        let v = self.voices.live(&mut self.shared, h)?;
        if control == VoiceControl::Gain {
            // The scheduler weighs voices by the level they are going to.
            v.source.volume = value;
        }
        let m = v.mixer;
        self.shared.mixer.tween(m, control, value, tween)?;
        Ok(())
    }

    /// Changes a voice's source and hands the change to the mixer.
    pub(crate) fn voice_source(
        &mut self,
        h: VoiceHandle,
        change: impl FnOnce(&mut Source),
    ) -> Result<(), VoiceError> {
        change(&mut self.voices.live(&mut self.shared, h)?.source);
        self.voices.push(&mut self.shared, h.0);
        Ok(())
    }

    /// Pauses or resumes a voice.
    pub(crate) fn voice_pause(
        &mut self,
        h: VoiceHandle,
        pause: bool,
        fade: Tween,
    ) -> Result<(), VoiceError> {
        let v = self.voices.live(&mut self.shared, h)?;
        v.paused = pause;
        let m = v.mixer;
        if pause {
            self.shared.mixer.pause(m, fade)?;
        } else {
            self.shared.mixer.resume(m, fade)?;
        }
        Ok(())
    }

    /// Stops a voice with a fade ([`Tween::IMMEDIATE`]: the mixer's short stop fade).
    pub(crate) fn stop_with(&mut self, h: VoiceHandle, fade: Tween) -> Result<(), VoiceError> {
        let mixer = self.voices.live(&mut self.shared, h)?.mixer;
        if fade.duration > 0.0 {
            self.shared.mixer.stop_after(mixer, fade)?;
        } else {
            self.shared.mixer.stop(mixer)?;
        }
        self.voices.end(&mut self.shared, h.0, false);
        // Retail: a stopped buffer no longer plays; its slot frees now.
        self.retail.ended(mixer);
        Ok(())
    }
}

impl From<InputError> for TrackError {
    fn from(e: InputError) -> Self {
        Self::Input(e)
    }
}

/// Checks a track index against the engine's tracks.
pub(crate) fn check_track(tracks: usize, track: Track) -> Result<(), InputError> {
    if usize::from(track.0) >= tracks {
        return Err(InputError::new("track", Problem::TooLarge));
    }
    Ok(())
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
    /// (0..=[`crate::MAX_RATE`]).
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

    /// Switches the direct path's propagation delay on or off ([`crate::Source::propagation`]):
    /// the voice fades out briefly and back in at the new delay (no glide, no click).
    ///
    /// # Errors
    /// [`VoiceError`]: the voice has ended.
    pub fn set_propagation(&mut self, on: bool) -> Result<&mut Self, VoiceError> {
        self.engine
            .voice_source(self.handle, |s| s.propagation = on)?;
        Ok(self)
    }

    /// Sets how much the propagation delay follows motion ([`crate::Source::doppler`], 0..=1):
    /// from the next change of the source or the listener on.
    ///
    /// # Errors
    /// [`VoiceError`]: a non-finite factor or one outside 0..=1, the voice has ended.
    pub fn set_doppler(&mut self, doppler: f32) -> Result<&mut Self, VoiceError> {
        crate::source::check_doppler(doppler)?;
        self.engine
            .voice_source(self.handle, |s| s.doppler = doppler)?;
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
