//! Bad input gets a typed error, never a panic, and the mix goes on: NaN or infinite positions
//! and volumes, zero or negative ranges, a bad `dt`, a scene file that fails to load, a sound
//! handle that was unloaded, a device output this build lacks.

use std::sync::Arc;

use resound_engine::glam::DVec3;
use resound_engine::{
    BuildError, Engine, InputError, Mode, Model, Orientation, Output, OutputError, PlayError,
    Problem, Source, TickError, UnloadError, VoiceError,
};
use resound_studio::scene_render::{self as scene, SceneRenderError};
use resound_studio::test_signal::looped;

fn engine() -> Engine {
    Engine::builder().mode(Mode::Full).build().unwrap()
}

fn energy(x: &[f32]) -> f64 {
    x.iter().map(|v| f64::from(*v).powi(2)).sum()
}

#[test]
fn bad_sources_are_refused_and_the_mix_goes_on() {
    let mut e = engine();
    let s = e.load_mono(Arc::from(looped(48_000)), 48_000).unwrap();
    let good = Source {
        position: DVec3::new(10.0, 1.5, 0.0),
        looping: true,
        ..Source::default()
    };
    let v = e.play(s, good).unwrap();
    let cases: [(Source, &str, Problem); 8] = [
        (
            Source {
                position: DVec3::new(f64::NAN, 0.0, 0.0),
                ..good
            },
            "position",
            Problem::NotFinite,
        ),
        (
            Source {
                position: DVec3::new(0.0, f64::INFINITY, 0.0),
                ..good
            },
            "position",
            Problem::NotFinite,
        ),
        (
            Source {
                position: DVec3::new(1e12, 0.0, 0.0),
                ..good
            },
            "position",
            Problem::TooLarge,
        ),
        (
            Source {
                volume: f32::NAN,
                ..good
            },
            "volume",
            Problem::NotFinite,
        ),
        (
            Source {
                volume: f32::INFINITY,
                ..good
            },
            "volume",
            Problem::NotFinite,
        ),
        (
            Source {
                volume: -1.0,
                ..good
            },
            "volume",
            Problem::Negative,
        ),
        (Source { range: 0.0, ..good }, "range", Problem::NotPositive),
        (
            Source {
                range: -5.0,
                ..good
            },
            "range",
            Problem::NotPositive,
        ),
    ];
    for (src, field, problem) in cases {
        match e.play(s, src) {
            Err(PlayError::Input(InputError {
                field: f,
                problem: p,
            })) => {
                assert_eq!((f, p), (field, problem));
            }
            other => panic!("{src:?}: {other:?}"),
        }
    }
    assert!(matches!(
        e.play(
            s,
            Source {
                range: f32::NAN,
                ..good
            }
        ),
        Err(PlayError::Input(_))
    ));
    assert!(matches!(
        e.play(
            s,
            Source {
                power: f32::NAN,
                ..good
            }
        ),
        Err(PlayError::Input(_))
    ));
    for power in [-1.0, 1.0e30, f32::MAX] {
        assert!(
            matches!(
                e.play(s, Source { power, ..good }),
                Err(PlayError::Input(_))
            ),
            "power {power}"
        );
    }
    // Voice updates.
    assert!(matches!(
        e.set_position(v, DVec3::splat(f64::NAN)),
        Err(VoiceError::Input(_))
    ));
    assert!(matches!(
        e.set_volume(v, f32::INFINITY),
        Err(VoiceError::Input(_))
    ));
    assert!(matches!(e.set_volume(v, -0.5), Err(VoiceError::Input(_))));
    assert!(matches!(e.set_range(v, 0.0), Err(VoiceError::Input(_))));
    assert!(matches!(e.set_range(v, -1.0), Err(VoiceError::Input(_))));
    // Listener and dt.
    assert!(
        e.set_listener(DVec3::new(f64::NAN, 0.0, 0.0), Orientation::default())
            .is_err()
    );
    assert!(
        e.set_listener(
            DVec3::ZERO,
            Orientation {
                forward: DVec3::Y,
                up: DVec3::Y
            }
        )
        .is_err()
    );
    for dt in [f64::NAN, f64::INFINITY, -0.05] {
        assert!(matches!(e.update(dt), Err(TickError::Input(_))), "{dt}");
    }
    // The mix goes on: the good voice plays, the output is finite and not silent.
    let out = e.render_frames(48_000).unwrap();
    assert!(out.iter().all(|x| x.is_finite()));
    assert!(energy(&out) > 0.0);
    assert!(e.is_playing(v));
    assert_eq!(e.status().live_voices, 1);
}

#[test]
fn unloaded_sound_handles_are_refused() {
    let mut e = engine();
    let s = e.load_mono(Arc::from(looped(48_000)), 48_000).unwrap();
    let keep = e.load_mono(Arc::from(looped(48_000)), 48_000).unwrap();
    let v = e
        .play(
            keep,
            Source {
                looping: true,
                ..Source::default()
            },
        )
        .unwrap();
    e.unload(s).unwrap();
    assert_eq!(e.unload(s), Err(UnloadError::UnknownSound));
    assert_eq!(
        e.play(s, Source::default()).unwrap_err(),
        PlayError::UnknownSound
    );
    // A playing sound cannot be unloaded.
    assert_eq!(e.unload(keep), Err(UnloadError::Playing));
    let out = e.render_frames(4800).unwrap();
    assert!(energy(&out) > 0.0);
    e.stop(v).unwrap();
    assert_eq!(e.stop(v), Err(VoiceError::Ended));
    e.render_frames(4800).unwrap();
    e.unload(keep).unwrap();
}

#[test]
fn bad_samples_and_rates_are_refused() {
    let mut e = engine();
    assert!(e.load_mono(Arc::from(vec![0.0f32; 10]), 0).is_err());
    assert!(e.load_mono(Arc::from(Vec::<f32>::new()), 48_000).is_err());
    assert!(e.load_mono(Arc::from(vec![f32::NAN; 10]), 48_000).is_err());
}

#[test]
fn a_scene_that_fails_to_load_is_a_typed_error() {
    let model = Model::default();
    for text in [
        "",
        "{",
        r#"{"boxes": [], "source": [0,0,0], "listener": [1,1,1], "range": -1}"#,
        r#"{"boxes": [{"min": [0,0,0], "max": [1,1,1], "material": "cheese"}], "source": [0,0,0], "listener": [1,1,1]}"#,
    ] {
        assert!(
            matches!(scene::parse(text, &model), Err(SceneRenderError::Scene(_))),
            "{text}"
        );
    }
}

#[test]
fn builder_errors_are_typed() {
    assert!(matches!(
        Engine::builder().sample_rate(100).build(),
        Err(BuildError::SampleRate(100))
    ));
    // A device that is not there: a typed error naming it, one line, before anything starts.
    let device = Output::Device {
        name: Some("no-such-device".into()),
        sample_rate: None,
        buffer_frames: None,
    };
    let err = Engine::builder().output(device).build().unwrap_err();
    assert!(matches!(err, BuildError::Output(OutputError::Device(_))));
    let text = err.to_string();
    assert!(text.contains("no-such-device"), "{text}");
    assert!(!text.contains('\n'), "{text}");
    let caps = resound_engine::Capacities {
        voices: 0,
        ..Default::default()
    };
    assert!(matches!(
        Engine::builder().capacities(caps).build(),
        Err(BuildError::Capacity { name: "voices", .. })
    ));
}

#[test]
fn odd_render_buffers_are_refused() {
    let mut e = engine();
    let mut odd = vec![0.0f32; 3];
    assert_eq!(e.render(&mut odd), Err(TickError::OddLength(3)));
}
