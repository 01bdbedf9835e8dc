//! Stage 3 fixtures: enclosures, sizes, decays, wet, decay order (spec §6, §9).

use resound_acoustics::{AcousticModel, Budget, OwnModel, RoomResult};

use crate::common::world;

fn room(name: &str) -> RoomResult {
    let (scene, w) = world(name);
    OwnModel::default()
        .room(&w, &scene.request().unwrap(), &mut Budget::unlimited())
        .unwrap()
}

#[test]
fn enclosures_match_the_scenes() {
    let f = room("F");
    assert_eq!(f.space.enclosure, 0.0);
    assert_eq!(f.wet, 0.0);
    assert_eq!(f.sends, [0.0; 4]);
    let g = room("G");
    assert!((g.space.enclosure - 0.094).abs() < 0.01, "{:?}", g.space);
    assert!((g.space.size - 50.0).abs() < 1.0, "{:?}", g.space);
    assert!((g.wet - 0.079).abs() < 0.002, "{}", g.wet);
    assert!((g.decay - 0.15).abs() < 1e-6);
    let t = room("T");
    assert!((t.space.enclosure - 0.994).abs() < 0.01, "{:?}", t.space);
    assert!((t.space.size - 4.26).abs() < 0.01, "{:?}", t.space);
    assert_eq!(t.wet, 1.0);
    assert!((t.decay - 0.82).abs() < 0.82 * 0.05, "{}", t.decay);
    let r = room("R");
    assert!((r.space.enclosure - 0.967).abs() < 0.01, "{:?}", r.space);
    let (ls, ss) = (r.listener, r.source.unwrap());
    assert!((ls.enclosure - 0.966).abs() < 0.001 && (ss.enclosure - 0.967).abs() < 0.001);
    assert!(
        (ls.size - 10.7).abs() < 0.05 && (ss.size - 10.8).abs() < 0.05,
        "{ls:?} {ss:?}"
    );
    assert!((r.decay - 1.38).abs() < 1.38 * 0.05, "{}", r.decay);
    assert_eq!(r.wet, 1.0);
}

#[test]
fn decay_order_field_gorge_tunnel_room() {
    let d: Vec<f32> = ["F", "G", "T", "R"].iter().map(|n| room(n).decay).collect();
    assert!(d[0] <= d[1] && d[1] < d[2] && d[2] < d[3], "{d:?}");
}

#[test]
fn effective_decay_matches_rt60_by_sends() {
    // Spec §6 table, "RT60 by sends (this geometry)": gorge 0.15, tunnel 1.07, room 1.67.
    assert!((room("G").effective_decay - 0.15).abs() < 0.01);
    assert!(
        (room("T").effective_decay - 1.07).abs() < 0.01,
        "{}",
        room("T").effective_decay
    );
    assert!(
        (room("R").effective_decay - 1.67).abs() < 0.01,
        "{}",
        room("R").effective_decay
    );
}

#[test]
fn sends_cross_fade_with_equal_power() {
    for name in ["T", "R"] {
        let (scene, _) = world(name);
        let r = room(name);
        let d = (glam::DVec3::from_array(scene.source) - glam::DVec3::from_array(scene.listener))
            .length();
        let fade = 1.0 - (d / (1.5 * scene.range)).min(1.0);
        let power: f64 = r.sends.iter().map(|s| f64::from(*s).powi(2)).sum();
        let expect = (1.6 * f64::from(r.wet) * fade).powi(2);
        assert!(
            (power - expect).abs() < 1e-4 * expect,
            "{name}: {power} vs {expect}"
        );
    }
}

#[test]
fn stone_rings_longer_than_wool() {
    use resound_acoustics::room::{Space, decay};
    let stone = decay(&Space {
        enclosure: 0.9,
        size: 10.0,
        reflectivity: 1.5,
    });
    let wool = decay(&Space {
        enclosure: 0.9,
        size: 10.0,
        reflectivity: 0.1,
    });
    assert!(stone > wool);
}

#[test]
fn listener_only_without_source_measurement() {
    let (scene, w) = world("R");
    let mut req = scene.request().unwrap();
    req.measure_source_space = false;
    let r = OwnModel::default()
        .room(&w, &req, &mut Budget::unlimited())
        .unwrap();
    assert!(r.source.is_none());
    assert_eq!(r.space, r.listener);
    assert_eq!(r.telemetry.rays, 24);
}
