//! Render a scene to WAV: a stone hall (24 × 10 × 24 m) with a listener, hand claps and a
//! looping noise, rendered offline in `full` acoustics (deterministic) to `scene.wav`.
//!
//! `cargo run -p resound-engine --example render_scene -- [OUT.wav]`

use std::path::PathBuf;

use resound_engine::advanced::acoustics::{Cell, MaterialTable};
use resound_engine::glam::{DVec3, IVec3};
use resound_engine::{Engine, Mode, Orientation, Source};
use resound_studio::test_signal as signal;
use resound_studio::wav_write::{WavFormat, write_wav};

const RATE: u32 = 48_000;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args_os()
        .nth(1)
        .map_or_else(|| PathBuf::from("scene.wav"), PathBuf::from);
    let mut engine = Engine::builder()
        .sample_rate(RATE)
        .mode(Mode::Full)
        .build()?;

    // The world: a stone shell with air inside (edits bump the world's revision).
    let stone = MaterialTable::standard()
        .by_name("stone")
        .ok_or("no stone")?;
    let solid = Cell::Solid {
        mat: stone,
        partial: false,
    };
    let mut world = engine.world();
    world.fill_box(IVec3::new(-1, -1, -1), IVec3::new(24, 10, 24), solid)?;
    world.fill_box(IVec3::new(0, 0, 0), IVec3::new(23, 9, 23), Cell::Air)?;

    engine.set_listener(
        DVec3::new(20.5, 1.7, 11.5),
        Orientation::looking(DVec3::NEG_X),
    )?;
    let clap = engine.load_mono(signal::click(RATE).into(), RATE)?;
    let hum = engine.load_mono(signal::looped(RATE).into(), RATE)?;
    engine.play(
        hum,
        Source {
            position: DVec3::new(3.5, 1.0, 3.5),
            looping: true,
            ..Source::default()
        },
    )?;

    // Three claps half a second apart, then the hall rings out.
    let mut samples = Vec::new();
    for i in 0..6 {
        if i < 3 {
            let at = DVec3::new(4.5 + 2.0 * f64::from(i), 1.5, 11.5);
            engine.play(
                clap,
                Source {
                    position: at,
                    volume: 2.0,
                    impulsive: true,
                    ..Source::default()
                },
            )?;
        }
        samples.extend(engine.render_frames(RATE as usize / 2)?);
    }
    write_wav(&out, &samples, 2, RATE, WavFormat::F32)?;
    let status = engine.status();
    println!(
        "wrote {} ({:.1} s): peak {:.3}, rays {}, cells {}, limiter engaged {} times",
        out.display(),
        samples.len() as f64 / 2.0 / f64::from(RATE),
        status.peak,
        status.rays,
        status.cells,
        status.limiter_engagements
    );
    Ok(())
}
