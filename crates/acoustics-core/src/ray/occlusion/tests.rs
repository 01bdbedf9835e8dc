//! Tests of occlusion tracing: source cell, hit and sum stops.

use glam::{DVec3, IVec3};

use crate::ray::occlusion::{OcclusionSettings, trace_occlusion};
use crate::*;

#[test]
fn source_cell_is_excluded_and_listener_cell_counted() {
    let mut w = WorldStore::new(Absent::Air);
    w.fill_box(
        IVec3::ZERO,
        IVec3::new(5, 0, 0),
        Cell::solid(MaterialId::DEFAULT),
    )
    .unwrap();
    let t = MaterialTable::standard();
    let tr = trace_occlusion(
        &w,
        &t,
        DVec3::new(0.5, 0.5, 0.5),
        DVec3::new(5.5, 0.5, 0.5),
        &OcclusionSettings::default(),
        &mut Budget::unlimited(),
    );
    assert_eq!(tr.occ, 5.0);
}

#[test]
fn occlusion_stops_at_16_hits_and_sum_over_64() {
    let mut w = WorldStore::new(Absent::Air);
    let mut t = MaterialTable::standard();
    w.fill_box(
        IVec3::new(1, 0, 0),
        IVec3::new(40, 0, 0),
        Cell::solid(MaterialId::DEFAULT),
    )
    .unwrap();
    let from = DVec3::new(0.5, 0.5, 0.5);
    let to = DVec3::new(60.5, 0.5, 0.5);
    let s = OcclusionSettings::default();
    let tr = trace_occlusion(&w, &t, from, to, &s, &mut Budget::unlimited());
    assert_eq!((tr.occ, tr.hits), (16.0, 16));
    let heavy = t.add(Material::new("lead", 10.0, 0.5)).unwrap();
    w.fill_box(
        IVec3::new(1, 0, 0),
        IVec3::new(40, 0, 0),
        Cell::solid(heavy),
    )
    .unwrap();
    let tr = trace_occlusion(&w, &t, from, to, &s, &mut Budget::unlimited());
    assert_eq!(
        (tr.occ, tr.hits),
        (70.0, 7),
        "stops once the sum exceeds 64"
    );
}
