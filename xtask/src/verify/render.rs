//! The renderer `verify` measures: a trait, so the checks are written once and the engine
//! adapter is the only place that knows the engine's API.

use super::plan::Job;

/// What the engine reported about a render (each figure only when the engine gives it).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reported {
    /// Echo tap delays, ms.
    pub taps_ms: Vec<f64>,
    /// The sound's space decay (§6 "space decay"), s.
    pub space_decay_s: Option<f64>,
    /// The predicted RT60 from the sends (§6 `effective_decay`), s.
    pub effective_decay_s: Option<f64>,
    /// Master limiter engagements.
    pub limiter_engagements: Option<u64>,
    /// Master output peak (before the limiter), linear.
    pub peak: Option<f64>,
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
    /// The mono mix `(L + R)/2` the analyses read.
    pub fn mono(&self) -> Vec<f32> {
        self.stereo
            .chunks_exact(2)
            .map(|f| 0.5 * (f[0] + f[1]))
            .collect()
    }
}

/// Something that renders a job offline, deterministically.
pub trait Renderer: Sync {
    /// Output sample rate, Hz.
    fn sample_rate(&self) -> u32;
    /// Renders one job.
    fn render(&self, job: &Job) -> anyhow::Result<Rendered>;
}
