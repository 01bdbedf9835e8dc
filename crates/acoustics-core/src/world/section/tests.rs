//! Tests of cell packing and section cell indexing.

use glam::IVec3;

use crate::world::section::SectionCells;
use crate::*;

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
fn section_cells_wrap_world_coordinates() {
    let mut s = SectionCells::filled(CellCode::AIR);
    s.set(IVec3::new(-1, 17, 3), CellCode::UNKNOWN);
    assert_eq!(s.get(IVec3::new(15, 1, 3)), Cell::Unknown);
    assert_eq!(s.class(), SectionClass::Mixed);
}

/// The sparse index agrees with a plain set of the listed cells for every cell, through random
/// inserts and removes, and a sparse view reads like the dense cells it stands for.
#[test]
fn sparse_index_agrees_with_a_dense_reference() {
    use std::collections::BTreeMap;

    use crate::world::section::{SparseCells, SparseIndex, brick_of_index, cell_of_index};

    // Brick and in-brick bits cover every cell exactly once.
    let mut seen = std::collections::HashSet::new();
    for i in 0..4096 {
        assert!(seen.insert((brick_of_index(i), cell_of_index(i))));
        assert!(brick_of_index(i) < 64 && cell_of_index(i) < 64);
    }
    // A small xorshift: deterministic random indices, clustered sometimes (same brick).
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for round in 0..200 {
        let mut index = SparseIndex::default();
        let mut listed: BTreeMap<u16, CellCode> = BTreeMap::new();
        let base = (next() % 4096) as usize;
        for _ in 0..(round % 90) {
            let r = next();
            let i = if r & 1 == 0 {
                (r >> 8) as usize % 4096
            } else {
                // Near `base`: the same or neighbouring bricks.
                (base + (r >> 8) as usize % 40) % 4096
            };
            let key = u16::try_from(i).unwrap();
            if r & 6 == 0 {
                index.remove(i);
                listed.remove(&key);
            } else {
                index.insert(i);
                listed.insert(key, CellCode(2 + (r >> 20) as u16 % 50));
            }
        }
        let cells: Vec<(u16, CellCode)> = listed.iter().map(|(&i, &c)| (i, c)).collect();
        assert_eq!(SparseIndex::of(&cells), index, "round {round}");
        let view = SparseCells {
            fill: CellCode::AIR,
            cells: &cells,
            index: &index,
        };
        let mut dense = SectionCells::filled(CellCode::AIR);
        for &(i, c) in &cells {
            dense.set_index(usize::from(i), c);
        }
        for i in 0..4096 {
            let key = u16::try_from(i).unwrap();
            assert_eq!(
                index.contains(i),
                listed.contains_key(&key),
                "round {round} cell {i}"
            );
            assert_eq!(view.get(i), dense.codes()[i], "round {round} cell {i}");
        }
        let bricks = cells
            .iter()
            .fold(0u64, |m, &(i, _)| m | 1 << brick_of_index(usize::from(i)));
        assert_eq!(view.brick_mask(), bricks);
    }
    // Out-of-range indices are ignored, not a panic.
    let mut index = SparseIndex::default();
    index.insert(4096);
    index.remove(usize::MAX);
    assert_eq!(index, SparseIndex::default());
    assert!(!index.contains(4095));
}

/// The extent found by the row scan and the one grown by writes are both the box of the
/// non-air cells; writes of air never shrink it below them.
#[test]
fn extent_is_the_box_of_the_non_air_cells() {
    use crate::world::section::Extent;
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = |m: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % m
    };
    for case in 0..200 {
        let count = next(40);
        let mut codes = Box::new([CellCode::AIR; 4096]);
        let mut grown = SectionCells::filled(CellCode::AIR);
        let mut want: Option<Extent> = None;
        for _ in 0..count {
            let local = [next(16), next(16), next(16)].map(|v| v as i32);
            let code = CellCode(1 + next(3) as u16);
            let i = SectionCells::index(IVec3::from_array(local));
            codes[i] = code;
            grown.set(IVec3::from_array(local), code);
            let cell = Extent::of(local);
            want = Some(want.map_or(cell, |w| w.union(cell)));
        }
        assert_eq!(
            SectionCells::from_codes(codes).extent(),
            want,
            "case {case}"
        );
        assert_eq!(grown.extent(), want, "case {case}");
        // Air written over a cell keeps the box (it may only be too large).
        grown.set(IVec3::ZERO, CellCode::AIR);
        assert_eq!(grown.extent(), want, "case {case}");
    }
    assert_eq!(
        SectionCells::filled(CellCode::UNKNOWN).extent(),
        Some(Extent::FULL)
    );
}
