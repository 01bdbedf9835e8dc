//! Walks from a cell centre in a fixed direction, with the cell walk worked out once.
//!
//! From the centre of any cell `c` of the world, the walk's first boundary parameter on an
//! axis is `((c + 1) − (c + ½))·inv`, and `(c + 1) − (c + ½)` is exactly ½ whatever `c` is;
//! the later ones come from the same additions. So the cells the walk visits, relative to its
//! start cell, and the ray parameters where it enters them are the same from every cell
//! centre, as long as it walks cell by cell. A [`CentreRay`] keeps them, from one walk through
//! open space, and [`CentreRay::walk_solid`] reads each section's cells along the kept path:
//! where the ray leaves a section, and where it is past the section's non-air cells, are
//! table lookups instead of chains of boundary additions. Sections it would skip (Empty or
//! Unknown) are skipped as [`super::walk_solid`] skips them: that skip's boundaries,
//! `(face − origin)·inv` and later `+ sdelta`, come from the same products and additions. At
//! the first section after a skip that must be walked, the entry cell and its boundaries are
//! recomputed from the origin (no longer the kept ones), so there it hands its state to the
//! walk of [`super::walk_solid`]; it reports what that walk reports, bit for bit.
//!
//! Room measurement casts its rays this way (spec §6: from the cell centre, fixed directions).

use glam::{DVec3, IVec3};

use super::{
    Cursor, Flow, Line, Step, Touched, WalkEnd, WalkStats, entry_cell, finish, is_skippable,
    per_axis, walk, walk_on,
};
use crate::budget::Budget;
use crate::world::probe::{
    Cell, SECTION_CELLS, SECTION_SIZE, SectionAccess, SectionClass, WorldProbe,
};
use crate::world::section::{CellCode, Extent};
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
    /// Where the kept cells start in `table`: first 2 bytes per cell, its section index
    /// offset ([`CentreRay::index_offset`]), then 2 bytes per cell, its distance from the
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

/// The parts of a [`CentreRay`] a walk reads at most once, or in its section skips.
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
            // `SectionCells::index` is linear in the local coordinates while they stay in the
            // section: the index of `base + c` is that of `base` plus this, modulo 4096.
            let lin = c[0] + 16 * (c[2] + 16 * c[1]);
            table.extend((lin as u16).to_le_bytes());
        }
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

    /// The two bytes of kept cell `j` in the run of cells at `at` in `table`.
    #[inline(always)]
    fn cell_bytes(&self, at: usize, j: usize) -> [u8; 2] {
        let at = at + 2 * j;
        let mut e = [0; 2];
        e.copy_from_slice(&self.table[at..at + 2]);
        e
    }

    /// Kept cell `j`'s distance from the start cell on each axis.
    #[inline(always)]
    fn distance(&self, j: usize) -> [i32; 3] {
        let at = usize::from(self.cells_at) + 2 * usize::from(self.n);
        let [x, y] = self.cell_bytes(at, j).map(i32::from);
        [x, y, j as i32 - x - y]
    }

    /// [`SectionCells::index`](crate::world::section::SectionCells::index) of kept cell `j`
    /// less that of the start cell, modulo 4096 (exact for two cells of one section).
    #[inline(always)]
    fn index_offset(&self, j: usize) -> i32 {
        let at = usize::from(self.cells_at);
        i32::from(u16::from_le_bytes(self.cell_bytes(at, j)))
    }

    /// Kept cell `j` relative to the start cell.
    #[inline(always)]
    fn offset(&self, j: usize) -> [i32; 3] {
        let d = self.distance(j);
        per_axis(|a| i32::from(self.step[a]) * d[a])
    }

    /// Kept cell `j` in the coordinates where the start cell is `base`.
    #[inline(always)]
    fn local(&self, base: [i32; 3], j: usize) -> IVec3 {
        let off = self.offset(j);
        IVec3::new(base[0] + off[0], base[1] + off[1], base[2] + off[2])
    }

    /// The boundary parameter on axis `a` after `n` steps on it.
    #[inline(always)]
    fn bound(&self, a: usize, n: usize) -> f64 {
        self.bounds[usize::from(self.bounds_at[a]) + n]
    }

    /// The first kept cell outside the box `[min, max]` of section-local coordinates on a
    /// moving axis (or 0 when a still axis lies outside it), for a start cell at local `base`.
    /// The kept cells move away from the box's near faces, so every later cell is outside too.
    /// `section[a]` is the first kept cell outside the section on axis `a`, the answer on an
    /// axis where the box spans the section.
    #[inline(always)]
    fn first_outside(
        &self,
        base: [i32; 3],
        min: [i32; 3],
        max: [i32; 3],
        section: [usize; 3],
    ) -> usize {
        let at = per_axis(|a| {
            if min[a] == 0 && max[a] == SECTION_SIZE - 1 {
                return section[a];
            }
            let s = i32::from(self.step[a]);
            let far = if s > 0 { max[a] } else { min[a] };
            // Cells from `base` to the first one past the far face; a still axis's run is
            // `[0, n]`: 1 (never outside) when it lies in the box, else 0.
            let m = if s == 0 {
                i32::from((min[a]..=max[a]).contains(&base[a]))
            } else {
                s * (far - base[a]) + 1
            };
            self.reach(a, m)
        });
        at[0].min(at[1]).min(at[2])
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

    /// The ray parameter where the walk enters kept cell `j` (the boundary it crossed last),
    /// and the axis it entered through.
    #[inline(always)]
    fn entry(&self, j: usize) -> (f64, Option<usize>) {
        match self.entered(j) {
            None => (0.0, None),
            Some((a, d)) => (self.bound(a, d as usize - 1), Some(a)),
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
        visit: F,
    ) -> WalkStats
    where
        P: WorldProbe + ?Sized,
        F: FnMut(&Step) -> Flow,
    {
        self.walk_solid_from(&mut StartSection::new(probe, cell), cell, budget, visit)
    }

    /// [`CentreRay::walk_solid`] in the world of `start`, which keeps the section of its cell
    /// for the walks of other rays from there.
    pub fn walk_solid_from<'p, P, F>(
        &self,
        start: &mut StartSection<'p, P>,
        cell: IVec3,
        budget: &mut Budget,
        mut visit: F,
    ) -> WalkStats
    where
        P: WorldProbe + ?Sized,
        F: FnMut(&Step) -> Flow,
    {
        let probe = start.probe;
        let centre = cell.as_dvec3() + DVec3::splat(0.5);
        // Near the world's edge the walk's own checks decide where it ends. Elsewhere the kept
        // cells (at most 255 steps from the start) and the sections skipped on the way (each
        // met within the ray's length, so next to a kept cell) stay well inside the world.
        if cell.abs().max_element() >= WORLD_LIMIT - EDGE_MARGIN {
            let length = self.length();
            return super::walk_solid(probe, centre, self.dir(), length, budget, visit);
        }
        let mut stats = WalkStats::default();
        let mut touched = Touched::default();
        let start_left = budget.remaining();
        let mut left = start_left;
        let c0 = cell.to_array();
        let n = usize::from(self.n);
        // Per axis, the cells from the start cell to the first one past the start section's
        // far face (1 on a still axis: its run is `[0, n]`); after `q` sections on the axis
        // it is 16·q more. `exit`: the first kept cell past the current section on the axis.
        let first_past = per_axis(|a| match self.step[a] {
            1 => SECTION_SIZE - (c0[a] & (SECTION_SIZE - 1)),
            -1 => (c0[a] & (SECTION_SIZE - 1)) + 1,
            _ => 1,
        });
        let mut past = first_past;
        let mut exit = per_axis(|a| self.reach(a, first_past[a]));
        // The section of kept cell `k`.
        let mut s = c0.map(|v| v >> 4);
        let mut k = 0;
        let end = loop {
            if k >= n {
                break WalkEnd::Reached;
            }
            // The first section is the start cell's.
            let access = if k == 0 {
                start.access(s)
            } else {
                probe.section_access(IVec3::from_array(s))
            };
            touched.enter(s);
            if is_skippable(access.class) {
                // Skip from here as the walk does; at the first section to walk after that,
                // the walk goes on (its boundaries are no longer the kept ones).
                let line = &self.cold.line;
                let skipped = skip(
                    probe,
                    line,
                    centre.to_array(),
                    (s, access.class),
                    self.entry(k).0,
                    &mut left,
                    &mut stats,
                    &mut touched,
                );
                match skipped {
                    Skipped::End(end) => break end,
                    Skipped::Enter(cur, access) => {
                        let (end, l) = walk_on::<P, F, false>(
                            probe,
                            centre.to_array(),
                            line,
                            cur,
                            Some(access),
                            &mut stats,
                            &mut touched,
                            &mut visit,
                        );
                        left = l;
                        break end;
                    }
                }
            }
            let lo = s.map(|v| v * SECTION_SIZE);
            // The start cell in section-local coordinates: kept cell `j` lies at
            // `base + offset(j)`.
            let base = per_axis(|a| c0[a] - lo[a]);
            let leave = exit[0].min(exit[1]).min(exit[2]);
            let limit = leave.min(k.saturating_add(usize::try_from(left).unwrap_or(usize::MAX)));
            let mut show = Shown {
                ray: self,
                base,
                index: base[0] + 16 * (base[2] + 16 * base[1]),
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
                    show.cells(k, limit, |_, _| Some(full))
                }
                (_, Some(cells), _) => {
                    // Past the box of its non-air cells, the rest of the way is air.
                    let end = cells.extent().map_or(k, |Extent { min, max }| {
                        self.first_outside(base, min.map(i32::from), max.map(i32::from), exit)
                    });
                    show.cells(k, end.min(limit), |i, _| {
                        let code = cells.codes()[i];
                        (code != CellCode::AIR).then(|| code.decode())
                    })
                }
                (_, None, Some(sparse)) => show.cells(k, limit, |i, _| {
                    let code = sparse.get(i);
                    (code != CellCode::AIR).then(|| code.decode())
                }),
                _ => show.cells(k, limit, |_, j| {
                    let value = probe.cell(IVec3::from_array(lo) + self.local(base, j));
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
            // The kept cell `leave` is one step on from the last one here, on the axis that
            // left the section (one only: each step moves one axis).
            for a in 0..3 {
                if exit[a] == leave {
                    past[a] += SECTION_SIZE;
                    exit[a] = self.reach(a, past[a]);
                    s[a] += i32::from(self.step[a]);
                }
            }
            k = leave;
        };
        stats.end = end;
        finish(stats, touched, budget, start_left, left)
    }
}

/// A world and the section of a cell in it, as [`WorldProbe::section_access`] gave it, kept
/// for the walks of several [`CentreRay`]s from that cell ([`CentreRay::walk_solid_from`]):
/// they all start there (room measurement walks 24), and it is asked for once.
pub struct StartSection<'p, P: ?Sized> {
    /// The world.
    probe: &'p P,
    /// The cell's section.
    section: [i32; 3],
    /// Its access once asked for.
    kept: Option<SectionAccess<'p>>,
}

impl<'p, P: WorldProbe + ?Sized> StartSection<'p, P> {
    /// Nothing asked for yet, for walks from `cell` in `probe`.
    #[must_use]
    pub fn new(probe: &'p P, cell: IVec3) -> Self {
        Self {
            probe,
            section: cell.to_array().map(|v| v >> 4),
            kept: None,
        }
    }

    /// The world.
    #[must_use]
    pub fn probe(&self) -> &'p P {
        self.probe
    }

    /// The access of section `s`, the walk's first: the kept one if it is the cell's.
    #[inline(always)]
    fn access(&mut self, s: [i32; 3]) -> SectionAccess<'p> {
        if s != self.section {
            return self.probe.section_access(IVec3::from_array(s));
        }
        if let Some(access) = self.kept {
            return access;
        }
        let access = self.probe.section_access(IVec3::from_array(s));
        // A Mixed section given without its cells may get them on a later call (a host that
        // fills its cache on visits): it is asked again then.
        if access.class != SectionClass::Mixed || access.cells.is_some() || access.sparse.is_some()
        {
            self.kept = Some(access);
        }
        access
    }
}

/// Cells from the world's edge within which [`CentreRay::walk_solid`] leaves the walk to
/// [`super::walk_solid`]: a kept ray reaches at most 255 cells from its start.
const EDGE_MARGIN: i32 = 1024;

/// How a section skip of [`skip`] ended.
enum Skipped<'p> {
    /// The walk ended.
    End(WalkEnd),
    /// The ray entered a section to walk cell by cell: the cursor on its entry cell, and the
    /// section.
    Enter(Cursor, SectionAccess<'p>),
}

/// The section skip of [`walk_on`], from the skippable section `s` (its class given) entered
/// at `t`, along `line` from the origin `o`: one step and one cell of budget
/// per section, the same counters, sections touched and ray parameters (the same products and
/// additions), until the walk ends or enters a section to walk. Only for walks far from the
/// world's edge (it does not check for leaving the world).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn skip<'p, P>(
    probe: &'p P,
    line: &Line,
    o: [f64; 3],
    (mut s, mut class): ([i32; 3], SectionClass),
    mut t: f64,
    left: &mut u64,
    stats: &mut WalkStats,
    touched: &mut Touched,
) -> Skipped<'p>
where
    P: WorldProbe + ?Sized,
{
    let Line {
        d,
        inv,
        sdelta,
        ray,
    } = *line;
    let (step, max_t) = (ray.step, ray.max_t);
    let lo = per_axis(|a| s[a] * SECTION_SIZE);
    // The section's exit faces, as the walk computes them.
    let mut st = per_axis(|a| match step[a] {
        1 => (f64::from(lo[a] + SECTION_SIZE) - o[a]) * inv[a],
        -1 => (f64::from(lo[a]) - o[a]) * inv[a],
        _ => f64::INFINITY,
    });
    let (access, a) = loop {
        if *left == 0 {
            return Skipped::End(WalkEnd::BudgetExhausted);
        }
        *left -= 1;
        stats.skipped_sections += 1;
        if class == SectionClass::Unknown {
            stats.met_unknown = true;
            stats.unknown_steps += 1;
        }
        // Nearest face, lowest axis on ties. No face is NaN or −0, so the chosen one is the
        // walk's `min` of the three, bit for bit; `max_t` is finite, so an infinite exit (a
        // zero direction) is past it.
        let a = if st[0] <= st[1] && st[0] <= st[2] {
            0
        } else if st[1] <= st[2] {
            1
        } else {
            2
        };
        let t_exit = st[a];
        if t_exit > max_t {
            return Skipped::End(WalkEnd::Reached);
        }
        s[a] += step[a];
        st[a] += sdelta[a];
        let access = probe.section_access(IVec3::from_array(s));
        class = access.class;
        touched.enter(s);
        // The walk's `t_exit.max(t)` (neither is NaN or −0).
        if t_exit > t {
            t = t_exit;
        }
        if !is_skippable(class) {
            break (access, a);
        }
    };
    // Entry cell and its boundaries, as the walk computes them.
    let (cell, t_max) = entry_cell(s, a, step, o, d, inv, t);
    let cur = Cursor {
        cell,
        t_max,
        t,
        axis: Some(a),
        left: *left,
    };
    Skipped::Enter(cur, access)
}

/// Shows the non-air cells of a run of kept cells in one section.
struct Shown<'a, F> {
    ray: &'a CentreRay,
    /// The start cell, section-local.
    base: [i32; 3],
    /// [`SectionCells::index`](crate::world::section::SectionCells::index) of `base`
    /// (unwrapped): kept cell `j`'s index is this plus its [`CentreRay::index_offset`],
    /// modulo 4096.
    index: i32,
    /// The section's lowest cell.
    lo: [i32; 3],
    stats: &'a mut WalkStats,
    visit: &'a mut F,
}

impl<F: FnMut(&Step) -> Flow> Shown<'_, F> {
    /// Reads kept cells `from..to` (`read` gives a non-air cell's content from its section
    /// index and its number `j`, `None` for air) and shows the non-air ones; the cell `visit`
    /// stopped on.
    #[inline(always)]
    fn cells(
        &mut self,
        from: usize,
        to: usize,
        read: impl Fn(usize, usize) -> Option<Cell>,
    ) -> Option<usize> {
        let ray = self.ray;
        for j in from..to {
            // The cell lies in the section: its index is exact modulo 4096.
            let i = (self.index + ray.index_offset(j)) & (SECTION_CELLS as i32 - 1);
            let Some(value) = read(i as usize, j) else {
                continue;
            };
            if value == Cell::Unknown {
                self.stats.met_unknown = true;
                self.stats.unknown_steps += 1;
            }
            let (t_enter, axis) = ray.entry(j);
            let step = Step {
                cell: IVec3::from_array(self.lo) + ray.local(self.base, j),
                value,
                t_enter,
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
