//! [`Tour`]: the tour under way on an engine. Each frame the listener takes the walk's pose,
//! the engine updates, the events due fire and the driving engine moves; the caller renders
//! (offline) or the device plays (live).

use resound_engine::advanced::acoustics::SoundRequest;
use resound_engine::glam::{DVec2, DVec3};
use resound_engine::{Engine, Mode, Orientation, PlayError, VoiceError, VoiceHandle};

use crate::TICK;
use crate::error::Error;
use crate::mix::Mixing;
use crate::script::{EVENTS, EventSound, position_at};
use crate::sounds::EventSounds;
use crate::world::{TourWorld, area_to_voxel};

/// How the caller's dats reach the engine: the terrain the acoustics trace and the retail
/// ambient runtime (a dat folder for `resound demo`, bytes in memory in the browser).
pub trait Dats {
    /// The caller's error (the tour's own errors convert into it).
    type Error: From<Error>;
    /// Attaches the dats' terrain to `engine`.
    ///
    /// # Errors
    /// The caller's.
    fn attach_terrain(&self, engine: &mut Engine) -> Result<(), Self::Error>;
    /// Attaches the retail ambient runtime over the dats to `engine`.
    ///
    /// # Errors
    /// The caller's.
    fn attach_ambient(&self, engine: &mut Engine) -> Result<(), Self::Error>;
}

/// What the acoustics make of a sound's path to the listener (the timeline's values).
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

/// The listener's pose at a fraction of the walk: the ear and the way it faces.
#[must_use]
pub fn pose(world: &TourWorld, frac: f64) -> (DVec3, Orientation) {
    let xy = position_at(frac);
    let ahead = position_at(frac + 0.01) - xy;
    let dir = if ahead.length() > 1e-6 {
        ahead.normalize()
    } else {
        DVec2::new(0.0, -1.0)
    };
    let forward = DVec3::new(dir.x, 0.0, -dir.y);
    (world.ear(xy), Orientation::looking(forward))
}

/// A tour under way on an engine.
#[derive(Debug, Clone)]
pub struct Tour {
    /// The tour's length, seconds (the script's fractions stretch to it).
    pub seconds: f64,
    /// Tour time, seconds.
    pub now: f64,
    sounds: EventSounds,
    mixing: Mixing,
    fired: [bool; EVENTS.len()],
    driving: Option<(VoiceHandle, usize)>,
    /// The newest event fired and its voice.
    newest: Option<(usize, VoiceHandle)>,
    /// The events the last [`Tour::advance`] fired, with their voices.
    started: Vec<(usize, VoiceHandle)>,
}

impl Tour {
    /// Prepares `engine` (fresh, ambient not attached yet) for a tour of `seconds`: the
    /// listener at the start, the dats' terrain, the structures, then the ambient and the
    /// event sounds.
    ///
    /// # Errors
    /// The dats' error, or the engine's ([`Error`]).
    pub fn start<D: Dats>(
        engine: &mut Engine,
        dats: &D,
        world: &TourWorld,
        seconds: f64,
    ) -> Result<Self, D::Error> {
        let (ear, _) = pose(world, 0.0);
        engine
            .set_listener(ear, Orientation::default())
            .map_err(Error::from)?;
        dats.attach_terrain(engine)?;
        for b in world.boxes() {
            engine
                .place_box(b.min, b.max, b.cell)
                .map_err(Error::from)?;
        }
        dats.attach_ambient(engine)?;
        let (mixing, track) = Mixing::start(engine)?;
        let sounds = EventSounds::load(engine, track)?;
        Ok(Self {
            seconds,
            now: 0.0,
            sounds,
            mixing,
            fired: [false; EVENTS.len()],
            driving: None,
            newest: None,
            started: Vec::new(),
        })
    }

    /// The same tour on a fresh engine (a hearing switch): the terrain, structures, ambient and
    /// sounds again; events already fired stay fired, the driving engine starts again where
    /// it is.
    ///
    /// # Errors
    /// As [`Tour::start`].
    pub fn restart<D: Dats>(
        &mut self,
        engine: &mut Engine,
        dats: &D,
        world: &TourWorld,
    ) -> Result<(), D::Error> {
        let fresh = Self::start(engine, dats, world, self.seconds)?;
        self.sounds = fresh.sounds;
        self.mixing = fresh.mixing;
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

    /// The events the last [`Tour::advance`] fired (script index, voice), in script order.
    #[must_use]
    pub fn started(&self) -> &[(usize, VoiceHandle)] {
        &self.started
    }

    /// The point the readout's reference path starts from: the newest event's (before the
    /// first, the first event's).
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
    /// [`Error`] from the engine (a voice limit is not an error: the event is skipped).
    pub fn advance(
        &mut self,
        engine: &mut Engine,
        world: &TourWorld,
        dt: f64,
    ) -> Result<(), Error> {
        let (ear, facing) = pose(world, self.now / self.seconds);
        engine.set_listener(ear, facing)?;
        engine.update(dt)?;
        self.fire_due(engine, world)?;
        self.drive(engine, world)?;
        self.mixing.step(engine, self.now, self.seconds)?;
        self.now += dt;
        Ok(())
    }

    /// Hears the block just rendered after [`Tour::advance`] (interleaved stereo): the beds'
    /// leveller measures it ([`Mixing::heard`]). Offline renders hand every block back; a
    /// live device does not, and the beds stay at their starting level.
    ///
    /// # Errors
    /// [`Error::Track`].
    pub fn heard(&mut self, engine: &mut Engine, block: &[f32]) -> Result<(), Error> {
        self.mixing.heard(engine, block)
    }

    /// Fires the events whose tick (event times are rounded to ticks of [`TICK`]) has come.
    fn fire_due(&mut self, engine: &mut Engine, world: &TourWorld) -> Result<(), Error> {
        self.started.clear();
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
                    self.started.push((index, h));
                }
                Err(PlayError::VoiceLimit) => {}
                Err(err) => return Err(err.into()),
            }
        }
        Ok(())
    }

    /// Moves the driving engine along its line; stops it at its end.
    fn drive(&mut self, engine: &mut Engine, world: &TourWorld) -> Result<(), Error> {
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
