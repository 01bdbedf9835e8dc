//! What the tests share: a headless app at a fixed 60 frames per second, a sound, the
//! audio-frame arithmetic of the plugin's offline render.

use std::sync::Arc;
use std::time::Duration;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_resound::{Resound, ResoundPlugin, ResoundStatus};
use resound_engine::{Engine, EngineBuilder, Mode, SoundHandle};

/// One app frame: 1/60 s, as Bevy's `Duration` holds it.
pub fn frame() -> Duration {
    Duration::from_secs_f64(1.0 / 60.0)
}

/// Engine settings for the tests: 48 kHz, the given mode.
pub fn builder(mode: Mode) -> EngineBuilder {
    Engine::builder().mode(mode)
}

/// A headless app (MinimalPlugins, transforms) with the plugin offline, 1/60 s per update.
pub fn app(mode: Mode) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        TransformPlugin,
        ResoundPlugin::offline().with_builder(builder(mode)),
    ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(frame()));
    app
}

/// A second of noise (deterministic), loaded into `engine`.
pub fn noise(engine: &mut Engine) -> SoundHandle {
    let samples: Arc<[f32]> = (0..48_000u32)
        .map(|i| ((i.wrapping_mul(2_654_435_761) >> 8) as f32 / 16_777_216.0 - 0.5) * 0.5)
        .collect();
    engine.load_mono(samples, 48_000).unwrap()
}

/// The audio frames rendered by the end of app update `k` (0-based): Bevy's clock after
/// `k + 1` updates of [`frame`] (its first update advances nothing), × 48 000, rounded down.
pub fn frames_by(k: u32) -> u64 {
    let elapsed = frame().as_nanos() * u128::from(k);
    (elapsed * 48_000 / 1_000_000_000) as u64
}

/// The app's status.
pub fn status(app: &App) -> &ResoundStatus {
    app.world().resource::<ResoundStatus>()
}

/// The app's engine resource.
pub fn resound(app: &mut App) -> Mut<'_, Resound> {
    app.world_mut().resource_mut::<Resound>()
}

/// Root mean square of interleaved samples.
pub fn rms(x: &[f32]) -> f32 {
    if x.is_empty() {
        return 0.0;
    }
    (x.iter().map(|v| v * v).sum::<f32>() / x.len() as f32).sqrt()
}
