//! A scripted ambient walk rendered through a fresh engine ([`render_ambient_walk`]): what
//! `resound ambient --walk --out` runs. `Retail16` gives the retail output exactly (no
//! acoustics); `Modern` places positioned sounds in 3-D on the AC terrain with the full acoustic
//! path.

use std::path::Path;

use resound_engine::advanced::ambient::walk::Walk;

use resound_engine::sound::{AmbientSettings, AttachError};
use resound_engine::{AttachTerrainError, Engine};
use resound_engine::{BuildError, TickError};
use resound_engine::{Mode, Status, VoicePolicy};

/// Longest walk [`render_ambient_walk`] renders (seconds; 10 minutes of stereo f32 is 230 MB).
pub const MAX_WALK_RENDER_SECONDS: f64 = 600.0;

/// A rendered walk: interleaved stereo samples, their rate, and the engine's final status.
#[derive(Debug)]
pub struct WalkRender {
    /// Interleaved stereo `f32`.
    pub samples: Vec<f32>,
    /// Sample rate in Hz.
    pub rate: u32,
    /// The engine's counters at the end (ambient plays and drops, peak, rays).
    pub status: Status,
}

/// Why a walk could not be rendered.
#[derive(Debug, thiserror::Error)]
pub enum WalkRenderError {
    /// Longer than [`MAX_WALK_RENDER_SECONDS`] (or not a finite, non-negative length).
    #[error("a walk renders at most {MAX_WALK_RENDER_SECONDS} s, not {0} s")]
    TooLong(f64),
    /// The engine could not be built.
    #[error(transparent)]
    Build(#[from] BuildError),
    /// The terrain (`Modern`) could not be attached.
    #[error(transparent)]
    Terrain(#[from] AttachTerrainError),
    /// The ambient runtime could not be attached.
    #[error(transparent)]
    Ambient(#[from] AttachError),
    /// A tick failed.
    #[error(transparent)]
    Tick(#[from] TickError),
}

/// Renders `seconds` of `walk` over the dats in `dat_dir` with the ambient `settings`; the
/// voice policy picks the engine (and so the ambient plays): `Retail16` → retail 16 voices,
/// acoustics off; `Modern` → modern voices, `full` acoustics on the AC terrain.
///
/// # Errors
/// [`WalkRenderError`].
pub fn render_ambient_walk(
    dat_dir: &Path,
    walk: &Walk,
    seconds: f64,
    policy: VoicePolicy,
    settings: AmbientSettings,
) -> Result<WalkRender, WalkRenderError> {
    if !(0.0..=MAX_WALK_RENDER_SECONDS).contains(&seconds) {
        return Err(WalkRenderError::TooLong(seconds));
    }
    let modern = policy == VoicePolicy::Modern;
    let mode = if modern { Mode::Full } else { Mode::Off };
    let mut engine = Engine::builder().voice_policy(policy).mode(mode).build()?;
    if modern {
        engine.attach_terrain(dat_dir)?;
    }
    engine.attach_ambient(dat_dir, settings)?;
    let mut samples = Vec::new();
    engine.render_walk(walk, seconds, &mut |s| samples.extend_from_slice(s))?;
    Ok(WalkRender {
        samples,
        rate: engine.sample_rate(),
        status: engine.status(),
    })
}
