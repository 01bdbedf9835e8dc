//! The grid's units: a cell and what it holds, a 16³ section and what a whole section holds.

use glam::IVec3;

use super::material::MaterialId;

/// Edge length of a section in cells.
pub const SECTION_SIZE: i32 = 16;
/// Cells per section (16³).
pub const SECTION_CELLS: usize = 4096;

/// The section (16³ cells) holding `cell` (floor division).
#[must_use]
pub fn section_of(cell: IVec3) -> IVec3 {
    IVec3::new(cell.x >> 4, cell.y >> 4, cell.z >> 4)
}

/// What a whole section holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SectionClass {
    /// Not resident (not loaded). Counts as air; traces report `met_unknown`.
    Unknown,
    /// Only air.
    Empty,
    /// Only full (non-partial) cells of one material.
    Full(MaterialId),
    /// Anything else: ask per cell.
    Mixed,
}

/// What one cell holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// Air.
    Air,
    /// Not resident; counts as air.
    Unknown,
    /// A solid cell of a material; `partial` cells (doors, fences, stairs) occlude ×0.25.
    Solid {
        /// Material id.
        mat: MaterialId,
        /// Non-full cell.
        partial: bool,
    },
}

impl Cell {
    /// A full solid cell.
    #[must_use]
    pub fn solid(mat: MaterialId) -> Self {
        Self::Solid {
            mat,
            partial: false,
        }
    }

    /// True for [`Cell::Solid`].
    #[must_use]
    pub fn is_solid(self) -> bool {
        matches!(self, Self::Solid { .. })
    }
}
