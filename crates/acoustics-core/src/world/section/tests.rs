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
