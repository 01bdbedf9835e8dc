//! The renderer `verify` measures: a trait, so the checks are written once and the engine
//! adapter is the only place that knows the engine's API.

use super::plan::Job;

/// Which acoustic model to render with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelChoice {
    /// Resound's own model (MIT).
    Own,
    /// Sound Physics Remastered (the `spr-gpl` feature).
    Spr,
}

impl ModelChoice {
    /// `own` or `spr`.
    pub fn name(self) -> &'static str {
        match self {
            ModelChoice::Own => "own",
            ModelChoice::Spr => "spr",
        }
    }
}

/// What the engine reported about a render (each figure only when the engine gives it).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reported {
    /// Echo tap delays, ms.
    pub taps_ms: Vec<f64>,
    /// The sound's space decay (§6 "space decay"), s.
    pub space_decay_s: Option<f64>,
    /// The predicted RT60 from the sends (§6 `effective_decay`), s.
    pub effective_decay_s: Option<f64>,
    /// The space's decay per band (low, mid, high), s, as the engine reports it.
    pub decay_bands_s: Option<[f64; 3]>,
    /// Master limiter engagements.
    pub limiter_engagements: Option<u64>,
    /// Master output peak (before the limiter), linear.
    pub peak: Option<f64>,
    /// The four reverb sends the source's voice was given.
    pub sends: Option<[f64; 4]>,
    /// The source's dry distance gain `1 − d/range` (§4; the sends do not get it, §6).
    pub distance_gain: Option<f64>,
    /// The reverb bus's slot output gains and decay times (s) the engine ran with.
    pub slots: Option<[(f64, f64); 4]>,
}

/// One finished render.
#[derive(Clone, Debug, PartialEq)]
pub struct Rendered {
    /// Interleaved stereo, f32.
    pub stereo: Vec<f32>,
    /// What the engine reported.
    pub reported: Reported,
    /// Frame at which the job's mid-render change was made.
    pub change_frame: Option<usize>,
}

impl Rendered {
    /// The mono mix `(L + R)/2` the echo and band analyses read.
    pub fn mono(&self) -> Vec<f32> {
        self.stereo
            .chunks_exact(2)
            .map(|f| 0.5 * (f[0] + f[1]))
            .collect()
    }

    /// Per frame `sqrt(L² + R²)`: a signal whose energy is the energy of both channels, so
    /// energies and decay curves read from it do not depend on the pan (the reverb analyses).
    pub fn magnitude(&self) -> Vec<f32> {
        magnitude(&self.stereo)
    }
}

/// Per frame `sqrt(L² + R²)` of interleaved stereo.
pub fn magnitude(stereo: &[f32]) -> Vec<f32> {
    stereo
        .chunks_exact(2)
        .map(|f| (f[0] * f[0] + f[1] * f[1]).sqrt())
        .collect()
}

/// Something that renders a job offline, deterministically.
pub trait Renderer: Sync {
    /// The acoustic model the renders use (the checks take that model's figures).
    fn model(&self) -> ModelChoice {
        ModelChoice::Own
    }
    /// Output sample rate, Hz.
    fn sample_rate(&self) -> u32;
    /// Renders one job.
    fn render(&self, job: &Job) -> anyhow::Result<Rendered>;
}
