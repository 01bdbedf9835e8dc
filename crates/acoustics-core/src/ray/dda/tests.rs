//! Tests of the DDA: section skipping matches the plain cell walk.

use glam::{DVec3, IVec3};
use proptest::prelude::*;

use crate::ray::cast::first_hit;
use crate::ray::dda::{Flow, walk};
use crate::ray::occlusion::{OcclusionSettings, trace_occlusion};
use crate::*;

/// A probe that hides section classes: every section reads as Mixed, so the walk visits
/// every cell (the reference for section skipping).
struct NoSkip<'a>(&'a WorldStore);

impl WorldProbe for NoSkip<'_> {
    fn section_class(&self, _: IVec3) -> SectionClass {
        SectionClass::Mixed
    }
    fn cell(&self, cell: IVec3) -> Cell {
        match self.0.cell(cell) {
            Cell::Unknown => Cell::Air,
            c => c,
        }
    }
    fn epoch(&self) -> u64 {
        0
    }
    fn revision(&self) -> u64 {
        0
    }
}

#[test]
fn empty_sections_cost_one_step_each() {
    let w = WorldStore::new(Absent::Air);
    let mut b = Budget::unlimited();
    let stats = walk(
        &w,
        DVec3::new(0.5, 0.5, 0.5),
        DVec3::X,
        512.0,
        &mut b,
        |_| Flow::Continue,
    );
    assert_eq!(
        stats.cells, 33,
        "512 blocks along x = 32 sections + the one it ends in"
    );
    assert_eq!(stats.skipped_sections, stats.cells);
    // A diagonal ray crosses about 3x as many sections, still far below ~1500 cells.
    let d = DVec3::new(1.0, 0.7, 0.4).normalize();
    let stats = walk(
        &w,
        DVec3::new(0.5, 0.5, 0.5),
        d,
        512.0,
        &mut Budget::unlimited(),
        |_| Flow::Continue,
    );
    assert!(stats.cells < 100, "{}", stats.cells);
}

fn boxes_world(boxes: &[(IVec3, IVec3, u8)]) -> WorldStore {
    let mut w = WorldStore::new(Absent::Air);
    for &(a, b, kind) in boxes {
        let cell = match kind {
            0 => Cell::Air,
            1 => Cell::Unknown,
            2 => Cell::Solid {
                mat: MaterialId(1),
                partial: true,
            },
            k => Cell::solid(MaterialId(u16::from(k % 5))),
        };
        w.fill_box(a.min(b), a.max(b), cell).unwrap();
    }
    w
}

proptest! {
    #[test]
    fn section_skipping_matches_the_plain_cell_walk(
        raw in prop::collection::vec(((-40i32..40, -40i32..40, -40i32..40), (0i32..20, 0i32..20, 0i32..20), 0u8..8), 0..8),
        from in (-60f64..60.0, -60f64..60.0, -60f64..60.0),
        to in (-60f64..60.0, -60f64..60.0, -60f64..60.0),
    ) {
        let boxes: Vec<_> = raw.iter().map(|&((x, y, z), (dx, dy, dz), k)| {
            let a = IVec3::new(x, y, z);
            (a, a + IVec3::new(dx, dy, dz), k)
        }).collect();
        let w = boxes_world(&boxes);
        let t = MaterialTable::standard();
        let (from, to) = (DVec3::new(from.0, from.1, from.2), DVec3::new(to.0, to.1, to.2));
        let s = OcclusionSettings::default();
        let a = trace_occlusion(&w, &t, from, to, &s, &mut Budget::unlimited());
        let b = trace_occlusion(&NoSkip(&w), &t, from, to, &s, &mut Budget::unlimited());
        prop_assert!((a.occ - b.occ).abs() < 1e-9, "{} vs {}", a.occ, b.occ);
        prop_assert_eq!(a.hits, b.hits);
        prop_assert!(a.stats.cells <= b.stats.cells);
        if let Some(dir) = (to - from).try_normalize() {
            let ha = first_hit(&w, from, dir, 100.0, &mut Budget::unlimited()).hit;
            let hb = first_hit(&NoSkip(&w), from, dir, 100.0, &mut Budget::unlimited()).hit;
            prop_assert_eq!(ha.map(|h| (h.cell, h.axis, h.normal_sign)), hb.map(|h| (h.cell, h.axis, h.normal_sign)));
        }
    }
}

#[test]
fn walk_with_zero_direction_and_endless_length_visits_one_cell() {
    // A point "ray" in an Empty section: the section walk used to loop in place until the
    // budget ran out (forever with an unlimited budget).
    let w = WorldStore::new(Absent::Air);
    let mut b = Budget::new(10_000);
    let stats = walk(
        &w,
        DVec3::new(0.5, 0.5, 0.5),
        DVec3::ZERO,
        f64::INFINITY,
        &mut b,
        |_| Flow::Continue,
    );
    assert_eq!(stats.cells, 1);
    assert_eq!(stats.end, ray::dda::WalkEnd::Reached);
}
