//! Everyday playback through the engine's own surface, checked on rendered samples: tweens,
//! scheduled starts, pause and resume, playback rate, stereo files, tracks, `load_file`.

use std::sync::Arc;

use resound_engine::glam::DVec3;
use resound_engine::{
    Easing, Engine, Mode, PlayError, Source, StartTime, Track, Tween, VoiceState, Volume,
};

const RATE: u32 = 48_000;

/// An offline engine with acoustics off (the dry voice, nothing else).
fn engine() -> Engine {
    Engine::builder()
        .mode(Mode::Off)
        .limiter(false)
        .build()
        .unwrap()
}

/// A non-positional (relative, centred) source.
fn ui(looping: bool) -> Source {
    Source {
        position: DVec3::new(0.0, 0.0, -1.0),
        relative: true,
        looping,
        range: 1.0e5,
        ..Source::default()
    }
}

/// Left channel of `frames` rendered frames.
fn left(e: &mut Engine, frames: usize) -> Vec<f32> {
    let out = e.render_frames(frames).unwrap();
    out.iter().step_by(2).copied().collect()
}

fn dc(e: &mut Engine, frames: usize, level: f32) -> resound_engine::SoundHandle {
    e.load_mono(vec![level; frames].into(), RATE).unwrap()
}

#[test]
fn a_volume_tween_in_decibels_follows_its_curve() {
    let mut e = engine();
    let s = dc(&mut e, RATE as usize, 0.5);
    let v = e.play(s, ui(true)).unwrap();
    let before = left(&mut e, 2400);
    let level = before[1000];
    assert!(level > 0.1, "the voice sounds: {level}");
    e.voice(v)
        .unwrap()
        .set_volume(Volume::Decibels(-20.0), Tween::linear(0.1))
        .unwrap();
    let l = left(&mut e, 9600);
    // Amplitude goes linearly from 1 to 0.1 over 4800 frames (the tween is in amplitude).
    for k in (0..4800).step_by(64) {
        let want = 1.0 - 0.9 * k as f32 / 4800.0;
        assert!(
            (l[k] / level - want).abs() < 1e-3,
            "frame {k}: {} vs {want}",
            l[k] / level
        );
    }
    assert!((l[6000] / level - 0.1).abs() < 1e-4);
    assert!(Volume::Decibels(-6.0).amplitude().unwrap() - 0.501 < 1e-3);
    assert!(
        e.voice(v)
            .unwrap()
            .set_volume(Volume::Decibels(f32::NAN), Tween::IMMEDIATE)
            .is_err()
    );
}

#[test]
fn a_scheduled_start_lands_on_the_exact_frame() {
    let mut e = engine();
    let mut click = vec![0.0f32; 4800];
    click[0] = 0.5;
    let s = e.load_mono(click.into(), RATE).unwrap();
    left(&mut e, 1000);
    assert!((e.clock() - 1000.0 / 48_000.0).abs() < 1e-12);
    e.play(
        s,
        Source {
            start: StartTime::At(0.5),
            ..ui(false)
        },
    )
    .unwrap();
    // Render in uneven calls: the click lands at frame 24 000 of the clock whatever the cuts.
    let mut all = Vec::new();
    for n in [777, 10_000, 4321, 20_000] {
        all.extend(left(&mut e, n));
    }
    let first = all.iter().position(|x| *x != 0.0).map(|i| i + 1000);
    assert_eq!(first, Some(24_000));
}

#[test]
fn pause_and_resume_continue_where_the_voice_stopped() {
    let mut e = engine();
    let ramp: Arc<[f32]> = (0..RATE).map(|i| i as f32 / RATE as f32).collect();
    let s = e.load_mono(ramp, RATE).unwrap();
    let v = e.play(s, ui(false)).unwrap();
    let a = left(&mut e, 2048);
    e.voice(v).unwrap().pause(Tween::IMMEDIATE).unwrap();
    let p = left(&mut e, 4096);
    assert_eq!(e.voice_state(v), VoiceState::Paused);
    assert!(p.iter().all(|x| *x == 0.0), "paused: silent");
    e.voice(v).unwrap().resume(Tween::IMMEDIATE).unwrap();
    let b = left(&mut e, 1024);
    let g = a[1] * RATE as f32; // the centre gain (sample 1 is 1/48000)
    let pos = |x: f32| (x / g * RATE as f32).round() as i64;
    assert_eq!(pos(a[2047]), 2047);
    assert_eq!(pos(b[0]), 2048, "resumes at the next sample");
    assert_eq!(e.voice_state(v), VoiceState::Playing);
}

#[test]
fn rate_two_halves_a_sounds_length() {
    for (rate, frames) in [(1.0, 4800usize), (2.0, 2400), (0.5, 9600)] {
        let mut e = engine();
        let s = dc(&mut e, 4800, 0.5);
        let v = e.play(s, Source { rate, ..ui(false) }).unwrap();
        let l = left(&mut e, 12_000);
        let sounding = l.iter().filter(|x| **x != 0.0).count();
        assert!(sounding.abs_diff(frames) <= 1, "rate {rate}: {sounding}");
        assert!(!e.is_playing(v));
    }
    let mut e = engine();
    let s = dc(&mut e, 10, 0.5);
    let bad = e.play(
        s,
        Source {
            rate: -1.0,
            ..ui(false)
        },
    );
    assert!(matches!(bad, Err(PlayError::Input(_))));
}

/// A 16-bit stereo WAV file: left a 300 Hz sine, right silent.
fn stereo_wav(frames: usize) -> Vec<u8> {
    let mut data = Vec::with_capacity(frames * 4);
    for i in 0..frames {
        let l =
            (0.4 * (std::f64::consts::TAU * 300.0 * i as f64 / 48_000.0).sin() * 32767.0) as i16;
        data.extend_from_slice(&l.to_le_bytes());
        data.extend_from_slice(&0i16.to_le_bytes());
    }
    let mut w = Vec::new();
    w.extend_from_slice(b"RIFF");
    w.extend_from_slice(&(36 + data.len() as u32).to_le_bytes());
    w.extend_from_slice(b"WAVEfmt ");
    w.extend_from_slice(&16u32.to_le_bytes());
    w.extend_from_slice(&1u16.to_le_bytes()); // PCM
    w.extend_from_slice(&2u16.to_le_bytes()); // stereo
    w.extend_from_slice(&48_000u32.to_le_bytes());
    w.extend_from_slice(&(48_000u32 * 4).to_le_bytes());
    w.extend_from_slice(&4u16.to_le_bytes());
    w.extend_from_slice(&16u16.to_le_bytes());
    w.extend_from_slice(b"data");
    w.extend_from_slice(&(data.len() as u32).to_le_bytes());
    w.extend_from_slice(&data);
    w
}

#[test]
fn a_stereo_file_plays_as_stereo_when_not_positional() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("music.wav");
    std::fs::write(&path, stereo_wav(9600)).unwrap();
    let mut e = engine();
    let s = e.load_file(&path).unwrap();
    e.play(s, ui(false)).unwrap();
    let out = e.render_frames(4800).unwrap();
    let l: Vec<f32> = out.iter().step_by(2).copied().collect();
    let r: Vec<f32> = out.iter().skip(1).step_by(2).copied().collect();
    let peak = |x: &[f32]| x.iter().fold(0.0f32, |m, v| m.max(v.abs()));
    assert!(
        (peak(&l) - 0.4).abs() < 0.01,
        "left keeps its sine: {}",
        peak(&l)
    );
    assert_eq!(peak(&r), 0.0, "right stays silent");

    // Positional, the same file is its downmix: both ears hear half the sine.
    let mut e = engine();
    let s = e.load_file(&path).unwrap();
    e.set_listener(DVec3::ZERO, Default::default()).unwrap();
    e.play(
        s,
        Source {
            position: DVec3::new(0.0, 0.0, -1.0),
            range: 1.0e5,
            ..Source::default()
        },
    )
    .unwrap();
    let out = e.render_frames(4800).unwrap();
    let r: Vec<f32> = out.iter().skip(1).step_by(2).copied().collect();
    assert!(peak(&r) > 0.1, "the downmix reaches the right ear too");
}

#[test]
fn load_file_tells_formats_by_content_and_refuses_others() {
    let dir = tempfile::tempdir().unwrap();
    let wav = dir.path().join("named.mp3");
    std::fs::write(&wav, stereo_wav(100)).unwrap();
    let mut e = engine();
    assert!(e.load_file(&wav).is_ok(), "a WAV named .mp3 is still a WAV");
    let junk = dir.path().join("junk.wav");
    std::fs::write(&junk, b"not a sound at all").unwrap();
    let err = e.load_file(&junk).unwrap_err().to_string();
    assert_eq!(err, "sound file is neither WAV nor MP3");
    let err = e.load_file(dir.path().join("missing.wav")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "sound file could not be read: no such file"
    );
    let err = e.load_file(dir.path()).unwrap_err();
    assert!(!err.to_string().contains('/'), "{err}");
}

#[test]
fn a_track_volume_scales_the_voices_on_it() {
    let mut e = engine();
    let sfx = e.add_track("sfx").unwrap();
    assert_eq!(e.track("sfx"), Some(sfx));
    assert_eq!(e.track("main"), Some(Track::MAIN));
    assert!(e.add_track("sfx").is_err());
    let s = dc(&mut e, RATE as usize, 0.25);
    e.play(s, ui(true)).unwrap();
    e.play(
        s,
        Source {
            track: sfx,
            ..ui(true)
        },
    )
    .unwrap();
    let a = left(&mut e, 1024);
    e.set_track_volume(sfx, Volume::Amplitude(0.0), Tween::linear(0.02))
        .unwrap();
    let b = left(&mut e, 4096);
    assert!(
        (b[2000] - 0.5 * a[500]).abs() < 1e-6,
        "only the main voice is left"
    );
    let other = Engine::builder().build().unwrap();
    let _ = other;
}

#[test]
fn a_fade_in_and_a_stop_with_a_fade_shape_the_voice() {
    let mut e = engine();
    let s = dc(&mut e, RATE as usize, 0.5);
    let v = e
        .play(
            s,
            Source {
                fade_in: Tween {
                    duration: 0.05,
                    easing: Easing::Linear,
                },
                ..ui(true)
            },
        )
        .unwrap();
    let a = left(&mut e, 4800);
    let full = a[4000];
    assert!(a[0] < 0.05 * full && (a[1200] / full - 0.5).abs() < 0.01);
    e.voice(v).unwrap().stop(Tween::linear(0.05)).unwrap();
    let b = left(&mut e, 4800);
    assert!((b[1200] / full - 0.5).abs() < 0.01);
    assert!(b[3000..].iter().all(|x| *x == 0.0));
    assert!(!e.is_playing(v));
}
