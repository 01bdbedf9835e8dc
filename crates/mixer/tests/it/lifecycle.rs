//! Capacities, typed errors, retirement of voices and sample buffers, finite output.

use std::sync::Arc;

use resound_mixer::{
    LoadSoundError, ParamProblem, PlayError, PlaySettings, SoundData, StopError, Tap,
    UnloadSoundError, UpdateError, VoiceParams,
};

use crate::common::{FS, load, mixer, mixer_with, render, sine};

#[test]
fn full_capacities_return_typed_errors() {
    let (mut h, _r) = mixer_with(|s| {
        s.capacities.voices = 2;
        s.capacities.sounds = 1;
        s.capacities.tap_sets = 1;
    });
    let s = load(&mut h, sine(100.0, FS, 0.5, 0.0), FS);
    let more = h.load_sound(SoundData {
        samples: sine(1.0, FS, 0.1, 0.0),
        sample_rate: FS,
        stereo: None,
    });
    assert_eq!(more, Err(LoadSoundError::Full));
    let a = h.play(s, PlaySettings::default()).unwrap();
    let b = h.play(s, PlaySettings::default()).unwrap();
    assert_eq!(h.play(s, PlaySettings::default()), Err(PlayError::Full));
    let tap = Tap {
        delay: 0.05,
        level: 1.0,
        path: 0.0,
        hf: 1.0,
        pan: 0.0,
        direction: [0.0; 3],
    };
    h.set_taps(a, &[tap]).unwrap();
    assert_eq!(h.set_taps(b, &[tap]), Err(UpdateError::TapSetsFull));
    assert_eq!(
        h.set_taps(a, &[tap; 7]).unwrap_err(),
        UpdateError::Param(resound_mixer::ParamError {
            field: "taps",
            problem: ParamProblem::OutOfRange,
        })
    );
}

#[test]
fn command_ring_full_is_an_error_not_a_block() {
    let (mut h, _r) = mixer_with(|s| s.capacities.commands = 4);
    let s = load(&mut h, sine(100.0, FS, 0.5, 0.0), FS);
    let mut errors = 0;
    for _ in 0..10 {
        if h.play(s, PlaySettings::default()) == Err(PlayError::CommandQueueFull) {
            errors += 1;
        }
    }
    assert_eq!(errors, 7); // 4 slots: the load and three plays fit
}

#[test]
fn bad_sounds_are_rejected() {
    let (mut h, _r) = mixer();
    let empty: Arc<[f32]> = Arc::new([]);
    assert_eq!(
        h.load_sound(SoundData {
            samples: empty,
            sample_rate: FS,
            stereo: None,
        }),
        Err(LoadSoundError::Empty)
    );
    let nan: Arc<[f32]> = Arc::new([0.0, f32::NAN]);
    assert_eq!(
        h.load_sound(SoundData {
            samples: nan,
            sample_rate: FS,
            stereo: None,
        }),
        Err(LoadSoundError::NonFiniteSample { index: 1 })
    );
    let huge: Arc<[f32]> = Arc::new([0.0, 0.5, 3.0e38]);
    assert_eq!(
        h.load_sound(SoundData {
            samples: huge,
            sample_rate: FS,
            stereo: None,
        }),
        Err(LoadSoundError::SampleTooLarge { index: 2 })
    );
    let ok: Arc<[f32]> = Arc::new([0.0]);
    assert_eq!(
        h.load_sound(SoundData {
            samples: ok,
            sample_rate: 0,
            stereo: None,
        }),
        Err(LoadSoundError::SampleRate(0))
    );
}

#[test]
fn non_finite_parameters_never_reach_the_renderer() {
    let (mut h, mut r) = mixer();
    let s = load(&mut h, sine(440.0, FS, 0.5, 0.0), FS);
    let bad = VoiceParams {
        volume: f32::NAN,
        ..VoiceParams::default()
    };
    assert!(matches!(
        h.play(
            s,
            PlaySettings {
                looping: true,
                params: bad,
                ..PlaySettings::default()
            }
        ),
        Err(PlayError::Param(_))
    ));
    let v = h
        .play(
            s,
            PlaySettings {
                looping: true,
                ..Default::default()
            },
        )
        .unwrap();
    for bad in [
        VoiceParams {
            shelf_gain: f32::INFINITY,
            ..VoiceParams::default()
        },
        VoiceParams {
            shelf_hf: f32::NAN,
            ..VoiceParams::default()
        },
        VoiceParams {
            sends: [f32::NAN; 4],
            ..VoiceParams::default()
        },
        VoiceParams {
            distance: f32::NEG_INFINITY,
            ..VoiceParams::default()
        },
    ] {
        assert!(matches!(h.set_params(v, bad), Err(UpdateError::Param(_))));
    }
    let t = Tap {
        delay: 0.05,
        level: f32::INFINITY,
        path: 0.0,
        hf: 1.0,
        pan: 0.0,
        direction: [0.0; 3],
    };
    let shot = h.play(s, PlaySettings::default()).unwrap();
    assert!(matches!(h.set_taps(shot, &[t]), Err(UpdateError::Param(_))));
    assert_eq!(
        h.set_taps(v, &[Tap { level: 1.0, ..t }]),
        Err(UpdateError::LoopingVoice)
    );
    // The accepted values still render; loud settings are caught by the limiter.
    let loud = VoiceParams {
        volume: 16.0,
        shelf_gain: 4.0,
        sends: [16.0; 4],
        ..VoiceParams::default()
    };
    h.set_params(v, loud).unwrap();
    h.flush();
    let (l, rr) = render(&mut r, 48_000);
    assert!(l.iter().chain(&rr).all(|x| x.is_finite() && x.abs() <= 1.0));
    assert!(h.status().limiter_engagements > 0);
}

#[test]
fn one_shot_ends_and_its_slot_is_reused() {
    let (mut h, mut r) = mixer_with(|s| s.capacities.voices = 1);
    let s = load(&mut h, sine(440.0, 22_050, 0.1, 0.0), 22_050);
    let v = h.play(s, PlaySettings::default()).unwrap();
    assert_eq!(h.play(s, PlaySettings::default()), Err(PlayError::Full));
    render(&mut r, 4800); // 0.1 s at 48 kHz: the sound has just ended
    render(&mut r, 512);
    assert!(!h.is_playing(v));
    assert_eq!(
        h.set_params(v, VoiceParams::default()),
        Err(UpdateError::UnknownVoice)
    );
    assert_eq!(h.stop(v), Err(StopError::UnknownVoice));
    let w = h.play(s, PlaySettings::default()).unwrap();
    assert_eq!(w.slot(), v.slot());
    assert_ne!(w, v);
}

#[test]
fn one_shot_length_is_exact_at_any_rate() {
    // 2205 frames at 22.05 kHz = 0.1 s = 4800 output frames.
    let (mut h, mut r) = mixer_with(|s| s.limiter = false);
    let ones: Arc<[f32]> = vec![1.0f32; 2205].into();
    let s = load(&mut h, ones, 22_050);
    h.play(s, PlaySettings::default()).unwrap();
    let (l, _) = render(&mut r, 6000);
    let last = l.iter().rposition(|x| *x != 0.0).unwrap();
    // The last source frame interpolates toward silence for one source frame (≈2.18 output frames).
    assert!((4797..=4800).contains(&last), "last non-zero frame {last}");
}

#[test]
fn unloaded_buffers_come_back_to_the_game_thread() {
    let (mut h, mut r) = mixer();
    let samples = sine(440.0, FS, 0.5, 0.0);
    let s = load(&mut h, Arc::clone(&samples), FS);
    let v = h
        .play(
            s,
            PlaySettings {
                looping: true,
                ..Default::default()
            },
        )
        .unwrap();
    render(&mut r, 1024);
    assert!(Arc::strong_count(&samples) >= 2);
    h.unload_sound(s).unwrap();
    assert_eq!(h.unload_sound(s), Err(UnloadSoundError::UnknownSound));
    assert_eq!(
        h.play(s, PlaySettings::default()),
        Err(PlayError::UnknownSound)
    );
    render(&mut r, 2048); // the voice fades (10 ms) and ends, then the sound is released
    assert!(!h.is_playing(v));
    h.collect();
    // Only the test's own reference is left: the renderer's was dropped here, by `collect`.
    assert_eq!(Arc::strong_count(&samples), 1);
    let again = load(&mut h, Arc::clone(&samples), FS);
    assert_eq!(again.slot(), s.slot());
    assert_ne!(again, s);
}

#[test]
fn stop_all_silences_everything_and_frees_voices() {
    let (mut h, mut r) = mixer();
    let s = load(&mut h, sine(220.0, FS, 0.5, 0.0), FS);
    for _ in 0..20 {
        let p = VoiceParams {
            volume: 0.05,
            sends: [0.2, 0.2, 0.2, 0.2],
            ..VoiceParams::default()
        };
        h.play(
            s,
            PlaySettings {
                looping: true,
                params: p,
                ..PlaySettings::default()
            },
        )
        .unwrap();
    }
    h.flush();
    render(&mut r, 9600);
    assert_eq!(h.live_voices(), 20);
    h.stop_all().unwrap();
    render(&mut r, 2048);
    let (l, rr) = render(&mut r, 512);
    assert_eq!(h.live_voices(), 0);
    // The bus is reset once the voices are gone: exact silence.
    assert!(l.iter().chain(&rr).all(|x| *x == 0.0));
    assert_eq!(h.status().active_voices, 0);
}

#[test]
fn extreme_accepted_values_stay_finite() {
    let (mut h, mut r) = mixer();
    let mut x = 1u32;
    let noise: Arc<[f32]> = (0..48_000)
        .map(|_| {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            if x >> 31 == 1 {
                resound_mixer::MAX_SAMPLE_MAGNITUDE
            } else {
                -resound_mixer::MAX_SAMPLE_MAGNITUDE
            }
        })
        .collect();
    let s = load(&mut h, noise, 11_025);
    let loud = VoiceParams {
        volume: resound_mixer::MAX_GAIN,
        shelf_gain: resound_mixer::MAX_SHELF_GAIN,
        shelf_hf: 0.5,
        sends: [resound_mixer::MAX_GAIN; 4],
        ..VoiceParams::default()
    };
    for _ in 0..8 {
        let v = h
            .play(
                s,
                PlaySettings {
                    looping: false,
                    params: loud,
                    ..PlaySettings::default()
                },
            )
            .unwrap();
        let t = Tap {
            delay: 0.05,
            level: resound_mixer::MAX_GAIN,
            path: 0.0,
            hf: 0.9,
            pan: 1.0,
            direction: [0.0; 3],
        };
        h.set_taps(v, &[t, Tap { delay: 0.2, ..t }, Tap { delay: 1.0, ..t }])
            .unwrap();
        h.play(
            s,
            PlaySettings {
                looping: true,
                params: loud,
                ..PlaySettings::default()
            },
        )
        .unwrap();
    }
    h.flush();
    let (l, rr) = render(&mut r, 4 * 48_000);
    assert!(l.iter().chain(&rr).all(|x| x.is_finite() && x.abs() <= 1.0));
    let status = h.status();
    assert!(
        status.limiter_engagements > 0 && status.peak <= 1.0,
        "{status:?}"
    );
}

#[test]
fn ended_voices_are_passed_on_once_each() {
    let (mut h, mut r) = mixer();
    // 100 frames at the output rate: the one-shot plays frames 0..100.
    let s = load(&mut h, sine(100.0, FS, 100.0 / FS as f32, 0.0), FS);
    let short = h.play(s, PlaySettings::default()).unwrap();
    let looping = h
        .play(
            s,
            PlaySettings {
                looping: true,
                ..PlaySettings::default()
            },
        )
        .unwrap();
    assert_eq!(h.drain_ended().count(), 0);
    render(&mut r, 150);
    assert_eq!(h.drain_ended().collect::<Vec<_>>(), vec![short]);
    assert_eq!(h.drain_ended().count(), 0, "reported once");
    assert!(!h.is_playing(short) && h.is_playing(looping));
    h.stop(looping).unwrap();
    h.flush();
    render(&mut r, FS as usize / 10);
    assert_eq!(h.drain_ended().collect::<Vec<_>>(), vec![looping]);
}
