//! The plugin adds no allocation to a Bevy frame in steady state: over 1 000 app updates of a
//! scene (a listener, four emitters, a stone room, offline output) the process allocates no
//! more than the same app without the plugin (Bevy's own) plus the same engine calls made
//! directly (the engine's own). A bare `MinimalPlugins` app is measured too, as Bevy's floor.
//!
//! A dedicated test binary because the counting allocator is process-wide (the engine's
//! worker thread is counted too).

#![allow(
    clippy::unwrap_used,
    reason = "tests: a failed unwrap is a failed test"
)]

use std::sync::Arc;
use std::time::Duration;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_resound::{Emitter, Listener, Resound, ResoundPlugin, VoxelWorld};
use resound_engine::{Engine, Material, Mode};

/// The counting allocator: the allocation calls (alloc, alloc_zeroed, realloc) are counted.
#[global_allocator]
static ALLOCATOR: resound_testalloc::Probe = resound_testalloc::Probe;

/// The counter is process-wide: one test measures at a time (each runs several measures).
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Frames run before measuring (buffers reach their size, caches fill).
const WARM_UP: u32 = 300;
/// Frames measured.
const MEASURED: u32 = 1_000;

/// Marks the entities that walk (emitters with the plugin, plain entities without).
#[derive(Component)]
struct Walker(f32);

/// Moves every walker each frame (a slow circle, so the acoustics keep working).
fn walk(mut k: Local<u32>, mut walkers: Query<(&Walker, &mut Transform)>) {
    *k += 1;
    let a = *k as f32 * 0.01;
    for (w, mut t) in &mut walkers {
        t.translation = Vec3::new(6.0 * (a + w.0).cos(), 1.5, 6.0 * (a + w.0).sin());
    }
}

/// A headless app at 60 frames per second.
fn base() -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
            1.0 / 60.0,
        )));
    app
}

/// The scene, with or without the plugin: a listener and four emitters, walking or still.
fn scene(plugin: bool, mode: Mode, walking: bool) -> App {
    let mut app = base();
    app.add_plugins(TransformPlugin);
    if walking {
        app.add_systems(Update, walk);
    }
    let sound = plugin.then(|| {
        app.add_plugins(ResoundPlugin::offline().with_builder(Engine::builder().mode(mode)));
        let mut world = app.world_mut().resource_mut::<VoxelWorld>();
        world.fill(
            IVec3::new(-12, -1, -12),
            IVec3::new(12, -1, 12),
            Material::STONE,
        );
        world.fill(
            IVec3::new(-12, 0, -12),
            IVec3::new(12, 5, -12),
            Material::STONE,
        );
        world.fill(
            IVec3::new(-12, 6, -12),
            IVec3::new(12, 6, 12),
            Material::STONE,
        );
        let noise: Arc<[f32]> = (0..48_000u32)
            .map(|i| ((i.wrapping_mul(2_654_435_761) >> 8) as f32 / 16_777_216.0 - 0.5) * 0.5)
            .collect();
        let mut resound = app.world_mut().resource_mut::<Resound>();
        resound.engine_mut().load_mono(noise, 48_000).unwrap()
    });
    app.world_mut()
        .spawn((Listener, Transform::from_xyz(0.5, 1.6, 0.5)));
    for i in 0..4 {
        let mut e = app.world_mut().spawn((
            Walker(i as f32 * 1.5),
            Transform::from_xyz(i as f32, 1.5, 3.0),
        ));
        if let Some(sound) = sound {
            e.insert(Emitter::new(sound).looping());
        }
    }
    app
}

/// Allocation calls over [`MEASURED`] updates after [`WARM_UP`].
fn measure(mut app: App) -> u64 {
    for _ in 0..WARM_UP {
        app.update();
    }
    let ((), usage) = resound_testalloc::whole_process(|| {
        for _ in 0..MEASURED {
            app.update();
        }
    });
    let calls = usage.allocations;
    if let Some(r) = app.world().get_resource::<Resound>() {
        assert!(
            r.offline_block().iter().any(|s| *s != 0.0),
            "the scene is silent"
        );
        assert_eq!(r.engine().live_voices(), 4);
    }
    calls
}

/// The same calls on the engine directly: four voices moved every frame, `update`, 800
/// frames rendered (the plugin's frame without Bevy).
fn engine_alone(mode: Mode, walking: bool) -> u64 {
    let mut engine = Engine::builder().mode(mode).build().unwrap();
    let g = resound_engine::glam::IVec3::new;
    let mut w = engine.world();
    w.fill(g(-12, -1, -12), g(12, -1, 12), Material::STONE)
        .unwrap();
    w.fill(g(-12, 0, -12), g(12, 5, -12), Material::STONE)
        .unwrap();
    w.fill(g(-12, 6, -12), g(12, 6, 12), Material::STONE)
        .unwrap();
    let noise: Arc<[f32]> = (0..48_000u32)
        .map(|i| ((i.wrapping_mul(2_654_435_761) >> 8) as f32 / 16_777_216.0 - 0.5) * 0.5)
        .collect();
    let sound = engine.load_mono(noise, 48_000).unwrap();
    engine
        .set_listener(
            resound_engine::glam::DVec3::new(0.5, 1.6, 0.5),
            resound_engine::Orientation::default(),
        )
        .unwrap();
    let voices: Vec<_> = (0..4)
        .map(|_| {
            let source = resound_engine::Source {
                looping: true,
                ..Default::default()
            };
            engine.play(sound, source).unwrap()
        })
        .collect();
    let mut block = vec![0.0f32; 1600];
    let mut frame = |engine: &mut Engine, k: u32| {
        let a = k as f32 * 0.01;
        for (i, v) in voices.iter().enumerate().filter(|_| walking) {
            let w = i as f32 * 1.5;
            let p = resound_engine::glam::DVec3::new(
                f64::from(6.0 * (a + w).cos()),
                1.5,
                f64::from(6.0 * (a + w).sin()),
            );
            engine.voice(*v).unwrap().set_position(p).unwrap();
        }
        engine.update(1.0 / 60.0).unwrap();
        engine.render(&mut block).unwrap();
    };
    for k in 0..WARM_UP {
        frame(&mut engine, k);
    }
    let ((), usage) = resound_testalloc::whole_process(|| {
        for k in WARM_UP..WARM_UP + MEASURED {
            frame(&mut engine, k);
        }
    });
    usage.allocations
}

/// Walking emitters, mode `full`: the app with the plugin allocates no more than Bevy's own
/// frame (the scene without the plugin) plus the engine's own calls made directly (moving a
/// voice allocates in the engine: see the crate's README).
#[test]
fn walking_emitters_allocate_nothing_beyond_bevy_and_the_engines_own_calls() {
    let _one = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let bare = measure(base());
    let without = measure(scene(false, Mode::Full, true));
    let engine = engine_alone(Mode::Full, true);
    let with = measure(scene(true, Mode::Full, true));
    println!(
        "allocation calls over {MEASURED} frames, walking, mode full: bare MinimalPlugins \
         {bare}; the scene without the plugin {without}; the engine's calls alone {engine}; \
         the scene with the plugin {with}"
    );
    assert!(
        with <= without + engine,
        "the plugin allocates: {with} calls with it, {without} without, {engine} the engine's"
    );
}

/// Still emitters, mode `off`: the same, with nothing for the acoustics to do (the engine's
/// `update` and `render` still allocate a little of their own: see the crate's README).
#[test]
fn still_emitters_allocate_nothing_beyond_bevy_and_the_engines_own_calls() {
    let _one = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let bare = measure(base());
    let without = measure(scene(false, Mode::Off, false));
    let engine = engine_alone(Mode::Off, false);
    let with = measure(scene(true, Mode::Off, false));
    println!(
        "allocation calls over {MEASURED} frames, still, mode off: bare MinimalPlugins {bare}; \
         the scene without the plugin {without}; the engine's calls alone {engine}; the scene \
         with the plugin {with}"
    );
    assert!(
        with <= without + engine,
        "the plugin allocates: {with} calls with it, {without} without, {engine} the engine's"
    );
}
