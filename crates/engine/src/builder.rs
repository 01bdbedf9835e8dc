//! [`EngineBuilder`]: sample rate, output, mode, model, budgets, capacities, voice policy.
//! The engine's own module builds from it ([`EngineBuilder::build`]); this one knows nothing of
//! the engine.

use std::time::Duration;

use resound_acoustics::Mode;
use resound_acoustics::queue::QueueSettings;

use resound_dsp::hrtf::{HrirSet, HrtfBank};
use resound_mixer::Spatial;

use crate::error::BuildError;
use crate::game_world::GameWorld;
use crate::material::Materials;
use crate::model::Model;
use crate::output::Output;

/// Cell budgets (acoustics §3.3): how much tracing the engine may do. Budgets count voxel
/// cells stepped through, never time, so offline renders do the same work on any machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budgets {
    /// Inline traces of new sounds on the host before their first buffer, cells per tick
    /// (live: 1 path; offline: the whole evaluation of the mode).
    pub inline_cells: u64,
    /// The worker's occlusion cells per tick.
    pub occlusion_cells: u64,
    /// The worker's echo and room cells per tick.
    pub echo_cells: u64,
    /// Most cells one voice's direct (9-path) trace may take.
    pub occlusion_job: u64,
    /// Most cells one echo search may take.
    pub echo_job: u64,
    /// Most cells one room measurement may take.
    pub room_job: u64,
    /// The worker's air-path cells per tick (sound round corners, acoustics §4a): on in the
    /// presets ([`Budgets::AIR_CELLS_LIVE`], [`Budgets::AIR_CELLS_OFFLINE`]); 0 turns air
    /// paths off ([`Budgets::with_air_cells`], [`EngineBuilder::air_paths`]). A voice whose
    /// search does not fit keeps the through-wall result.
    pub air_cells: u64,
    /// Most cells one air-path search may take.
    pub air_job: u64,
}

impl Budgets {
    /// Air-path cells per tick for a live engine (the [`Budgets::live`] preset).
    pub const AIR_CELLS_LIVE: u64 = 30_000;
    /// Air-path cells per tick offline (the [`Budgets::offline`] preset).
    pub const AIR_CELLS_OFFLINE: u64 = 400_000;

    /// These budgets with `cells` air-path cells per tick (0: air paths off).
    #[must_use]
    pub fn with_air_cells(mut self, cells: u64) -> Self {
        self.air_cells = cells;
        self
    }

    /// Live: inline 40 000 cells/tick; worker occlusion 400 000, echo + room 240 000 per tick;
    /// air paths [`Budgets::AIR_CELLS_LIVE`] per tick, 30 000 per search.
    #[must_use]
    pub fn live() -> Self {
        let q = QueueSettings::default();
        Self {
            inline_cells: 40_000,
            occlusion_cells: q.occlusion_budget,
            echo_cells: q.echo_budget,
            occlusion_job: q.occlusion_job,
            echo_job: q.echo_job,
            room_job: q.room_job,
            air_cells: Self::AIR_CELLS_LIVE,
            air_job: 30_000,
        }
    }

    /// Offline: inline (new sounds, whole evaluation) 600 000 cells per tick; worker occlusion
    /// 600 000, echoes and rooms 480 000 cells per tick, synchronous; air paths
    /// [`Budgets::AIR_CELLS_OFFLINE`] per tick, 100 000 per search.
    #[must_use]
    pub fn offline() -> Self {
        Self {
            inline_cells: 600_000,
            occlusion_cells: 600_000,
            echo_cells: 480_000,
            air_cells: Self::AIR_CELLS_OFFLINE,
            air_job: 100_000,
            ..Self::live()
        }
    }

    /// The worker's queue settings.
    pub(crate) fn queue(&self) -> QueueSettings {
        QueueSettings {
            occlusion_budget: self.occlusion_cells,
            echo_budget: self.echo_cells,
            occlusion_job: self.occlusion_job,
            echo_job: self.echo_job,
            room_job: self.room_job,
        }
    }

    /// The worker's air-path budgets.
    pub(crate) fn air(&self) -> crate::worker::AirBudget {
        crate::worker::AirBudget {
            tick: self.air_cells,
            job: self.air_job,
        }
    }

    fn validate(&self) -> Result<(), BuildError> {
        for (name, v) in [
            ("inline_cells", self.inline_cells),
            ("occlusion_cells", self.occlusion_cells),
            ("echo_cells", self.echo_cells),
            ("occlusion_job", self.occlusion_job),
            ("echo_job", self.echo_job),
            ("room_job", self.room_job),
            ("air_job", self.air_job),
        ] {
            if v == 0 {
                return Err(BuildError::Budget(name));
            }
        }
        Ok(())
    }
}

/// Fixed capacities.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Capacities {
    /// Voices the engine plays at once (the policy's cap for `Modern`).
    pub voices: usize,
    /// Sounds loaded at once.
    pub sounds: usize,
    /// Voices (events) with echo taps at once (acoustics §5: 8).
    pub echo_voices: usize,
}

impl Default for Capacities {
    fn default() -> Self {
        Self {
            voices: 256,
            sounds: 1024,
            echo_voices: 8,
        }
    }
}

/// The voice policy: what happens when every voice is busy, and how ambient events become
/// voices (the one enum; [`crate::sound::AmbientPolicy`] names it too).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum VoicePolicy {
    /// Up to [`Capacities::voices`]; a new voice steals the quietest one (counted dropped).
    /// Ambient: positioned events are 3-D voices with the acoustic path; centred beds stay
    /// centred.
    #[default]
    Modern,
    /// The retail pool: 16 voices, game and ambient alike (a slot frees when the mixer reports
    /// its voice ended, or it is stopped); the 17th is dropped (counted) and `play` says so.
    /// Ambient: the retail output exactly: integer dB, the retail pan, no acoustics.
    Retail16,
}

/// When acoustic ticks happen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pacing {
    /// Every `tick_frames` rendered frames, synchronously: the render waits for the worker,
    /// so output depends on nothing but inputs (offline default).
    RenderClock,
    /// Once per [`Engine::update`](crate::Engine::update): the worker runs in the background and results apply at the
    /// start of the next `update` (live default).
    Update,
}

/// Runs the audio side of one render chunk; a test passes one that forbids allocation.
pub type AudioGuard = fn(&mut dyn FnMut());

/// Builds an [`Engine`](crate::Engine).
#[derive(Debug, Clone)]
pub struct EngineBuilder {
    pub(crate) sample_rate: u32,
    pub(crate) output: Output,
    pub(crate) mode: Mode,
    pub(crate) model: Model,
    pub(crate) budgets: Option<Budgets>,
    pub(crate) capacities: Capacities,
    pub(crate) policy: VoicePolicy,
    pub(crate) pacing: Option<Pacing>,
    pub(crate) tick_seconds: f64,
    pub(crate) inline_worker: bool,
    pub(crate) worker_delay: Duration,
    pub(crate) audio_guard: Option<AudioGuard>,
    pub(crate) limiter: bool,
    pub(crate) start_paused: bool,
    pub(crate) device_backend: Option<crate::output::InjectedBackend>,
    pub(crate) world: Option<std::sync::Arc<dyn GameWorld>>,
    pub(crate) spatial: Spatial,
    pub(crate) sofa: Option<std::path::PathBuf>,
    pub(crate) air_paths: bool,
}

impl Default for EngineBuilder {
    fn default() -> Self {
        Self {
            sample_rate: 48_000,
            output: Output::Offline,
            mode: Mode::Off,
            model: Model::default(),
            budgets: None,
            capacities: Capacities::default(),
            policy: VoicePolicy::Modern,
            pacing: None,
            tick_seconds: 0.05,
            // wasm32 has no threads: the worker's ticks run on the calling thread there.
            inline_worker: cfg!(target_arch = "wasm32"),
            worker_delay: Duration::ZERO,
            audio_guard: None,
            limiter: true,
            start_paused: false,
            device_backend: None,
            world: None,
            spatial: Spatial::Pan,
            sofa: None,
            air_paths: true,
        }
    }
}

impl EngineBuilder {
    /// The material table the engine's own model traces with (default: the standard
    /// materials, [`crate::Material`]'s constants). The SPR model keeps its own table.
    #[must_use]
    pub fn materials(mut self, materials: Materials) -> Self {
        #[allow(irrefutable_let_patterns)] // one variant without the `spr-gpl` feature
        if let Model::Own(_) = self.model {
            self.model = Model::Own(resound_acoustics::OwnModel::new(materials.table));
        }
        self
    }

    /// Traces the game's own world instead of the engine's voxel store (see [`GameWorld`]
    /// for the recipe); [`crate::Engine::set_world`] and [`crate::Engine::world_changed`]
    /// hand it newer snapshots.
    #[must_use]
    pub fn world(mut self, world: std::sync::Arc<dyn GameWorld>) -> Self {
        self.world = Some(world);
        self
    }

    /// Output sample rate in Hz (default 48 000).
    #[must_use]
    pub fn sample_rate(mut self, hz: u32) -> Self {
        self.sample_rate = hz;
        self
    }

    /// Output (default [`Output::Offline`]).
    #[must_use]
    pub fn output(mut self, output: Output) -> Self {
        self.output = output;
        self
    }

    /// Acoustics mode (default `Off`).
    #[must_use]
    pub fn mode(mut self, mode: Mode) -> Self {
        self.mode = mode;
        self
    }

    /// Acoustic model (default Resound's own with the standard material table).
    #[must_use]
    pub fn model(mut self, model: Model) -> Self {
        self.model = model;
        self
    }

    /// Cell budgets (default: [`Budgets::offline`] for render-clock pacing, else
    /// [`Budgets::live`]).
    #[must_use]
    pub fn budgets(mut self, budgets: Budgets) -> Self {
        self.budgets = Some(budgets);
        self
    }

    /// Capacities.
    #[must_use]
    pub fn capacities(mut self, capacities: Capacities) -> Self {
        self.capacities = capacities;
        self
    }

    /// Voice policy (default `Modern`).
    #[must_use]
    pub fn voice_policy(mut self, policy: VoicePolicy) -> Self {
        self.policy = policy;
        self
    }

    /// Tick pacing (default: render clock offline, update for a device).
    #[must_use]
    pub fn pacing(mut self, pacing: Pacing) -> Self {
        self.pacing = Some(pacing);
        self
    }

    /// Run the worker's ticks on the calling thread instead of a worker thread (same code, same
    /// results; for single-threaded hosts and CPU-time benchmarks). The default on `wasm32`,
    /// which has no threads: there a tick runs inline on `update` (update pacing) or on
    /// `render` (render-clock pacing), under the same cell budgets.
    #[must_use]
    pub fn inline_worker(mut self, inline: bool) -> Self {
        self.inline_worker = inline;
        self
    }

    /// Testing aid: the worker sleeps this long before each tick (an artificially slow worker).
    #[must_use]
    pub fn worker_delay(mut self, delay: Duration) -> Self {
        self.worker_delay = delay;
        self
    }

    /// Testing aid: every mixer render call runs inside `guard` (e.g. an allocation guard).
    #[must_use]
    pub fn audio_guard(mut self, guard: AudioGuard) -> Self {
        self.audio_guard = Some(guard);
        self
    }

    /// How positional voices reach the two channels: [`Spatial::Pan`] (the default, speakers)
    /// or [`Spatial::Binaural`] (headphones: each positional voice's direct sound through the
    /// head-related impulse responses of its apparent direction, taking the listener's yaw and
    /// pitch into account, and each echo tap through those of its own direction, the
    /// reflection point; voices and taps share the mixer's renderers, loudest first, the rest
    /// panned; relative voices, stereo sounds and the reverb stay panned/stereo; binaural
    /// voices and taps are 128 frames (2.7 ms at 48 kHz) late). The HRIR set is the
    /// [`sofa`](Self::sofa) file, else the built-in IRCAM set (feature `hrtf-default`).
    ///
    /// [`VoicePolicy::Retail16`] is the retail output exactly and stays panned: `build`
    /// refuses `Binaural` with it ([`BuildError::Spatial`]).
    #[must_use]
    pub fn spatial(mut self, spatial: Spatial) -> Self {
        self.spatial = spatial;
        self
    }

    /// An AES69 SOFA file (`SimpleFreeFieldHRIR`) to render binaural output with, resampled
    /// to the mix rate at `build` (a bad file: [`BuildError::Hrtf`]). Used only under
    /// [`Spatial::Binaural`].
    #[must_use]
    pub fn sofa(mut self, path: impl Into<std::path::PathBuf>) -> Self {
        self.sofa = Some(path.into());
        self
    }

    /// The master peak limiter (on by default; off for analysis renders).
    #[must_use]
    pub fn limiter(mut self, on: bool) -> Self {
        self.limiter = on;
        self
    }

    /// Device output: open the device at `build` but start its stream only at
    /// [`Engine::start_output`](crate::Engine::start_output), so a host can set up what the first buffer must hold
    /// (voices started before then are evaluated in full, as offline: nothing waits for a
    /// buffer yet). No effect offline.
    #[must_use]
    pub fn start_paused(mut self, paused: bool) -> Self {
        self.start_paused = paused;
        self
    }

    /// Testing aid: the device backend `Output::Device` resolves and opens on (instead of
    /// cpal's default host), e.g. [`crate::device::TestBackend`]. The first `build` takes it.
    #[doc(hidden)]
    #[must_use]
    pub fn device_backend(mut self, backend: Box<dyn crate::device::Backend>) -> Self {
        self.device_backend = Some(crate::output::InjectedBackend::new(backend));
        self
    }

    /// Sound round corners through the air (acoustics §4a; default on): `false` sets the
    /// budgets' [`Budgets::air_cells`] to 0 whatever [`EngineBuilder::budgets`] gave, so every
    /// blocked voice is heard through the walls only.
    #[must_use]
    pub fn air_paths(mut self, on: bool) -> Self {
        self.air_paths = on;
        self
    }

    pub(crate) fn effective_pacing(&self) -> Pacing {
        self.pacing.unwrap_or(match self.output {
            Output::Offline => Pacing::RenderClock,
            Output::Device { .. } => Pacing::Update,
        })
    }

    pub(crate) fn effective_budgets(&self) -> Budgets {
        let budgets = self.budgets.unwrap_or(match self.effective_pacing() {
            Pacing::RenderClock => Budgets::offline(),
            Pacing::Update => Budgets::live(),
        });
        if self.air_paths {
            budgets
        } else {
            budgets.with_air_cells(0)
        }
    }

    /// The HRIR bank binaural output renders with, at `rate` Hz (`None` under
    /// [`Spatial::Pan`]): the SOFA file, else the built-in set.
    pub(crate) fn hrtf_bank(
        &self,
        rate: u32,
    ) -> Result<Option<std::sync::Arc<HrtfBank>>, BuildError> {
        if self.spatial == Spatial::Pan {
            return Ok(None);
        }
        let set = match &self.sofa {
            Some(path) => HrirSet::from_sofa_file(path, rate as f32)
                .map_err(|e| BuildError::Hrtf(format!("{}: {e}", path.display())))?,
            None => default_set(rate)?,
        };
        Ok(Some(std::sync::Arc::new(HrtfBank::new(set))))
    }

    /// Checks the settings and resolves the output (the device first, before anything is built).
    pub(crate) fn check(&self) -> Result<crate::output::Resolved, BuildError> {
        if !(8_000..=384_000).contains(&self.sample_rate) {
            return Err(BuildError::SampleRate(self.sample_rate));
        }
        let limit = resound_mixer::CAPACITY_LIMIT / 2;
        let c = self.capacities;
        for (name, value) in [
            ("voices", c.voices),
            ("sounds", c.sounds),
            ("echo_voices", c.echo_voices),
        ] {
            if value == 0 || value > limit {
                return Err(BuildError::Capacity { name, value });
            }
        }
        self.effective_budgets().validate()?;
        if self.spatial == Spatial::Binaural && self.policy == VoicePolicy::Retail16 {
            return Err(BuildError::Spatial);
        }
        Ok(crate::output::resolve(
            &self.output,
            self.device_backend.as_ref(),
        )?)
    }
}

/// The built-in HRIR set (IRCAM LISTEN IRC_1040) at `rate` Hz.
#[cfg(feature = "hrtf-default")]
fn default_set(rate: u32) -> Result<HrirSet, BuildError> {
    HrirSet::ircam_1040(rate as f32).map_err(|e| BuildError::Hrtf(e.to_string()))
}

/// Without the `hrtf-default` feature there is no built-in set.
#[cfg(not(feature = "hrtf-default"))]
fn default_set(_rate: u32) -> Result<HrirSet, BuildError> {
    Err(BuildError::Hrtf(
        "binaural output needs a SOFA file (no built-in HRIR set: feature `hrtf-default` is off)"
            .to_owned(),
    ))
}
