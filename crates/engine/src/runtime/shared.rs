//! [`Shared`]: what every part of the engine reads or counts into: the settings fixed at build,
//! the clock, the mode, the listener, the model, the traced world, the mixer's game-thread handle
//! and the [`Status`] counters. The voices, the tick and the sounds each take it by reference;
//! it knows none of them.

use resound_acoustics::{Mode, Telemetry};
use resound_mixer::MixerHandle;

use crate::builder::{Budgets, Capacities, EngineBuilder, Pacing, VoicePolicy};
use crate::model::Model;
use crate::source::Listener;
use crate::status::Status;
use crate::world::World;

/// The state the engine's parts share (see the module docs).
#[derive(Debug)]
pub(crate) struct Shared {
    /// Output sample rate in Hz.
    pub(crate) rate: u32,
    /// When ticks happen.
    pub(crate) pacing: Pacing,
    /// The acoustics mode.
    pub(crate) mode: Mode,
    /// The voice policy.
    pub(crate) policy: VoicePolicy,
    /// Fixed capacities.
    pub(crate) capacities: Capacities,
    /// Cell budgets.
    pub(crate) budgets: Budgets,
    /// The listener (the camera).
    pub(crate) listener: Listener,
    /// The acoustic model.
    pub(crate) model: Model,
    /// The traced world.
    pub(crate) world: World,
    /// The mixer's game-thread half.
    pub(crate) mixer: MixerHandle,
    /// Counters.
    pub(crate) status: Status,
    /// Frames rendered (offline).
    pub(crate) frames: u64,
    /// The sum of the `dt`s given to `update`.
    pub(crate) clock: f64,
    /// Frames the mixer had rendered at the last update or render (the engine's clock).
    pub(crate) audio_frames: u64,
    /// Track names by index (0 is `"main"`).
    pub(crate) tracks: Vec<String>,
    /// The mixer's counters at the last update or render.
    pub(crate) mixer_status: resound_mixer::MixerStatus,
    /// Unknown steps over the results counted (for the unknown share).
    unknown_steps: u64,
    /// Cells over the results counted (for the unknown share).
    result_cells: u64,
}

impl Shared {
    /// Shared state at build from `b` (at `rate`, with the pacing and budgets in effect): the
    /// listener at the origin, nothing rendered, nothing counted.
    pub(crate) fn new(
        b: &EngineBuilder,
        rate: u32,
        pacing: Pacing,
        budgets: Budgets,
        mixer: MixerHandle,
    ) -> Self {
        Self {
            rate,
            pacing,
            mode: b.mode,
            policy: b.policy,
            capacities: b.capacities,
            budgets,
            listener: Listener::default(),
            model: b.model.clone(),
            world: World::new(),
            mixer,
            status: Status::default(),
            frames: 0,
            audio_frames: 0,
            tracks: vec!["main".to_owned()],
            mixer_status: resound_mixer::MixerStatus::default(),
            clock: 0.0,
            unknown_steps: 0,
            result_cells: 0,
        }
    }

    /// Engine time in seconds (rendered frames with render-clock pacing, else the sum of `dt`).
    pub(crate) fn time(&self) -> f64 {
        match self.pacing {
            Pacing::RenderClock => self.frames as f64 / f64::from(self.rate),
            Pacing::Update => self.clock,
        }
    }

    /// Counts a result's traces into the status (rays, unknown share).
    pub(crate) fn count(&mut self, t: &Telemetry) {
        self.status.rays += u64::from(t.rays);
        self.unknown_steps += t.unknown_steps;
        self.result_cells += t.cells;
        self.status.unknown_share = if self.result_cells == 0 {
            0.0
        } else {
            self.unknown_steps as f64 / self.result_cells as f64
        };
    }
}
