//! The demo tour in the browser: the listener walks the script's path over the dats' terrain
//! with the gorge, tunnel and hall placed, the retail ambient plays and the scripted claps,
//! shots and the driving engine fire where the acoustics matter (occlusion behind the ridge,
//! echoes in the gorge, the hall's reverb). The engine is driven through its public API only:
//! [`Engine::place_box`], [`Engine::play`] of a [`Source`] at a position, [`Engine::update`],
//! [`Engine::set_position`] and [`Engine::evaluate`] for the readout.
//!
//! Stepped in ticks of [`TICK`] ([`crate::render_tour`]) the samples are those `resound demo`
//! renders for the same length (the native test holds them equal, bit for bit).
//!
//! | module | holds |
//! |---|---|
//! | [`script`] | the path, stages, structures and events |
//! | [`signals`] | the clap, the shot and the engine's loop |
//! | [`world`] | [`TourWorld`]: heights and the structures' boxes |

/// The clap, the shot and the engine's loop: the fixture crate's test signals.
pub use resound_fixture::test_signal as signals;
/// The tour's script: the fixture crate's, the one `resound demo` walks.
pub use resound_fixture::tour_script as script;
pub mod world;

use std::sync::Arc;

use resound_engine::advanced::acoustics::SoundRequest;
use resound_engine::glam::{DVec2, DVec3};
use resound_engine::{
    Engine, Mode, Orientation, PlayError, SoundHandle, Source, VoiceError, VoiceHandle,
};

use self::script::{EVENTS, EventSound, position_at};
pub use self::world::TourWorld;
use self::world::area_to_voxel;
use crate::error::WebError;

/// Seconds per tour tick: the demo's ambient frame.
pub const TICK: f64 = 0.05;

/// The three event sounds, loaded into an engine.
#[derive(Debug, Clone, Copy)]
pub struct EventSounds {
    clap: SoundHandle,
    shot: SoundHandle,
    motor: SoundHandle,
}

impl EventSounds {
    /// Loads the clap, the shot and the engine's loop (in that order, as the demo does).
    ///
    /// # Errors
    /// [`WebError::Load`].
    pub fn load(engine: &mut Engine) -> Result<Self, WebError> {
        let rate = engine.sample_rate();
        let clap = engine.load_mono(Arc::from(signals::click(rate)), rate)?;
        let shot = engine.load_mono(Arc::from(signals::shot(rate)), rate)?;
        let motor = engine.load_mono(Arc::from(signals::looped(rate)), rate)?;
        Ok(Self { clap, shot, motor })
    }

    /// The sound and the voice of `kind` at `position` (voxel), as the demo plays it.
    #[must_use]
    pub fn source(&self, kind: EventSound, position: DVec3) -> (SoundHandle, Source) {
        match kind {
            EventSound::Clap => (
                self.clap,
                Source {
                    position,
                    volume: 2.0,
                    impulsive: true,
                    power: 2.0,
                    ..Source::default()
                },
            ),
            EventSound::Shot => (
                self.shot,
                Source {
                    position,
                    volume: 1.5,
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
                    volume: 6.0,
                    range: 200.0,
                    looping: true,
                    ..Source::default()
                },
            ),
        }
    }
}

/// What the acoustics make of a sound's path to the listener (the demo's timeline values).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PathReadout {
    /// High-band gain of the direct sound, dB.
    pub hf_db: f32,
    /// Echo taps found (`reflect`, `full`).
    pub taps: usize,
    /// The listener's enclosure, 0..1 (`full`).
    pub enclosure: Option<f64>,
    /// The predicted decay (T60, s) of the listener's space (`full`).
    pub decay: Option<f32>,
}

/// Evaluates the path from `source` to the engine's listener in the engine's mode
/// ([`Engine::evaluate`], synchronous; `None` in mode `off`).
#[must_use]
pub fn probe_path(engine: &Engine, source: DVec3) -> Option<PathReadout> {
    let mode = engine.mode();
    if mode == Mode::Off {
        return None;
    }
    let request = SoundRequest::new(source, engine.listener().position);
    let st = engine.evaluate(&request, mode).ok()?;
    Some(PathReadout {
        hf_db: 20.0 * st.direct.hf.max(1e-5).log10(),
        taps: st.echo.as_ref().map_or(0, |e| e.taps.len()),
        enclosure: st.room.as_ref().map(|r| r.listener.enclosure),
        decay: st.room.as_ref().map(|r| r.decay),
    })
}

/// A tour under way on an engine.
#[derive(Debug, Clone)]
pub struct Tour {
    /// The tour's length, seconds (the script's fractions stretch to it).
    pub seconds: f64,
    /// Tour time, seconds.
    pub now: f64,
    sounds: EventSounds,
    fired: [bool; EVENTS.len()],
    driving: Option<(VoiceHandle, usize)>,
    /// The newest event fired and its voice.
    newest: Option<(usize, VoiceHandle)>,
}

impl Tour {
    /// Prepares `engine` (fresh, ambient not attached yet) for a tour of `seconds`: the
    /// listener at the start, the dats' terrain, the structures, then the ambient and the
    /// event sounds: the demo's order.
    ///
    /// # Errors
    /// [`WebError`] from the engine.
    pub fn start(
        engine: &mut Engine,
        dats: &crate::Dats,
        world: &TourWorld,
        seconds: f64,
    ) -> Result<Self, WebError> {
        engine.set_listener(world.ear(position_at(0.0)), Orientation::default())?;
        dats.attach_terrain(engine)?;
        for b in world.boxes() {
            engine.place_box(b.min, b.max, b.cell)?;
        }
        dats.attach_ambient(engine)?;
        let sounds = EventSounds::load(engine)?;
        Ok(Self {
            seconds,
            now: 0.0,
            sounds,
            fired: [false; EVENTS.len()],
            driving: None,
            newest: None,
        })
    }

    /// The same tour on a fresh engine (a hearing switch): the terrain, structures, ambient and
    /// sounds again; events already fired stay fired, the driving engine starts again where
    /// it is.
    ///
    /// # Errors
    /// [`WebError`] from the engine.
    pub fn restart(
        &mut self,
        engine: &mut Engine,
        dats: &crate::Dats,
        world: &TourWorld,
    ) -> Result<(), WebError> {
        let fresh = Self::start(engine, dats, world, self.seconds)?;
        self.sounds = fresh.sounds;
        self.newest = None;
        if let Some((_, index)) = self.driving.take() {
            self.fired[index] = false;
        }
        Ok(())
    }

    /// Fraction of the tour done (0..=1).
    #[must_use]
    pub fn fraction(&self) -> f64 {
        (self.now / self.seconds).clamp(0.0, 1.0)
    }

    /// Whether the walk has reached its end.
    #[must_use]
    pub fn finished(&self) -> bool {
        self.now >= self.seconds
    }

    /// The newest event fired (its script index) and its voice.
    #[must_use]
    pub fn newest(&self) -> Option<(usize, VoiceHandle)> {
        self.newest
    }

    /// The point the readout's reference path starts from: the newest event's (before the
    /// first, the first event's), as the demo's timeline does.
    #[must_use]
    pub fn reference(&self, world: &TourWorld) -> DVec3 {
        let xy = EVENTS[self.newest.map_or(0, |(i, _)| i)].xy;
        area_to_voxel(xy, world.ground(xy) + 1.5)
    }

    /// One game frame of `dt` seconds at tour time `now`: the listener's pose on the path,
    /// [`Engine::update`], the events due by now fired, the driving engine moved; then the
    /// tour time is `now + dt`.
    ///
    /// # Errors
    /// [`WebError`] from the engine (a voice limit is not an error: the event is skipped).
    pub fn advance(
        &mut self,
        engine: &mut Engine,
        world: &TourWorld,
        dt: f64,
    ) -> Result<(), WebError> {
        let frac = self.now / self.seconds;
        let xy = position_at(frac);
        let ahead = position_at(frac + 0.01) - xy;
        let dir = if ahead.length() > 1e-6 {
            ahead.normalize()
        } else {
            DVec2::new(0.0, -1.0)
        };
        let forward = DVec3::new(dir.x, 0.0, -dir.y);
        engine.set_listener(world.ear(xy), Orientation::looking(forward))?;
        engine.update(dt)?;
        self.fire_due(engine, world)?;
        self.drive(engine, world)?;
        self.now += dt;
        Ok(())
    }

    /// Fires the events whose tick (the demo rounds their times to ticks) has come.
    fn fire_due(&mut self, engine: &mut Engine, world: &TourWorld) -> Result<(), WebError> {
        for (index, e) in EVENTS.iter().enumerate() {
            let tick = (e.at * self.seconds / TICK).round();
            if self.fired[index] || tick * TICK > self.now + 1e-6 {
                continue;
            }
            self.fired[index] = true;
            let at = area_to_voxel(e.xy, world.ground(e.xy) + e.above);
            let (sound, source) = self.sounds.source(e.sound, at);
            match engine.play(sound, source) {
                Ok(h) => {
                    if e.sound == EventSound::Engine {
                        self.driving = Some((h, index));
                    }
                    self.newest = Some((index, h));
                }
                Err(PlayError::VoiceLimit) => {}
                Err(err) => return Err(err.into()),
            }
        }
        Ok(())
    }

    /// Moves the driving engine along its line; stops it at its end.
    fn drive(&mut self, engine: &mut Engine, world: &TourWorld) -> Result<(), WebError> {
        let Some((h, index)) = self.driving else {
            return Ok(());
        };
        let e = EVENTS[index];
        let (t0, t1) = (e.at * self.seconds, e.until * self.seconds);
        let r = if self.now >= t1 {
            self.driving = None;
            engine.stop(h)
        } else {
            let f = ((self.now - t0) / (t1 - t0)).clamp(0.0, 1.0);
            let p = e.xy.lerp(e.to, f);
            engine.set_position(h, area_to_voxel(p, world.ground(p) + e.above))
        };
        match r {
            Ok(()) | Err(VoiceError::Ended) => Ok(()),
            Err(err) => Err(err.into()),
        }
    }
}
