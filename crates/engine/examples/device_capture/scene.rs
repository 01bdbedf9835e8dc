//! The deterministic sound the capture example plays and its test renders offline.

use std::sync::Arc;

use resound_engine::advanced::mixer::{
    MixerHandle, MixerRenderer, MixerSettings, Pan, PlaySettings, SoundData, VoiceParams, build,
};

/// A mixer at `rate` Hz playing two looping voices: a 22 050 Hz sine sweep panned left and a
/// 44 100 Hz noise burst train (fixed LCG) panned right, with an echo-free, shelf-filtered mix.
pub fn mixer(rate: u32) -> Result<(MixerHandle, MixerRenderer), String> {
    let settings = MixerSettings {
        sample_rate: rate,
        ..MixerSettings::default()
    };
    let (mut h, r) = build(settings).map_err(|e| e.to_string())?;
    let sweep: Arc<[f32]> = (0..22_050)
        .map(|i| {
            let t = i as f32 / 22_050.0;
            (std::f32::consts::TAU * (220.0 + 880.0 * t) * t).sin()
        })
        .collect();
    let mut seed = 12_345u32;
    let noise: Arc<[f32]> = (0..30_000)
        .map(|i| {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let x = (seed >> 8) as f32 / (1u32 << 24) as f32 * 2.0 - 1.0;
            if (i / 3_000) % 2 == 0 { x } else { 0.0 }
        })
        .collect();
    let a = h
        .load_sound(SoundData {
            samples: sweep,
            sample_rate: 22_050,
            stereo: None,
        })
        .map_err(|e| e.to_string())?;
    let b = h
        .load_sound(SoundData {
            samples: noise,
            sample_rate: 44_100,
            stereo: None,
        })
        .map_err(|e| e.to_string())?;
    for (sound, pan, volume, hf) in [(a, -0.6, 0.5, 1.0), (b, 0.7, 0.3, 0.4)] {
        let params = VoiceParams {
            volume,
            shelf_hf: hf,
            pan: Pan::EqualPower(pan),
            ..VoiceParams::default()
        };
        h.play(
            sound,
            PlaySettings {
                looping: true,
                params,
                ..PlaySettings::default()
            },
        )
        .map_err(|e| e.to_string())?;
    }
    h.flush();
    Ok((h, r))
}
