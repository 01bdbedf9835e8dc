//! Shared helpers: sine sounds, a mixer with small capacities, render helpers.

use std::sync::Arc;

use resound_mixer::{MixerHandle, MixerRenderer, MixerSettings, SoundData, SoundId, build};

pub const FS: u32 = 48_000;

/// `seconds` of a sine at `freq` sampled at `rate`, starting at `phase` (radians).
pub fn sine(freq: f32, rate: u32, seconds: f32, phase: f32) -> Arc<[f32]> {
    let n = (seconds * rate as f32) as usize;
    (0..n)
        .map(|i| {
            (std::f64::consts::TAU * f64::from(freq) * i as f64 / f64::from(rate)
                + f64::from(phase))
            .sin() as f32
        })
        .collect()
}

pub fn mixer() -> (MixerHandle, MixerRenderer) {
    build(MixerSettings::default()).unwrap()
}

pub fn mixer_with(f: impl FnOnce(&mut MixerSettings)) -> (MixerHandle, MixerRenderer) {
    let mut s = MixerSettings::default();
    f(&mut s);
    build(s).unwrap()
}

pub fn load(h: &mut MixerHandle, samples: Arc<[f32]>, rate: u32) -> SoundId {
    h.load_sound(SoundData {
        samples,
        sample_rate: rate,
        stereo: None,
    })
    .unwrap()
}

/// Renders `frames` frames in 512-frame calls; returns (left, right).
pub fn render(r: &mut MixerRenderer, frames: usize) -> (Vec<f32>, Vec<f32>) {
    let mut buf = vec![0.0f32; frames * 2];
    for chunk in buf.chunks_mut(1024) {
        r.render(chunk);
    }
    let left = buf.iter().step_by(2).copied().collect();
    let right = buf.iter().skip(1).step_by(2).copied().collect();
    (left, right)
}

/// Largest `|x[i] − x[i−1]|`.
pub fn max_diff(x: &[f32]) -> f32 {
    resound_dsp::analysis::max_adjacent_difference(x)
}
