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

#[test]
fn sound_space_is_60_percent_listener_40_percent_source() {
    // R: listener 0.966 / 10.7, source 0.967 / 10.8 (spec §9); mixed value by value.
    let r = room("R");
    let (l, s) = (r.listener, r.source.unwrap());
    let mix = |a: f64, b: f64| 0.6 * a + 0.4 * b;
    assert!((r.space.enclosure - mix(l.enclosure, s.enclosure)).abs() < 1e-12);
    assert!((r.space.size - mix(l.size, s.size)).abs() < 1e-12);
    assert!((r.space.reflectivity - mix(l.reflectivity, s.reflectivity)).abs() < 1e-12);
    // A source in the open and a listener in the room: the mix is not symmetric.
    let (scene, mut w) = crate::common::world("R");
    w.fill_box(
        glam::IVec3::new(0, 10, 0),
        glam::IVec3::new(11, 10, 23),
        resound_acoustics::Cell::Air,
    )
    .unwrap();
    let r = OwnModel::default()
        .room(&w, &scene.request().unwrap(), &mut Budget::unlimited())
        .unwrap();
    let (l, s) = (r.listener, r.source.unwrap());
    assert!(l.enclosure > s.enclosure + 0.1, "{l:?} {s:?}");
    assert!((r.space.enclosure - mix(l.enclosure, s.enclosure)).abs() < 1e-12);
}

#[test]
fn room_space_values_follow_the_formulas() {
    // decay = e²·(0.4 + 0.1·min(size,30))·(0.6 + 0.8·refl) clamped 0.15..4.14,
    // wet = smoothstep(0.03, 0.4, e), sends = 1.6·wet·a_k·(1 − min(d/(1.5·range), 1)).
    for name in ["G", "T", "R"] {
        let (scene, _) = crate::common::world(name);
        let r = room(name);
        let sp = r.space;
        let decay = (sp.enclosure.powi(2)
            * (0.4 + 0.1 * sp.size.min(30.0))
            * (0.6 + 0.8 * sp.reflectivity))
            .clamp(0.15, 4.14);
        assert!((f64::from(r.decay) - decay).abs() < 1e-6, "{name}");
        let x = ((sp.enclosure - 0.03) / 0.37).clamp(0.0, 1.0);
        let wet = x * x * (3.0 - 2.0 * x);
        assert!((f64::from(r.wet) - wet).abs() < 1e-6, "{name}");
        let d = (glam::DVec3::from_array(scene.source) - glam::DVec3::from_array(scene.listener))
            .length();
        let fade = 1.0 - (d / (1.5 * scene.range)).min(1.0);
        let amps = resound_acoustics::room::slot_amplitudes(decay);
        for (k, (send, a)) in r.sends.iter().zip(amps).enumerate() {
            let want = 1.6 * wet * a * fade;
            assert!((f64::from(*send) - want).abs() < 1e-6, "{name} send {k}");
        }
    }
    // T: decay 0.82 lies between slots 1 (0.55 s) and 2 (1.68 s): only those two carry.
    let t = room("T");
    assert!(t.sends[0] == 0.0 && t.sends[3] == 0.0 && t.sends[1] > 0.0 && t.sends[2] > 0.0);
}

#[test]
fn foliage_makes_no_space() {
    // Spec §6: "foliage (occ 0) makes no space": a leaves canopy over an open field does not
    // enclose the listener; the same canopy in stone does.
    use glam::{DVec3, IVec3};
    use resound_acoustics::{Absent, Cell, MaterialTable, SoundRequest, WorldStore};
    let m = MaterialTable::standard();
    let mut req = SoundRequest::new(DVec3::new(0.5, 1.5, 0.5), DVec3::new(3.5, 1.5, 0.5));
    req.measure_source_space = false;
    let canopy = |name: &str| {
        let mut w = WorldStore::new(Absent::Air);
        w.fill_box(
            IVec3::new(-30, 6, -30),
            IVec3::new(30, 8, 30),
            Cell::solid(m.by_name(name).unwrap()),
        )
        .unwrap();
        OwnModel::default()
            .room(&w, &req, &mut Budget::unlimited())
            .unwrap()
    };
    let leaves = canopy("leaves");
    assert_eq!(leaves.space.enclosure, 0.0, "{:?}", leaves.space);
    assert_eq!(leaves.wet, 0.0);
    assert!(canopy("stone").space.enclosure > 0.5);
}
