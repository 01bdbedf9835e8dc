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

/// Longest ray a [`CentreRay`] keeps (blocks): a unit direction then walks at most 175 cells, and
/// a kept ray counts its cells in a byte.
pub const CENTRE_RAY_MAX_LENGTH: f64 = 100.0;

/// A ray from a cell centre in a fixed direction, its cell walk worked out once (module doc).
///
/// What a walk reads on every section is one cache line (this struct) and one small table:
/// room measurement walks 24 of these twice per request beside the world's sections, and
/// together they should stay in the L1 cache.
#[derive(Clone, Debug)]
#[repr(C, align(64))]
pub struct CentreRay {
    /// Cell step on each axis (−1, 0, +1).
    step: [i8; 3],
    /// Number of kept cells (at most 255).
    n: u8,
    /// Per axis, where its run of reach entries starts in `table`, and its last index: entry
    /// `m` of the run is the first kept cell `m` cells from the start cell on that axis (the
    /// last entry is `n`: no kept cell reaches that far).
    reach_at: [[u16; 2]; 3],
    /// Where the kept cells start in `table`: 2 bytes per cell, the cell's distance from the
    /// start cell on `x` and on `y` (on `z` it is the cell's index less those two, as every
    /// step of the walk moves one axis by one).
    cells_at: u16,
    /// Where each axis's run of `bounds` starts.
    bounds_at: [u16; 3],
    /// The reach runs, then the kept cells.
    table: Box<[u8]>,
    /// Per axis, the boundary parameters the walk meets in order: after `n` steps on the axis
    /// its next boundary is `bounds[bounds_at[a] + n]` (one `+∞` for an axis the ray does not
    /// move on).
    bounds: Box<[f64]>,
    /// What only the accessors and the hand-over read.
    cold: Box<Cold>,
}

/// The parts of a [`CentreRay`] a walk reads at most once.
#[derive(Clone, Debug)]
struct Cold {
    /// Direction as given.
    dir: DVec3,
    /// The line of the ray (from any cell centre).
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
        let mut cells: Vec<[i32; 3]> = Vec::new();
        walk(
            &OpenSpace,
            origin,
            dir,
            length,
            &mut Budget::unlimited(),
            |s| {
                cells.push(s.cell.to_array());
                Flow::Continue
            },
        );
        // A unit direction reaches at most `length·√3 + 1` cells from the start (174); a
        // longer direction vector could reach further.
        let n = u8::try_from(cells.len()).ok().filter(|&n| n > 0)?;
        let mag = |c: &[i32; 3], a: usize| c[a].unsigned_abs() as usize;
        let far = per_axis(|a| cells.iter().map(|c| mag(c, a)).max().unwrap_or(0));
        let (mut bounds, mut bounds_at) = (Vec::new(), [0u16; 3]);
        let (mut table, mut reach_at) = (Vec::new(), [[0u16; 2]; 3]);
        for a in 0..3 {
            // Every run is at most 256 long (`n` is at most 255).
            bounds_at[a] = u16::try_from(bounds.len()).ok()?;
            let mut e = start.t_max[a];
            bounds.push(e);
            for _ in 0..far[a] {
                e += line.ray.t_delta[a];
                bounds.push(e);
            }
            reach_at[a] = [
                u16::try_from(table.len()).ok()?,
                u16::try_from(far[a] + 1).ok()?,
            ];
            // Distances grow by at most one per cell: the first cell at distance `m`, for
            // every `m` up to the last, in one pass; then `n` for one beyond.
            for (j, c) in cells.iter().enumerate() {
                if j == 0 || mag(c, a) > mag(&cells[j - 1], a) {
                    table.push(j as u8);
                }
            }
            table.push(n);
        }
        let cells_at = u16::try_from(table.len()).ok()?;
        for c in &cells {
            table.extend([mag(c, 0) as u8, mag(c, 1) as u8]);
        }
        Some(Self {
            step: line.ray.step.map(|s| s as i8),
            n,
            reach_at,
            cells_at,
            bounds_at,
            table: table.into_boxed_slice(),
            bounds: bounds.into_boxed_slice(),
            cold: Box::new(Cold { dir, line }),
        })
    }

    /// The direction.
    #[must_use]
    pub fn dir(&self) -> DVec3 {
        self.cold.dir
    }

    /// The length (blocks).
    #[must_use]
    pub fn length(&self) -> f64 {
        self.cold.line.ray.max_t
    }

    /// The first kept cell `m` cells from the start on axis `a` (the cell count if none).
    #[inline(always)]
    fn reach(&self, a: usize, m: i32) -> usize {
        let [start, last] = self.reach_at[a].map(usize::from);
        usize::from(self.table[start + usize::try_from(m).unwrap_or(0).min(last)])
    }

    /// Kept cell `j`'s distance from the start cell on each axis.
    #[inline(always)]
    fn distance(&self, j: usize) -> [i32; 3] {
        let at = usize::from(self.cells_at) + 2 * j;
        let (x, y) = (i32::from(self.table[at]), i32::from(self.table[at + 1]));
        [x, y, j as i32 - x - y]
    }

    /// Kept cell `j` relative to the start cell.
    #[inline(always)]
    fn offset(&self, j: usize) -> [i32; 3] {
        let d = self.distance(j);
        per_axis(|a| i32::from(self.step[a]) * d[a])
    }

    /// The boundary parameter on axis `a` after `n` steps on it.
    #[inline(always)]
    fn bound(&self, a: usize, n: usize) -> f64 {
        self.bounds[usize::from(self.bounds_at[a]) + n]
    }

    /// The first kept cell outside the box `[min, max]` of section-local coordinates on a
    /// moving axis (or 0 when a still axis lies outside it), for a start cell at local `base`.
    /// The kept cells move away from the box's near faces, so every later cell is outside too.
    #[inline(always)]
    fn first_outside(&self, base: [i32; 3], min: [i32; 3], max: [i32; 3]) -> usize {
        let mut first = usize::from(self.n);
        for a in 0..3 {
            let at = match self.step[a] {
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

    /// The axis the walk entered kept cell `j` through, and its distance from the start cell
    /// on that axis.
    #[inline(always)]
    fn entered(&self, j: usize) -> Option<(usize, i32)> {
        let j1 = j.checked_sub(1)?;
        let (now, before) = (self.distance(j), self.distance(j1));
        let a = if now[0] != before[0] {
            0
        } else if now[1] != before[1] {
            1
        } else {
            2
        };
        Some((a, now[a]))
    }

    /// The axis the walk entered kept cell `j` through.
    #[inline(always)]
    fn axis(&self, j: usize) -> Option<usize> {
        self.entered(j).map(|(a, _)| a)
    }

    /// The ray parameter where the walk enters kept cell `j`: the boundary it crossed last.
    #[inline(always)]
    fn t_enter(&self, j: usize) -> f64 {
        match self.entered(j) {
            None => 0.0,
            Some((a, d)) => self.bound(a, d as usize - 1),
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
            let length = self.length();
            return super::walk_solid(probe, centre, self.dir(), length, budget, visit);
        }
        let mut stats = WalkStats::default();
        let mut touched = Touched::default();
        let start_left = budget.remaining();
        let mut left = start_left;
        let c0 = cell.to_array();
        let n = usize::from(self.n);
        let mut k = 0;
        let end = loop {
            if k >= n {
                break WalkEnd::Reached;
            }
            let off = self.offset(k);
            let here = per_axis(|a| c0[a] + off[a]);
            let s = here.map(|v| v >> 4);
            let access = probe.section_access(IVec3::from_array(s));
            touched.enter(s);
            if is_skippable(access.class) {
                // The skip recomputes the boundaries from the origin: the walk goes on from
                // here. It does not read the cursor's boundaries when the section it is given
                // is skipped (`walk_on`), so they are not looked up.
                let cur = Cursor {
                    cell: here,
                    t_max: [f64::INFINITY; 3],
                    t: self.t_enter(k),
                    axis: self.axis(k),
                    left,
                };
                let (end, l) = walk_on::<P, F, false>(
                    probe,
                    centre.to_array(),
                    &self.cold.line,
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
            // `base + offset(j)`.
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
            let off = ray.offset(j);
            let local = IVec3::new(
                self.base[0] + off[0],
                self.base[1] + off[1],
                self.base[2] + off[2],
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
                sign: axis.map_or(0, |a| i32::from(ray.step[a])),
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
