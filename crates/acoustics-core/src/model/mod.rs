//! The `AcousticModel` trait and its plain-value results.
//!
//! A model answers three questions about one sound on an immutable world snapshot:
//! [`AcousticModel::direct`] (stage 1: occlusion, gains), [`AcousticModel::reflections`]
//! (stage 2: echo taps) and [`AcousticModel::room`] (stage 3: space, decay, sends).
//! [`AcousticModel::evaluate`] joins them per [`Mode`]. Resound's own model is [`OwnModel`];
//! the GPL crate `resound-spr` provides `SprModel`. Both run the same stage 2,
//! [`image_source_reflections`], each on its own materials and ray spiral.

pub mod own;
pub mod stages;

use glam::DVec3;

use crate::budget::Budget;
use crate::echo::{EchoSettings, Plane, Tap, find_echoes};
use crate::ray::dda::WalkStats;
use crate::room::Space;
use crate::world::material::MaterialTable;
use crate::world::probe::{SectionBox, WorldProbe, union_box};
use crate::world::store::WORLD_LIMIT;

pub use own::OwnModel;
pub use stages::{Stages, run_stages};

/// Which stages run (spec §3.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mode {
    /// Nothing runs: a neutral result.
    #[default]
    Off,
    /// Stage 1.
    Direct,
    /// Stages 1 + 2.
    Reflect,
    /// Stages 1 + 2 + 3.
    Full,
}

/// Number of direct paths.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Paths {
    /// The straight path (Direct class, inline).
    One,
    /// Straight plus 8 with both ends offset by (±v,±v,±v) (Full class).
    #[default]
    Nine,
}

/// One sound to evaluate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SoundRequest {
    /// Source position (blocks).
    pub source: DVec3,
    /// Listener position (blocks).
    pub listener: DVec3,
    /// The voice's linear range (blocks), for air absorption and the send fade.
    pub range: f64,
    /// Number of direct paths.
    pub paths: Paths,
    /// Also measure the source's space (echo-eligible voices); else listener space only.
    pub measure_source_space: bool,
}

impl SoundRequest {
    /// A request with 9 paths, range 256, source space measured.
    #[must_use]
    pub fn new(source: DVec3, listener: DVec3) -> Self {
        Self {
            source,
            listener,
            range: 256.0,
            paths: Paths::Nine,
            measure_source_space: true,
        }
    }

    /// Checks positions (finite, inside ±2^28) and range (finite, > 0).
    ///
    /// # Errors
    /// [`RequestError`].
    pub fn validate(&self) -> Result<(), RequestError> {
        let limit = f64::from(WORLD_LIMIT) - 1024.0;
        for (what, p) in [("source", self.source), ("listener", self.listener)] {
            if !p.is_finite() {
                return Err(RequestError::NonFinite(what));
            }
            if p.abs().max_element() >= limit {
                return Err(RequestError::OutOfWorld(what));
            }
        }
        if !self.range.is_finite() || self.range <= 0.0 {
            return Err(RequestError::BadRange);
        }
        Ok(())
    }

    /// Direct distance.
    #[must_use]
    pub fn distance(&self) -> f64 {
        (self.source - self.listener).length()
    }
}

/// Why a request could not be evaluated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RequestError {
    /// A position is NaN or infinite.
    #[error("{0} position is not finite")]
    NonFinite(&'static str),
    /// A position lies outside the supported world (±2^28 blocks).
    #[error("{0} position is outside the supported world")]
    OutOfWorld(&'static str),
    /// The range is not finite or not positive.
    #[error("voice range must be finite and positive")]
    BadRange,
}

/// Cost and coverage of an evaluation.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Telemetry {
    /// Rays / paths traced.
    pub rays: u32,
    /// DDA steps (cells; a skipped section counts 1).
    pub cells: u64,
    /// Sections skipped in one step.
    pub skipped_sections: u64,
    /// Steps through Unknown (counted as air).
    pub unknown_steps: u64,
    /// Some trace met Unknown: re-trace once resident.
    pub met_unknown: bool,
    /// The budget ran out: the result is incomplete.
    pub budget_exhausted: bool,
    /// Sections touched by all traces (for invalidation).
    pub touched: Option<SectionBox>,
}

impl Telemetry {
    /// Adds a walk's counters (not its ray count).
    pub fn add_walk(&mut self, w: &WalkStats) {
        self.cells += w.cells;
        self.skipped_sections += w.skipped_sections;
        self.unknown_steps += w.unknown_steps;
        self.met_unknown |= w.met_unknown;
        self.budget_exhausted |= w.end == crate::ray::dda::WalkEnd::BudgetExhausted;
        self.touched = union_box(self.touched, w.touched);
    }

    /// Adds another telemetry.
    pub fn merge(&mut self, o: &Self) {
        self.rays += o.rays;
        self.cells += o.cells;
        self.skipped_sections += o.skipped_sections;
        self.unknown_steps += o.unknown_steps;
        self.met_unknown |= o.met_unknown;
        self.budget_exhausted |= o.budget_exhausted;
        self.touched = union_box(self.touched, o.touched);
    }

    /// Share of steps that went through Unknown (0..1).
    #[must_use]
    pub fn unknown_share(&self) -> f64 {
        if self.cells == 0 {
            0.0
        } else {
            self.unknown_steps as f64 / self.cells as f64
        }
    }
}

/// Stage 1 result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DirectResult {
    /// Occlusion of the chosen (least occluded) path.
    pub occ: f64,
    /// Dry gain (low band).
    pub gain: f32,
    /// High-band gain of the occlusion alone (`cutoff`).
    pub cutoff: f32,
    /// Air absorption on the highs `0.994^max(0, d − range/2)`.
    pub air: f32,
    /// High-band gain for the mixer: `cutoff·air`.
    pub hf: f32,
    /// Direction from the listener the sound appears to come from (unit; zero if coincident).
    pub apparent_direction: DVec3,
    /// Cost.
    pub telemetry: Telemetry,
}

/// Stage 2 result.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EchoResult {
    /// Taps by delay (≤ 6).
    pub taps: Vec<Tap>,
    /// Cost.
    pub telemetry: Telemetry,
}

impl From<crate::echo::EchoSearch> for EchoResult {
    /// The search's kept taps, with its rays and walk cost as telemetry.
    fn from(search: crate::echo::EchoSearch) -> Self {
        let mut telemetry = Telemetry {
            rays: search.rays,
            ..Telemetry::default()
        };
        telemetry.add_walk(&search.stats);
        Self {
            taps: search.taps,
            telemetry,
        }
    }
}

/// Stage 2 as every model runs it: Resound's image-source echo finder (spec §5,
/// [`find_echoes`]) from the request's source and listener, reading reflectivities from
/// `materials`, casting `echo`'s rays (each model brings its own spiral), with `extra_planes`
/// added to the planes the rays find.
///
/// # Errors
/// [`RequestError`] for invalid positions or range.
pub fn image_source_reflections(
    probe: &dyn WorldProbe,
    materials: &MaterialTable,
    echo: &EchoSettings,
    extra_planes: &[Plane],
    request: &SoundRequest,
    budget: &mut Budget,
) -> Result<EchoResult, RequestError> {
    request.validate()?;
    let search = find_echoes(
        probe,
        materials,
        request.source,
        request.listener,
        echo,
        extra_planes,
        budget,
    );
    Ok(search.into())
}

/// Stage 3 result.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RoomResult {
    /// The listener's space.
    pub listener: Space,
    /// The source's space, when measured.
    pub source: Option<Space>,
    /// The sound's space: 60 % listener + 40 % source (listener alone without a source measure).
    pub space: Space,
    /// Wet level.
    pub wet: f32,
    /// Space decay (s), mid band.
    pub decay: f32,
    /// Space decay per band (low < 500 Hz, mid, high > 2 kHz), s: the decays the bus is to
    /// render this sound's tail with. All 0: the model leaves the slots at their nominal
    /// decays (SPR's fixed-slot cross-fade).
    pub decay_bands: [f32; 3],
    /// The 4 slot sends.
    pub sends: [f32; 4],
    /// Predicted decay of the slot mix (s).
    pub effective_decay: f32,
    /// Cost.
    pub telemetry: Telemetry,
}

/// Everything the mixer needs for one sound: a plain value.
#[derive(Clone, Debug, PartialEq)]
pub struct AcousticResult {
    /// Occlusion.
    pub occ: f64,
    /// Dry gain.
    pub gain: f32,
    /// Dry high-band gain (occlusion × air).
    pub hf: f32,
    /// Echo taps.
    pub taps: Vec<Tap>,
    /// The 4 reverb sends.
    pub sends: [f32; 4],
    /// Space decay (s), mid band.
    pub decay: f32,
    /// Space decay per band (low, mid, high), s; all 0 for nominal slots (see
    /// [`RoomResult::decay_bands`]).
    pub decay_bands: [f32; 3],
    /// Predicted decay of the slot mix (s).
    pub effective_decay: f32,
    /// Wet level.
    pub wet: f32,
    /// The sound's space (enclosure, size, reflectivity).
    pub space: Space,
    /// Apparent direction (unit, from the listener).
    pub apparent_direction: DVec3,
    /// Cost of all stages.
    pub telemetry: Telemetry,
}

impl AcousticResult {
    /// The neutral result (`off`): gain 1, hf 1, no taps, no sends.
    #[must_use]
    pub fn neutral(request: &SoundRequest) -> Self {
        Self {
            occ: 0.0,
            gain: 1.0,
            hf: 1.0,
            taps: Vec::new(),
            sends: [0.0; 4],
            decay: 0.0,
            decay_bands: [0.0; 3],
            effective_decay: 0.0,
            wet: 0.0,
            space: Space::default(),
            apparent_direction: (request.source - request.listener)
                .try_normalize()
                .unwrap_or(DVec3::ZERO),
            telemetry: Telemetry::default(),
        }
    }
}

/// An acoustic model: pure functions of a world snapshot and a request. Called on the worker
/// (or inline on the host for the first path); never on the audio thread. May allocate.
pub trait AcousticModel {
    /// Short name (`"own"`, `"spr"`).
    fn name(&self) -> &'static str;

    /// The material table the model reads.
    fn materials(&self) -> &MaterialTable;

    /// Stage 1: occlusion and dry gains.
    ///
    /// # Errors
    /// [`RequestError`] for invalid positions or range.
    fn direct(
        &self,
        probe: &dyn WorldProbe,
        request: &SoundRequest,
        budget: &mut Budget,
    ) -> Result<DirectResult, RequestError>;

    /// Stage 2: echo taps.
    ///
    /// # Errors
    /// [`RequestError`] for invalid positions or range.
    fn reflections(
        &self,
        probe: &dyn WorldProbe,
        request: &SoundRequest,
        budget: &mut Budget,
    ) -> Result<EchoResult, RequestError>;

    /// Stage 3: space measurement, decay and sends.
    ///
    /// # Errors
    /// [`RequestError`] for invalid positions or range.
    fn room(
        &self,
        probe: &dyn WorldProbe,
        request: &SoundRequest,
        budget: &mut Budget,
    ) -> Result<RoomResult, RequestError>;

    /// The three stage results [`AcousticModel::evaluate`] joins in [`Mode::Full`], on one
    /// budget. By default the stages run one after another: [`direct`](Self::direct), then
    /// [`reflections`](Self::reflections), then [`room`](Self::room). A model whose dry path and
    /// room come from one joint computation overrides this (SPR: one evaluation applies its
    /// shared-airspace floor and redirection to the dry path and gives the sends), reporting
    /// the joint computation's cost once.
    ///
    /// # Errors
    /// [`RequestError`] for invalid positions or range.
    fn full_stages(
        &self,
        probe: &dyn WorldProbe,
        request: &SoundRequest,
        budget: &mut Budget,
    ) -> Result<(DirectResult, EchoResult, RoomResult), RequestError> {
        let direct = self.direct(probe, request, budget)?;
        let echo = self.reflections(probe, request, budget)?;
        let room = self.room(probe, request, budget)?;
        Ok((direct, echo, room))
    }

    /// Runs the stages of `mode` and joins them into one result: `Off` is neutral, `Direct`
    /// and `Reflect` run [`direct`](Self::direct) (and [`reflections`](Self::reflections)),
    /// `Full` takes [`full_stages`](Self::full_stages). The dry values and direction come from
    /// stage 1, the taps from stage 2, the sends, decays, wet level and space from stage 3,
    /// and the telemetry is the stages' merged.
    ///
    /// # Errors
    /// [`RequestError`] for invalid positions or range.
    fn evaluate(
        &self,
        probe: &dyn WorldProbe,
        request: &SoundRequest,
        mode: Mode,
        budget: &mut Budget,
    ) -> Result<AcousticResult, RequestError> {
        request.validate()?;
        let mut out = AcousticResult::neutral(request);
        let (direct, echo, room) = match mode {
            Mode::Off => return Ok(out),
            Mode::Direct => (self.direct(probe, request, budget)?, None, None),
            Mode::Reflect => {
                let direct = self.direct(probe, request, budget)?;
                let echo = self.reflections(probe, request, budget)?;
                (direct, Some(echo), None)
            }
            Mode::Full => {
                let (direct, echo, room) = self.full_stages(probe, request, budget)?;
                (direct, Some(echo), Some(room))
            }
        };
        out.occ = direct.occ;
        out.gain = direct.gain;
        out.hf = direct.hf;
        out.apparent_direction = direct.apparent_direction;
        out.telemetry.merge(&direct.telemetry);
        if let Some(echo) = echo {
            out.taps = echo.taps;
            out.telemetry.merge(&echo.telemetry);
        }
        if let Some(room) = room {
            out.sends = room.sends;
            out.decay = room.decay;
            out.decay_bands = room.decay_bands;
            out.effective_decay = room.effective_decay;
            out.wet = room.wet;
            out.space = room.space;
            out.telemetry.merge(&room.telemetry);
        }
        Ok(out)
    }
}
