// SPDX-License-Identifier: GPL-3.0-only
//! acoustics-core's `WorldProbe` seen through SPR's tables.
//!
//! Stands for SPR `world/ClonedClientLevel.java` (`getBlockState`, VOID_AIR outside) with the
//! table lookup of `config/blocksound/BlockSoundConfigBase.java`; spec `spr.md` §1.1, §2.

use std::cell::Cell as Flag;

use glam::IVec3;
use resound_acoustics::{Cell, SectionBox, SectionCells, SectionClass, WorldProbe, section_of};

use crate::material_map::SprSurface;
use crate::{SprBlock, SprWorld};

/// A [`WorldProbe`] read as an [`SprWorld`]: solid cells become [`SprBlock`]s through a per-id
/// surface list; partial cells are non-sturdy; air and Unknown cells are passable (Unknown is
/// SPR's VOID_AIR and is recorded in [`ProbeWorld::met_unknown`]).
pub struct ProbeWorld<'a> {
    probe: &'a dyn WorldProbe,
    surfaces: &'a [SprSurface],
    met_unknown: Flag<bool>,
    unknown_reads: Flag<u64>,
    touched: Flag<Option<SectionBox>>,
    /// The last section read: rays walk cell by cell, so most reads hit the same section.
    last: Flag<Option<(IVec3, SectionClass, Option<&'a SectionCells>)>>,
}

impl<'a> ProbeWorld<'a> {
    /// Wraps `probe`; `surfaces[id]` is the SPR view of material `id` (ids past the end read as
    /// the default material, entry 0, as `MaterialTable::get` does).
    #[must_use]
    pub fn new(probe: &'a dyn WorldProbe, surfaces: &'a [SprSurface]) -> Self {
        ProbeWorld {
            probe,
            surfaces,
            met_unknown: Flag::new(false),
            unknown_reads: Flag::new(0),
            touched: Flag::new(None),
            last: Flag::new(None),
        }
    }

    /// Some read met an Unknown (non-resident) cell, which counted as air.
    #[must_use]
    pub fn met_unknown(&self) -> bool {
        self.met_unknown.get()
    }

    /// Number of cell reads that met Unknown.
    #[must_use]
    pub fn unknown_reads(&self) -> u64 {
        self.unknown_reads.get()
    }

    /// The box of sections read so far (for cache invalidation).
    #[must_use]
    pub fn touched(&self) -> Option<SectionBox> {
        self.touched.get()
    }

    fn surface(&self, mat: resound_acoustics::MaterialId) -> SprSurface {
        self.surfaces
            .get(usize::from(mat.0))
            .or_else(|| self.surfaces.first())
            .copied()
            .unwrap_or(SprSurface::Passable)
    }

    /// The class (and cells of a Mixed section) of `section`, through the one-entry cache.
    fn section(&self, section: IVec3) -> (SectionClass, Option<&'a SectionCells>) {
        if let Some((s, class, cells)) = self.last.get()
            && s == section
        {
            return (class, cells);
        }
        let mut touched = self.touched.get().unwrap_or(SectionBox::of(section));
        touched.include(section);
        self.touched.set(Some(touched));
        let class = self.probe.section_class(section);
        let cells = if class == SectionClass::Mixed {
            self.probe.section_cells(section)
        } else {
            None
        };
        self.last.set(Some((section, class, cells)));
        (class, cells)
    }

    fn unknown(&self) {
        self.met_unknown.set(true);
        self.unknown_reads.set(self.unknown_reads.get() + 1);
    }
}

impl SprWorld for ProbeWorld<'_> {
    fn section_is_passable(&self, section: IVec3) -> bool {
        match self.section(section).0 {
            SectionClass::Empty => true,
            SectionClass::Unknown => {
                self.unknown();
                true
            }
            SectionClass::Full(mat) => self.surface(mat) == SprSurface::Passable,
            SectionClass::Mixed => false,
        }
    }

    fn block(&self, cell: IVec3) -> Option<SprBlock> {
        let (class, cells) = self.section(section_of(cell));
        let (mat, partial) = match class {
            SectionClass::Empty => return None,
            SectionClass::Unknown => {
                self.unknown();
                return None;
            }
            SectionClass::Full(mat) => (mat, false),
            SectionClass::Mixed => {
                match cells.map_or_else(|| self.probe.cell(cell), |c| c.get(cell)) {
                    Cell::Air => return None,
                    Cell::Unknown => {
                        self.unknown();
                        return None;
                    }
                    Cell::Solid { mat, partial } => (mat, partial),
                }
            }
        };
        match self.surface(mat) {
            SprSurface::Passable => None,
            SprSurface::Solid(b) if partial => Some(b.partial()),
            SprSurface::Solid(b) => Some(b),
        }
    }
}
