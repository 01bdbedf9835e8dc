//! 2 s of app frames (an emitter moving, a wall added mid-way) render exactly the bytes of the
//! same calls made on the engine directly.

use bevy::prelude::*;
use bevy_resound::{Emitter, Listener, Resound, VoxelWorld};
use resound_engine::glam::{DVec3, IVec3 as EIVec3};
use resound_engine::{Material, Mode, Orientation, Source};

use crate::common::{app, builder, frame, frames_by, noise, resound, rms, status};

/// App frames: 2 s at 60 per second.
const FRAMES: u32 = 120;
/// The frame at which the wall goes up.
const WALL_AT: u32 = 60;

/// The emitter's position at frame `k`, as the app computes it (f32), walking along +x
/// behind where the wall will stand.
fn emitter_at(k: u32) -> Vec3 {
    Vec3::new(-8.0 + 0.1 * k as f32, 1.5, -8.5)
}

const LISTENER: Vec3 = Vec3::new(0.5, 1.5, 0.5);
/// The floor: stone under everything.
const FLOOR: (IVec3, IVec3) = (IVec3::new(-16, -1, -16), IVec3::new(16, -1, 16));
/// The wall between the listener and the emitter's path.
const WALL: (IVec3, IVec3) = (IVec3::new(-12, 0, -4), IVec3::new(12, 6, -3));

fn dvec(v: Vec3) -> DVec3 {
    DVec3::new(f64::from(v.x), f64::from(v.y), f64::from(v.z))
}

fn eivec(v: IVec3) -> EIVec3 {
    EIVec3::new(v.x, v.y, v.z)
}

fn setup(mut commands: Commands, mut resound: ResMut<Resound>, mut world: ResMut<VoxelWorld>) {
    let sound = noise(resound.engine_mut());
    world.fill(FLOOR.0, FLOOR.1, Material::STONE);
    commands.spawn((Listener, Transform::from_translation(LISTENER)));
    commands.spawn((
        Emitter::new(sound).looping(),
        Transform::from_translation(emitter_at(0)),
    ));
}

/// Moves the emitter each frame; the wall goes up at [`WALL_AT`].
fn walk(
    mut k: Local<u32>,
    mut emitters: Query<&mut Transform, With<Emitter>>,
    mut world: ResMut<VoxelWorld>,
) {
    // `k`: this update's index (0 for the first, when Startup ran).
    for mut t in &mut emitters {
        t.translation = emitter_at(*k);
    }
    if *k == WALL_AT {
        world.fill(WALL.0, WALL.1, Material::STONE);
    }
    *k += 1;
}

/// The scene in a Bevy app: the whole recording.
fn through_bevy() -> Vec<f32> {
    let mut app = app(Mode::Full);
    app.add_systems(Startup, setup).add_systems(Update, walk);
    resound(&mut app).start_recording();
    for _ in 0..FRAMES {
        app.update();
    }
    assert_eq!(status(&app).errors, 0, "{:?}", status(&app).last_error);
    resound(&mut app).take_recording()
}

/// The same scene on the engine: the calls the plugin makes, in its order (listener, world,
/// emitters, update, render up to Bevy's clock).
fn through_the_engine(wall: bool) -> Vec<f32> {
    let mut engine = builder(Mode::Full).build().unwrap();
    let sound = noise(&mut engine);
    let mut out = Vec::new();
    let mut voice = None;
    for k in 0..FRAMES {
        if k == 0 {
            engine
                .set_listener(dvec(LISTENER), Orientation::default())
                .unwrap();
            engine
                .world()
                .fill(eivec(FLOOR.0), eivec(FLOOR.1), Material::STONE)
                .unwrap();
            let source = Source {
                position: dvec(emitter_at(0)),
                looping: true,
                ..Source::default()
            };
            voice = Some(engine.play(sound, source).unwrap());
        } else {
            if wall && k == WALL_AT {
                engine
                    .world()
                    .fill(eivec(WALL.0), eivec(WALL.1), Material::STONE)
                    .unwrap();
            }
            engine
                .voice(voice.unwrap())
                .unwrap()
                .set_position(dvec(emitter_at(k)))
                .unwrap();
        }
        let dt = if k == 0 { 0.0 } else { frame().as_secs_f64() };
        engine.update(dt).unwrap();
        let frames = frames_by(k) - if k == 0 { 0 } else { frames_by(k - 1) };
        let mut block = vec![0.0; 2 * frames as usize];
        engine.render(&mut block).unwrap();
        out.extend_from_slice(&block);
    }
    out
}

#[test]
fn two_seconds_of_frames_render_the_bytes_of_the_engine_driven_directly() {
    let bevy = through_bevy();
    let direct = through_the_engine(true);
    assert_eq!(bevy.len(), 2 * frames_by(FRAMES - 1) as usize);
    assert_eq!(bevy.len(), direct.len());
    let first = bevy
        .iter()
        .zip(&direct)
        .position(|(a, b)| a.to_bits() != b.to_bits());
    assert_eq!(first, None, "the app's audio differs from the engine's");
    assert!(rms(&bevy) > 1e-3, "silence: rms {}", rms(&bevy));
    // And again: the app renders the same bytes on every run.
    assert!(
        through_bevy()
            .iter()
            .zip(&bevy)
            .all(|(a, b)| a.to_bits() == b.to_bits())
    );

    // The wall is heard: the last half second is quieter than without it.
    let open = through_the_engine(false);
    let tail = bevy.len() - 48_000;
    let (walled, unwalled) = (rms(&bevy[tail..]), rms(&open[tail..]));
    assert!(
        walled < 0.7 * unwalled,
        "the wall changed little: rms {walled} with it, {unwalled} without"
    );
}
