//! The reverb bus through the mixer: zero sends leave the dry output exactly; sends ring on
//! after the voice and the bus goes idle (exact silence) afterwards.

use resound_mixer::{PlaySettings, VoiceParams};

use crate::common::{FS, load, mixer, render, sine};

#[test]
fn zero_send_output_is_exactly_the_dry_path() {
    let (mut h, mut r) = mixer();
    let x = sine(440.0, FS, 1.0, 0.0);
    let s = load(&mut h, x.clone(), FS);
    h.play(
        s,
        PlaySettings {
            looping: true,
            params: VoiceParams {
                volume: 0.5,
                ..VoiceParams::default()
            },
            ..PlaySettings::default()
        },
    )
    .unwrap();
    let (l, rr) = render(&mut r, 24_000);
    let (gl, gr) = resound_dsp::equal_power_pan(0.0);
    for i in 0..24_000 {
        assert_eq!(l[i].to_bits(), (x[i] * (0.5 * gl)).to_bits(), "frame {i}");
        assert_eq!(rr[i].to_bits(), (x[i] * (0.5 * gr)).to_bits(), "frame {i}");
    }
    assert_eq!(h.status().busy_reverb_slots, 0);
}

#[test]
fn sends_ring_on_after_the_voice_then_go_idle() {
    let (mut h, mut r) = mixer();
    let s = load(&mut h, sine(300.0, FS, 0.1, 0.0), FS);
    let p = VoiceParams {
        sends: [1.0, 0.0, 0.0, 0.0],
        ..VoiceParams::default()
    };
    let v = h
        .play(
            s,
            PlaySettings {
                looping: false,
                params: p,
                ..PlaySettings::default()
            },
        )
        .unwrap();
    let (l, _) = render(&mut r, 9600);
    assert!(!h.is_playing(v));
    let tail = &l[4900..9600];
    assert!(
        tail.iter().any(|x| x.abs() > 1e-4),
        "reverb tail after the voice ended"
    );
    assert_eq!(h.status().busy_reverb_slots, 1);
    let (l, rr) = render(&mut r, 3 * 48_000);
    assert!(
        l[l.len() - 512..]
            .iter()
            .chain(&rr[rr.len() - 512..])
            .all(|x| *x == 0.0)
    );
    assert_eq!(h.status().busy_reverb_slots, 0);
}
