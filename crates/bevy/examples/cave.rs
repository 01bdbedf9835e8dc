//! A small voxel cave built in code: the listener walks through it, a drip falls behind a rock
//! wall, and the whole walk is rendered offline, headless (`MinimalPlugins`), into a WAV.
//!
//! `cargo run -p bevy_resound --example cave -- [OUT.wav]` (default `target/cave.wav`)
//!
//! Listen for the drip: muffled behind the wall at first, clearer through the gap as the
//! listener passes it, with the cave's echoes and reverb all along.

use std::sync::Arc;
use std::time::Duration;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_resound::{Emitter, Listener, Resound, ResoundPlugin, VoxelWorld};
use resound_engine::{Engine, Material, Mode};

/// Seconds of the walk.
const SECONDS: u32 = 8;
/// App frames per second.
const FPS: u32 = 60;

/// A drip: a short falling chirp every 0.7 s (one loop of the sound).
fn drip(rate: u32) -> Arc<[f32]> {
    let len = (0.7 * rate as f32) as usize;
    (0..len)
        .map(|i| {
            let t = i as f32 / rate as f32;
            if t > 0.12 {
                return 0.0;
            }
            let freq = 1_800.0 - 6_000.0 * t;
            (std::f32::consts::TAU * freq * t).sin() * (-t * 45.0).exp() * 0.8
        })
        .collect()
}

/// The cave: a stone shell 32 × 10 × 16 m, a rock wall across it at x = 20 with a gap at its
/// far end, a gravel floor.
fn build_cave(mut commands: Commands, mut world: ResMut<VoxelWorld>, mut resound: ResMut<Resound>) {
    world.fill(
        IVec3::new(-1, -1, -1),
        IVec3::new(32, 10, 16),
        Material::STONE,
    );
    world.fill(IVec3::new(0, 0, 0), IVec3::new(31, 9, 15), Material::AIR);
    world.fill(
        IVec3::new(0, -1, 0),
        IVec3::new(31, -1, 15),
        Material::GRAVEL,
    );
    world.fill(IVec3::new(20, 0, 0), IVec3::new(21, 9, 11), Material::STONE);

    let engine = resound.engine_mut();
    let rate = engine.sample_rate();
    let Ok(sound) = engine.load_mono(drip(rate), rate) else {
        return;
    };
    commands.spawn((
        Emitter::new(sound).looping().with_volume(0.8),
        Transform::from_xyz(26.5, 2.5, 4.5),
    ));
    commands.spawn((Listener, Transform::from_xyz(2.5, 1.7, 6.5)));
}

/// The listener walks along the cave towards the wall, then across to the gap.
fn walk(time: Res<Time>, mut listener: Query<&mut Transform, With<Listener>>) {
    let t = time.elapsed_secs() / SECONDS as f32;
    for mut tr in &mut listener {
        let (x, z) = if t < 0.6 {
            (2.5 + 15.0 * t / 0.6, 6.5)
        } else {
            (17.5, 6.5 + 7.0 * (t - 0.6) / 0.4)
        };
        tr.translation = Vec3::new(x, 1.7, z);
        tr.look_to(Vec3::X, Vec3::Y);
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "target/cave.wav".to_owned());
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        TransformPlugin,
        ResoundPlugin::offline().with_builder(Engine::builder().mode(Mode::Full)),
    ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
        1.0 / f64::from(FPS),
    )))
    .add_systems(Startup, build_cave)
    .add_systems(Update, walk);

    let Some(mut resound) = app.world_mut().get_resource_mut::<Resound>() else {
        let status = app.world().resource::<bevy_resound::ResoundStatus>();
        return Err(format!("no engine: {:?}", status.last_error).into());
    };
    resound.start_recording();
    let rate = resound.engine().sample_rate();
    for _ in 0..SECONDS * FPS {
        app.update();
    }
    if let Some(e) = &app
        .world()
        .resource::<bevy_resound::ResoundStatus>()
        .last_error
    {
        return Err(e.to_string().into());
    }
    let samples = app.world_mut().resource_mut::<Resound>().take_recording();

    let spec = hound::WavSpec {
        channels: 2,
        sample_rate: rate,
        bits_per_sample: 32,
        sample_format: hound::SampleFormat::Float,
    };
    let mut wav = hound::WavWriter::create(&out, spec)?;
    for s in &samples {
        wav.write_sample(*s)?;
    }
    wav.finalize()?;
    let peak = samples.iter().fold(0.0f32, |m, s| m.max(s.abs()));
    println!(
        "{out}: {:.2} s, peak {peak:.3}",
        samples.len() as f64 / 2.0 / f64::from(rate)
    );
    Ok(())
}
