//! Helpers shared by the engine's integration tests.

use resound_engine::Mode;
use resound_engine::scene::{self, SceneOptions, SceneRender};
use resound_engine::signal::Signal;

/// Renders a built-in scene.
pub fn render(name: &str, mode: Mode, signal: Signal, seconds: f64) -> SceneRender {
    let options = SceneOptions {
        mode,
        signal,
        seconds,
        ..SceneOptions::default()
    };
    let text = scene::builtin(name).unwrap();
    let s = scene::parse(text, &options.model).unwrap();
    scene::render(&s, &options, &mut |_, _| {}).unwrap()
}

/// Left + right mono mix.
pub fn mono(stereo: &[f32]) -> Vec<f32> {
    stereo.chunks_exact(2).map(|f| f[0] + f[1]).collect()
}

/// FNV-1a over the bytes of the samples.
pub fn hash(samples: &[f32]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for s in samples {
        for b in s.to_le_bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}
