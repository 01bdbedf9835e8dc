//! Stage 2 fixtures: G, F, R, T, E1–E3 (spec §5, §9).

use resound_acoustics::echo::Rejection;
use resound_acoustics::{AcousticModel, Budget, OwnModel, Tap};

use crate::common::world;

const SAMPLE: f64 = 1.0 / 48_000.0;

/// Delay of an image-source path from its geometry (`path = hypot(d, offset)`), in seconds.
fn geometric_delay(d: f64, image_offset: f64) -> f64 {
    ((d * d + image_offset * image_offset).sqrt() - d) / 343.0
}

/// Within ±1 sample at 48 kHz.
fn within_one_sample(delay: f64, expected: f64) -> bool {
    ((delay * 48_000.0).round() - (expected * 48_000.0).round()).abs() <= 1.0
}

fn taps(name: &str) -> Vec<Tap> {
    let (scene, w) = world(name);
    let mut model = OwnModel::default();
    model.extra_planes = scene.planes().unwrap();
    model
        .reflections(&w, &scene.request().unwrap(), &mut Budget::unlimited())
        .unwrap()
        .taps
}

fn ms(taps: &[Tap]) -> Vec<f64> {
    taps.iter().map(|t| t.delay * 1000.0).collect()
}

#[test]
fn gorge_has_two_taps_at_true_delays() {
    let t = taps("G");
    assert_eq!(t.len(), 2, "{:?}", ms(&t));
    let d = 30.0;
    assert!((t[0].path - 84.50).abs() < 0.01, "{}", t[0].path);
    assert!((t[1].path - 113.05).abs() < 0.01, "{}", t[1].path);
    assert!((t[0].delay - (t[0].path - d) / 343.0).abs() < 1e-12);
    assert!((t[0].delay - 0.1589).abs() <= SAMPLE + 5e-5, "{:?}", ms(&t));
    assert!((t[1].delay - 0.2421).abs() <= SAMPLE + 5e-5, "{:?}", ms(&t));
    assert!((t[0].level - 0.244).abs() < 1e-3, "{}", t[0].level);
    assert!((t[1].level - 0.182).abs() < 1e-3, "{}", t[1].level);
    // Exact geometry: images 79 (z=0 face: 2·39.5) and 109 (z=94: 2·54.5) blocks off the line.
    assert!(within_one_sample(t[0].delay, geometric_delay(30.0, 79.0)));
    assert!(within_one_sample(t[1].delay, geometric_delay(30.0, 109.0)));
    assert!((t[0].delay - geometric_delay(30.0, 79.0)).abs() < SAMPLE);
    // Panned toward the walls: first tap from the z=0 face (−z), second from z=94 (+z).
    assert!(t[0].direction.z < -0.5 && t[1].direction.z > 0.5);
}

#[test]
fn echo_search_is_deterministic() {
    let a = taps("G");
    for _ in 0..3 {
        assert_eq!(taps("G"), a);
    }
}

#[test]
fn field_has_no_taps() {
    assert!(taps("F").is_empty());
}

#[test]
fn room_has_exactly_one_tap_at_39_9_ms() {
    let t = taps("R");
    assert_eq!(t.len(), 1, "{:?}", ms(&t));
    assert!((t[0].path - 29.68).abs() < 0.01);
    assert!((t[0].delay - 0.0399).abs() <= SAMPLE + 5e-5, "{:?}", ms(&t));
    assert_eq!((t[0].plane.axis, t[0].plane.coord), (2, 24));
    assert!(within_one_sample(t[0].delay, geometric_delay(16.0, 25.0)));
}

#[test]
fn tunnel_has_no_taps() {
    assert!(taps("T").is_empty());
}

#[test]
fn e1_wall_beside_listener_is_cut() {
    assert!(taps("E1").is_empty());
}

#[test]
fn e2_screen_blocks_the_south_wall() {
    let t = taps("E2");
    assert_eq!(t.len(), 2, "{:?}", ms(&t));
    assert!((t[0].path - 47.63).abs() < 0.01, "{}", t[0].path);
    assert!((t[0].delay - 0.0514).abs() <= SAMPLE + 5e-5);
    assert_eq!((t[0].plane.axis, t[0].plane.coord), (2, 21));
    assert!(within_one_sample(t[0].delay, geometric_delay(30.0, 37.0)));
    assert!((t[1].delay - 0.2421).abs() <= SAMPLE + 5e-5);
}

#[test]
fn e2_south_wall_rejection_reason_is_blocked_legs() {
    let (scene, w) = world("E2");
    let model = OwnModel::default();
    let plane = resound_acoustics::Plane {
        axis: 2,
        coord: 0,
        normal_sign: 1,
    };
    let mut stats = Default::default();
    let r = resound_acoustics::echo::validate_plane(
        &w,
        model.materials(),
        glam::DVec3::from_array(scene.source),
        glam::DVec3::from_array(scene.listener),
        plane,
        &mut Budget::unlimited(),
        &mut stats,
    );
    assert_eq!(r.err(), Some(Rejection::LegBlocked));
}

#[test]
fn e3_phantom_planes_rejected() {
    let (scene, w) = world("E3");
    let model = OwnModel::default();
    for plane in scene.planes().unwrap() {
        let mut stats = Default::default();
        let r = resound_acoustics::echo::validate_plane(
            &w,
            model.materials(),
            glam::DVec3::from_array(scene.source),
            glam::DVec3::from_array(scene.listener),
            plane,
            &mut Budget::unlimited(),
            &mut stats,
        );
        assert_eq!(r.err(), Some(Rejection::BehindNotSolid), "{plane:?}");
    }
    assert!(taps("E3").is_empty());
}
