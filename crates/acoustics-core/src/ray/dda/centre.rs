//! Walks from a cell centre in a fixed direction, with the cell walk worked out once.
//!
//! From the centre of any cell `c` of the world, the walk's first boundary parameter on an
//! axis is `((c + 1) − (c + ½))·inv`, and `(c + 1) − (c + ½)` is exactly ½ whatever `c` is;
//! the later ones come from the same additions. So the cells the walk visits, relative to its
//! start cell, and the ray parameters where it enters them are the same from every cell
//! centre, as long as it walks cell by cell. A [`CentreRay`] keeps them, from one walk through
//! open space, and [`CentreRay::walk_solid`] reads each section's cells along the kept path:
//! where the ray leaves a section, and where it is past the section's non-air cells, are
//! table lookups instead of chains of boundary additions. At the first section it would skip
//! (Empty or Unknown: the skip recomputes the boundaries from the origin) it hands its state
//! to the walk of [`super::walk_solid`], so it reports what that walk reports, bit for bit.
//!
//! Room measurement casts its rays this way (spec §6: from the cell centre, fixed directions).

use glam::{DVec3, IVec3};

use super::{
    Cursor, Flow, Line, Step, Touched, WalkEnd, WalkStats, finish, is_skippable, per_axis, walk,
    walk_on,
};
use crate::budget::Budget;
use crate::world::probe::{Cell, SECTION_SIZE, SectionClass, WorldProbe};
use crate::world::section::{CellCode, Extent, SectionCells};
use crate::world::store::WORLD_LIMIT;

/// Longest ray a [`CentreRay`] keeps (blocks): its cells' offsets fit in `i8`.
pub const CENTRE_RAY_MAX_LENGTH: f64 = 100.0;

/// The axis byte of the start cell (entered through no face).
const NO_AXIS: i8 = 3;

/// A ray from a cell centre in a fixed direction, its cell walk worked out once (module doc).
///
/// The tables are small and the fields a walk reads on every section come first (`repr(C)`):
/// room measurement walks 24 of these twice per request, and what it reads of them should
/// stay in the L1 cache beside the world's sections.
#[derive(Clone, Debug)]
#[repr(C)]
pub struct CentreRay {
    /// Cell step on each axis (−1, 0, +1).
    step: [i32; 3],
    /// Per axis, where its run of `reach` starts and its last index in the run.
    reach_at: [[u16; 2]; 3],
    /// Where each axis's run of `bounds` starts.
    bounds_at: [u16; 3],
    /// Per axis, `reach[reach_at[a][0] + m]`: the first kept cell `m` cells from the start
    /// cell on that axis; the last entry of a run is the number of cells (none reaches that
    /// far).
    reach: Box<[u8]>,
    /// The cells of the walk relative to its start cell, in order; the fourth byte is the
    /// axis of the face the walk entered it through ([`NO_AXIS`] for the start cell).
    cells: Box<[[i8; 4]]>,
    /// Per axis, the boundary parameters the walk meets in order: after `n` steps on the axis
    /// its next boundary is `bounds[bounds_at[a] + n]` (one `+∞` for an axis the ray does not
    /// move on).
    bounds: Box<[f64]>,
    /// Direction as given.
    dir: DVec3,
    /// The line from the centre of cell (0, 0, 0).
    line: Line,
}

/// A world of Mixed sections of air, with no fast paths: the walk through it visits every
/// cell, which is what a [`CentreRay`] keeps.
struct OpenSpace;

impl WorldProbe for OpenSpace {
    fn section_class(&self, _: IVec3) -> SectionClass {
        SectionClass::Mixed
    }
    fn cell(&self, _: IVec3) -> Cell {
        Cell::Air
    }
    fn epoch(&self) -> u64 {
        0
    }
    fn revision(&self) -> u64 {
        0
    }
}

impl CentreRay {
    /// Works out the walk along `dir` (unit for lengths in blocks) up to `length`; `None` when
    /// `dir` is not finite or `length` is not in `0..=`[`CENTRE_RAY_MAX_LENGTH`].
    #[must_use]
    pub fn new(dir: DVec3, length: f64) -> Option<Self> {
        if !(0.0..=CENTRE_RAY_MAX_LENGTH).contains(&length) {
            return None;
        }
        let origin = DVec3::splat(0.5);
        let (line, start) = Line::start(origin, dir, length, u64::MAX)?;
        let mut cells = Vec::new();
        let mut fits = true;
        walk(
            &OpenSpace,
            origin,
            dir,
            length,
            &mut Budget::unlimited(),
            |s| {
                let c = s.cell.to_array().map(i8::try_from);
                let axis = s.axis.map_or(NO_AXIS, |a| a as i8);
                match c {
                    [Ok(x), Ok(y), Ok(z)] => cells.push([x, y, z, axis]),
                    _ => fits = false,
                }
                Flow::Continue
            },
        );
        // A unit direction reaches at most `length·√3 + 1` cells from the start (174); a
        // longer direction vector could reach further.
        if !fits || cells.len() > usize::from(u8::MAX) {
            return None;
        }
        let far = per_axis(|a| {
            cells
                .iter()
                .map(|c| usize::from(c[a].unsigned_abs()))
                .max()
                .unwrap_or(0)
        });
        let (mut bounds, mut bounds_at) = (Vec::new(), [0u16; 3]);
        let (mut reach, mut reach_at) = (Vec::new(), [[0u16; 2]; 3]);
        for a in 0..3 {
            // Both runs are at most 3 · 102 long (offsets fit in `i8`).
            bounds_at[a] = u16::try_from(bounds.len()).ok()?;
            let mut e = start.t_max[a];
            bounds.push(e);
            for _ in 0..far[a] {
                e += line.ray.t_delta[a];
                bounds.push(e);
            }
            reach_at[a] = [
                u16::try_from(reach.len()).ok()?,
                u16::try_from(far[a] + 1).ok()?,
            ];
            for m in 0..=far[a] + 1 {
                let first = cells
                    .iter()
                    .position(|c| usize::from(c[a].unsigned_abs()) >= m)
                    .unwrap_or(cells.len());
                reach.push(u8::try_from(first).ok()?);
            }
        }
        Some(Self {
            step: line.ray.step,
            reach_at,
            bounds_at,
            reach: reach.into_boxed_slice(),
            cells: cells.into_boxed_slice(),
            bounds: bounds.into_boxed_slice(),
            dir,
            line,
        })
    }

    /// The direction.
    #[must_use]
    pub fn dir(&self) -> DVec3 {
        self.dir
    }

    /// The length (blocks).
    #[must_use]
    pub fn length(&self) -> f64 {
        self.line.ray.max_t
    }

    /// The first kept cell `m` cells from the start on axis `a` (the cell count if none).
    #[inline(always)]
    fn reach(&self, a: usize, m: i32) -> usize {
        let [start, last] = self.reach_at[a].map(usize::from);
        usize::from(self.reach[start + usize::try_from(m).unwrap_or(0).min(last)])
    }

    /// The boundary parameter on axis `a` after `n` steps on it.
    #[inline(always)]
    fn bound(&self, a: usize, n: usize) -> f64 {
        self.bounds[usize::from(self.bounds_at[a]) + n]
    }

    /// The first kept cell outside the box `[min, max]` of section-local coordinates on a
    /// moving axis, for a start cell at local `base` (the box must hold no kept cell
    /// before `from` that matters: callers ask from inside it).
    #[inline(always)]
    fn first_outside(&self, base: [i32; 3], min: [i32; 3], max: [i32; 3]) -> usize {
        let step = self.step;
        let mut first = self.cells.len();
        for a in 0..3 {
            let at = match step[a] {
                1 => self.reach(a, max[a] + 1 - base[a]),
                -1 => self.reach(a, base[a] - min[a] + 1),
                // The ray stays at `base` on this axis: inside the box or outside throughout.
                _ if (min[a]..=max[a]).contains(&base[a]) => continue,
                _ => 0,
            };
            first = first.min(at);
        }
        first
    }

    /// The axis the walk entered kept cell `j` through.
    #[inline(always)]
    fn axis(&self, j: usize) -> Option<usize> {
        let a = self.cells[j][3];
        (a != NO_AXIS).then_some(a as usize)
    }

    /// The ray parameter where the walk enters kept cell `j`: the boundary it crossed last.
    #[inline(always)]
    fn t_enter(&self, j: usize) -> f64 {
        match self.axis(j) {
            None => 0.0,
            Some(a) => self.bound(a, usize::from(self.cells[j][a].unsigned_abs()) - 1),
        }
    }

    /// Like [`super::walk_solid`] from the centre of `cell` along this ray's direction and up
    /// to its length: `visit` sees the non-air cells, and the steps, ray parameters, stats and
    /// budget are those of that walk, bit for bit.
    pub fn walk_solid<P, F>(
        &self,
        probe: &P,
        cell: IVec3,
        budget: &mut Budget,
        mut visit: F,
    ) -> WalkStats
    where
        P: WorldProbe + ?Sized,
        F: FnMut(&Step) -> Flow,
    {
        let centre = cell.as_dvec3() + DVec3::splat(0.5);
        // Near the world's edge the walk's own checks decide where it ends.
        if cell.abs().max_element() >= WORLD_LIMIT - 2 * (CENTRE_RAY_MAX_LENGTH as i32) {
            let length = self.line.ray.max_t;
            return super::walk_solid(probe, centre, self.dir, length, budget, visit);
        }
        let mut stats = WalkStats::default();
        let mut touched = Touched::default();
        let start_left = budget.remaining();
        let mut left = start_left;
        let c0 = cell.to_array();
        let n = self.cells.len();
        let mut k = 0;
        let end = loop {
            if k >= n {
                break WalkEnd::Reached;
            }
            let off = self.cells[k];
            let here = per_axis(|a| c0[a] + i32::from(off[a]));
            let s = here.map(|v| v >> 4);
            let access = probe.section_access(IVec3::from_array(s));
            touched.enter(s);
            if is_skippable(access.class) {
                // The skip recomputes the boundaries from the origin: the walk goes on from
                // here. It does not read the cursor's boundaries when the section it is given
                // is skipped (`walk_on`), so they are not looked up.
                let mut line = self.line;
                line.o = centre.to_array();
                let cur = Cursor {
                    cell: here,
                    t_max: [f64::INFINITY; 3],
                    t: self.t_enter(k),
                    axis: self.axis(k),
                    left,
                };
                let (end, l) = walk_on::<P, F, false>(
                    probe,
                    &line,
                    cur,
                    Some(access),
                    &mut stats,
                    &mut touched,
                    &mut visit,
                );
                left = l;
                break end;
            }
            let lo = s.map(|v| v * SECTION_SIZE);
            // The start cell in section-local coordinates: kept cell `j` lies at
            // `base + cells[j]`.
            let base = per_axis(|a| c0[a] - lo[a]);
            let leave = self.first_outside(base, [0; 3], [SECTION_SIZE - 1; 3]);
            let limit = leave.min(k.saturating_add(usize::try_from(left).unwrap_or(usize::MAX)));
            let mut show = Shown {
                ray: self,
                base,
                lo,
                stats: &mut stats,
                visit: &mut visit,
            };
            let stopped = match (access.class, access.cells, access.sparse) {
                (SectionClass::Full(mat), _, _) => {
                    let full = Cell::Solid {
                        mat,
                        partial: false,
                    };
                    show.cells(k, limit, |_| Some(full))
                }
                (_, Some(cells), _) => {
                    // Past the box of its non-air cells, the rest of the way is air.
                    let end = cells.extent().map_or(k, |Extent { min, max }| {
                        self.first_outside(base, min.map(i32::from), max.map(i32::from))
                    });
                    show.cells(k, end.min(limit), |local| {
                        let code = cells.codes()[SectionCells::index(local)];
                        (code != CellCode::AIR).then(|| code.decode())
                    })
                }
                (_, None, Some(sparse)) => show.cells(k, limit, |local| {
                    let code = sparse.get(SectionCells::index(local));
                    (code != CellCode::AIR).then(|| code.decode())
                }),
                _ => show.cells(k, limit, |local| {
                    let value = probe.cell(IVec3::from_array(lo) + local);
                    (value != Cell::Air).then_some(value)
                }),
            };
            if let Some(j) = stopped {
                // The cells up to the one `visit` stopped on were walked.
                left -= (j + 1 - k) as u64;
                break WalkEnd::Stopped;
            }
            left -= (limit - k) as u64;
            if limit < leave {
                break WalkEnd::BudgetExhausted;
            }
            k = leave;
        };
        stats.end = end;
        finish(stats, touched, budget, start_left, left)
    }
}

/// Shows the non-air cells of a run of kept cells in one section.
struct Shown<'a, F> {
    ray: &'a CentreRay,
    /// The start cell, section-local.
    base: [i32; 3],
    /// The section's lowest cell.
    lo: [i32; 3],
    stats: &'a mut WalkStats,
    visit: &'a mut F,
}

impl<F: FnMut(&Step) -> Flow> Shown<'_, F> {
    /// Reads kept cells `from..to` (`read` gives a non-air cell's content from its local
    /// coordinates, `None` for air) and shows the non-air ones; the cell `visit` stopped on.
    #[inline(always)]
    fn cells(
        &mut self,
        from: usize,
        to: usize,
        read: impl Fn(IVec3) -> Option<Cell>,
    ) -> Option<usize> {
        let ray = self.ray;
        for j in from..to {
            let off = ray.cells[j];
            let local = IVec3::new(
                self.base[0] + i32::from(off[0]),
                self.base[1] + i32::from(off[1]),
                self.base[2] + i32::from(off[2]),
            );
            let Some(value) = read(local) else {
                continue;
            };
            if value == Cell::Unknown {
                self.stats.met_unknown = true;
                self.stats.unknown_steps += 1;
            }
            let axis = ray.axis(j);
            let step = Step {
                cell: IVec3::from_array(self.lo) + local,
                value,
                t_enter: ray.t_enter(j),
                axis,
                sign: axis.map_or(0, |a| ray.step[a]),
            };
            if (self.visit)(&step) == Flow::Stop {
                return Some(j);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests;
