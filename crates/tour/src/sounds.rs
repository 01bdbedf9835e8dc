//! [`EventSounds`]: the clap, the shot and the engine's loop loaded into an engine, and the
//! voice each scripted event plays (its level, range and loudness): the tour's sound design.

use std::sync::Arc;

use resound_engine::glam::DVec3;
use resound_engine::{Engine, SoundHandle, Source, Track};

use crate::error::Error;
use crate::script::EventSound;
use crate::signals;

/// The clap's volume (its bursts peak at 0.5: about 0.8 at a few metres).
pub const CLAP_VOLUME: f32 = 1.6;
/// The shot's volume.
pub const SHOT_VOLUME: f32 = 1.15;
/// The driving engine's volume.
pub const ENGINE_VOLUME: f32 = 6.0;

/// The three event sounds, loaded into an engine.
#[derive(Debug, Clone, Copy)]
pub struct EventSounds {
    clap: SoundHandle,
    shot: SoundHandle,
    motor: SoundHandle,
    /// The events' track.
    track: Track,
}

impl EventSounds {
    /// Loads the clap, the shot and the engine's loop (in that order); their voices play on
    /// `track`.
    ///
    /// # Errors
    /// [`Error::Load`].
    pub fn load(engine: &mut Engine, track: Track) -> Result<Self, Error> {
        let rate = engine.sample_rate();
        let clap = engine.load_mono(Arc::from(crate::clap::clap(rate)), rate)?;
        let shot = engine.load_mono(Arc::from(signals::shot(rate)), rate)?;
        let motor = engine.load_mono(Arc::from(signals::looped(rate)), rate)?;
        Ok(Self {
            clap,
            shot,
            motor,
            track,
        })
    }

    /// The sound and the voice of `kind` at `position` (voxel), as the tour plays it.
    ///
    /// Every voice travels (the engine's defaults, issue 31): it is heard its path length / 343 s
    /// after it fires (the open field's shot, 87 m away, about 255 ms late; the ridge's shot
    /// round the ridge, 63 m of path, about 180 ms), and the driving engine's pitch falls as it
    /// passes the listener in the gorge (Doppler). The measured rises are taken over 0.3 s
    /// after each event's arrival window, so a far shot's delay stays inside it.
    #[must_use]
    pub fn source(&self, kind: EventSound, position: DVec3) -> (SoundHandle, Source) {
        match kind {
            EventSound::Clap => (
                self.clap,
                Source {
                    position,
                    volume: CLAP_VOLUME,
                    track: self.track,
                    impulsive: true,
                    power: 2.0,
                    ..Source::default()
                },
            ),
            EventSound::Shot => (
                self.shot,
                Source {
                    position,
                    volume: SHOT_VOLUME,
                    track: self.track,
                    range: 400.0,
                    impulsive: true,
                    power: 4.0,
                    ..Source::default()
                },
            ),
            EventSound::Engine => (
                self.motor,
                Source {
                    position,
                    volume: ENGINE_VOLUME,
                    track: self.track,
                    range: 200.0,
                    looping: true,
                    ..Source::default()
                },
            ),
        }
    }
}
