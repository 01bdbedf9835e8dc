//! The retail DirectSound law the mixer applies: integer dB levels, `|pan|` dB off the far
//! channel. (The retail policy itself, `GetAttenuation`, the pan and the 16-voice pool, lives in
//! `resound-ambient`.)

use resound_mixer::pan::db_to_amplitude;
use resound_mixer::{Pan, PlaySettings, VoiceParams};

use crate::common::{FS, load, render};

#[test]
fn retail_levels_are_integer_db_with_the_directsound_pan() {
    let (mut h, mut r) = crate::common::mixer_with(|s| s.limiter = false);
    let dc: std::sync::Arc<[f32]> = vec![0.5f32; 4800].into();
    let s = load(&mut h, dc, FS);
    let settings = PlaySettings {
        looping: false,
        // What the engine gives a retail play of −12 dB, pan 6 (`SoundBuf::Play` limits them).
        params: VoiceParams {
            volume: db_to_amplitude(-12.0),
            pan: Pan::Retail(6),
            ..VoiceParams::default()
        },
        ..PlaySettings::default()
    };
    h.play(s, settings).unwrap();
    let (l, rr) = render(&mut r, 1000);
    let db = |x: f32| 20.0 * (x / 0.5).log10();
    // Positive pan attenuates the left channel by |pan| dB; the level is −12 dB.
    assert!((db(rr[500]) + 12.0).abs() < 1e-3, "right {}", db(rr[500]));
    assert!((db(l[500]) + 18.0).abs() < 1e-3, "left {}", db(l[500]));
}
