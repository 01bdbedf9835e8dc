//! The listener rule: exactly one entity has a [`Listener`]. With none or with two the
//! engine's listener stays where it was and the status says so; sounds go on.

use bevy::prelude::*;
use bevy_resound::{Emitter, Listener, ListenerState, ResoundError};
use resound_engine::Mode;
use resound_engine::glam::DVec3;

use crate::common::{app, noise, resound, rms, status};

#[test]
fn without_a_listener_the_engine_listens_from_where_it_was_and_says_so() {
    let mut app = app(Mode::Off);
    let sound = noise(resound(&mut app).engine_mut());
    app.world_mut().spawn((
        Emitter::new(sound).looping(),
        Transform::from_xyz(3.0, 0.0, 0.0),
    ));
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(status(&app).listener, ListenerState::Missing);
    assert_eq!(status(&app).errors, 0);
    assert_eq!(resound(&mut app).engine().listener().position, DVec3::ZERO);
    assert!(
        rms(resound(&mut app).offline_block()) > 0.01,
        "the sound goes on"
    );

    let l = app
        .world_mut()
        .spawn((Listener, Transform::from_xyz(1.0, 2.0, 3.0)))
        .id();
    app.update();
    assert_eq!(status(&app).listener, ListenerState::Following(l));
    assert_eq!(
        resound(&mut app).engine().listener().position,
        DVec3::new(1.0, 2.0, 3.0)
    );
}

#[test]
fn with_two_listeners_the_listener_stays_put_and_the_error_says_why() {
    let mut app = app(Mode::Off);
    let first = app
        .world_mut()
        .spawn((Listener, Transform::from_xyz(1.0, 2.0, 3.0)))
        .id();
    app.update();
    let second = app
        .world_mut()
        .spawn((Listener, Transform::from_xyz(9.0, 9.0, 9.0)))
        .id();
    for _ in 0..3 {
        app.world_mut()
            .get_mut::<Transform>(first)
            .unwrap()
            .translation
            .x += 1.0;
        app.update();
    }
    assert_eq!(status(&app).listener, ListenerState::Many(2));
    assert!(matches!(
        status(&app).last_error,
        Some(ResoundError::ManyListeners(2))
    ));
    assert_eq!(status(&app).errors, 1, "reported once, not every frame");
    let text = status(&app).last_error.as_ref().unwrap().to_string();
    assert!(!text.contains('\n') && text.contains("Listener"), "{text}");
    assert_eq!(
        resound(&mut app).engine().listener().position,
        DVec3::new(1.0, 2.0, 3.0)
    );

    // One left: the listener follows it again.
    app.world_mut().despawn(second);
    app.update();
    assert_eq!(status(&app).listener, ListenerState::Following(first));
    assert_eq!(
        resound(&mut app).engine().listener().position,
        DVec3::new(4.0, 2.0, 3.0)
    );
}

#[test]
fn the_listener_turns_with_its_transform() {
    let mut app = app(Mode::Off);
    let l = app
        .world_mut()
        .spawn((
            Listener,
            Transform::from_xyz(0.0, 1.0, 0.0).looking_to(Vec3::X, Vec3::Y),
        ))
        .id();
    app.update();
    let o = resound(&mut app).engine().listener().orientation;
    assert!((o.forward - DVec3::X).length() < 1e-6, "{o:?}");
    assert!((o.up - DVec3::Y).length() < 1e-6, "{o:?}");
    assert_eq!(status(&app).listener, ListenerState::Following(l));
}

#[test]
fn unusable_transforms_are_reported_not_panicked_on() {
    let mut app = app(Mode::Off);
    let sound = noise(resound(&mut app).engine_mut());
    // A listener scaled to nothing has no orientation.
    app.world_mut().spawn((
        Listener,
        Transform::from_xyz(1.0, 1.0, 1.0).with_scale(Vec3::ZERO),
    ));
    app.update();
    assert!(
        matches!(status(&app).last_error, Some(ResoundError::ListenerPose(_))),
        "{:?}",
        status(&app).last_error
    );
    // An emitter far outside the world cannot play; the frame goes on.
    let far = app
        .world_mut()
        .spawn((Emitter::new(sound), Transform::from_xyz(1.0e9, 0.0, 0.0)))
        .id();
    app.update();
    match &status(&app).last_error {
        Some(ResoundError::Play { entity, .. }) => assert_eq!(*entity, far),
        other => panic!("{other:?}"),
    }
    assert_eq!(resound(&mut app).voice(far), None);
    assert_eq!(status(&app).errors, 2);
}
