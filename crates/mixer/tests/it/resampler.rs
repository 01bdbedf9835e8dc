//! The Modern read (`Resampler::Oversampled`): images of a 4 kHz partial of an 11.025 kHz
//! sound ≥ 60 dB down at 48 kHz, steady and with the playback rate swept ±6 %; the linear read
//! of the same sound leaves its image within 20 dB.

use resound_dsp::analysis::worst_image_db;
use resound_mixer::{
    Easing, MixerHandle, MixerRenderer, PlaySettings, Resampler, Tween, VoiceControl, VoiceParams,
};

use crate::common::{load, mixer_with, sine};

/// Left channel of 3 s of a 4 kHz sine at 11.025 kHz, its rate swept 0.94 → 1.06 → 0.94 when
/// `sweep` (tweens at frames 0 and 72 000: `call` must divide 72 000), the first block (the sound's abrupt start) left out.
fn play(resampler: Resampler, sweep: bool, call: usize) -> Vec<f32> {
    let (mut h, mut r): (MixerHandle, MixerRenderer) = mixer_with(|s| {
        s.resampler = resampler;
        s.limiter = false;
    });
    let s = load(&mut h, sine(4_000.0, 11_025, 5.0, 0.0), 11_025);
    let v = h
        .play(
            s,
            PlaySettings {
                params: VoiceParams {
                    volume: 0.5,
                    ..VoiceParams::default()
                },
                rate: if sweep { 0.94 } else { 1.0 },
                ..PlaySettings::default()
            },
        )
        .unwrap();
    let mut out = Vec::new();
    let mut buf = vec![0.0f32; 2 * call];
    let mut frame = 0;
    while frame < 48_000 * 3 {
        if sweep && frame % 72_000 < call {
            let target = if (frame / 72_000) % 2 == 0 {
                1.06
            } else {
                0.94
            };
            let tween = Tween {
                duration: 1.5,
                easing: Easing::Linear,
            };
            h.tween(v, VoiceControl::Rate, target, tween).unwrap();
            h.flush();
        }
        r.render(&mut buf);
        out.extend(buf.iter().step_by(2));
        frame += call;
    }
    out.split_off(8_192)
}

#[test]
fn the_modern_read_keeps_images_60_db_down() {
    for sweep in [false, true] {
        let x = play(Resampler::Oversampled, sweep, 480);
        let band = if sweep {
            (3_760.0, 4_240.0)
        } else {
            (4_000.0, 4_000.0)
        };
        let (worst, at) = worst_image_db(&x, 48_000.0, band);
        assert!(worst <= -60.0, "sweep {sweep}: {worst} dB at {at} Hz");
    }
    let x = play(Resampler::Linear, false, 480);
    let (worst, at) = worst_image_db(&x, 48_000.0, (4_000.0, 4_000.0));
    assert!(worst > -20.0, "linear: {worst} dB at {at} Hz");
}

#[test]
fn the_modern_read_does_not_depend_on_call_size() {
    let a = play(Resampler::Oversampled, true, 480);
    let b = play(Resampler::Oversampled, true, 96);
    assert_eq!(a.len(), b.len());
    assert!(a.iter().zip(&b).all(|(x, y)| x.to_bits() == y.to_bits()));
}
