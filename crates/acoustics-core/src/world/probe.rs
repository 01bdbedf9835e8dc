//! The `WorldProbe` trait: what acoustics may ask of a voxel world (spec §3.1).

use glam::IVec3;

pub use super::cell::{Cell, SECTION_CELLS, SECTION_SIZE, SectionClass, section_of};
use super::section::{SectionCells, SparseCells};

/// Read access to an (immutable) voxel world snapshot.
///
/// Implemented by [`crate::WorldStore`] and [`crate::WorldSnapshot`]; a host may implement it
/// over its own storage. Traversal asks [`WorldProbe::section_class`] once per section it
/// enters and [`WorldProbe::cell`] (or the fast path [`WorldProbe::section_cells`]) per cell of
/// `Mixed` sections only.
pub trait WorldProbe {
    /// Class of the section at section coordinates `section` (cell coordinates >> 4).
    fn section_class(&self, section: IVec3) -> SectionClass;

    /// Content of one cell (cell coordinates).
    fn cell(&self, cell: IVec3) -> Cell;

    /// Fast path for `Mixed` sections: direct access to the 4096 cells. Default: `None`
    /// (traversal then calls [`WorldProbe::cell`]).
    fn section_cells(&self, section: IVec3) -> Option<&SectionCells> {
        let _ = section;
        None
    }

    /// Fast path for sparsely stored `Mixed` sections (a fill and a few differing cells);
    /// traversal asks once per such section it enters. Default: `None`.
    fn section_sparse(&self, section: IVec3) -> Option<SparseCells<'_>> {
        let _ = section;
        None
    }

    /// Class and (for `Mixed`) cells of a section in one call; traversal uses this. Default:
    /// [`WorldProbe::section_class`] then [`WorldProbe::section_cells`].
    fn section_view(&self, section: IVec3) -> (SectionClass, Option<&SectionCells>) {
        let class = self.section_class(section);
        let cells = if class == SectionClass::Mixed {
            self.section_cells(section)
        } else {
            None
        };
        (class, cells)
    }

    /// Class and, for `Mixed`, the dense or sparse cells of a section in one call; traversal
    /// uses this once per section it enters. Default: [`WorldProbe::section_view`], then
    /// [`WorldProbe::section_sparse`] for a `Mixed` section without dense cells.
    fn section_access(&self, section: IVec3) -> SectionAccess<'_> {
        let (class, cells) = self.section_view(section);
        let sparse = if class == SectionClass::Mixed && cells.is_none() {
            self.section_sparse(section)
        } else {
            None
        };
        SectionAccess {
            class,
            cells,
            sparse,
        }
    }

    /// Ground height (voxel `y`) at horizontal voxel position `(x, z)` for a heightfield world:
    /// cells whose centre lies below it (at the centre's `x`, `z`) are ground. `None` where the
    /// world is not a heightfield (the default) or nothing is known there. Air paths use it to
    /// go over a ridge in one pass of the terrain profile instead of a cell search (§4a).
    fn ground_height(&self, x: f64, z: f64) -> Option<f64> {
        let _ = (x, z);
        None
    }

    /// World epoch: bumped by the host on a world switch / teleport; clears all caches.
    fn epoch(&self) -> u64;

    /// Change revision: bumped by every edit.
    fn revision(&self) -> u64;

    /// Revision of the last change of one section (default: the world revision).
    fn section_revision(&self, section: IVec3) -> u64 {
        let _ = section;
        self.revision()
    }
}

impl<P: WorldProbe + ?Sized> WorldProbe for &P {
    fn section_class(&self, section: IVec3) -> SectionClass {
        (**self).section_class(section)
    }
    fn cell(&self, cell: IVec3) -> Cell {
        (**self).cell(cell)
    }
    fn section_cells(&self, section: IVec3) -> Option<&SectionCells> {
        (**self).section_cells(section)
    }
    fn section_view(&self, section: IVec3) -> (SectionClass, Option<&SectionCells>) {
        (**self).section_view(section)
    }
    fn section_sparse(&self, section: IVec3) -> Option<SparseCells<'_>> {
        (**self).section_sparse(section)
    }
    fn section_access(&self, section: IVec3) -> SectionAccess<'_> {
        (**self).section_access(section)
    }
    fn ground_height(&self, x: f64, z: f64) -> Option<f64> {
        (**self).ground_height(x, z)
    }
    fn epoch(&self) -> u64 {
        (**self).epoch()
    }
    fn revision(&self) -> u64 {
        (**self).revision()
    }
    fn section_revision(&self, section: IVec3) -> u64 {
        (**self).section_revision(section)
    }
}

/// What traversal learns about a section on entering it ([`WorldProbe::section_access`]).
#[derive(Clone, Copy, Debug)]
pub struct SectionAccess<'a> {
    /// The class.
    pub class: SectionClass,
    /// Dense cells of a `Mixed` section, if stored so.
    pub cells: Option<&'a SectionCells>,
    /// Sparse cells of a `Mixed` section, if stored so.
    pub sparse: Option<SparseCells<'a>>,
}

/// An inclusive box of section coordinates (the sections a trace touched).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SectionBox {
    /// Smallest section (inclusive).
    pub min: IVec3,
    /// Largest section (inclusive).
    pub max: IVec3,
}

impl SectionBox {
    /// The box holding one section.
    #[must_use]
    pub fn of(section: IVec3) -> Self {
        Self {
            min: section,
            max: section,
        }
    }

    /// Grows the box to hold `section`.
    pub fn include(&mut self, section: IVec3) {
        self.min = self.min.min(section);
        self.max = self.max.max(section);
    }

    /// Smallest box holding both.
    #[must_use]
    pub fn union(self, other: Self) -> Self {
        Self {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
        }
    }

    /// True if `section` lies in the box.
    #[must_use]
    pub fn contains(&self, section: IVec3) -> bool {
        section.cmpge(self.min).all() && section.cmple(self.max).all()
    }
}

/// Union of optional boxes.
#[must_use]
pub fn union_box(a: Option<SectionBox>, b: Option<SectionBox>) -> Option<SectionBox> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.union(b)),
        (a, None) => a,
        (None, b) => b,
    }
}
