//! [`Engine`]: the game-facing API. Sounds, voices, the listener, the world, the mode, the
//! tick (`update`), the offline render and the status.
//!
//! Per tick the host (this type) decides classes and jobs ([`crate::schedule`]), sends them with
//! a copy-on-write world snapshot to the worker ([`crate::worker`]), and applies finished
//! results through the one conversion ([`crate::convert`]). With [`Pacing::RenderClock`] a tick
//! runs every `tick_frames` rendered frames and the render waits for it; with
//! [`Pacing::Update`] a tick runs per `update` and results apply at the start of the next one.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use glam::DVec3;
use resound_acoustics::cache::RETRACE_AFTER_TICKS;
use resound_acoustics::model::own::cell_centre;
use resound_acoustics::queue::Job;
use resound_acoustics::room::distance_fade;
use resound_acoustics::{
    AcousticModel, AcousticResult, Budget, Mode, Paths, RoomResult, SoundRequest, WorldProbe,
    WorldStore,
};
use resound_mixer::{
    MixerHandle, MixerRenderer, MixerSettings, PlaySettings, SoundData, SoundId, VoiceId,
};

use crate::builder::{AudioGuard, Budgets, Capacities, EngineBuilder, Pacing, VoicePolicy};
use crate::convert::{Acoustics, Applied, Converted, convert};
use crate::error::{
    BuildError, InputError, LoadError, PlayError, Problem, TickError, UnloadError, VoiceError,
};
use crate::model::Model;
use crate::output::{Live, Opened, Resolved, open};
use crate::schedule::{
    AUDIBLE, Candidate, Class, EchoFacts, FREE_DISTANCE, IMPULSIVE_DISTANCE, IMPULSIVE_POWER,
    MOTION_EPSILON, classify, deserves_echo, distance_jump, loudness, timer_due,
};
use crate::source::{Listener, Orientation, Source, check_position, check_range, check_volume};
use crate::status::Status;
use crate::worker::{CoreSpec, TickMsg, TickReply, WorkerLink};
use crate::world::World;

mod ambient;
mod sounds;
mod terrain;
mod terrain_query;
mod walk_render;

pub use self::terrain::AttachTerrainError;
pub use ambient::{AMBIENT_RANGE, AmbientStatus, heading_orientation};
pub use sounds::SoundError;
pub use terrain_query::{TerrainQuery, TerrainQueryError, evaluate_terrain_points};
pub use walk_render::{MAX_WALK_RENDER_SECONDS, WalkRender, WalkRenderError, render_ambient_walk};

/// Mixer voice slots kept beyond the policy's cap, for stolen voices that are still fading.
const STEAL_RESERVE: usize = 64;
/// Largest accepted `dt` of one update, in seconds.
pub const MAX_DT: f64 = 60.0;
/// Voices of the Retail16 policy.
pub const RETAIL_VOICES: usize = 16;

/// A loaded sound.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SoundHandle(SoundId);

/// A started voice (move it, set its volume, stop it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VoiceHandle(u64);

impl VoiceHandle {
    /// The voice id (voices are ordered by it).
    #[must_use]
    pub fn id(self) -> u64 {
        self.0
    }
}

/// Host room cache key: listener cell, world epoch and revision, range bits.
type RoomKey = ([i32; 3], u64, u64, u64);

#[derive(Debug, Clone, Copy)]
struct SoundInfo {
    frames: usize,
    rate: u32,
}

/// An event group: layers of one event share one acoustic job.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Group {
    Event(u64),
    Voice(u64),
}

/// What produced a voice's result: paths, mode, echo search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Kind {
    paths: Paths,
    mode: Mode,
    echo: bool,
}

impl Kind {
    /// True if a result of this kind serves a voice that needs `need`.
    fn covers(self, need: Kind) -> bool {
        (self.paths == Paths::Nine || need.paths == Paths::One)
            && self.mode >= need.mode
            && (self.echo || !need.echo)
    }
}

#[derive(Debug, Clone, Copy)]
struct Traced {
    source: DVec3,
    listener: DVec3,
    distance: f64,
}

#[derive(Debug, Clone)]
struct VoiceState {
    mixer: VoiceId,
    sound: SoundId,
    source: Source,
    length_s: f64,
    start_s: f64,
    class: Option<Class>,
    echo: bool,
    has_taps: bool,
    result: Option<AcousticResult>,
    /// What produced `result`.
    result_kind: Option<Kind>,
    /// What the job in flight will produce.
    sent_kind: Option<Kind>,
    applied_tick: Option<u64>,
    results: u64,
    traced: Option<Traced>,
    sent_tick: Option<u64>,
    outstanding: bool,
    retrace_at: Option<u64>,
    dirty: bool,
    converted: Option<Converted>,
}

impl VoiceState {
    fn group(&self, id: u64) -> Group {
        self.source.event.map_or(Group::Voice(id), Group::Event)
    }
}

/// What the acoustics did for one voice (for tools and tests).
#[derive(Debug, Clone, PartialEq)]
pub struct VoiceAcoustics {
    /// The voice's class (None: not classified yet, relative, or mode `off`).
    pub class: Option<Class>,
    /// The voice holds one of the echo sets.
    pub echo: bool,
    /// The acoustic result applied last (inline trace or worker).
    pub result: Option<AcousticResult>,
    /// What the mixer was given.
    pub applied: Applied,
    /// Tick at which the last worker result was applied.
    pub applied_tick: Option<u64>,
    /// Worker results applied to this voice.
    pub results: u64,
}

/// The game-facing engine. Build it with [`Engine::builder`].
#[derive(Debug)]
pub struct Engine {
    rate: u32,
    tick_frames: u64,
    tick_seconds: f64,
    pacing: Pacing,
    mode: Mode,
    policy: VoicePolicy,
    capacities: Capacities,
    budgets: Budgets,
    guard: Option<AudioGuard>,
    mixer: MixerHandle,
    renderer: Option<MixerRenderer>,
    /// The device output (the renderer lives in its callback).
    device: Option<Live>,
    model: Model,
    world: World,
    ambient: Option<Box<ambient::AmbientState>>,
    sent_revision: u64,
    worker: WorkerLink,
    worker_gone: bool,
    sounds: BTreeMap<SoundId, SoundInfo>,
    voices: BTreeMap<u64, VoiceState>,
    next_voice: u64,
    listener: Listener,
    tick: u64,
    frames: u64,
    clock: f64,
    last_tick_frame: Option<u64>,
    inline_left: u64,
    host_room: Option<(RoomKey, RoomResult)>,
    cancels: Vec<u64>,
    status: Status,
    unknown_steps: u64,
    result_cells: u64,
}

impl Engine {
    /// A builder with the defaults: 48 kHz, offline, mode `off`, own model.
    #[must_use]
    pub fn builder() -> EngineBuilder {
        EngineBuilder::default()
    }

    pub(crate) fn from_builder(b: EngineBuilder, output: Resolved) -> Result<Self, BuildError> {
        let rate = output.sample_rate(b.sample_rate);
        let pacing = b.effective_pacing();
        let budgets = b.effective_budgets();
        let cap = match b.policy {
            VoicePolicy::Modern => b.capacities.voices,
            VoicePolicy::Retail16 => RETAIL_VOICES,
        };
        let mut settings = MixerSettings {
            sample_rate: rate,
            limiter: b.limiter,
            reverb: b.model.reverb_bus(),
            ..MixerSettings::default()
        };
        settings.capacities.voices = cap + STEAL_RESERVE;
        settings.capacities.sounds = b.capacities.sounds;
        settings.capacities.tap_sets = 2 * b.capacities.echo_voices;
        let (mixer, renderer) = resound_mixer::build(settings).map_err(BuildError::Mixer)?;
        let (renderer, device) = match open(output, renderer, b.start_paused)? {
            Opened::Offline(r) => (Some(r), None),
            Opened::Device(d) => (None, Some(d)),
        };
        let core = CoreSpec::new(b.model.clone(), budgets.queue, b.worker_delay);
        let worker = WorkerLink::start(core, b.inline_worker).map_err(BuildError::Worker)?;
        let tick_frames = ((f64::from(rate) * b.tick_seconds).round() as u64).max(1);
        let world = World::new();
        Ok(Self {
            rate,
            tick_frames,
            tick_seconds: tick_frames as f64 / f64::from(rate),
            pacing,
            mode: b.mode,
            policy: b.policy,
            capacities: b.capacities,
            budgets,
            guard: b.audio_guard,
            mixer,
            renderer,
            device,
            model: b.model,
            sent_revision: world.revision(),
            world,
            ambient: None,
            worker,
            worker_gone: false,
            sounds: BTreeMap::new(),
            voices: BTreeMap::new(),
            next_voice: 1,
            listener: Listener::default(),
            tick: 0,
            frames: 0,
            clock: 0.0,
            last_tick_frame: None,
            inline_left: budgets.inline_cells,
            host_room: None,
            cancels: Vec::new(),
            status: Status::default(),
            unknown_steps: 0,
            result_cells: 0,
        })
    }

    /// Output sample rate in Hz.
    #[must_use]
    pub fn sample_rate(&self) -> u32 {
        self.rate
    }

    /// Frames per acoustic tick (render-clock pacing; 50 ms).
    #[must_use]
    pub fn tick_frames(&self) -> u64 {
        self.tick_frames
    }

    /// Acoustic ticks run so far.
    #[must_use]
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// The acoustics mode.
    #[must_use]
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The model's short name (`"own"`, `"spr"`).
    #[must_use]
    pub fn model_name(&self) -> &'static str {
        self.model.name()
    }

    /// The listener.
    #[must_use]
    pub fn listener(&self) -> Listener {
        self.listener
    }

    /// Engine time in seconds (rendered frames with render-clock pacing, else the sum of `dt`).
    #[must_use]
    pub fn time(&self) -> f64 {
        match self.pacing {
            Pacing::RenderClock => self.frames as f64 / f64::from(self.rate),
            Pacing::Update => self.clock,
        }
    }

    // ---- sounds ----------------------------------------------------------------------------

    /// Loads mono samples at `sample_rate` into the mixer.
    ///
    /// # Errors
    /// [`LoadError`]: bad rate, empty, too long, a non-finite or oversized sample, capacity.
    pub fn load_mono(
        &mut self,
        samples: Arc<[f32]>,
        sample_rate: u32,
    ) -> Result<SoundHandle, LoadError> {
        if sample_rate == 0 || sample_rate > resound_mixer::MAX_SOUND_RATE {
            return Err(LoadError::SampleRate(sample_rate));
        }
        let frames = samples.len();
        let id = self
            .mixer
            .load_sound(SoundData {
                samples,
                sample_rate,
            })
            .map_err(LoadError::Mixer)?;
        self.sounds.insert(
            id,
            SoundInfo {
                frames,
                rate: sample_rate,
            },
        );
        Ok(SoundHandle(id))
    }

    /// Unloads a sound that no voice plays.
    ///
    /// # Errors
    /// [`UnloadError`]: unknown (or already unloaded) sound, still playing, ring full.
    pub fn unload(&mut self, sound: SoundHandle) -> Result<(), UnloadError> {
        if !self.sounds.contains_key(&sound.0) {
            return Err(UnloadError::UnknownSound);
        }
        self.reap();
        if self.voices.values().any(|v| v.sound == sound.0) {
            return Err(UnloadError::Playing);
        }
        self.mixer
            .unload_sound(sound.0)
            .map_err(UnloadError::Mixer)?;
        self.sounds.remove(&sound.0);
        Ok(())
    }

    /// Length of a loaded sound in seconds.
    #[must_use]
    pub fn sound_length(&self, sound: SoundHandle) -> Option<f64> {
        self.sounds
            .get(&sound.0)
            .map(|s| s.frames as f64 / f64::from(s.rate))
    }

    // ---- listener and voices ---------------------------------------------------------------

    /// Moves and turns the listener (the camera).
    ///
    /// # Errors
    /// [`InputError`] for a non-finite or out-of-world position or a degenerate orientation.
    pub fn set_listener(
        &mut self,
        position: DVec3,
        orientation: Orientation,
    ) -> Result<(), InputError> {
        check_position("listener position", position)?;
        orientation.validate()?;
        self.listener = Listener {
            position,
            orientation,
        };
        let ids: Vec<u64> = self.voices.keys().copied().collect();
        for id in ids {
            self.push_voice(id);
        }
        Ok(())
    }

    /// Starts a voice. A positioned voice gets one inline 1-path trace before its first buffer
    /// (within the inline cell budget); the worker refines it from the next tick.
    ///
    /// # Errors
    /// [`PlayError`]: a bad source field, an unknown (unloaded) sound, the voice limit.
    pub fn play(&mut self, sound: SoundHandle, source: Source) -> Result<VoiceHandle, PlayError> {
        source.validate()?;
        let info = *self.sounds.get(&sound.0).ok_or(PlayError::UnknownSound)?;
        self.reap();
        let cap = match self.policy {
            VoicePolicy::Modern => self.capacities.voices,
            VoicePolicy::Retail16 => RETAIL_VOICES,
        };
        if self.voices.len() + self.ambient_retail_live() >= cap {
            self.status.dropped_voices += 1;
            match self.policy {
                VoicePolicy::Retail16 => return Err(PlayError::VoiceLimit),
                VoicePolicy::Modern => self.steal_quietest(),
            }
        }
        let length_s = info.frames as f64 / f64::from(info.rate);
        let echo = self.echo_at_start(&source, length_s);
        let inline = self.inline_trace(&source, echo);
        let (result, result_kind) = match inline {
            Some((r, k)) => (Some(r), Some(k)),
            None => (None, None),
        };
        let echo = echo && result.as_ref().is_some_and(|r| !r.taps.is_empty());
        let retrace_at = result.as_ref().and_then(|r| {
            self.count(&r.telemetry);
            r.telemetry
                .met_unknown
                .then_some(self.tick + RETRACE_AFTER_TICKS)
        });
        let traced = result.as_ref().map(|_| Traced {
            source: source.position,
            listener: self.listener.position,
            distance: (source.position - self.listener.position).length(),
        });
        let id = self.next_voice;
        let acoustics = match (&result, self.mode, source.relative) {
            (_, Mode::Off, _) | (_, _, true) => Acoustics::Off,
            (Some(r), _, _) => Acoustics::Result(r),
            (None, _, _) => Acoustics::Free,
        };
        let converted = convert(&source, &self.listener, acoustics);
        let mixer_id = self
            .mixer
            .play(
                sound.0,
                PlaySettings {
                    looping: source.looping,
                    params: converted.params,
                },
            )
            .map_err(PlayError::Mixer)?;
        self.next_voice += 1;
        self.voices.insert(
            id,
            VoiceState {
                mixer: mixer_id,
                sound: sound.0,
                source,
                length_s,
                start_s: self.time(),
                class: None,
                echo,
                has_taps: false,
                result_kind,
                result,
                sent_kind: None,
                applied_tick: None,
                results: 0,
                traced,
                sent_tick: None,
                outstanding: false,
                retrace_at,
                dirty: false,
                converted: Some(converted),
            },
        );
        if echo {
            // Offline the echo set starts with the voice (it fades in over the mixer's 50 ms).
            let taps = converted.taps();
            let ok = self.mixer.set_taps(mixer_id, taps).is_ok();
            if let Some(v) = self.voices.get_mut(&id) {
                v.has_taps = ok;
                v.echo = ok;
            }
        }
        Ok(VoiceHandle(id))
    }

    /// Would a new voice from `source` take an echo set now (a free set and `deserves_echo`)?
    fn echo_at_start(&self, source: &Source, length_s: f64) -> bool {
        let held: BTreeSet<Group> = self
            .voices
            .iter()
            .filter(|(_, v)| v.echo)
            .map(|(id, v)| v.group(*id))
            .collect();
        let joins = source
            .event
            .is_some_and(|e| held.contains(&Group::Event(e)));
        self.mode >= Mode::Reflect
            && (joins || held.len() < self.capacities.echo_voices)
            && deserves_echo(&EchoFacts {
                looping: source.looping,
                relative: source.relative,
                volume: source.volume,
                range: source.range,
                length_s,
                played: 0.0,
            })
    }

    /// The acoustics a new voice starts with, before its first buffer, within the inline cell
    /// budget: live, one path (the worker refines it); offline (render clock), the whole
    /// evaluation of the mode, synchronously, so the voice starts at its final values. The
    /// listener's room is measured once for all sources (cached on the host by listener cell).
    fn inline_trace(&mut self, source: &Source, echo: bool) -> Option<(AcousticResult, Kind)> {
        // A device stream that has not started waits for nothing: evaluate as offline.
        let before_start = self.device.as_ref().is_some_and(|d| !d.started());
        let allowance = if before_start {
            self.inline_left.max(Budgets::offline().inline_cells)
        } else {
            self.inline_left
        };
        if self.mode == Mode::Off || source.relative || allowance == 0 {
            return None;
        }
        let d = (source.position - self.listener.position).length();
        if d > FREE_DISTANCE || loudness(source.volume, d, source.range) < AUDIBLE {
            return None;
        }
        let offline = self.pacing == Pacing::RenderClock || before_start;
        let request = SoundRequest {
            source: source.position,
            listener: self.listener.position,
            range: f64::from(source.range),
            paths: if offline { Paths::Nine } else { Paths::One },
            measure_source_space: offline && echo,
        };
        let mut budget = Budget::new(allowance);
        let (result, kind) = if offline {
            let stages = if echo {
                self.mode
            } else {
                self.mode.min(Mode::Direct)
            };
            let mut r = self
                .model
                .evaluate(&self.world, &request, stages, &mut budget)
                .ok();
            if let Some(r) = r.as_mut()
                && self.mode >= Mode::Full
                && !echo
                && let Some(room) = self.listener_room(&mut budget, f64::from(source.range))
            {
                let fade = distance_fade(d, f64::from(source.range)) as f32;
                r.sends = room.sends.map(|x| x * fade);
                r.decay = room.decay;
                r.effective_decay = room.effective_decay;
                r.wet = room.wet;
                r.space = room.space;
            }
            let kind = Kind {
                paths: Paths::Nine,
                mode: self.mode,
                echo,
            };
            (r, kind)
        } else {
            let r = self
                .model
                .direct(&self.world, &request, &mut budget)
                .ok()
                .map(|d| {
                    let mut r = AcousticResult::neutral(&request);
                    r.occ = d.occ;
                    r.gain = d.gain;
                    r.hf = d.hf;
                    r.apparent_direction = d.apparent_direction;
                    r.telemetry = d.telemetry;
                    r
                });
            let kind = Kind {
                paths: Paths::One,
                mode: Mode::Direct,
                echo: false,
            };
            (r, kind)
        };
        self.inline_left -= budget.used().min(self.inline_left);
        self.status.inline_cells += budget.used();
        result.map(|r| (r, kind))
    }

    /// The listener's room (listener space only, sends at distance 0), measured once per
    /// listener cell and world state on the host.
    fn listener_room(&mut self, budget: &mut Budget, range: f64) -> Option<RoomResult> {
        let cell = self.listener.position.floor().as_ivec3();
        let key = (
            cell.to_array(),
            WorldProbe::epoch(&self.world),
            WorldProbe::revision(&self.world),
            range.to_bits(),
        );
        if let Some((k, r)) = &self.host_room
            && *k == key
        {
            return Some(*r);
        }
        let centre = cell_centre(self.listener.position);
        let request = SoundRequest {
            source: centre,
            listener: centre,
            range,
            paths: Paths::One,
            measure_source_space: false,
        };
        let r = self.model.room(&self.world, &request, budget).ok()?;
        self.host_room = Some((key, r));
        Some(r)
    }

    fn steal_quietest(&mut self) {
        let listener = self.listener.position;
        let quietest = self
            .voices
            .iter()
            .map(|(id, v)| {
                let d = if v.source.relative {
                    v.source.position.length()
                } else {
                    (v.source.position - listener).length()
                };
                (loudness(v.source.volume, d, v.source.range), *id)
            })
            .min_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)));
        if let Some((_, id)) = quietest {
            self.end_voice(id, true);
        }
    }

    /// Removes a voice from the engine (stopping it in the mixer if asked) and cancels its job.
    fn end_voice(&mut self, id: u64, stop: bool) {
        if let Some(v) = self.voices.remove(&id) {
            if stop {
                // Unknown voice means it already ended: nothing to stop.
                let _ = self.mixer.stop(v.mixer);
            }
            if v.outstanding {
                self.cancels.push(id);
            }
        }
    }

    /// Drops voices the mixer reports ended.
    fn reap(&mut self) {
        let list: Vec<(u64, VoiceId)> = self.voices.iter().map(|(id, v)| (*id, v.mixer)).collect();
        for (id, m) in list {
            if !self.mixer.is_playing(m) {
                self.end_voice(id, false);
            }
        }
    }

    fn voice(&mut self, h: VoiceHandle) -> Result<&mut VoiceState, VoiceError> {
        let alive = match self.voices.get(&h.0) {
            Some(v) => self.mixer.is_playing(v.mixer),
            None => return Err(VoiceError::Ended),
        };
        if !alive {
            self.end_voice(h.0, false);
            return Err(VoiceError::Ended);
        }
        self.voices.get_mut(&h.0).ok_or(VoiceError::Ended)
    }

    /// True while the voice plays (as far as the engine has heard from the mixer).
    pub fn is_playing(&mut self, h: VoiceHandle) -> bool {
        self.voice(h).is_ok()
    }

    /// Moves a voice (relative voices: an offset in the listener's frame).
    ///
    /// # Errors
    /// [`VoiceError`]: a non-finite or out-of-world position, or the voice has ended.
    pub fn set_position(&mut self, h: VoiceHandle, position: DVec3) -> Result<(), VoiceError> {
        check_position("position", position)?;
        self.voice(h)?.source.position = position;
        self.push_voice(h.0);
        Ok(())
    }

    /// Sets a voice's volume.
    ///
    /// # Errors
    /// [`VoiceError`]: a non-finite, negative or too large volume, or the voice has ended.
    pub fn set_volume(&mut self, h: VoiceHandle, volume: f32) -> Result<(), VoiceError> {
        check_volume(volume)?;
        self.voice(h)?.source.volume = volume;
        self.push_voice(h.0);
        Ok(())
    }

    /// Sets a voice's range.
    ///
    /// # Errors
    /// [`VoiceError`]: a non-finite, zero or negative range, or the voice has ended.
    pub fn set_range(&mut self, h: VoiceHandle, range: f32) -> Result<(), VoiceError> {
        check_range(range)?;
        self.voice(h)?.source.range = range;
        self.push_voice(h.0);
        Ok(())
    }

    /// Stops a voice (short fade).
    ///
    /// # Errors
    /// [`VoiceError::Ended`] if it has ended already; `Mixer` if the command ring is full.
    pub fn stop(&mut self, h: VoiceHandle) -> Result<(), VoiceError> {
        let mixer = self.voice(h)?.mixer;
        self.mixer.stop(mixer).map_err(VoiceError::Mixer)?;
        self.end_voice(h.0, false);
        Ok(())
    }

    /// Stops every voice; the reverb bus resets once they are gone.
    ///
    /// # Errors
    /// `Mixer` if the command ring is full.
    pub fn stop_all(&mut self) -> Result<(), VoiceError> {
        self.mixer.stop_all().map_err(VoiceError::Mixer)?;
        let ids: Vec<u64> = self.voices.keys().copied().collect();
        for id in ids {
            self.end_voice(id, false);
        }
        self.ambient_stopped_all();
        Ok(())
    }

    /// Voices the engine counts as playing.
    pub fn live_voices(&mut self) -> usize {
        self.reap();
        self.voices.len()
    }

    /// What the acoustics did for a voice (`None` once it has ended).
    #[must_use]
    pub fn voice_acoustics(&self, h: VoiceHandle) -> Option<VoiceAcoustics> {
        let v = self.voices.get(&h.0)?;
        let converted = v.converted?;
        Some(VoiceAcoustics {
            class: v.class,
            echo: v.echo,
            result: v.result.clone(),
            applied: converted.applied(v.has_taps),
            applied_tick: v.applied_tick,
            results: v.results,
        })
    }

    // ---- mode --------------------------------------------------------------------------------

    /// Switches the acoustics mode. To `off`: shelves slew to 1, sends to 0, taps fade out, queued
    /// work is cancelled; from `off`: every voice is traced at the next tick.
    pub fn set_mode(&mut self, mode: Mode) {
        if mode == self.mode {
            return;
        }
        self.mode = mode;
        let ids: Vec<u64> = self.voices.keys().copied().collect();
        for id in &ids {
            if let Some(v) = self.voices.get_mut(id) {
                if v.outstanding {
                    self.cancels.push(*id);
                }
                v.outstanding = false;
                v.class = None;
                v.echo = false;
                v.traced = None;
                v.sent_tick = None;
                v.retrace_at = None;
                v.result_kind = None;
                if mode == Mode::Off {
                    v.result = None;
                }
            }
        }
        for id in ids {
            self.push_voice(id);
        }
    }

    // ---- world -------------------------------------------------------------------------------

    /// The voxel world, to edit (cells, boxes, sections, epoch, replacement).
    pub fn world(&mut self) -> crate::world::WorldEdit<'_> {
        crate::world::WorldEdit::new(self)
    }

    /// The voxel world, read-only.
    #[must_use]
    pub fn world_store(&self) -> &WorldStore {
        self.world.store()
    }

    pub(crate) fn world_ref(&self) -> &World {
        &self.world
    }

    pub(crate) fn world_mut(&mut self) -> &mut World {
        &mut self.world
    }

    /// Replaces the world; the new one gets a new epoch (every cached result is dropped).
    pub(crate) fn replace_world(&mut self, world: WorldStore) {
        self.world.replace_store(world);
        self.sent_revision = self.world.revision();
        self.mark_all_dirty();
    }

    pub(crate) fn mark_all_dirty(&mut self) {
        for v in self.voices.values_mut() {
            v.dirty = true;
        }
    }

    // ---- ticks -------------------------------------------------------------------------------

    /// The game tick. With [`Pacing::Update`]: applies the worker's finished results, then
    /// schedules and sends this tick's work. With [`Pacing::RenderClock`] ticks follow the
    /// rendered frames instead and `update` only advances the clock and publishes changes.
    ///
    /// # Errors
    /// [`TickError`]: a bad `dt`; the worker has stopped (the mix goes on).
    pub fn update(&mut self, dt: f64) -> Result<(), TickError> {
        if !dt.is_finite() {
            return Err(InputError::new("dt", Problem::NotFinite).into());
        }
        if dt < 0.0 {
            return Err(InputError::new("dt", Problem::Negative).into());
        }
        if dt > MAX_DT {
            return Err(InputError::new("dt", Problem::TooLarge).into());
        }
        self.clock += dt;
        if let Some(d) = self.device.as_mut() {
            d.poll();
        }
        // Terrain ring and ambient sounds follow the listener before this tick's scheduling.
        let side = self.follow_listener();
        let r = match self.pacing {
            Pacing::Update => self.run_tick(false),
            Pacing::RenderClock => {
                self.reap();
                Ok(())
            }
        };
        self.mixer.flush();
        r.and(side)
    }

    /// Waits for the worker to answer every tick sent and applies the results (tools, tests,
    /// shutdown). Render-clock pacing never leaves work in flight.
    ///
    /// # Errors
    /// [`TickError::WorkerGone`].
    pub fn settle(&mut self) -> Result<(), TickError> {
        let replies = self.worker.wait_all().map_err(|()| self.gone())?;
        for r in replies {
            self.apply_reply(r);
        }
        self.note_restarts();
        self.mixer.flush();
        Ok(())
    }

    /// Fault injection (tests, `docs/reliability.md`): the acoustic worker panics at its next
    /// tick; it is restarted and [`Status::worker_restarts`] counts it.
    #[doc(hidden)]
    pub fn inject_worker_panic(&mut self) {
        self.worker.inject_panic();
    }

    /// After a worker restart the jobs in flight are lost: every voice is traced again.
    fn note_restarts(&mut self) {
        let n = self.worker.take_restarts();
        if n > 0 {
            self.status.worker_restarts += n;
            for v in self.voices.values_mut() {
                v.outstanding = false;
                v.dirty = true;
            }
        }
    }

    fn gone(&mut self) -> TickError {
        self.worker_gone = true;
        TickError::WorkerGone
    }

    fn run_tick(&mut self, wait: bool) -> Result<(), TickError> {
        if self.worker_gone {
            return Err(TickError::WorkerGone);
        }
        if !wait {
            let ready = self.worker.try_replies().map_err(|()| self.gone())?;
            for r in ready {
                self.apply_reply(r);
            }
            self.note_restarts();
        }
        self.reap();
        let changes = match self.world.changes_since(self.sent_revision) {
            Some(c) => c.to_vec(),
            None => {
                // Changes were dropped: start a new epoch (every cache clears).
                let e = WorldProbe::epoch(&self.world) + 1;
                self.world.set_epoch(e);
                self.mark_all_dirty();
                Vec::new()
            }
        };
        self.sent_revision = self.world.revision();
        if !changes.is_empty() {
            for v in self.voices.values_mut() {
                let touched = v.result.as_ref().and_then(|r| r.telemetry.touched);
                if let Some(b) = touched
                    && changes.iter().any(|c| b.contains(c.section))
                {
                    v.dirty = true;
                }
            }
        }
        let jobs = self.schedule();
        let msg = TickMsg {
            tick: self.tick,
            snapshot: self.world.snapshot(),
            changes,
            jobs,
            cancel: std::mem::take(&mut self.cancels),
        };
        if !self.worker.send(msg) {
            return Err(self.gone());
        }
        if wait {
            let replies = self.worker.wait_all().map_err(|()| self.gone())?;
            for r in replies {
                self.apply_reply(r);
            }
        }
        self.note_restarts();
        self.tick += 1;
        self.status.ticks = self.tick;
        self.inline_left = self.budgets.inline_cells;
        Ok(())
    }

    /// Classes, echo sets and the jobs of this tick.
    fn schedule(&mut self) -> Vec<Job> {
        if self.mode == Mode::Off {
            return Vec::new();
        }
        let listener = self.listener.position;
        let now = self.time();
        let ids: Vec<u64> = self
            .voices
            .iter()
            .filter(|(_, v)| !v.source.relative)
            .map(|(id, _)| *id)
            .collect();
        let candidates: Vec<Candidate> = ids
            .iter()
            .filter_map(|id| {
                let v = self.voices.get(id)?;
                let d = (v.source.position - listener).length();
                Some(Candidate {
                    id: *id,
                    loud: loudness(v.source.volume, d, v.source.range),
                    distance: d,
                    impulsive_full: v.source.impulsive
                        && v.source.power >= IMPULSIVE_POWER
                        && d <= IMPULSIVE_DISTANCE,
                    previous: v.class,
                })
            })
            .collect();
        let classes = classify(&candidates);
        // Echo sets: the loudest events among Full voices that deserve an echo.
        let mut events: BTreeMap<Group, f64> = BTreeMap::new();
        if self.mode >= Mode::Reflect {
            for (c, class) in candidates.iter().zip(&classes) {
                let Some(v) = self.voices.get(&c.id) else {
                    continue;
                };
                let facts = EchoFacts {
                    looping: v.source.looping,
                    relative: v.source.relative,
                    volume: v.source.volume,
                    range: v.source.range,
                    length_s: v.length_s,
                    // "< 70 % played" gates acquiring a set; a voice keeps the set it has.
                    played: if v.echo {
                        0.0
                    } else if v.length_s > 0.0 {
                        (now - v.start_s) / v.length_s
                    } else {
                        1.0
                    },
                };
                if *class == Class::Full && deserves_echo(&facts) {
                    let e = events.entry(v.group(c.id)).or_insert(0.0);
                    *e = e.max(c.loud);
                }
            }
        }
        let mut ranked: Vec<(Group, f64)> = events.into_iter().collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let echo_groups: BTreeSet<Group> = ranked
            .into_iter()
            .take(self.capacities.echo_voices)
            .map(|(g, _)| g)
            .collect();

        let mut jobs = Vec::new();
        let mut led: BTreeSet<Group> = BTreeSet::new();
        let mut push = Vec::new();
        for (c, class) in candidates.iter().zip(classes) {
            let tick = self.tick;
            let tick_seconds = self.tick_seconds;
            let mode = self.mode;
            let Some(v) = self.voices.get_mut(&c.id) else {
                continue;
            };
            let group = v.group(c.id);
            let old = v.class;
            v.class = Some(class);
            if class == Class::Free {
                if old != Some(Class::Free) {
                    if v.outstanding {
                        self.cancels.push(c.id);
                    }
                    v.outstanding = false;
                    v.result = None;
                    v.result_kind = None;
                    v.echo = false;
                    v.traced = None;
                    push.push(c.id);
                }
                continue;
            }
            let echo = echo_groups.contains(&group);
            if echo != v.echo {
                v.echo = echo;
                push.push(c.id);
            }
            if !led.insert(group) {
                // A layer of an event already led by a lower id: shares its result.
                continue;
            }
            let moved = v.traced.is_none_or(|t| {
                t.source.distance(v.source.position) > MOTION_EPSILON
                    || t.listener.distance(listener) > MOTION_EPSILON
            });
            let want = Kind {
                paths: if class == Class::Full {
                    Paths::Nine
                } else {
                    Paths::One
                },
                mode,
                echo,
            };
            let served = v.result_kind.is_some_and(|k| k.covers(want))
                || (v.outstanding && v.sent_kind.is_some_and(|k| k.covers(want)));
            let need = (v.result.is_none() && !v.outstanding)
                || v.traced.is_none()
                || !served
                || v.dirty
                || v.retrace_at.is_some_and(|t| tick >= t)
                || (moved
                    && v.traced.is_some_and(|t| {
                        distance_jump(t.distance, c.distance)
                            || timer_due(tick, c.id, c.distance, tick_seconds)
                    }));
            if !need {
                continue;
            }
            let request = SoundRequest {
                source: v.source.position,
                listener,
                range: f64::from(v.source.range),
                paths: if class == Class::Full {
                    Paths::Nine
                } else {
                    Paths::One
                },
                measure_source_space: echo,
            };
            if request.validate().is_err() {
                continue;
            }
            jobs.push(Job {
                id: c.id,
                request,
                mode,
                loudness: c.loud,
                impulsive: v.source.impulsive,
                echo,
            });
            v.traced = Some(Traced {
                source: v.source.position,
                listener,
                distance: c.distance,
            });
            v.sent_tick = Some(tick);
            v.sent_kind = Some(want);
            v.outstanding = true;
            v.dirty = false;
            v.retrace_at = None;
        }
        for id in push {
            self.push_voice(id);
        }
        jobs
    }

    fn apply_reply(&mut self, mut r: TickReply) {
        if r.is_stale(WorldProbe::epoch(&self.world)) {
            // Computed on a world since replaced: dropped (its voices are dirty, re-traced).
            r.discarded += r.completed.len() as u64;
            r.completed.clear();
        }
        let s = &mut self.status;
        s.cells += r.occlusion_cells + r.echo_cells;
        s.last_tick_occlusion_cells = r.occlusion_cells;
        s.last_tick_echo_cells = r.echo_cells;
        s.max_tick_occlusion_cells = s.max_tick_occlusion_cells.max(r.occlusion_cells);
        s.max_tick_echo_cells = s.max_tick_echo_cells.max(r.echo_cells);
        s.worker_time += r.wall;
        s.last_tick_worker_time = r.wall;
        s.queue_len = r.queued;
        let st = r.stats;
        s.cache_hits = st.occlusion.hits + st.echo.hits + st.room.hits;
        s.cache_misses = st.occlusion.misses + st.echo.misses + st.room.misses;
        s.discarded += r.discarded;
        for c in r.completed {
            let lead_ok = self.mode != Mode::Off
                && self.voices.get(&c.id).is_some_and(|v| {
                    v.outstanding
                        && v.sent_tick.is_some_and(|t| t <= r.tick)
                        && v.class.is_some_and(|k| k != Class::Free)
                });
            if !lead_ok {
                self.status.discarded += 1;
                continue;
            }
            let Some(group) = self.voices.get(&c.id).map(|v| v.group(c.id)) else {
                continue;
            };
            let members: Vec<u64> = self
                .voices
                .iter()
                .filter(|(id, v)| {
                    v.group(**id) == group && v.class.is_some_and(|k| k != Class::Free)
                })
                .map(|(id, _)| *id)
                .collect();
            let t = c.result.telemetry;
            self.count(&t);
            self.status.results_applied += 1;
            for id in members {
                let tick = self.tick;
                if let Some(v) = self.voices.get_mut(&id) {
                    v.outstanding = false;
                    v.applied_tick = Some(tick);
                    v.results += 1;
                    v.retrace_at = t.met_unknown.then_some(tick + RETRACE_AFTER_TICKS);
                    v.result = Some(c.result.clone());
                    v.result_kind = v.sent_kind;
                }
                self.push_voice(id);
            }
        }
    }

    /// Counts a result's traces into the status (rays, unknown share).
    fn count(&mut self, t: &resound_acoustics::Telemetry) {
        self.status.rays += u64::from(t.rays);
        self.unknown_steps += t.unknown_steps;
        self.result_cells += t.cells;
        self.status.unknown_share = if self.result_cells == 0 {
            0.0
        } else {
            self.unknown_steps as f64 / self.result_cells as f64
        };
    }

    /// Converts a voice's current state and hands it to the mixer (only what changed).
    fn push_voice(&mut self, id: u64) {
        let mode = self.mode;
        let listener = self.listener;
        let Some(v) = self.voices.get_mut(&id) else {
            return;
        };
        let acoustics = if mode == Mode::Off || v.source.relative {
            Acoustics::Off
        } else if v.class == Some(Class::Free) {
            Acoustics::Free
        } else if let Some(r) = &v.result {
            Acoustics::Result(r)
        } else {
            Acoustics::Free
        };
        let converted = convert(&v.source, &listener, acoustics);
        if v.converted.map(|c| c.params) != Some(converted.params) {
            // An unknown voice has just ended; it is reaped at the next tick.
            let _ = self.mixer.set_params(v.mixer, converted.params);
        }
        let want_taps = v.echo && !v.source.looping && mode >= Mode::Reflect;
        let taps = if want_taps { converted.taps() } else { &[] };
        let previous = v.converted.filter(|_| v.has_taps);
        let applied = previous.as_ref().map_or(&[][..], Converted::taps);
        if applied != taps {
            // Tap sets may be full while old sets drain: the voice plays without echo then
            // (and the set is asked for again at the next change).
            v.has_taps = self.mixer.set_taps(v.mixer, taps).is_ok() && !taps.is_empty();
        }
        v.converted = Some(converted);
    }

    // ---- render ------------------------------------------------------------------------------

    /// Renders interleaved stereo into `out` (offline output). With render-clock pacing the
    /// acoustics tick every [`Engine::tick_frames`] frames, synchronously, so the output depends
    /// on nothing but the inputs and the frames at which the host called the API.
    ///
    /// # Errors
    /// [`TickError`]: not offline, odd length; the worker has stopped (the buffer is still
    /// rendered, with acoustics frozen).
    pub fn render(&mut self, out: &mut [f32]) -> Result<(), TickError> {
        if self.renderer.is_none() {
            return Err(TickError::NotOffline);
        }
        if !out.len().is_multiple_of(2) {
            return Err(TickError::OddLength(out.len()));
        }
        let mut result = Ok(());
        let mut pos = 0;
        while pos < out.len() {
            let mut frames = (out.len() - pos) / 2;
            if self.pacing == Pacing::RenderClock {
                let phase = self.frames % self.tick_frames;
                if phase == 0 && self.last_tick_frame != Some(self.frames) {
                    self.last_tick_frame = Some(self.frames);
                    if let Err(e) = self.run_tick(true) {
                        result = Err(e);
                    }
                }
                frames = frames.min((self.tick_frames - phase) as usize);
            }
            self.mixer.flush();
            let chunk = &mut out[pos..pos + 2 * frames];
            if let Some(r) = self.renderer.as_mut() {
                match self.guard {
                    Some(g) => g(&mut || r.render(chunk)),
                    None => r.render(chunk),
                }
            }
            pos += 2 * frames;
            self.frames += frames as u64;
        }
        self.status.frames_rendered = self.frames;
        result
    }

    /// Starts the device stream of an engine built with
    /// [`EngineBuilder::start_paused`] (a no-op offline or once started). Flushes the voices
    /// and parameters set up so far, so the first buffer holds them.
    ///
    /// # Errors
    /// [`crate::OutputError`] if the stream cannot start (the engine then reopens it from the
    /// next `update`, as after a loss).
    pub fn start_output(&mut self) -> Result<(), crate::OutputError> {
        self.mixer.flush();
        match self.device.as_mut() {
            Some(d) => d.start(),
            None => Ok(()),
        }
    }

    /// Renders `frames` frames (at most [`MAX_DT`] seconds) into a new buffer (interleaved
    /// stereo).
    ///
    /// # Errors
    /// As [`Engine::render`]; `frames` beyond [`MAX_DT`] seconds is refused as too large.
    pub fn render_frames(&mut self, frames: usize) -> Result<Vec<f32>, TickError> {
        if frames as f64 > MAX_DT * f64::from(self.rate) {
            return Err(InputError::new("frames", Problem::TooLarge).into());
        }
        let mut out = vec![0.0; 2 * frames];
        self.render(&mut out)?;
        Ok(out)
    }

    // ---- status ------------------------------------------------------------------------------

    /// Counters.
    pub fn status(&mut self) -> Status {
        self.reap();
        let m = self.mixer.status();
        let mut s = self.status.clone();
        if let Some(d) = &self.device {
            let ds = d.status();
            s.xruns = ds.xruns + ds.device_xruns;
            s.device = Some(ds);
        }
        s.live_voices = self.voices.len() + self.ambient_retail_live();
        s.ambient = self.ambient_status();
        s.echo_voices = self.voices.values().filter(|v| v.has_taps).count();
        s.limiter_engagements = m.limiter_engagements;
        s.peak = m.peak;
        s.ticks_in_flight = self.worker.in_flight();
        s
    }
}
