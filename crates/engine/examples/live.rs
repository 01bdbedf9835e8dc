//! The game loop, live: the engine plays through the sound card, the game calls `update(dt)`
//! every frame and shows the status line. With no sound card (a server, a CI machine) it falls
//! back to a null output: the same loop, rendered and dropped at the same pace.
//! `cargo run -p resound-engine --example live -- [seconds]`
use std::sync::Arc;
use std::time::{Duration, Instant};

use resound_engine::glam::DVec3;
use resound_engine::{Engine, Mode, Orientation, Output, Source, Tween, Volume};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let seconds: f64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(3.0);
    let device = Output::Device {
        name: None,
        sample_rate: None,
        buffer_frames: None,
    };
    let (mut engine, live) = match Engine::builder().mode(Mode::Direct).output(device).build() {
        Ok(e) => (e, true),
        Err(e) => {
            println!("no sound card ({e}); playing to a null output");
            (Engine::builder().mode(Mode::Direct).build()?, false)
        }
    };
    let rate = engine.sample_rate();
    let tone: Arc<[f32]> = (0..rate)
        .map(|i| 0.2 * (std::f32::consts::TAU * 330.0 * i as f32 / rate as f32).sin())
        .collect();
    let sound = engine.load_mono(tone, rate)?;
    let voice = engine.play(
        sound,
        Source {
            position: DVec3::new(-4.0, 1.5, -2.0),
            looping: true,
            fade_in: Tween::linear(0.5),
            ..Source::default()
        },
    )?;

    let frame = Duration::from_secs_f64(1.0 / 60.0);
    let start = Instant::now();
    let mut last = start;
    let mut sink = Vec::new();
    let mut t = 0.0f64;
    while t < seconds {
        std::thread::sleep(frame);
        let now = Instant::now();
        let dt = (now - last).as_secs_f64();
        last = now;
        t = (now - start).as_secs_f64();
        // The game moves the source around the listener and talks to the engine once a frame.
        let a = t * 0.8;
        engine
            .voice(voice)?
            .set_position(DVec3::new(4.0 * a.cos(), 1.5, 4.0 * a.sin()))?;
        engine.set_listener(DVec3::new(0.0, 1.5, 0.0), Orientation::default())?;
        if !live {
            // The null output: render what a card would have pulled, and drop it.
            sink.resize(2 * (dt * f64::from(rate)).round() as usize, 0.0);
            engine.render(&mut sink)?;
        }
        engine.update(dt)?;
        if (t * 2.0).fract() < dt * 2.0 {
            println!("{}", engine.status());
        }
    }
    engine
        .voice(voice)?
        .set_volume(Volume::SILENT, Tween::linear(0.3))?;
    Ok(())
}
