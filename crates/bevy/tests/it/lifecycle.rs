//! An emitter's life: despawned or its component removed, its voice fades out over its
//! `stop_fade` and is gone; [`StopEmitter`] and [`PlayEmitter`] stop and restart it.

use bevy::prelude::*;
use bevy_resound::{Emitter, Listener, PlayEmitter, StopEmitter};
use resound_engine::{Mode, Tween};

use crate::common::{app, noise, resound, rms, status};

/// A listener and a looping emitter 3 m to its right with a 0.1 s stop fade; run 30 frames.
fn playing() -> (App, Entity) {
    let mut app = app(Mode::Off);
    let sound = noise(resound(&mut app).engine_mut());
    app.world_mut()
        .spawn((Listener, Transform::from_xyz(0.5, 1.5, 0.5)));
    let e = app
        .world_mut()
        .spawn((
            Emitter::new(sound)
                .looping()
                .with_stop_fade(Tween::linear(0.1)),
            Transform::from_xyz(3.5, 1.5, 0.5),
        ))
        .id();
    for _ in 0..30 {
        app.update();
    }
    assert!(resound(&mut app).voice(e).is_some());
    (app, e)
}

/// The rms of each of the next `n` frames' blocks.
fn blocks(app: &mut App, n: usize) -> Vec<f32> {
    (0..n)
        .map(|_| {
            app.update();
            rms(resound(app).offline_block())
        })
        .collect()
}

/// A fade, not a cut: the first block after the stop is still loud, the level falls block by
/// block over the 0.1 s (6 blocks of 1/60 s), and then the output is exact silence.
fn assert_fades(before: f32, after: &[f32]) {
    assert!(
        after[0] > 0.5 * before,
        "cut, not faded: {before} then {after:?}"
    );
    assert!(
        after[..6].windows(2).all(|w| w[1] < w[0]),
        "not falling: {after:?}"
    );
    assert!(
        after[7..].iter().all(|r| *r == 0.0),
        "still sounding: {after:?}"
    );
}

#[test]
fn a_despawned_emitter_fades_out_and_its_voice_ends() {
    let (mut app, e) = playing();
    let before = blocks(&mut app, 1)[0];
    app.world_mut().despawn(e);
    let after = blocks(&mut app, 10);
    assert_fades(before, &after);
    assert_eq!(resound(&mut app).voice(e), None);
    assert_eq!(resound(&mut app).engine().live_voices(), 0);
    assert_eq!(status(&app).errors, 0, "{:?}", status(&app).last_error);
}

#[test]
fn removing_the_component_fades_out_and_adding_it_back_plays_again() {
    let (mut app, e) = playing();
    let before = blocks(&mut app, 1)[0];
    let emitter = app.world_mut().entity_mut(e).take::<Emitter>().unwrap();
    let after = blocks(&mut app, 10);
    assert_fades(before, &after);
    assert!(app.world().get_entity(e).is_ok(), "the entity stays");
    assert_eq!(resound(&mut app).engine().live_voices(), 0);

    app.world_mut().entity_mut(e).insert(emitter);
    let again = blocks(&mut app, 2);
    assert!(again[1] > 0.5 * before, "not playing again: {again:?}");
    assert!(resound(&mut app).voice(e).is_some());
    assert_eq!(status(&app).errors, 0, "{:?}", status(&app).last_error);
}

#[test]
fn stop_and_play_events_stop_and_restart_the_voice() {
    let (mut app, e) = playing();
    let before = blocks(&mut app, 1)[0];
    app.world_mut().trigger(StopEmitter {
        entity: e,
        fade: None,
    });
    let after = blocks(&mut app, 10);
    assert_fades(before, &after);
    assert!(
        app.world().get::<Emitter>(e).is_some(),
        "the component stays"
    );

    app.world_mut().trigger(PlayEmitter { entity: e });
    let again = blocks(&mut app, 2);
    assert!(again[0] > 0.5 * before, "not restarted: {again:?}");
    assert_eq!(resound(&mut app).engine().live_voices(), 1);
    assert_eq!(status(&app).errors, 0, "{:?}", status(&app).last_error);
}

#[test]
fn a_paused_emitter_waits_for_play_and_a_one_shot_ends_by_itself() {
    let mut app = app(Mode::Off);
    let sound = noise(resound(&mut app).engine_mut());
    app.world_mut()
        .spawn((Listener, Transform::from_xyz(0.5, 1.5, 0.5)));
    let e = app
        .world_mut()
        .spawn((
            Emitter::new(sound).paused(),
            Transform::from_xyz(3.5, 1.5, 0.5),
        ))
        .id();
    assert!(blocks(&mut app, 3).iter().all(|r| *r == 0.0));
    app.world_mut().trigger(PlayEmitter { entity: e });
    // The sound is one second long and not looping: it plays, then ends on its own.
    let played = blocks(&mut app, 70);
    assert!(played[2] > 0.01, "{played:?}");
    assert!(played[65..].iter().all(|r| *r == 0.0), "{played:?}");
    // Moving an ended emitter is no error.
    app.world_mut()
        .get_mut::<Transform>(e)
        .unwrap()
        .translation
        .x = 5.0;
    app.update();
    assert_eq!(resound(&mut app).voice(e), None);
    assert_eq!(status(&app).errors, 0, "{:?}", status(&app).last_error);
}
