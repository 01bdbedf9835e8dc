//! The live engine a page drives: the ambient over dats, the listener placed on the map,
//! walking a walk or the demo tour (its scripted events fired), event sounds played where and
//! when the page asks. The game side calls [`Live::update`] once per animation frame (the
//! listener's pose, the events due, [`Engine::update`]); the audio side pulls the mix with
//! [`Live::render`] (an AudioWorklet asks for blocks). [`Live::step`] does both by the frames'
//! time, deterministically, for offline renders and tests.

use resound_engine::advanced::ambient::walk::Walk;
use resound_engine::glam::{DVec2, DVec3};
use resound_engine::terrain::axes::{ac_to_voxel, voxel_to_ac};
use resound_engine::terrain::{parse_position, show_position};
use resound_engine::{Engine, PlayError, StartTime, VoiceHandle, heading_orientation};

use crate::dats::Dats;
use crate::error::WebError;
use crate::hearing::Hearing;
use crate::tour::script::{EVENTS, EventSound, TOUR_SECONDS, stage_at};
use crate::tour::world::{area_to_voxel, voxel_to_area};
use crate::tour::{EventSounds, PathReadout, Tour, TourWorld, probe_path};

/// Seconds of engine clock between two evaluations of the readout's reference path.
const PROBE_EVERY: f64 = 0.25;

/// Longest `dt` [`Live::update`] takes (a page hidden for a while resumes, it does not jump).
pub const MAX_UPDATE: f64 = 0.25;

/// How the listener moves.
#[derive(Debug)]
enum Motion {
    /// Standing where placed.
    Still,
    /// Walking a walk: stereo frames stepped, seconds updated, teleports reached.
    Walk {
        walk: Walk,
        frames: u64,
        time: f64,
        jumps: usize,
    },
    /// The demo tour.
    Tour(Tour),
}

/// An event sound the page asked for.
#[derive(Debug, Clone, Copy)]
struct Played {
    voice: VoiceHandle,
    kind: EventSound,
    at: DVec3,
}

/// A live engine over dats.
pub struct Live {
    engine: Engine,
    dats: Dats,
    hearing: Hearing,
    /// The tour's world over the dats (`None`: the dats have no terrain under the area).
    world: Option<TourWorld>,
    place: String,
    motion: Motion,
    sounds: Option<EventSounds>,
    played: Option<Played>,
    /// The reference path's readout and the engine clock it was evaluated at.
    probe: Option<(f64, Option<PathReadout>)>,
    /// The newest event voice's acoustics as last read while it played.
    sound: serde_json::Value,
}

impl std::fmt::Debug for Live {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Live")
            .field("hearing", &self.hearing)
            .field("place", &self.place)
            .field("motion", &self.motion)
            .finish_non_exhaustive()
    }
}

fn hearing_name(h: Hearing) -> String {
    match h {
        Hearing::Retail => "retail".to_owned(),
        Hearing::Modern(m) => format!("{m:?}").to_lowercase(),
    }
}

fn sound_name(kind: EventSound) -> &'static str {
    match kind {
        EventSound::Clap => "clap",
        EventSound::Shot => "shot",
        EventSound::Engine => "engine",
    }
}

/// Parses an event sound's name: `clap`, `shot`, `engine`.
///
/// # Errors
/// [`WebError::Sound`].
pub fn parse_sound(name: &str) -> Result<EventSound, WebError> {
    match name {
        "clap" => Ok(EventSound::Clap),
        "shot" => Ok(EventSound::Shot),
        "engine" => Ok(EventSound::Engine),
        _ => Err(WebError::Sound(name.to_owned())),
    }
}

impl Live {
    /// An engine over `dats` hearing the ambient as `hearing`, the listener at `at`
    /// (`0xXXYYCCCC:X,Y,Z`). Modern hearing traces the dats' terrain with the tour's
    /// structures placed (when the dats have terrain under the tour's area).
    ///
    /// # Errors
    /// [`WebError`].
    pub fn new(dats: Dats, hearing: Hearing, at: &str) -> Result<Self, WebError> {
        let world = dats.tour_world().ok();
        let engine = fresh_engine(&dats, world.as_ref(), hearing)?;
        let mut live = Self {
            engine,
            dats,
            hearing,
            world,
            place: String::new(),
            motion: Motion::Still,
            sounds: None,
            played: None,
            probe: None,
            sound: serde_json::Value::Null,
        };
        live.place(at)?;
        Ok(live)
    }

    /// Switches the hearing. Between modern modes the engine switches its mode in place
    /// ([`Engine::set_mode`]); to or from retail a fresh engine takes over at the listener's
    /// pose (what plays restarts; a tour goes on from where it is).
    ///
    /// # Errors
    /// [`WebError`].
    pub fn set_hearing(&mut self, hearing: Hearing) -> Result<(), WebError> {
        if let (Hearing::Modern(_), Hearing::Modern(mode)) = (self.hearing, hearing) {
            self.engine.set_mode(mode);
            self.hearing = hearing;
            self.probe = None;
            return Ok(());
        }
        let listener = self.engine.listener();
        self.hearing = hearing;
        self.sounds = None;
        self.played = None;
        self.probe = None;
        if let Motion::Tour(tour) = &mut self.motion
            && let Some(world) = &self.world
        {
            let mut engine = hearing.engine()?;
            tour.restart(&mut engine, &self.dats, world)?;
            self.engine = engine;
            return Ok(());
        }
        self.engine = fresh_engine(&self.dats, self.world.as_ref(), hearing)?;
        self.engine
            .teleport(listener.position, listener.orientation)?;
        Ok(())
    }

    /// Teleports the listener to `at` (`0xXXYYCCCC:X,Y,Z`), facing north; a walk or a tour
    /// stops.
    ///
    /// # Errors
    /// [`WebError::Position`], or a pose the runtime refuses.
    pub fn place(&mut self, at: &str) -> Result<(), WebError> {
        let pos = parse_position(at)?;
        self.engine
            .teleport(ac_to_voxel(&pos), heading_orientation(0.0))?;
        self.place = show_position(&pos);
        self.motion = Motion::Still;
        self.probe = None;
        Ok(())
    }

    /// Teleports the listener to a point of the tour's area (metres east and north of
    /// landblock 0xA7B2's south-west corner), its ear 1.75 m above the ground (or the
    /// structures' floor) of the dats' terrain.
    ///
    /// # Errors
    /// [`WebError::NoTerrain`] when the dats have no terrain there.
    pub fn place_area(&mut self, east: f64, north: f64) -> Result<(), WebError> {
        let world = self.world.as_ref().ok_or(WebError::NoTerrain)?;
        let ear = world.ear(DVec2::new(east, north));
        let pos = voxel_to_ac(ear).ok_or(WebError::NoTerrain)?;
        self.place(&show_position(&pos))
    }

    /// Starts walking `walk` from its first waypoint on a fresh engine (its poses then follow
    /// the frames [`Live::step`] renders, or the time [`Live::update`] is given): in steps of
    /// whole walk frames, the samples are those [`crate::render_walk`] renders.
    ///
    /// # Errors
    /// [`WebError`] when the fresh engine cannot be built.
    pub fn start_walk(&mut self, walk: Walk) -> Result<(), WebError> {
        let mut engine = self.hearing.engine()?;
        self.dats.attach(&mut engine, self.hearing)?;
        self.engine = engine;
        self.reset_motion(Motion::Walk {
            walk,
            frames: 0,
            time: 0.0,
            jumps: 0,
        });
        Ok(())
    }

    /// Starts the demo tour ([`TOUR_SECONDS`] long) on a fresh engine: the structures placed,
    /// the listener at the path's start, the events to fire as the tour time passes. Stepped
    /// in ticks of [`crate::tour::TICK`] the samples are those [`crate::render_tour`] renders.
    ///
    /// # Errors
    /// [`WebError::NoTerrain`] when the dats have no terrain under the tour; an engine error.
    pub fn start_tour(&mut self) -> Result<(), WebError> {
        let world = self.world.as_ref().ok_or(WebError::NoTerrain)?;
        let mut engine = self.hearing.engine()?;
        let tour = Tour::start(&mut engine, &self.dats, world, TOUR_SECONDS)?;
        self.engine = engine;
        self.reset_motion(Motion::Tour(tour));
        Ok(())
    }

    fn reset_motion(&mut self, motion: Motion) {
        self.motion = motion;
        self.sound = serde_json::Value::Null;
        self.sounds = None;
        self.played = None;
        self.probe = None;
    }

    /// Plays an event sound (`clap`, `shot`, `engine`: the demo's voices) at a point of the
    /// tour's area, `above` metres over the ground, `delay` seconds from now on the engine's
    /// clock ([`StartTime::At`]). The engine's loop plays until the next one replaces it.
    ///
    /// # Errors
    /// [`WebError::NoTerrain`] without terrain there; a voice the engine refuses.
    pub fn play_event(
        &mut self,
        kind: EventSound,
        east: f64,
        north: f64,
        above: f64,
        delay: f64,
    ) -> Result<(), WebError> {
        let world = self.world.as_ref().ok_or(WebError::NoTerrain)?;
        let xy = DVec2::new(east, north);
        let at = area_to_voxel(xy, world.ground(xy) + above);
        let sounds = match self.sounds {
            Some(s) => s,
            None => {
                let s = EventSounds::load(&mut self.engine, resound_engine::Track::MAIN)?;
                self.sounds = Some(s);
                s
            }
        };
        let (sound, mut source) = sounds.source(kind, at);
        let delay = if delay.is_finite() {
            delay.max(0.0)
        } else {
            0.0
        };
        source.start = StartTime::At(self.engine.clock() + delay);
        if let Some(old) = self.played
            && old.kind == EventSound::Engine
            && kind == EventSound::Engine
        {
            let _ = self.engine.stop(old.voice);
        }
        match self.engine.play(sound, source) {
            Ok(voice) => {
                self.played = Some(Played { voice, kind, at });
                self.probe = None;
                Ok(())
            }
            Err(PlayError::VoiceLimit) => Ok(()),
            Err(e) => Err(e.into()),
        }
    }

    /// Whether a walk or the tour is under way.
    #[must_use]
    pub fn walking(&self) -> bool {
        match &self.motion {
            Motion::Still => false,
            Motion::Walk { .. } => true,
            Motion::Tour(t) => !t.finished(),
        }
    }

    /// The game side's frame: `dt` seconds (clamped to 0..=[`MAX_UPDATE`]) pass on the game
    /// clock; the walk's or the tour's pose becomes the listener, the tour's events due fire,
    /// and [`Engine::update`] runs. Rendering is [`Live::render`]'s.
    ///
    /// # Errors
    /// [`WebError`] from the engine.
    pub fn update(&mut self, dt: f64) -> Result<(), WebError> {
        let dt = if dt.is_finite() {
            dt.clamp(0.0, MAX_UPDATE)
        } else {
            0.0
        };
        match &mut self.motion {
            Motion::Still => self.engine.update(dt)?,
            Motion::Walk {
                walk, time, jumps, ..
            } => {
                pose_walk(&mut self.engine, walk, *time, jumps)?;
                *time += dt;
                self.engine.update(dt)?;
            }
            Motion::Tour(tour) => match &self.world {
                Some(world) => tour.advance(&mut self.engine, world, dt)?,
                None => self.engine.update(dt)?,
            },
        }
        Ok(())
    }

    /// The audio side's pull: the next `out.len() / 2` stereo frames of the mix (interleaved,
    /// overwritten); nothing moves but the audio clock.
    ///
    /// # Errors
    /// [`WebError::Tick`].
    pub fn render(&mut self, out: &mut [f32]) -> Result<(), WebError> {
        out.fill(0.0);
        self.engine.render(out)?;
        if let Motion::Tour(tour) = &mut self.motion {
            tour.heard(&mut self.engine, out)?;
        }
        Ok(())
    }

    /// One deterministic step of `frames` stereo frames: the update by the frames' time (a
    /// walk's pose at the frames stepped so far), then their render into `out`.
    ///
    /// # Errors
    /// [`WebError::Tick`].
    pub fn step(&mut self, out: &mut [f32]) -> Result<(), WebError> {
        let frames = (out.len() / 2) as u64;
        let rate = f64::from(self.engine.sample_rate());
        let dt = frames as f64 / rate;
        match &mut self.motion {
            Motion::Walk {
                walk,
                frames: done,
                jumps,
                ..
            } => {
                let t = *done as f64 / rate;
                *done += frames;
                pose_walk(&mut self.engine, walk, t, jumps)?;
                self.engine.update(dt)?;
            }
            Motion::Tour(tour) => match &self.world {
                Some(world) => tour.advance(&mut self.engine, world, dt)?,
                None => self.engine.update(dt)?,
            },
            Motion::Still => self.engine.update(dt)?,
        }
        self.render(out)
    }

    /// The engine, for its status and clock.
    #[must_use]
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The reference path's source: the tour's newest event, else the page's newest event
    /// sound, else the tour's first event point.
    fn reference(&self) -> Option<DVec3> {
        let world = self.world.as_ref()?;
        Some(match (&self.motion, self.played) {
            (Motion::Tour(t), _) => t.reference(world),
            (_, Some(p)) => p.at,
            _ => {
                let xy = EVENTS[0].xy;
                area_to_voxel(xy, world.ground(xy) + 1.5)
            }
        })
    }

    /// A one-line JSON readout: place (the tour's stage, a walk's time, or the position),
    /// hearing, listener (voxel and area metres), clock, voices (live, retail, with echoes),
    /// ambient plays, peak, ticks, rays; `path`: the reference path's high-band gain (dB), echo
    /// taps, the listener's enclosure and space decay (T60, s), evaluated every 0.25 s of
    /// engine clock; `sound`: the newest event voice's applied high-band gain and decay (as
    /// last read while it played; `playing` says whether it still does); `tour`: its time, length, stage and events fired.
    pub fn readout(&mut self) -> String {
        let clock = self.engine.clock();
        let stale = self
            .probe
            .is_none_or(|(t, _)| (clock - t).abs() >= PROBE_EVERY);
        if stale {
            let path = self.reference().and_then(|s| probe_path(&self.engine, s));
            self.probe = Some((clock, path));
        }
        let path = self.probe.and_then(|(_, p)| p);
        let s = self.engine.status();
        let listener = self.engine.listener().position;
        let area = voxel_to_area(listener);
        let (place, tour) = match &self.motion {
            Motion::Still => (self.place.clone(), serde_json::Value::Null),
            Motion::Walk { frames, time, .. } => {
                let t = (*frames as f64 / f64::from(self.engine.sample_rate())).max(*time);
                (format!("walking, {t:.1} s"), serde_json::Value::Null)
            }
            Motion::Tour(t) => {
                let stage = stage_at(t.fraction());
                let fired = t.newest().map(|(i, _)| EVENTS[i].label);
                (
                    format!("tour: {stage}"),
                    serde_json::json!({
                        "time": t.now, "seconds": t.seconds, "stage": stage,
                        "newest": fired, "finished": t.finished(),
                    }),
                )
            }
        };
        let voice = match (&self.motion, self.played) {
            (Motion::Tour(t), _) => t.newest().map(|(i, h)| (sound_name(EVENTS[i].sound), h)),
            (_, Some(p)) => Some((sound_name(p.kind), p.voice)),
            _ => None,
        };
        let playing = voice.and_then(|(name, h)| self.engine.voice_acoustics(h).map(|a| (name, a)));
        match playing {
            Some((name, a)) => {
                self.sound = serde_json::json!({
                    "sound": name,
                    "playing": true,
                    "hf_db": 20.0 * a.applied.hf.max(1e-5).log10(),
                    "decay": a.result.as_ref().map(|r| r.decay),
                    "echo": a.echo,
                });
            }
            None if voice.is_none() => self.sound = serde_json::Value::Null,
            None => self.sound["playing"] = serde_json::Value::Bool(false),
        }
        let sound = self.sound.clone();
        serde_json::json!({
            "place": place,
            "hearing": hearing_name(self.hearing),
            "listener": [listener.x, listener.y, listener.z],
            "area": [area.x, area.y],
            "clock": clock,
            "voices": s.live_voices,
            "retail_voices": s.ambient.retail_voices,
            "ambient_started": s.ambient.started,
            "echo_voices": s.echo_voices,
            "peak": s.peak,
            "ticks": s.ticks,
            "rays": s.rays,
            "path": path.map(|p| serde_json::json!({
                "hf_db": p.hf_db, "taps": p.taps, "enclosure": p.enclosure, "decay": p.decay,
            })),
            "sound": sound,
            "tour": tour,
        })
        .to_string()
    }
}

/// A fresh engine for `hearing` over `dats`: modern, the terrain and the structures of
/// `world`; the ambient.
fn fresh_engine(
    dats: &Dats,
    world: Option<&TourWorld>,
    hearing: Hearing,
) -> Result<Engine, WebError> {
    let mut engine = hearing.engine()?;
    if matches!(hearing, Hearing::Modern(_)) {
        dats.attach_terrain(&mut engine)?;
        if let Some(world) = world {
            for b in world.boxes() {
                engine.place_box(b.min, b.max, b.cell)?;
            }
        }
    }
    dats.attach_ambient(&mut engine)?;
    Ok(engine)
}

/// A walk's pose at `t` becomes the listener: a teleport when a teleport waypoint was
/// reached since the last pose, else a move.
fn pose_walk(engine: &mut Engine, walk: &Walk, t: f64, jumps: &mut usize) -> Result<(), WebError> {
    // A pose computed from the start reports every jump already passed.
    let reached = teleports_by(walk, t);
    let jumped = reached > *jumps;
    *jumps = reached;
    if let Some(pose) = walk.pose(t) {
        let position = ac_to_voxel(&pose.camera.position);
        let orientation = heading_orientation(pose.camera.heading_deg);
        if jumped {
            engine.teleport(position, orientation)?;
        } else {
            engine.set_listener(position, orientation)?;
        }
    }
    Ok(())
}

/// Teleport waypoints (after the first) reached by `t`.
fn teleports_by(walk: &Walk, t: f64) -> usize {
    walk.waypoints
        .iter()
        .skip(1)
        .filter(|w| w.teleport && w.t <= t)
        .count()
}
