//! Unit tests: cell packing, store, materials, DDA (section skipping ≡ cell walk), budgets.

use glam::{DVec3, IVec3};
use proptest::prelude::*;

use crate::ray::cast::first_hit;
use crate::ray::dda::{Flow, walk};
use crate::ray::occlusion::{OcclusionSettings, trace_occlusion};
use crate::world::section::SectionCells;
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
fn cell_codes_round_trip() {
    for cell in [
        Cell::Air,
        Cell::Unknown,
        Cell::solid(MaterialId(0)),
        Cell::Solid {
            mat: MaterialId(7),
            partial: true,
        },
        Cell::solid(MaterialId::MAX),
    ] {
        assert_eq!(CellCode::encode(cell).unwrap().decode(), cell);
    }
    assert_eq!(
        CellCode::encode(Cell::solid(MaterialId(MaterialId::MAX.0 + 1))),
        None
    );
}

#[test]
fn store_classes_revisions_and_changes() {
    let mut w = WorldStore::new(Absent::Unknown);
    assert_eq!(w.section_class(IVec3::ZERO), SectionClass::Unknown);
    let stone = MaterialTable::standard().by_name("stone").unwrap();
    w.fill_box(IVec3::ZERO, IVec3::splat(15), Cell::solid(stone))
        .unwrap();
    assert_eq!(w.section_class(IVec3::ZERO), SectionClass::Full(stone));
    w.set_cell(IVec3::new(3, 4, 5), Cell::Air).unwrap();
    assert_eq!(w.section_class(IVec3::ZERO), SectionClass::Mixed);
    assert_eq!(w.cell(IVec3::new(3, 4, 5)), Cell::Air);
    assert_eq!(w.cell(IVec3::new(3, 4, 6)), Cell::solid(stone));
    w.set_cell(IVec3::new(3, 4, 5), Cell::solid(stone)).unwrap();
    assert_eq!(
        w.section_class(IVec3::ZERO),
        SectionClass::Full(stone),
        "collapses back to uniform"
    );
    w.fill_box(IVec3::new(-1, 0, 0), IVec3::new(16, 0, 0), Cell::Air)
        .unwrap();
    let changes = w.changes_since(3).unwrap();
    let sections: Vec<IVec3> = changes.iter().map(|c| c.section).collect();
    assert_eq!(
        sections,
        vec![
            IVec3::new(-1, 0, 0),
            IVec3::new(0, 0, 0),
            IVec3::new(1, 0, 0)
        ]
    );
    assert!(changes.iter().all(|c| c.revision == 4));
    assert_eq!(w.changes_since(4).unwrap().len(), 0);
    assert_eq!(w.section_revision(IVec3::new(1, 0, 0)), 4);
    assert!(matches!(
        w.fill_box(IVec3::ONE, IVec3::ZERO, Cell::Air),
        Err(EditError::InvertedBox { .. })
    ));
    assert!(matches!(
        w.set_cell(IVec3::ZERO, Cell::solid(MaterialId(u16::MAX))),
        Err(EditError::MaterialOutOfRange(_))
    ));
    assert!(matches!(
        w.set_cell(IVec3::splat(1 << 29), Cell::Air),
        Err(EditError::OutOfWorld(_))
    ));
    w.unload_section(IVec3::ZERO);
    assert_eq!(w.section_class(IVec3::ZERO), SectionClass::Unknown);
    assert_eq!(w.residency(), 1);
}

#[test]
fn section_cells_wrap_world_coordinates() {
    let mut s = SectionCells::filled(CellCode::AIR);
    s.set(IVec3::new(-1, 17, 3), CellCode::UNKNOWN);
    assert_eq!(s.get(IVec3::new(15, 1, 3)), Cell::Unknown);
    assert_eq!(s.class(), SectionClass::Mixed);
}

#[test]
fn material_table_names_and_defaults() {
    let t = MaterialTable::standard();
    let stone = t.get(t.by_name("Stone").unwrap());
    assert_eq!((stone.occlusion, stone.reflectivity), (1.0, 1.5));
    assert_eq!(t.get(t.by_name("wool").unwrap()).occlusion, 1.5);
    assert_eq!(t.get(t.by_name("netherrack").unwrap()).reflectivity, 1.1);
    assert_eq!(t.get(MaterialId(9999)).name, "default");
    assert_eq!(
        t.get(t.by_name("water").unwrap()).occlusion_of_cell(false),
        0.0
    );
    assert_eq!(t.get(MaterialId::DEFAULT).occlusion_of_cell(true), 0.25);
    let mut t2 = MaterialTable::minimal();
    assert!(matches!(
        t2.add(Material::new("x", f64::NAN, 0.5)),
        Err(world::material::AddMaterialError::BadValue(_))
    ));
    assert_eq!(t2.add(Material::new("x", 1.0, 0.5)), Ok(MaterialId(1)));
    assert!(matches!(
        t2.add(Material::new("X", 1.0, 0.5)),
        Err(world::material::AddMaterialError::Duplicate(_))
    ));
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

#[test]
fn first_hit_reports_face_axis_and_sign() {
    let mut w = WorldStore::new(Absent::Air);
    w.fill_box(
        IVec3::new(10, -5, -5),
        IVec3::new(12, 5, 5),
        Cell::solid(MaterialId(1)),
    )
    .unwrap();
    let c = first_hit(
        &w,
        DVec3::new(0.5, 0.5, 0.5),
        DVec3::X,
        100.0,
        &mut Budget::unlimited(),
    );
    let h = c.hit.unwrap();
    assert_eq!(
        (h.cell, h.axis, h.normal_sign, h.plane),
        (IVec3::new(10, 0, 0), 0, -1, 10)
    );
    assert!((h.t - 9.5).abs() < 1e-12);
    let c = first_hit(
        &w,
        DVec3::new(20.5, 0.5, 0.5),
        -DVec3::X,
        100.0,
        &mut Budget::unlimited(),
    );
    let h = c.hit.unwrap();
    assert_eq!((h.cell.x, h.normal_sign, h.plane), (12, 1, 13));
    assert_eq!(
        c.stats.touched.unwrap(),
        SectionBox {
            min: IVec3::ZERO,
            max: IVec3::new(1, 0, 0)
        }
    );
}

#[test]
fn budget_split_and_absorb() {
    let mut b = Budget::new(100);
    assert!(b.try_take(30));
    let mut child = b.split(1000);
    assert_eq!(child.limit(), 70);
    assert!(child.try_take(70));
    assert!(!child.try_take(1));
    b.absorb(&child);
    assert_eq!((b.used(), b.remaining()), (100, 0));
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

// ---- Audit additions (each failed, panicked or hung before its fix) ----

#[test]
fn fill_box_of_the_whole_supported_world_is_too_large_not_an_overflow() {
    // Each side is just under 2^29 cells: the cell count (2^87) overflowed u64 (debug panic).
    let mut w = WorldStore::new(Absent::Air);
    let lim = world::store::WORLD_LIMIT - 1;
    assert!(matches!(
        w.fill_box(IVec3::splat(-lim), IVec3::splat(lim), Cell::Air),
        Err(EditError::TooLarge(_))
    ));
    assert_eq!(w.revision(), 0, "a rejected edit changes nothing");
}

#[test]
fn fill_box_of_a_thin_slab_across_many_sections_is_refused() {
    // One cell thick, 2^14 × 2^14 cells: 2^28 cells (within MAX_FILL_CELLS) but 2^20 partially
    // covered sections, which would need 8 GiB of cell arrays.
    let mut w = WorldStore::new(Absent::Air);
    let side = 1 << 14;
    assert!(matches!(
        w.fill_box(IVec3::new(0, 5, 0), IVec3::new(side - 1, 5, side - 1), Cell::Air),
        Err(EditError::TooManyPartialSections(n)) if n == 1 << 20
    ));
    assert_eq!(w.revision(), 0, "a rejected edit changes nothing");
    // The same area in whole sections is cheap (uniform sections) and allowed.
    assert!(
        w.fill_box(IVec3::ZERO, IVec3::new(1023, 15, 1023), Cell::Air)
            .is_ok()
    );
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

#[test]
fn slot_cross_fade_follows_the_spec_formula() {
    use crate::room::{effective_decay, slot_amplitudes};
    // Spec §6 written out independently: D between adjacent slots T_lo..T_hi,
    // t = ln(D/T_lo)/ln(T_hi/T_lo), a_hi = sin(πt²/2), a_lo = cos(πt²/2).
    let slots = [0.15f64, 0.55, 1.68, 4.142];
    for (d, lo) in [(0.3f64, 0usize), (0.82, 1), (1.0, 1), (1.38, 1), (2.5, 2)] {
        let t = (d / slots[lo]).ln() / (slots[lo + 1] / slots[lo]).ln();
        let x = std::f64::consts::FRAC_PI_2 * t * t;
        let a = slot_amplitudes(d);
        for (k, ak) in a.iter().enumerate() {
            let expect = if k == lo {
                x.cos()
            } else if k == lo + 1 {
                x.sin()
            } else {
                0.0
            };
            assert!((ak - expect).abs() < 1e-12, "D {d}: a{k} {ak} vs {expect}");
        }
    }
    assert_eq!(slot_amplitudes(0.15), [1.0, 0.0, 0.0, 0.0]);
    assert_eq!(
        slot_amplitudes(0.01),
        [1.0, 0.0, 0.0, 0.0],
        "clamped to the shortest slot"
    );
    assert_eq!(
        slot_amplitudes(9.0),
        [0.0, 0.0, 0.0, 1.0],
        "clamped to the longest slot"
    );
    // One slot alone: the −5/−35 dB reading gives that slot's decay (×ln(1e6)/13.82, the
    // spec's rounded constant).
    for (k, t) in slots.iter().enumerate() {
        let mut a = [0.0; 4];
        a[k] = 1.0;
        let expect = t * 1e6f64.ln() / 13.82;
        assert!((effective_decay(&a) - expect).abs() < 1e-9, "slot {k}");
    }
}

#[test]
fn malformed_planes_are_rejected_not_panics() {
    let mut w = WorldStore::new(Absent::Air);
    w.fill_box(
        IVec3::new(-5, -1, -5),
        IVec3::new(5, -1, 5),
        Cell::solid(MaterialId(1)),
    )
    .unwrap();
    let t = MaterialTable::standard();
    let (s, l) = (DVec3::new(-2.5, 1.5, 0.5), DVec3::new(2.5, 1.5, 0.5));
    for plane in [
        Plane {
            axis: 3,
            coord: 0,
            normal_sign: 1,
        },
        Plane {
            axis: usize::MAX,
            coord: 0,
            normal_sign: 1,
        },
        Plane {
            axis: 1,
            coord: i32::MIN,
            normal_sign: 1,
        },
        Plane {
            axis: 1,
            coord: i32::MAX,
            normal_sign: -1,
        },
        Plane {
            axis: 1,
            coord: 0,
            normal_sign: 0,
        },
        Plane {
            axis: 1,
            coord: 0,
            normal_sign: 7,
        },
        Plane {
            axis: 1,
            coord: 0,
            normal_sign: i32::MIN,
        },
    ] {
        let r = echo::validate_plane(
            &w,
            &t,
            s,
            l,
            plane,
            &mut Budget::unlimited(),
            &mut Default::default(),
        );
        assert_eq!(r.err(), Some(echo::Rejection::BadPlane), "{plane:?}");
    }
    // The floor plane itself is fine (and cut: the ground echo is far under 30 ms).
    let r = echo::validate_plane(
        &w,
        &t,
        s,
        l,
        Plane {
            axis: 1,
            coord: 0,
            normal_sign: 1,
        },
        &mut Budget::unlimited(),
        &mut Default::default(),
    );
    assert_eq!(r.err(), Some(echo::Rejection::NearCut));
}

#[test]
fn change_list_never_reports_a_partial_revision() {
    // Two edits of 40 000 whole sections each: the change list overflows (2^16) and is cut
    // inside revision 2. `changes_since(1)` must then say "lost" (None), not return a part
    // of revision 2's sections.
    let mut w = WorldStore::new(Absent::Air);
    let stone = Cell::solid(MaterialId(1));
    let hi = IVec3::new(200 * 16 - 1, 15, 200 * 16 - 1);
    w.fill_box(IVec3::ZERO, hi, stone).unwrap();
    w.fill_box(IVec3::new(0, 16, 0), hi + IVec3::new(0, 16, 0), stone)
        .unwrap();
    assert_eq!(w.revision(), 2);
    match w.changes_since(1) {
        None => {}
        Some(c) => assert_eq!(c.len(), 40_000, "all of revision 2 or None"),
    }
    assert!(w.changes_since(0).is_none());
    let kept = w.changes_since(2).unwrap();
    assert!(kept.is_empty());
}

#[test]
fn extreme_coordinates_are_errors_not_overflows() {
    let mut w = WorldStore::new(Absent::Air);
    for c in [
        IVec3::new(i32::MIN, 0, 0),
        IVec3::splat(i32::MAX),
        IVec3::new(0, 0, i32::MIN),
    ] {
        assert!(
            matches!(w.set_cell(c, Cell::Air), Err(EditError::OutOfWorld(_))),
            "{c}"
        );
        assert!(matches!(
            w.fill_box(c.min(IVec3::ZERO), c.max(IVec3::ZERO), Cell::Air),
            Err(EditError::OutOfWorld(_))
        ));
        // Section coordinates ×16 overflowed i32.
        assert!(matches!(
            w.load_section(c, SectionData::Uniform(Cell::Air)),
            Err(EditError::OutOfWorld(_))
        ));
        w.unload_section(c);
        let probe = cache::ClassCachedProbe::new(w.snapshot(), 1 << 20);
        assert_eq!(probe.section_class(c), SectionClass::Unknown);
        let _ = probe.cell(c);
    }
}
