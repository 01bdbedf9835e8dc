//! Everyday playback, offline: a looping ambience that fades in, a music track the game ducks,
//! footsteps scheduled to the frame, a voice that pauses, speeds up and fades out.
//! `cargo run -p resound-engine --example playback`
use std::sync::Arc;

use resound_engine::glam::DVec3;
use resound_engine::{Easing, Engine, Mode, Source, StartTime, Tween, Volume};

/// `seconds` of a sine at `hz` (a stand-in for a file; `engine.load_file("x.ogg")` in a game).
fn tone(hz: f32, seconds: f32, level: f32) -> Arc<[f32]> {
    let n = (seconds * 48_000.0) as usize;
    (0..n)
        .map(|i| level * (std::f32::consts::TAU * hz * i as f32 / 48_000.0).sin())
        .collect()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut engine = Engine::builder().mode(Mode::Direct).build()?;
    let music = engine.add_track("music")?;

    // Music on its own track, non-positional (relative: no acoustics, stereo files stay
    // stereo).
    let song = engine.load_mono(tone(220.0, 4.0, 0.2), 48_000)?;
    engine.play(
        song,
        Source {
            relative: true,
            looping: true,
            track: music,
            fade_in: Tween::linear(1.0),
            ..Source::default()
        },
    )?;

    // A hum beside the listener, positional.
    let hum = engine.load_mono(tone(110.0, 1.0, 0.3), 48_000)?;
    let hum = engine.play(
        hum,
        Source {
            position: DVec3::new(3.0, 1.5, -2.0),
            looping: true,
            ..Source::default()
        },
    )?;

    // Four footsteps, one every half second from t = 1 s, each on its exact frame.
    let step = engine.load_mono(tone(900.0, 0.05, 0.5), 48_000)?;
    for k in 0..4 {
        engine.play(
            step,
            Source {
                position: DVec3::new(1.0, 0.0, -1.0),
                start: StartTime::At(1.0 + 0.5 * f64::from(k)),
                ..Source::default()
            },
        )?;
    }

    let mut out = Vec::new();
    let mut second = |engine: &mut Engine| -> Result<(), Box<dyn std::error::Error>> {
        let block = engine.render_frames(48_000)?;
        let peak = block.iter().fold(0.0f32, |m, s| m.max(s.abs()));
        println!("t = {:.1} s: peak {peak:.3}", engine.clock());
        out.extend(block);
        Ok(())
    };
    second(&mut engine)?;
    // Duck the music by 12 dB under dialogue, with an ease-out curve.
    let duck = Tween {
        duration: 0.3,
        easing: Easing::OutPowi(2),
    };
    engine.set_track_volume(music, Volume::Decibels(-12.0), duck)?;
    engine.voice(hum)?.pause(Tween::linear(0.2))?;
    second(&mut engine)?;
    engine
        .voice(hum)?
        .resume(Tween::linear(0.2))?
        .set_rate(1.5, Tween::linear(1.0))?;
    second(&mut engine)?;
    engine.voice(hum)?.stop(Tween::linear(2.0))?;
    second(&mut engine)?;
    println!("{}", engine.status());
    Ok(())
}
