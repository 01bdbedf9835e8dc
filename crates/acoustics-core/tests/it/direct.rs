//! Stage 1 fixtures: W0–W3, D, P (spec §4, §9).

use resound_acoustics::{AcousticModel, Budget, OwnModel, Paths};

use crate::common::{close, world};

#[test]
fn walls_w1_w3_reproduce_the_formulas() {
    let model = OwnModel::default();
    for k in 1..=3 {
        let (scene, w) = world(&format!("W{k}"));
        for paths in [Paths::One, Paths::Nine] {
            let mut req = scene.request().unwrap();
            req.paths = paths;
            let r = model.direct(&w, &req, &mut Budget::unlimited()).unwrap();
            let kf = f64::from(k);
            assert!((r.occ - kf).abs() < 1e-9, "W{k} occ {}", r.occ);
            assert!(
                close(f64::from(r.cutoff), (-3.0 * kf).exp(), 1e-3),
                "W{k} cutoff {}",
                r.cutoff
            );
            assert!(
                close(f64::from(r.gain), (-0.3 * kf).exp(), 1e-3),
                "W{k} gain {}",
                r.gain
            );
            // 60 blocks, range 128: no air absorption, so hf = cutoff.
            assert_eq!(r.air, 1.0);
            assert_eq!(r.hf, r.cutoff);
            assert!(!r.telemetry.met_unknown);
        }
    }
}

#[test]
fn w0_open_field_is_clear() {
    let (scene, w) = world("W0");
    let r = OwnModel::default()
        .direct(&w, &scene.request().unwrap(), &mut Budget::unlimited())
        .unwrap();
    assert_eq!(r.occ, 0.0);
    assert_eq!((r.gain, r.hf), (1.0, 1.0));
}

#[test]
fn one_stone_block_is_about_minus_2_6_and_minus_26_db() {
    let (scene, w) = world("W1");
    let r = OwnModel::default()
        .direct(&w, &scene.request().unwrap(), &mut Budget::unlimited())
        .unwrap();
    let low = 20.0 * f64::from(r.gain).log10();
    let high = 20.0 * f64::from(r.cutoff).log10();
    assert!((low + 2.606).abs() < 0.01, "{low}");
    assert!((high + 26.06).abs() < 0.05, "{high}");
}

#[test]
fn door_one_path_occ_1_nine_paths_occ_0() {
    let (scene, w) = world("D");
    let model = OwnModel::default();
    let mut req = scene.request().unwrap();
    req.paths = Paths::One;
    assert_eq!(
        model
            .direct(&w, &req, &mut Budget::unlimited())
            .unwrap()
            .occ,
        1.0
    );
    req.paths = Paths::Nine;
    let r = model.direct(&w, &req, &mut Budget::unlimited()).unwrap();
    assert_eq!(r.occ, 0.0);
    assert_eq!(r.telemetry.rays, 9);
}

#[test]
fn partial_wall_is_a_quarter() {
    let (scene, w) = world("P");
    let r = OwnModel::default()
        .direct(&w, &scene.request().unwrap(), &mut Budget::unlimited())
        .unwrap();
    assert!((r.occ - 0.25).abs() < 1e-12);
    assert!(close(f64::from(r.cutoff), 0.472, 1e-3), "{}", r.cutoff);
    assert!(close(f64::from(r.gain), 0.928, 1e-3), "{}", r.gain);
}

#[test]
fn air_absorption_applies_beyond_half_range_only() {
    let (scene, w) = world("W0");
    let mut req = scene.request().unwrap();
    req.range = 60.0; // d = 60 → 30 blocks beyond half range
    let r = OwnModel::default()
        .direct(&w, &req, &mut Budget::unlimited())
        .unwrap();
    assert!(close(f64::from(r.air), 0.994f64.powi(30), 1e-6));
    assert_eq!(r.hf, r.air);
}

#[test]
fn occlusion_is_capped_at_64_after_the_trace_stops() {
    // §2.2/§4: the trace stops once the sum exceeds 64; the model then takes min(occ, 64)
    // (spr.md §1.2 `calculateOcclusion`). 7 cells of occ 10 stop the trace at 70.
    use glam::{DVec3, IVec3};
    use resound_acoustics::{Absent, Cell, Material, MaterialTable, SoundRequest, WorldStore};
    let mut t = MaterialTable::standard();
    let lead = t.add(Material::new("lead", 10.0, 0.5)).unwrap();
    let mut w = WorldStore::new(Absent::Air);
    w.fill_box(
        IVec3::new(10, -20, -20),
        IVec3::new(19, 20, 20),
        Cell::solid(lead),
    )
    .unwrap();
    let model = OwnModel::new(t);
    let req = SoundRequest::new(DVec3::new(0.5, 0.5, 0.5), DVec3::new(30.5, 0.5, 0.5));
    let r = model.direct(&w, &req, &mut Budget::unlimited()).unwrap();
    assert_eq!(r.occ, 64.0);
    assert!(
        close(f64::from(r.gain), (-0.3f64 * 64.0).exp(), 1e-3),
        "{}",
        r.gain
    );
}
