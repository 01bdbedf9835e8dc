// SPDX-License-Identifier: GPL-3.0-only
//! `SprModel` as an `AcousticModel`: material mapping, full evaluation, budgets, bad input
//! (SPR `SoundPhysics.java` `evaluateEnvironment`, SP:287-466; tables OC/RC).

use glam::{DVec3, IVec3};
use resound_acoustics::{
    Absent, AcousticModel, Budget, Cell, MaterialTable, Mode, RequestError, SoundRequest,
    WorldStore,
};
use resound_spr::{SoundType, SprModel, SprSurface, spr_surface};

#[test]
fn material_table_maps_spr_values() {
    let model = SprModel::default();
    let t = model.materials();
    let standard = MaterialTable::standard();
    // Standard names keep their ids.
    for (id, m) in standard.iter() {
        assert_eq!(t.by_name(&m.name), Some(id), "{}", m.name);
    }
    let refl = |n: &str| t.get(t.by_name(n).unwrap()).reflectivity;
    let occ = |n: &str| t.get(t.by_name(n).unwrap()).occlusion;
    assert_eq!(refl("stone"), 1.5);
    assert_eq!(refl("anvil"), 0.5, "SPR: anvil is 0.5");
    assert_eq!(refl("netherite"), 1.5, "SPR: netherite is 1.5");
    assert_eq!(refl("leaves"), 0.3);
    assert_eq!(occ("leaves"), 1.0);
    assert_eq!(occ("wool"), 1.5);
    assert_eq!(refl("deepslate_tiles"), 1.5);
    assert_eq!(occ("moss_carpet"), 0.1);
    assert_eq!(occ("lava"), 0.75);
    assert_eq!(occ("jukebox"), 0.0);
    // Every SPR sound type is reachable by name.
    for ty in SoundType::ALL {
        assert!(t.by_name(ty.name()).is_some(), "{}", ty.name());
    }
    assert_eq!(spr_surface("plants"), Some(SprSurface::Passable));
    match spr_surface("leaves") {
        Some(SprSurface::Solid(b)) => assert!(!b.sturdy),
        other => panic!("{other:?}"),
    }
}

fn stone_room() -> (SprModel, WorldStore) {
    let model = SprModel::default();
    let stone = model.materials().by_name("stone").unwrap();
    let mut world = WorldStore::new(Absent::Air);
    world
        .fill_box(IVec3::splat(-1), IVec3::splat(10), Cell::solid(stone))
        .unwrap();
    world
        .fill_box(IVec3::splat(0), IVec3::splat(9), Cell::Air)
        .unwrap();
    (model, world)
}

#[test]
fn closed_room_through_the_store() {
    // spec `spr.md` §4.4 through acoustics-core's store and the trait; range 16 → M = 16.
    let (model, world) = stone_room();
    let request = SoundRequest {
        range: 16.0,
        ..SoundRequest::new(DVec3::splat(5.5), DVec3::new(5.5, 5.5, 9.5))
    };
    let r = model
        .evaluate(&world, &request, Mode::Full, &mut Budget::unlimited())
        .unwrap();
    let expect = [0.0, 0.435_090, 0.833_333, 0.833_333];
    for k in 0..4 {
        assert!((r.sends[k] - expect[k]).abs() < 1e-5, "{k}: {:?}", r.sends);
    }
    assert_eq!((r.occ, r.gain), (0.0, 1.0));
    // SPR has no discrete echoes; the taps are Resound's stage 2 (image sources), the
    // same as `reflections` gives.
    let echo = model
        .reflections(&world, &request, &mut Budget::unlimited())
        .unwrap();
    assert_eq!(r.taps, echo.taps);
    assert!(r.decay > 1.0 && r.wet == 1.0);
    assert!(r.telemetry.rays > 100 && r.telemetry.cells > 1000);
    let room = model
        .room(&world, &request, &mut Budget::unlimited())
        .unwrap();
    assert_eq!(room.sends, r.sends);
}

#[test]
fn redirect_behind_a_wall() {
    // Occluded sound with open sky: SPR moves the apparent source toward clear bounce points.
    let model = SprModel::default();
    let stone = model.materials().by_name("stone").unwrap();
    let mut world = WorldStore::new(Absent::Air);
    world
        .fill_box(
            IVec3::new(-20, -1, -20),
            IVec3::new(20, -1, 20),
            Cell::solid(stone),
        )
        .unwrap();
    world
        .fill_box(
            IVec3::new(0, 0, -1),
            IVec3::new(0, 2, 1),
            Cell::solid(stone),
        )
        .unwrap();
    let request = SoundRequest {
        range: 16.0,
        ..SoundRequest::new(DVec3::new(-3.5, 1.5, 0.5), DVec3::new(3.5, 1.5, 0.5))
    };
    let (eval, _) = model
        .evaluate_spr(&world, &request, &mut Budget::unlimited())
        .unwrap();
    assert!(eval.occlusion > 0.0);
    assert!(eval.shared_airspace_count > 0);
    let moved = eval.redirected_position.unwrap();
    assert!(
        (moved.distance(request.listener) - 7.0).abs() < 1e-9,
        "distance kept"
    );
    assert!(
        eval.direct_cutoff > eval.occluded_cutoff,
        "shared-airspace floor"
    );
}

#[test]
fn budget_and_bad_input() {
    let (model, world) = stone_room();
    let request = SoundRequest::new(DVec3::splat(5.5), DVec3::new(5.5, 5.5, 9.5));
    let mut budget = Budget::new(50);
    let r = model
        .evaluate(&world, &request, Mode::Full, &mut budget)
        .unwrap();
    assert!(r.telemetry.budget_exhausted);
    assert!(budget.used() <= 50);
    let bad = SoundRequest::new(DVec3::splat(f64::NAN), DVec3::ZERO);
    assert!(matches!(
        model.evaluate(&world, &bad, Mode::Full, &mut Budget::unlimited()),
        Err(RequestError::NonFinite(_))
    ));
    // A listener inside rock: a defined result.
    let inside = SoundRequest::new(DVec3::splat(5.5), DVec3::splat(-0.5));
    let r = model
        .evaluate(&world, &inside, Mode::Full, &mut Budget::unlimited())
        .unwrap();
    assert!(r.gain.is_finite() && r.sends.iter().all(|s| s.is_finite()));
    // Unknown regions read as air and are reported.
    let unknown = WorldStore::new(Absent::Unknown);
    let r = model
        .evaluate(&unknown, &request, Mode::Full, &mut Budget::unlimited())
        .unwrap();
    assert!(r.telemetry.met_unknown);
    assert_eq!(r.occ, 0.0);
    assert_eq!(model.name(), "spr");
}

#[test]
fn model_is_send_and_sync() {
    fn check<T: Send + Sync + Clone + Default>() {}
    check::<SprModel>();
    let boxed: Box<dyn AcousticModel + Send + Sync> = Box::new(SprModel::default());
    assert_eq!(boxed.name(), "spr");
}
