// SPDX-License-Identifier: GPL-3.0-only
//! The W/D/P scenes of `acoustics.md` §9 through `SprModel`, against the §2.2 values (SPR
//! `SoundPhysics.java` `calculateOcclusion`, SP:497-575).

use std::path::PathBuf;

use glam::{DVec3, IVec3};
use resound_acoustics::scene::Scene;
use resound_acoustics::{
    Absent, AcousticModel, Budget, Cell, Mode, Paths, SoundRequest, WorldStore,
};
use resound_spr::SprModel;

fn load(name: &str, model: &SprModel) -> (Scene, WorldStore) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../acoustics-core/scenes")
        .join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap();
    let scene = Scene::from_json(&text, model.materials()).unwrap();
    let world = scene.build_world(model.materials(), 0).unwrap();
    (scene, world)
}

/// §2.2: cutoff `exp(−3·occ)`, gain `cutoff^0.1`, within 1e-3 relative.
fn assert_direct(name: &str, occ: f64, model: &SprModel, paths: Paths) {
    let (scene, world) = load(name, model);
    let mut request = scene.request().unwrap();
    request.paths = paths;
    let r = model
        .direct(&world, &request, &mut Budget::unlimited())
        .unwrap();
    let cutoff = (-3.0 * occ).exp();
    let gain = cutoff.powf(0.1);
    assert!((r.occ - occ).abs() < 1e-9, "{name}: occ {} != {occ}", r.occ);
    assert!(
        (f64::from(r.cutoff) - cutoff).abs() <= 1e-3 * cutoff,
        "{name}: cutoff {} vs {cutoff}",
        r.cutoff
    );
    assert!(
        (f64::from(r.gain) - gain).abs() <= 1e-3 * gain,
        "{name}: gain {} vs {gain}",
        r.gain
    );
    // Same through `evaluate(Direct)`.
    let e = model
        .evaluate(&world, &request, Mode::Direct, &mut Budget::unlimited())
        .unwrap();
    assert_eq!((e.occ, e.gain), (r.occ, r.gain));
}

#[test]
fn wall_scenes_give_spec_values() {
    let model = SprModel::default();
    assert_direct("W0", 0.0, &model, Paths::Nine);
    assert_direct("W1", 1.0, &model, Paths::Nine);
    assert_direct("W2", 2.0, &model, Paths::Nine);
    assert_direct("W3", 3.0, &model, Paths::Nine);
    // The table values of §2.2 themselves.
    let (scene, world) = load("W1", &model);
    let r = model
        .direct(&world, &scene.request().unwrap(), &mut Budget::unlimited())
        .unwrap();
    assert!((r.cutoff - 0.049_787).abs() < 1e-6 && (r.gain - 0.740_818).abs() < 1e-6);
}

#[test]
fn door_scene_one_path_vs_nine() {
    let model = SprModel::default();
    assert_direct("D", 1.0, &model, Paths::One);
    assert_direct("D", 0.0, &model, Paths::Nine);
}

#[test]
fn partial_wall_scene() {
    let model = SprModel::default();
    assert_direct("P", 0.25, &model, Paths::Nine);
    let (scene, world) = load("P", &model);
    let r = model
        .direct(&world, &scene.request().unwrap(), &mut Budget::unlimited())
        .unwrap();
    assert!((r.cutoff - 0.472).abs() < 1e-3 * 0.472 && (r.gain - 0.928).abs() < 1e-3 * 0.928);
}

#[test]
fn full_evaluation_of_wall_scenes_keeps_spec_values() {
    // The full SPR pass adds the shared-airspace floor; behind these walls no bounce point sees
    // the listener, so the dry values stay the §2.2 ones.
    let model = SprModel::default();
    for (name, occ) in [("W1", 1.0), ("W2", 2.0), ("W3", 3.0), ("P", 0.25)] {
        let (scene, world) = load(name, &model);
        let request = scene.request().unwrap();
        let (eval, _) = model
            .evaluate_spr(&world, &request, &mut Budget::unlimited())
            .unwrap();
        let cutoff = (-3.0_f64 * occ).exp();
        assert_eq!(eval.occlusion, occ, "{name}");
        assert_eq!(eval.shared_airspace_count, 0, "{name}: {eval:?}");
        assert!(
            (f64::from(eval.direct_cutoff) - cutoff).abs() <= 1e-3 * cutoff,
            "{name}"
        );
        assert!(
            (f64::from(eval.direct_gain) - cutoff.powf(0.1)).abs() <= 1e-3,
            "{name}"
        );
    }
}

#[test]
fn hand_built_store_matches_scene_file() {
    // W2 built directly with the store (ground default y=-1, stone x 30..31).
    let model = SprModel::default();
    let stone = model.materials().by_name("stone").unwrap();
    let default = model.materials().by_name("default").unwrap();
    let mut world = WorldStore::new(Absent::Air);
    world
        .fill_box(
            IVec3::new(-32, -1, -32),
            IVec3::new(95, -1, 31),
            Cell::solid(default),
        )
        .unwrap();
    world
        .fill_box(
            IVec3::new(30, 0, -16),
            IVec3::new(31, 15, 15),
            Cell::solid(stone),
        )
        .unwrap();
    let request = SoundRequest {
        range: 128.0,
        ..SoundRequest::new(DVec3::new(0.5, 1.5, 0.5), DVec3::new(60.5, 1.5, 0.5))
    };
    let snapshot = world.snapshot();
    let r = model
        .direct(&snapshot, &request, &mut Budget::unlimited())
        .unwrap();
    assert_eq!(r.occ, 2.0);
    assert!((r.cutoff - 0.002_478_752).abs() < 1e-8);
    assert!(r.telemetry.cells > 0);
}
