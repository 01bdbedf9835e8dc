//! Tests of the world store: classes, revisions, changes, edit limits.

use glam::IVec3;

use crate::*;

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

/// Sparse sections (few cells differing from the fill) read exactly like the cells written,
/// turn dense past [`SPARSE_MAX_CELLS`] and uniform when the edits are undone.
#[test]
fn sparse_sections_read_like_dense_ones() {
    use crate::world::store::SPARSE_MAX_CELLS;
    let stone = Cell::solid(MaterialId(1));
    let wood = Cell::Solid {
        mat: MaterialId(2),
        partial: true,
    };
    let mut w = WorldStore::new(Absent::Unknown);
    let mut expect = std::collections::HashMap::new();
    type Expect = std::collections::HashMap<IVec3, Cell>;
    let put = |w: &mut WorldStore, expect: &mut Expect, lo: IVec3, hi: IVec3, cell: Cell| {
        w.fill_box(lo, hi, cell).unwrap();
        for x in lo.x..=hi.x {
            for y in lo.y..=hi.y {
                for z in lo.z..=hi.z {
                    expect.insert(IVec3::new(x, y, z), cell);
                }
            }
        }
    };
    put(
        &mut w,
        &mut expect,
        IVec3::new(3, 4, 5),
        IVec3::new(3, 4, 5),
        stone,
    );
    put(
        &mut w,
        &mut expect,
        IVec3::new(0, 0, 0),
        IVec3::new(1, 2, 3),
        wood,
    ); // 24 cells
    assert_eq!(w.section_class(IVec3::ZERO), SectionClass::Mixed);
    assert!(w.section_cells(IVec3::ZERO).is_none()); // stored sparsely
    let check = |w: &WorldStore, expect: &Expect| {
        for x in 0..16 {
            for y in 0..16 {
                for z in 0..16 {
                    let c = IVec3::new(x, y, z);
                    let want = expect.get(&c).copied().unwrap_or(Cell::Unknown);
                    assert_eq!(w.cell(c), want, "{c}");
                    assert_eq!(w.snapshot().cell(c), want, "{c}");
                }
            }
        }
    };
    check(&w, &expect);
    // The copy of the section holds the same cells.
    let Some(SectionData::Cells(cells)) = w.section_data(IVec3::ZERO) else {
        panic!("a mixed section");
    };
    assert_eq!(cells.get(IVec3::new(3, 4, 5)), stone);
    // Past the sparse limit the section is stored cell by cell.
    put(
        &mut w,
        &mut expect,
        IVec3::new(8, 0, 0),
        IVec3::new(15, 7, 0),
        stone,
    );
    const { assert!(25 + 64 > SPARSE_MAX_CELLS) };
    assert!(w.section_cells(IVec3::ZERO).is_some());
    check(&w, &expect);
    // Undoing a sparse section's only cell makes it uniform again.
    put(
        &mut w,
        &mut expect,
        IVec3::new(20, 0, 0),
        IVec3::new(20, 0, 0),
        stone,
    );
    assert_eq!(w.section_class(IVec3::new(1, 0, 0)), SectionClass::Mixed);
    w.fill_box(IVec3::new(20, 0, 0), IVec3::new(20, 0, 0), Cell::Unknown)
        .unwrap();
    assert_eq!(w.section_class(IVec3::new(1, 0, 0)), SectionClass::Unknown);
}

#[test]
fn sections_one_box_cuts_alike_share_their_cells_until_edited() {
    // A stone slab one cell thick across 64 × 64 sections, then a second layer over part of
    // it: sections cut alike from the same code share one array; an edit copies first.
    let stone = Cell::Solid {
        mat: MaterialId(3),
        partial: false,
    };
    let mut w = WorldStore::new(Absent::Air);
    w.fill_box(IVec3::new(0, 3, 0), IVec3::new(1023, 3, 1023), stone)
        .unwrap();
    let ptr = |w: &WorldStore, s: IVec3| {
        w.section_cells(s)
            .map(|c| std::ptr::from_ref(c) as usize)
            .expect("a dense section")
    };
    let first = ptr(&w, IVec3::ZERO);
    for s in [
        IVec3::new(1, 0, 0),
        IVec3::new(63, 0, 63),
        IVec3::new(17, 0, 40),
    ] {
        assert_eq!(ptr(&w, s), first, "section {s} shares the slab's cells");
    }
    for (cell, want) in [
        (IVec3::new(5, 3, 900), stone),
        (IVec3::new(1023, 3, 0), stone),
        (IVec3::new(5, 4, 900), Cell::Air),
        (IVec3::new(5, 2, 900), Cell::Air),
        (IVec3::new(1024, 3, 0), Cell::Air),
    ] {
        assert_eq!(w.cell(cell), want, "cell {cell}");
    }
    // One section edited: it gets its own array; its neighbours keep the slab's cells.
    w.set_cell(IVec3::new(20, 9, 20), stone).unwrap();
    assert_ne!(ptr(&w, IVec3::new(1, 0, 1)), first);
    assert_eq!(w.cell(IVec3::new(20, 9, 20)), stone);
    assert_eq!(
        w.cell(IVec3::new(36, 9, 20)),
        Cell::Air,
        "the neighbour is untouched"
    );
    assert_eq!(ptr(&w, IVec3::new(2, 0, 1)), first);
    // A box cutting sections differently (a half-section offset) shares per shape: its
    // first, middle and last sections along x and z give 9 shapes here, the first corner's
    // 8 × 1 × 8 cells a sparse list and the other 8 dense arrays.
    let mut v = WorldStore::new(Absent::Air);
    v.fill_box(IVec3::new(8, 0, 8), IVec3::new(8 + 160, 0, 8 + 160), stone)
        .unwrap();
    let mut arrays: Vec<usize> = (0..=11)
        .flat_map(|x| (0..=11).map(move |z| IVec3::new(x, 0, z)))
        .filter_map(|s| v.section_cells(s).map(|c| std::ptr::from_ref(c) as usize))
        .collect();
    arrays.sort_unstable();
    arrays.dedup();
    assert_eq!(arrays.len(), 8, "first/middle/last along x times along z");
    assert!(v.section_cells(IVec3::ZERO).is_none() && v.section_sparse(IVec3::ZERO).is_some());
    assert_eq!(v.cell(IVec3::new(8 + 160, 0, 8 + 160)), stone);
    assert_eq!(v.cell(IVec3::new(8 + 161, 0, 8)), Cell::Air);
    assert_eq!(v.cell(IVec3::new(7, 0, 100)), Cell::Air);
}
