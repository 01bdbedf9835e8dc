//! A scripted ambient walk rendered through a fresh engine ([`render_ambient_walk`], then
//! [`WalkRenderer::render`] block by block): what `resound ambient --walk --out` streams to its
//! WAV. `Retail16` gives the retail output exactly (no
//! acoustics); `Modern` places positioned sounds in 3-D on the AC terrain with the full acoustic
//! path.

use std::path::Path;

use resound_engine::advanced::ambient::walk::Walk;

use resound_engine::sound::{AmbientSettings, AttachError};
use resound_engine::{AttachTerrainError, Engine};
use resound_engine::{BuildError, TickError};
use resound_engine::{Mode, Status, VoicePolicy};

/// Longest walk [`render_ambient_walk`] renders (seconds of audio; the render is streamed, so
/// this caps time, not memory).
pub const MAX_WALK_RENDER_SECONDS: f64 = 600.0;

/// A walk ready to render: the engine is built and attached, so the sample rate and the
/// length are known before the first sample (a WAV header can be final).
pub struct WalkRenderer<'w> {
    engine: Engine,
    walk: &'w Walk,
    seconds: f64,
}

impl std::fmt::Debug for WalkRenderer<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WalkRenderer")
            .field("seconds", &self.seconds)
            .field("rate", &self.rate())
            .field("frames", &self.frames())
            .finish_non_exhaustive()
    }
}

/// What a finished walk render reports.
#[derive(Debug)]
pub struct WalkRender {
    /// Stereo frames rendered ([`WalkRenderer::frames`]).
    pub frames: u64,
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

/// The stereo frames `Engine::render_walk` produces for `seconds` of `walk` at `rate` Hz: one
/// walk frame per `1 / frame_rate` s (whole frames only), its samples ending at the rounded
/// frame time; none for a walk without waypoints.
#[must_use]
pub fn walk_frames(walk: &Walk, seconds: f64, rate: u32) -> u64 {
    if walk.cursor().is_none() {
        return 0;
    }
    let fps = walk.frame_rate;
    let walk_frames = (seconds * fps).floor().max(0.0);
    (walk_frames * f64::from(rate) / fps).round() as u64
}

/// Builds the engine for `seconds` of `walk` over the dats in `dat_dir` with the ambient
/// `settings`; the voice policy picks the engine (and so the ambient plays): `Retail16` →
/// retail 16 voices, acoustics off; `Modern` → modern voices, `full` acoustics on the AC
/// terrain. Nothing is rendered yet.
///
/// # Errors
/// [`WalkRenderError`].
pub fn render_ambient_walk<'w>(
    dat_dir: &Path,
    walk: &'w Walk,
    seconds: f64,
    policy: VoicePolicy,
    settings: AmbientSettings,
) -> Result<WalkRenderer<'w>, WalkRenderError> {
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
    Ok(WalkRenderer {
        engine,
        walk,
        seconds,
    })
}

impl WalkRenderer<'_> {
    /// The sample rate in Hz.
    #[must_use]
    pub fn rate(&self) -> u32 {
        self.engine.sample_rate()
    }

    /// The stereo frames [`WalkRenderer::render`] hands to its sink in all.
    #[must_use]
    pub fn frames(&self) -> u64 {
        walk_frames(self.walk, self.seconds, self.rate())
    }

    /// Renders the walk, handing each walk frame's samples (interleaved stereo) to `sink` as
    /// they are made; nothing is kept, so memory does not grow with the length. After the
    /// sink's first error it is not called again (the engine finishes the walk) and that error
    /// is returned.
    ///
    /// # Errors
    /// [`WalkRenderError::Tick`] (as `E`), or the sink's first error.
    pub fn render<E: From<WalkRenderError>>(
        mut self,
        sink: &mut dyn FnMut(&[f32]) -> Result<(), E>,
    ) -> Result<WalkRender, E> {
        let mut failed = None;
        let walked = self
            .engine
            .render_walk(self.walk, self.seconds, &mut |block| {
                if failed.is_none()
                    && let Err(e) = sink(block)
                {
                    failed = Some(e);
                }
            });
        if let Some(e) = failed {
            return Err(e);
        }
        walked.map_err(|e| E::from(WalkRenderError::from(e)))?;
        Ok(WalkRender {
            frames: self.frames(),
            rate: self.rate(),
            status: self.engine.status(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walk() -> Walk {
        let text = include_str!("../../ambient/examples-data/walk.json");
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn the_streamed_walk_is_the_engines_render_in_its_length() {
        let dir = tempfile::tempdir().unwrap();
        resound_fixture::write_world().write_to(dir.path()).unwrap();
        let walk = walk();
        let settings = AmbientSettings::default();
        let renderer =
            render_ambient_walk(dir.path(), &walk, 3.0, VoicePolicy::Retail16, settings).unwrap();
        let frames = renderer.frames();
        assert_eq!(frames, walk_frames(&walk, 3.0, renderer.rate()));
        let mut streamed = Vec::new();
        let mut blocks = 0;
        let done = renderer
            .render(&mut |block: &[f32]| {
                blocks += 1;
                streamed.extend_from_slice(block);
                Ok::<(), WalkRenderError>(())
            })
            .unwrap();
        assert_eq!(done.frames, frames);
        assert_eq!(streamed.len() as u64, 2 * frames);
        assert!(blocks > 1, "one block per walk frame");
        assert!(
            streamed.iter().any(|&s| s != 0.0),
            "the walk plays something"
        );
        // The same render held whole by the engine: the same samples.
        let mut engine = Engine::builder()
            .voice_policy(VoicePolicy::Retail16)
            .mode(Mode::Off)
            .build()
            .unwrap();
        engine.attach_ambient(dir.path(), settings).unwrap();
        let mut whole = Vec::new();
        engine
            .render_walk(&walk, 3.0, &mut |s| whole.extend_from_slice(s))
            .unwrap();
        assert_eq!(streamed, whole);
    }

    #[test]
    fn the_sinks_first_error_stops_the_writes_and_is_returned() {
        let dir = tempfile::tempdir().unwrap();
        resound_fixture::write_world().write_to(dir.path()).unwrap();
        let walk = walk();
        let renderer = render_ambient_walk(
            dir.path(),
            &walk,
            1.0,
            VoicePolicy::Retail16,
            AmbientSettings::default(),
        )
        .unwrap();
        let mut calls = 0;
        let err = renderer
            .render(&mut |_: &[f32]| {
                calls += 1;
                Err(anyhow::anyhow!("disk full"))
            })
            .unwrap_err();
        assert_eq!(err.to_string(), "disk full");
        assert_eq!(calls, 1);
    }

    #[test]
    fn a_walk_longer_than_the_cap_is_refused() {
        let walk = walk();
        let err = render_ambient_walk(
            Path::new("/nonexistent"),
            &walk,
            601.0,
            VoicePolicy::Retail16,
            AmbientSettings::default(),
        )
        .unwrap_err();
        assert_eq!(err.to_string(), "a walk renders at most 600 s, not 601 s");
    }
}
