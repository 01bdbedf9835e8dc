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

fn search(name: &str) -> resound_acoustics::echo::EchoSearch {
    let (scene, w) = world(name);
    let mut model = OwnModel::default();
    model.extra_planes = scene.planes().unwrap();
    let settings = resound_acoustics::echo::EchoSettings {
        directions: resound_acoustics::echo::golden_spiral(32),
        ray_length: 300.0,
    };
    resound_acoustics::echo::find_echoes(
        &w,
        model.materials(),
        glam::DVec3::from_array(scene.source),
        glam::DVec3::from_array(scene.listener),
        &settings,
        &model.extra_planes,
        &mut Budget::unlimited(),
    )
}

fn plane(axis: usize, coord: i32, normal_sign: i32) -> resound_acoustics::Plane {
    resound_acoustics::Plane {
        axis,
        coord,
        normal_sign,
    }
}

#[test]
fn e1_wall_beside_listener_is_found_and_cut_at_14_6_ms() {
    // Face x = 18 toward the listener: image 50.5, path 35, (35 − 30)/343 = 14.6 ms < 30 ms.
    assert!(((35.0 - 30.0) / 343.0 - 0.0146f64).abs() < 5e-5);
    let s = search("E1");
    assert!(s.taps.is_empty());
    assert!(
        s.rejected.contains(&(plane(0, 18, -1), Rejection::NearCut)),
        "{:?}",
        s.rejected
    );
}

#[test]
fn room_z0_tap_is_valid_but_suppressed_and_the_rest_are_cut() {
    // Spec §9 R: z = 24 at 39.9 ms kept; z = 0 at 35.0 ms valid but within 40 ms of it and
    // weaker (fade (35−30)/20 vs (39.9−30)/20); ends 26.2 / 20.4, ceiling 17.3, floor 2.2 ms cut.
    let (scene, w) = world("R");
    let model = OwnModel::default();
    let (s, l) = (
        glam::DVec3::from_array(scene.source),
        glam::DVec3::from_array(scene.listener),
    );
    let check = |p| {
        resound_acoustics::echo::validate_plane(
            &w,
            model.materials(),
            s,
            l,
            p,
            &mut Budget::unlimited(),
            &mut Default::default(),
        )
    };
    let z0 = check(plane(2, 0, 1)).unwrap().tap;
    let z24 = check(plane(2, 24, -1)).unwrap().tap;
    assert!(within_one_sample(z0.delay, geometric_delay(16.0, 23.0)));
    assert!((z0.delay - 0.0350).abs() < 5e-5, "{}", z0.delay);
    // Level = min(0.85, 2·0.25·(0.75·0.5 + 0.25))·min(1, 16/path)·fade (default shell, refl 0.5).
    let level = |path: f64, delay: f64| 0.3125 * (16.0 / path) * ((delay - 0.030) / 0.020);
    assert!((f64::from(z0.level) - level(z0.path, z0.delay)).abs() < 1e-6);
    assert!((f64::from(z24.level) - level(z24.path, z24.delay)).abs() < 1e-6);
    assert!(z24.level > z0.level && (z24.delay - z0.delay) < 0.040);
    let found = search("R");
    for (p, ms) in [
        (plane(0, 0, 1), 26.2),
        (plane(0, 24, -1), 20.4),
        (plane(1, 10, -1), 17.3),
        (plane(1, 0, 1), 2.2),
    ] {
        assert_eq!(check(p).err(), Some(Rejection::NearCut), "{p:?} ({ms} ms)");
        assert!(
            found.rejected.contains(&(p, Rejection::NearCut)),
            "{p:?} not found"
        );
    }
    assert_eq!(found.taps.len(), 1);
    assert_eq!(found.taps[0].plane, plane(2, 24, -1));
    assert_eq!(found.taps[0], z24);
}

#[test]
fn tap_air_filter_follows_the_formula() {
    // §5 step 7: g = 0.994^(path − d), fc = 5000/sqrt(1/g² − 1).
    let t = taps("G");
    for tap in &t {
        let g = 0.994f64.powf(tap.path - 30.0);
        assert!((f64::from(tap.hf) - g).abs() < 1e-6);
        let fc = 5000.0 / (1.0 / (g * g) - 1.0).sqrt();
        assert!((f64::from(tap.cutoff_hz) - fc).abs() < 1e-3 * fc);
    }
}
