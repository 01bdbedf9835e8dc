//! Which cells air can pass, read section by section (each section's class asked once).

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use glam::{DVec3, IVec3};

use crate::budget::Budget;
use crate::ray::dda::{Flow, WalkEnd, walk_solid};
use crate::world::probe::{
    Cell, SectionAccess, SectionBox, SectionClass, WorldProbe, section_of, union_box,
};
use crate::world::section::SectionCells;
use crate::world::store::SectionHasher;

/// The budget ran out during a line-of-sight walk or a cell read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Exhausted;

/// A world read for air paths: every solid cell blocks air, Air and Unknown (not resident)
/// pass it. The cells holding the two ends are passable whatever they hold (a source inside
/// a block still sounds, as the occlusion trace excludes the source cell).
pub(crate) struct AirGrid<'p, P: WorldProbe + ?Sized> {
    probe: &'p P,
    sections: HashMap<IVec3, SectionAccess<'p>, BuildHasherDefault<SectionHasher>>,
    /// The section read last (most neighbour reads stay in it): no map lookup.
    last: Option<(IVec3, SectionAccess<'p>)>,
    /// The section read before it.
    prev: Option<(IVec3, SectionAccess<'p>)>,
    ends: [IVec3; 2],
    /// Some read or walk met Unknown.
    pub met_unknown: bool,
    /// Sections read or walked.
    pub touched: Option<SectionBox>,
    /// Cells charged to the budget by line-of-sight walks (the search counts its own reads).
    pub walk_cells: u64,
    /// Cells of budget one A* read costs: 1, or [`TERRAIN_READ_COST`] on a heightfield world.
    pub read_cost: u64,
}

/// Cells of budget an A* read costs on a heightfield world (one that answers
/// [`WorldProbe::ground_height`]): its cells are computed from the terrain's planes and its
/// sections' cells cached on a second visit, ≈ 70–100 ns a read against ≈ 30 ns in a stored
/// voxel world, so the per-search and per-tick caps bound time there too. Deterministic: it
/// depends on the world only.
pub(crate) const TERRAIN_READ_COST: u64 = 3;

impl<'p, P: WorldProbe + ?Sized> AirGrid<'p, P> {
    /// A reader of `probe` with `ends` (source and listener cells) passable.
    pub fn new(probe: &'p P, ends: [IVec3; 2]) -> Self {
        Self {
            probe,
            sections: HashMap::default(),
            last: None,
            prev: None,
            ends,
            met_unknown: false,
            touched: None,
            walk_cells: 0,
            read_cost: 1,
        }
    }

    fn access(&mut self, section: IVec3) -> SectionAccess<'p> {
        if let Some((s, a)) = self.last
            && s == section
        {
            return a;
        }
        // A search at a section border alternates between two sections.
        if let Some((s, a)) = self.prev
            && s == section
        {
            self.prev = self.last;
            self.last = Some((s, a));
            return a;
        }
        let a = if let Some(a) = self.sections.get(&section) {
            *a
        } else {
            let mut a = self.probe.section_access(section);
            if a.class == SectionClass::Mixed && a.cells.is_none() && a.sparse.is_none() {
                // A probe that stores a section's cells on a repeated visit (the terrain's
                // section cache) stores them now: the search reads many of its cells, each
                // through `WorldProbe::cell` otherwise.
                a = self.probe.section_access(section);
            }
            self.sections.insert(section, a);
            self.touched = union_box(self.touched, Some(SectionBox::of(section)));
            a
        };
        self.prev = self.last;
        self.last = Some((section, a));
        a
    }

    /// The class of `section` (read once per search).
    pub fn section_class(&mut self, section: IVec3) -> SectionClass {
        self.access(section).class
    }

    /// True if air cannot pass `cell`.
    pub fn blocked(&mut self, cell: IVec3) -> bool {
        if cell == self.ends[0] || cell == self.ends[1] {
            return false;
        }
        let a = self.access(section_of(cell));
        let value = match a.class {
            SectionClass::Empty => return false,
            SectionClass::Unknown => {
                self.met_unknown = true;
                return false;
            }
            SectionClass::Full(_) => return true,
            SectionClass::Mixed => {
                if let Some(cells) = a.cells {
                    cells.get(cell)
                } else if let Some(sparse) = a.sparse {
                    sparse.get(SectionCells::index(cell)).decode()
                } else {
                    self.probe.cell(cell)
                }
            }
        };
        match value {
            Cell::Air => false,
            Cell::Unknown => {
                self.met_unknown = true;
                false
            }
            Cell::Solid { .. } => true,
        }
    }

    /// True if the segment `a → b` crosses no blocking cell (the walk of [`walk_solid`], so
    /// Empty and Unknown sections cost one step each).
    ///
    /// # Errors
    /// [`Exhausted`] when the budget runs out first.
    pub fn clear(&mut self, a: DVec3, b: DVec3, budget: &mut Budget) -> Result<bool, Exhausted> {
        let delta = b - a;
        let len = delta.length();
        if len <= 0.0 {
            return Ok(true);
        }
        let ends = self.ends;
        let before = budget.used();
        let stats = walk_solid(self.probe, a, delta / len, len, budget, |step| {
            if step.value.is_solid() && step.cell != ends[0] && step.cell != ends[1] {
                Flow::Stop
            } else {
                Flow::Continue
            }
        });
        self.walk_cells += budget.used() - before;
        self.met_unknown |= stats.met_unknown;
        self.touched = union_box(self.touched, stats.touched);
        match stats.end {
            WalkEnd::Reached => Ok(true),
            WalkEnd::Stopped | WalkEnd::LeftWorld => Ok(false),
            WalkEnd::BudgetExhausted => Err(Exhausted),
        }
    }
}
