//! A sound behind a wall: a 2 m stone wall between a gunshot and the listener muffles it.
//! `cargo run -p resound-engine --example sound_behind_wall`
use resound_engine::glam::{DVec3, IVec3};
use resound_engine::{Engine, Material, Mode, Orientation, Source};
use resound_studio::test_signal as signal;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut engine = Engine::builder().mode(Mode::Direct).build()?;
    let mut world = engine.world();
    world.fill(
        IVec3::new(-32, -1, -32),
        IVec3::new(95, -1, 31),
        Material::DIRT,
    )?; // ground
    world.fill(
        IVec3::new(30, 0, -16),
        IVec3::new(31, 15, 15),
        Material::STONE,
    )?; // the wall
    engine.set_listener(DVec3::new(60.5, 1.5, 0.5), Orientation::default())?;

    let shot = engine.load_mono(signal::shot(48_000).into(), 48_000)?;
    let at = DVec3::new(0.5, 1.5, 0.5);
    let voice = engine.play(
        shot,
        Source {
            position: at,
            impulsive: true,
            ..Source::default()
        },
    )?;
    let out = engine.render_frames(48_000)?; // one second, interleaved stereo

    let a = engine.voice_acoustics(voice).ok_or("the voice has ended")?;
    let occ = a.result.as_ref().map_or(0.0, |r| r.occ);
    let hf_db = 20.0 * a.applied.hf.log10();
    let peak = out.iter().fold(0.0f32, |m, s| m.max(s.abs()));
    println!("occlusion {occ:.2}, high band {hf_db:.1} dB, peak {peak:.3}");
    Ok(())
}
