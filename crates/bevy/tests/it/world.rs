//! The world: chunk edits after the emitter moved re-trace its sound; bad edits are reported,
//! not panicked on; a game's own chunk store ([`GameWorldSource`]) is traced as it is.

use std::sync::Arc;

use bevy::prelude::*;
use bevy_resound::{Emitter, GameWorldSource, Listener, ResoundError, VoxelWorld};
use resound_engine::advanced::acoustics::{Absent, WorldStore};
use resound_engine::{Block, Material, Mode, WorldError};

use crate::common::{app, noise, resound, rms, status};

/// Where the emitter starts, and the middle of section (1, 0, 0) it moves to.
const START: Vec3 = Vec3::new(0.5, 8.5, -24.5);
const MOVED: Vec3 = Vec3::new(24.5, 8.5, 8.5);
/// The listener, in section (0, 0, 0).
const EARS: Vec3 = Vec3::new(2.5, 8.5, 8.5);

/// Section (1, 0, 0) as a closed stone shell: every cell on its faces stone.
fn shell(local: IVec3) -> Block {
    if local.min_element() == 0 || local.max_element() == 15 {
        Material::STONE.block()
    } else {
        Material::AIR.block()
    }
}

/// The emitter moves at frame 10; at frame 40 (after the move) the game loads a chunk that
/// closes it in, if `edit`. The rms of the last 20 frames' audio.
fn moved_then_edited(edit: bool) -> (f32, App, Entity, u64) {
    let mut app = app(Mode::Full);
    let sound = noise(resound(&mut app).engine_mut());
    app.world_mut()
        .spawn((Listener, Transform::from_translation(EARS)));
    let e = app
        .world_mut()
        .spawn((
            Emitter::new(sound).looping(),
            Transform::from_translation(START),
        ))
        .id();
    let mut tail = Vec::new();
    let mut edit_tick = 0;
    for k in 0..80 {
        if k == 10 {
            app.world_mut().get_mut::<Transform>(e).unwrap().translation = MOVED;
        }
        if edit && k == 40 {
            let mut world = app.world_mut().resource_mut::<VoxelWorld>();
            world.set_section(IVec3::new(1, 0, 0), shell).unwrap();
            edit_tick = resound(&mut app).engine().tick();
        }
        app.update();
        if k >= 60 {
            tail.extend_from_slice(resound(&mut app).offline_block());
        }
    }
    assert_eq!(status(&app).errors, 0, "{:?}", status(&app).last_error);
    (rms(&tail), app, e, edit_tick)
}

#[test]
fn a_chunk_loaded_round_an_emitter_after_it_moved_muffles_it() {
    let (open, mut open_app, open_e, _) = moved_then_edited(false);
    let (closed, mut app, e, edit_tick) = moved_then_edited(true);
    assert!(open > 0.01, "the open scene is silent: {open}");
    assert!(
        closed < 0.5 * open,
        "the shell changed little: rms {closed} closed in, {open} open"
    );
    // The voice was traced again after the edit: the mixer holds other parameters than in
    // the open scene, from a result applied at or after the edit's tick.
    let acoustics = |app: &mut App, e: Entity| {
        let r = resound(app);
        r.engine().voice_acoustics(r.voice(e).unwrap()).unwrap()
    };
    let (shut, unshut) = (acoustics(&mut app, e), acoustics(&mut open_app, open_e));
    assert_ne!(shut.applied, unshut.applied);
    assert!(
        shut.applied_tick.unwrap() >= edit_tick,
        "{shut:?} edit at {edit_tick}"
    );
}

#[test]
fn refused_edits_and_unknown_materials_are_reported_not_panicked_on() {
    let mut app = app(Mode::Off);
    {
        let mut world = app.world_mut().resource_mut::<VoxelWorld>();
        assert!(matches!(
            world.material("unobtainium"),
            Err(ResoundError::UnknownMaterial(_))
        ));
        assert_eq!(world.material("glass").unwrap(), Material::GLASS);
        // Inverted, then out of the world, then a good one.
        world.fill(IVec3::new(5, 5, 5), IVec3::new(0, 0, 0), Material::STONE);
        world.set_block(IVec3::new(i32::MAX, 0, 0), Material::STONE);
        world.set_block(IVec3::new(1, 1, 1), Material::WOOD);
    }
    app.update();
    let s = status(&app);
    assert!(
        matches!(
            s.last_error,
            Some(ResoundError::World(WorldError::InvertedBox(..)))
        ),
        "{:?}",
        s.last_error
    );
    assert_eq!(s.errors, 1, "the first refused edit of the frame is kept");
    let text = s.last_error.as_ref().unwrap().to_string();
    assert!(!text.contains('\n'), "{text}");
    // The good edit went through.
    use resound_engine::advanced::acoustics::{Cell, WorldProbe};
    let cell = resound(&mut app)
        .engine()
        .world_store()
        .cell(resound_engine::glam::IVec3::new(1, 1, 1));
    assert_eq!(cell, Cell::from(Material::WOOD));
    assert_eq!(app.world().resource::<VoxelWorld>().pending(), 0);
}

#[test]
fn a_games_own_chunk_store_is_traced_and_voxel_edits_are_then_refused() {
    // The game's store: here the acoustics' own WorldStore stands for it.
    let mut store = WorldStore::new(Absent::Air);
    let mut run = |closed: bool| {
        let mut app = app(Mode::Full);
        let sound = noise(resound(&mut app).engine_mut());
        app.insert_resource(GameWorldSource::new(Arc::new(store.snapshot())));
        app.world_mut()
            .spawn((Listener, Transform::from_translation(EARS)));
        app.world_mut().spawn((
            Emitter::new(sound).looping(),
            Transform::from_translation(MOVED),
        ));
        let mut tail = Vec::new();
        for k in 0..60 {
            if closed && k == 10 {
                // Close section (1, 0, 0) in the game's store and hand over the snapshot.
                let stone = resound_engine::advanced::acoustics::Cell::from(Material::STONE);
                let (lo, hi) = (
                    resound_engine::glam::IVec3::new(16, 0, 0),
                    resound_engine::glam::IVec3::new(31, 15, 15),
                );
                store.fill_box(lo, hi, stone).unwrap();
                let inner = resound_engine::glam::IVec3::ONE;
                store
                    .fill_box(
                        lo + inner,
                        hi - inner,
                        resound_engine::advanced::acoustics::Cell::Air,
                    )
                    .unwrap();
                let snapshot = Arc::new(store.snapshot());
                app.world_mut()
                    .resource_mut::<GameWorldSource>()
                    .changed(snapshot, [IVec3::new(1, 0, 0)]);
            }
            app.update();
            if k >= 40 {
                tail.extend_from_slice(resound(&mut app).offline_block());
            }
        }
        assert_eq!(status(&app).errors, 0, "{:?}", status(&app).last_error);
        (rms(&tail), app)
    };
    let (open, _) = run(false);
    let (closed, mut app) = run(true);
    assert!(open > 0.01, "{open}");
    assert!(closed < 0.5 * open, "closed {closed}, open {open}");

    // The game owns the world now: a voxel edit is refused, and said so.
    app.world_mut()
        .resource_mut::<VoxelWorld>()
        .set_block(IVec3::ZERO, Material::STONE);
    app.update();
    assert!(matches!(
        status(&app).last_error,
        Some(ResoundError::World(WorldError::GameOwned))
    ));
}
