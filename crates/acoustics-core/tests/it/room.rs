//! Stage 3 fixtures: enclosures, sizes, decays, wet, decay order (spec §6, §9).

use resound_acoustics::{AcousticModel, Budget, DecayModel, OwnModel, RoomResult};

use crate::common::world;

/// The scene's room under the SPR heuristic decay (the §6 figures).
fn room(name: &str) -> RoomResult {
    room_by(name, DecayModel::Spr)
}

fn room_by(name: &str, model: DecayModel) -> RoomResult {
    let (scene, w) = world(name);
    OwnModel::default()
        .with_decay_model(model)
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
fn effective_decay_is_the_decay_the_slot_is_tuned_to() {
    // One slot per sound, tuned to its decay: the prediction is the decay itself.
    for name in ["G", "T", "R", "BW", "BS", "BB"] {
        for model in [DecayModel::Spr, DecayModel::Physical] {
            let r = room_by(name, model);
            assert_eq!(r.effective_decay, r.decay, "{name} {model:?}");
            assert_eq!(r.decay, r.decay_bands[1], "{name} {model:?}");
        }
    }
}

#[test]
fn sends_carry_the_cross_fades_tail_level_in_one_slot() {
    use resound_acoustics::room::{SLOT_GAINS, slot_for, tail_level};
    for name in ["T", "R"] {
        let (scene, _) = world(name);
        let r = room(name);
        let d = (glam::DVec3::from_array(scene.source) - glam::DVec3::from_array(scene.listener))
            .length();
        let fade = 1.0 - (d / (1.5 * scene.range)).min(1.0);
        let slot = slot_for(f64::from(r.decay));
        for (k, s) in r.sends.iter().enumerate() {
            if k != slot {
                assert_eq!(*s, 0.0, "{name} send {k}");
            }
        }
        // The slot's output gain times the send is the §6 cross-fade's energy.
        let out = f64::from(r.sends[slot]) * SLOT_GAINS[slot];
        let expect = 1.6 * f64::from(r.wet) * fade * tail_level(f64::from(r.decay));
        assert!(
            (out - expect).abs() < 1e-5 * expect,
            "{name}: {out} vs {expect}"
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
        ..Space::default()
    });
    let wool = decay(&Space {
        enclosure: 0.9,
        size: 10.0,
        reflectivity: 0.1,
        ..Space::default()
    });
    assert!(stone > wool);
}

#[test]
fn listener_only_without_source_measurement() {
    let (scene, w) = world("R");
    let mut req = scene.request().unwrap();
    req.measure_source_space = false;
    let r = OwnModel::default()
        .with_decay_model(DecayModel::Spr)
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
        let slot = resound_acoustics::room::slot_for(decay);
        let level =
            resound_acoustics::room::tail_level(decay) / resound_acoustics::room::SLOT_GAINS[slot];
        for (k, send) in r.sends.iter().enumerate() {
            let want = if k == slot {
                1.6 * wet * fade * level
            } else {
                0.0
            };
            assert!((f64::from(*send) - want).abs() < 1e-6, "{name} send {k}");
        }
    }
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

/// Eyring per band from a shoebox's true dimensions and one material's table row (the
/// arithmetic the physical model's estimate is checked against), clamped as the bus clamps.
fn eyring_shoebox(dims: [f64; 3], row: &str) -> [f64; 3] {
    use resound_acoustics::room::{AIR_M, DECAY_MAX, DECAY_MIN};
    use resound_acoustics::world::material::band_absorption;
    let [l, w, h] = dims;
    let v = l * w * h;
    let s = 2.0 * (l * w + l * h + w * h);
    let alpha = band_absorption(row);
    std::array::from_fn(|b| {
        let t = 0.161 * v / (-s * (1.0 - alpha[b]).ln() + 4.0 * AIR_M[b] * v);
        t.clamp(DECAY_MIN, DECAY_MAX)
    })
}

#[test]
fn physical_decay_follows_eyring_for_shoeboxes() {
    // Issue 30: the three rooms' reported decay within 20 % of Eyring computed from their
    // true dimensions and the table's coefficients, in every band.
    for (name, dims, row) in [
        ("BW", [6.0, 3.0, 5.0], "wood"),
        ("BS", [20.0, 10.0, 30.0], "stone"),
        ("BB", [10.0, 4.0, 40.0], "brick"),
    ] {
        let r = room_by(name, DecayModel::Physical);
        let want = eyring_shoebox(dims, row);
        for b in 0..3 {
            let got = f64::from(r.decay_bands[b]);
            assert!(
                (got - want[b]).abs() <= 0.2 * want[b],
                "{name} band {b}: {got} vs Eyring {} ({:?} vs {want:?})",
                want[b],
                r.decay_bands
            );
        }
    }
}

#[test]
fn physical_decay_bands_follow_the_materials() {
    // Wood absorbs its lows most: its low band is the shortest; the brick corridor's high
    // band (air absorption) is shorter than its low band.
    let w = room_by("BW", DecayModel::Physical).decay_bands;
    assert!(w[0] < w[2], "{w:?}");
    let b = room_by("BB", DecayModel::Physical).decay_bands;
    assert!(b[2] < b[0], "{b:?}");
    // Open spaces keep a short tail: the field and the gorge sit at the shortest decay.
    for name in ["F", "G"] {
        let r = room_by(name, DecayModel::Physical);
        assert!(r.decay < 0.5, "{name}: {:?}", r.decay_bands);
    }
    let d: Vec<f32> = ["F", "G", "T", "R"]
        .iter()
        .map(|n| room_by(n, DecayModel::Physical).decay)
        .collect();
    assert!(d[0] <= d[1] && d[1] < d[2] && d[2] <= d[3], "{d:?}");
}
