//! Amanatides–Woo cell walk that jumps `Empty`/`Unknown` sections in one step (spec §3.1).

use glam::{DVec3, IVec3};

use crate::budget::Budget;
use crate::world::probe::{Cell, SECTION_SIZE, SectionBox, SectionClass, WorldProbe, section_of};
use crate::world::section::{CellCode, SectionCells, SparseCells};
use crate::world::store::WORLD_LIMIT;

/// One visited (non-skipped) cell.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    /// Cell coordinates.
    pub cell: IVec3,
    /// Its content (Unknown cells are reported as such; callers treat them as air).
    pub value: Cell,
    /// Ray parameter (distance from the origin) where the ray enters the cell.
    pub t_enter: f64,
    /// Axis (0 = x, 1 = y, 2 = z) of the face the ray entered through; `None` for the start cell.
    pub axis: Option<usize>,
    /// Direction of travel on `axis` (+1 / −1); the entered face's normal is `-sign`.
    pub sign: i32,
}

/// What the visitor wants next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep walking.
    Continue,
    /// Stop here.
    Stop,
}

/// How a walk ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum WalkEnd {
    /// Reached the end of the ray.
    #[default]
    Reached,
    /// The visitor stopped it.
    Stopped,
    /// The budget ran out.
    BudgetExhausted,
    /// The ray left the supported world (±2^28 cells).
    LeftWorld,
}

/// Counters of one walk.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WalkStats {
    /// DDA steps: cells visited plus sections skipped.
    pub cells: u64,
    /// Sections skipped in one step.
    pub skipped_sections: u64,
    /// Steps through Unknown sections or cells.
    pub unknown_steps: u64,
    /// The ray met Unknown (counted as air).
    pub met_unknown: bool,
    /// Sections touched (for invalidation).
    pub touched: Option<SectionBox>,
    /// How the walk ended.
    pub end: WalkEnd,
}

impl WalkStats {
    /// Adds another walk's counters.
    pub fn merge(&mut self, other: &Self) {
        self.cells += other.cells;
        self.skipped_sections += other.skipped_sections;
        self.unknown_steps += other.unknown_steps;
        self.met_unknown |= other.met_unknown;
        self.touched = crate::world::probe::union_box(self.touched, other.touched);
        if other.end == WalkEnd::BudgetExhausted {
            self.end = WalkEnd::BudgetExhausted;
        }
    }
}

fn axis_t(cell: i32, o: f64, inv: f64, step: i32) -> f64 {
    match step {
        1 => (f64::from(cell) + 1.0 - o) * inv,
        -1 => (f64::from(cell) - o) * inv,
        _ => f64::INFINITY,
    }
}

/// `floor` for values known to be inside ±2^30, without a libm call (x86-64 baseline has no
/// SSE4.1 `roundsd`).
#[inline]
fn floor_i32(x: f64) -> i32 {
    let i = x as i32;
    i - i32::from(f64::from(i) > x)
}

fn is_skippable(class: SectionClass) -> bool {
    matches!(class, SectionClass::Empty | SectionClass::Unknown)
}

/// What stays the same for the whole walk.
struct Ray {
    /// Ray parameter per cell on each axis.
    t_delta: [f64; 3],
    /// Cell step on each axis (−1, 0, +1).
    step: [i32; 3],
    /// End of the ray.
    max_t: f64,
}

/// The walk's state as it passes from section to section.
#[derive(Clone, Copy)]
struct Cursor {
    /// Current cell.
    cell: [i32; 3],
    /// Ray parameter of the next boundary on each axis.
    t_max: [f64; 3],
    /// Ray parameter where the ray entered the current cell.
    t: f64,
    /// Axis of the face it entered through.
    axis: Option<usize>,
    /// Budget left.
    left: u64,
}

/// Walks the cells of the section at `lo` (its lowest cell) from `cur` until the ray leaves
/// it (`None`, `cur` then holds the first cell outside) or the walk ends. `read` gives a
/// cell's content, `None` for an air cell that `visit` does not see (`AIR` false): air cells
/// are walked and counted all the same.
#[inline(always)]
fn walk_cells<F, R, const AIR: bool>(
    cur: &mut Cursor,
    ray: &Ray,
    lo: [i32; 3],
    stats: &mut WalkStats,
    visit: &mut F,
    read: R,
) -> Option<WalkEnd>
where
    F: FnMut(&Step) -> Flow,
    R: Fn(IVec3) -> Option<Cell>,
{
    let hi = lo.map(|v| v + SECTION_SIZE);
    let [mut cx, mut cy, mut cz] = cur.cell;
    let [mut tx, mut ty, mut tz] = cur.t_max;
    let (mut t, mut axis, mut left) = (cur.t, cur.axis, cur.left);
    let [dx, dy, dz] = ray.t_delta;
    let [sx, sy, sz] = ray.step;
    let max_t = ray.max_t;
    let end = loop {
        if t > max_t {
            break Some(WalkEnd::Reached);
        }
        if left == 0 {
            break Some(WalkEnd::BudgetExhausted);
        }
        left -= 1;
        let c = IVec3::new(cx, cy, cz);
        if let Some(value) = read(c) {
            if value == Cell::Unknown {
                stats.met_unknown = true;
                stats.unknown_steps += 1;
            }
            if AIR || value != Cell::Air {
                let (sign, ax) = match axis {
                    Some(a) => (ray.step[a], Some(a)),
                    None => (0, None),
                };
                let step = Step {
                    cell: c,
                    value,
                    t_enter: t,
                    axis: ax,
                    sign,
                };
                if visit(&step) == Flow::Stop {
                    break Some(WalkEnd::Stopped);
                }
            }
        }
        // Nearest boundary; the lowest axis wins ties.
        let x_min = tx <= ty && tx <= tz;
        let y_min = !x_min && ty <= tz;
        let z_min = !x_min && !y_min;
        let t_next = tx.min(ty).min(tz);
        if !t_next.is_finite() {
            break Some(WalkEnd::Reached);
        }
        t = t_next;
        tx = if x_min { tx + dx } else { tx };
        ty = if y_min { ty + dy } else { ty };
        tz = if z_min { tz + dz } else { tz };
        cx += sx * i32::from(x_min);
        cy += sy * i32::from(y_min);
        cz += sz * i32::from(z_min);
        axis = Some(usize::from(y_min) + 2 * usize::from(z_min));
        if (cx < lo[0])
            | (cx >= hi[0])
            | (cy < lo[1])
            | (cy >= hi[1])
            | (cz < lo[2])
            | (cz >= hi[2])
        {
            break None;
        }
    };
    *cur = Cursor {
        cell: [cx, cy, cz],
        t_max: [tx, ty, tz],
        t,
        axis,
        left,
    };
    end
}

/// Crosses a sparse section of air in one go when no listed cell lies in the box between the
/// ray's first and last cell in it: then every cell it walks there is air, which a walk that
/// shows only non-air cells does not show. Returns the state after the step out of the
/// section, bit for bit what the cell-by-cell walk would reach, with those cells charged to
/// the budget; `None` (walk it cell by cell) when that cannot be shown cheaply: a listed cell
/// in the box, the ray ending or the budget running out inside, or boundary parameters
/// outside `[+0, +∞]` (a −0 or a NaN, where the comparisons below would differ).
///
/// The cell walk's steps are a merge of each axis's boundary parameters (`t_max`, then
/// `t_max + delta`, … in that order of additions) by value, the lowest axis first on ties.
/// So the step out of the section is the first of the three axes' section-leaving
/// boundaries in that order, and each other axis takes the steps whose boundaries come
/// before it.
fn cross_clear_section(
    cur: &Cursor,
    ray: &Ray,
    lo: [i32; 3],
    sparse: &SparseCells<'_>,
) -> Option<Cursor> {
    let plain = |v: f64| v.to_bits() <= f64::INFINITY.to_bits();
    if !(cur.t_max.iter().all(|v| plain(*v))
        && ray.t_delta.iter().all(|v| plain(*v))
        && cur.t <= ray.max_t)
    {
        return None;
    }
    // Steps inside the section on each axis before the one that leaves it, and the boundary
    // parameter of that one.
    let mut inside = [0i32; 3];
    let mut leave = [f64::INFINITY; 3];
    for a in 0..3 {
        inside[a] = match ray.step[a] {
            1 => lo[a] + SECTION_SIZE - 1 - cur.cell[a],
            -1 => cur.cell[a] - lo[a],
            _ => continue,
        };
        let mut e = cur.t_max[a];
        for _ in 0..inside[a] {
            e += ray.t_delta[a];
        }
        leave[a] = e;
    }
    let out = if leave[0] <= leave[1] && leave[0] <= leave[2] {
        0
    } else if leave[1] <= leave[2] {
        1
    } else {
        2
    };
    let t_out = leave[out];
    if !(t_out < f64::INFINITY && t_out <= ray.max_t) {
        return None;
    }
    let mut steps = [0i32; 3];
    let mut t_max = cur.t_max;
    for b in 0..3 {
        if b == out {
            steps[b] = inside[b];
            t_max[b] = t_out + ray.t_delta[b];
            continue;
        }
        let mut e = cur.t_max[b];
        let mut n = 0;
        while n < inside[b] && (e < t_out || (e == t_out && b < out)) {
            e += ray.t_delta[b];
            n += 1;
        }
        steps[b] = n;
        t_max[b] = e;
    }
    let cells = 1 + steps.iter().map(|n| n.unsigned_abs()).sum::<u32>();
    let left = cur.left.checked_sub(u64::from(cells))?;
    // The box of the cells walked, in section-local coordinates.
    let mut low = [0i32; 3];
    let mut high = [0i32; 3];
    let mut cell = cur.cell;
    for a in 0..3 {
        let first = cur.cell[a] - lo[a];
        let last = first + ray.step[a] * steps[a];
        (low[a], high[a]) = (first.min(last), first.max(last));
        cell[a] += ray.step[a] * (steps[a] + i32::from(a == out));
    }
    let hit = sparse.cells.iter().any(|&(i, _)| {
        let i = i32::from(i);
        let local = [i & 15, i >> 8 & 15, i >> 4 & 15];
        (0..3).all(|a| low[a] <= local[a] && local[a] <= high[a])
    });
    (!hit).then_some(Cursor {
        cell,
        t_max,
        t: t_out,
        axis: Some(out),
        left,
    })
}

/// Walks the cells of the ray `origin + t·dir`, `0 ≤ t ≤ max_t` (`dir` unit for `t` in
/// blocks), calling `visit` for every cell of non-skipped sections. Empty/Unknown sections are
/// jumped in one step that costs 1 cell of budget.
///
/// Non-finite input walks nothing (`WalkEnd::LeftWorld`).
pub fn walk<P, F>(
    probe: &P,
    origin: DVec3,
    dir: DVec3,
    max_t: f64,
    budget: &mut Budget,
    visit: F,
) -> WalkStats
where
    P: WorldProbe + ?Sized,
    F: FnMut(&Step) -> Flow,
{
    walk_impl::<P, F, true>(probe, origin, dir, max_t, budget, visit)
}

/// Like [`walk`], but `visit` sees only non-air cells (solid or Unknown); air cells are still
/// walked and counted. Faster for occlusion and first-hit casts: a sparsely stored section of
/// air whose listed cells all lie off the ray's path box is crossed in one computation (same
/// steps, stats and budget as walking it cell by cell).
pub fn walk_solid<P, F>(
    probe: &P,
    origin: DVec3,
    dir: DVec3,
    max_t: f64,
    budget: &mut Budget,
    visit: F,
) -> WalkStats
where
    P: WorldProbe + ?Sized,
    F: FnMut(&Step) -> Flow,
{
    walk_impl::<P, F, false>(probe, origin, dir, max_t, budget, visit)
}

fn walk_impl<P, F, const AIR: bool>(
    probe: &P,
    origin: DVec3,
    dir: DVec3,
    max_t: f64,
    budget: &mut Budget,
    mut visit: F,
) -> WalkStats
where
    P: WorldProbe + ?Sized,
    F: FnMut(&Step) -> Flow,
{
    let mut stats = WalkStats::default();
    let limit = f64::from(WORLD_LIMIT);
    if !origin.is_finite()
        || !dir.is_finite()
        || max_t.is_nan()
        || origin.abs().max_element() >= limit
    {
        stats.end = WalkEnd::LeftWorld;
        return stats;
    }
    let o = origin.to_array();
    let d = dir.to_array();
    let mut cell = [floor_i32(o[0]), floor_i32(o[1]), floor_i32(o[2])];
    let mut step = [0i32; 3];
    let mut inv = [0.0f64; 3];
    let mut t_max = [f64::INFINITY; 3];
    let mut t_delta = [f64::INFINITY; 3];
    for a in 0..3 {
        if d[a] > 0.0 {
            step[a] = 1;
        } else if d[a] < 0.0 {
            step[a] = -1;
        }
        if step[a] != 0 {
            inv[a] = 1.0 / d[a];
            t_delta[a] = inv[a].abs();
            t_max[a] = axis_t(cell[a], o[a], inv[a], step[a]);
        }
    }
    // Budget is kept in locals inside the loop and charged once at the end.
    let start_left = budget.remaining();
    let mut left = start_left;
    let mut t = 0.0f64;
    let mut axis: Option<usize> = None;
    let sdelta = t_delta.map(|x| x * f64::from(SECTION_SIZE));
    let ray = Ray {
        t_delta,
        step,
        max_t,
    };
    // A straight ray's sections lie between its first and last section on every axis, so the
    // touched box is the box of those two.
    let mut first_section: Option<[i32; 3]> = None;
    let mut last_section = [0i32; 3];
    stats.end = 'outer: loop {
        // Entering a new section at `cell`.
        if t > max_t {
            break WalkEnd::Reached;
        }
        let c = IVec3::from_array(cell);
        if c.abs().max_element() >= WORLD_LIMIT {
            break WalkEnd::LeftWorld;
        }
        let mut s = section_of(c).to_array();
        let mut access = probe.section_access(IVec3::from_array(s));
        let mut class = access.class;
        first_section.get_or_insert(s);
        last_section = s;
        if is_skippable(class) {
            // Section-level DDA through Empty/Unknown sections: one step (and one cell of
            // budget) per section, until a section that must be walked cell by cell.
            let lo = s.map(|v| v * SECTION_SIZE);
            let mut st = [0.0f64; 3];
            for a in 0..3 {
                st[a] = match step[a] {
                    1 => (f64::from(lo[a] + SECTION_SIZE) - o[a]) * inv[a],
                    -1 => (f64::from(lo[a]) - o[a]) * inv[a],
                    _ => f64::INFINITY,
                };
            }
            loop {
                if left == 0 {
                    break 'outer WalkEnd::BudgetExhausted;
                }
                left -= 1;
                stats.skipped_sections += 1;
                if class == SectionClass::Unknown {
                    stats.met_unknown = true;
                    stats.unknown_steps += 1;
                }
                // Nearest section face (lowest axis on ties; a corner is crossed in steps).
                let t_exit = st[0].min(st[1]).min(st[2]);
                // No finite exit (a zero direction) ends the walk even for an endless ray.
                if !t_exit.is_finite() || t_exit > max_t {
                    break 'outer WalkEnd::Reached;
                }
                let x_min = st[0] <= st[1] && st[0] <= st[2];
                let y_min = !x_min && st[1] <= st[2];
                let a = if x_min {
                    0
                } else if y_min {
                    1
                } else {
                    2
                };
                s[a] += step[a];
                st[a] += sdelta[a];
                if s[a].abs() >= WORLD_LIMIT / SECTION_SIZE {
                    break 'outer WalkEnd::LeftWorld;
                }
                access = probe.section_access(IVec3::from_array(s));
                class = access.class;
                last_section = s;
                t = t_exit.max(t);
                axis = Some(a);
                if !is_skippable(class) {
                    // Entry cell: the face cell on the crossed axis, the others from the
                    // entry point, clamped into the section against rounding.
                    let lo = s.map(|v| v * SECTION_SIZE);
                    for b in 0..3 {
                        cell[b] = if b == a {
                            if step[b] > 0 {
                                lo[b]
                            } else {
                                lo[b] + SECTION_SIZE - 1
                            }
                        } else {
                            floor_i32(o[b] + d[b] * t).clamp(lo[b], lo[b] + SECTION_SIZE - 1)
                        };
                        t_max[b] = axis_t(cell[b], o[b], inv[b], step[b]);
                    }
                    break;
                }
            }
        }
        // Walk the cells of a Full or Mixed section, with a loop specialised to how the
        // section is stored (the per-cell read is then a few instructions, inlined).
        let lo = s.map(|v| v * SECTION_SIZE);
        let mut cur = Cursor {
            cell,
            t_max,
            t,
            axis,
            left,
        };
        let end = match (class, access.cells, access.sparse) {
            (SectionClass::Full(mat), _, _) => {
                walk_cells::<F, _, AIR>(&mut cur, &ray, lo, &mut stats, &mut visit, |_| {
                    Some(Cell::Solid {
                        mat,
                        partial: false,
                    })
                })
            }
            (_, Some(cells), _) => {
                walk_cells::<F, _, AIR>(&mut cur, &ray, lo, &mut stats, &mut visit, |c| {
                    let code = cells.code(c);
                    (AIR || code != CellCode::AIR).then(|| code.decode())
                })
            }
            (_, None, Some(sparse)) => {
                if !AIR
                    && sparse.fill == CellCode::AIR
                    && let Some(after) = cross_clear_section(&cur, &ray, lo, &sparse)
                {
                    cur = after;
                    None
                } else {
                    walk_cells::<F, _, AIR>(&mut cur, &ray, lo, &mut stats, &mut visit, |c| {
                        let code = sparse.get(SectionCells::index(c));
                        (AIR || code != CellCode::AIR).then(|| code.decode())
                    })
                }
            }
            _ => walk_cells::<F, _, AIR>(&mut cur, &ray, lo, &mut stats, &mut visit, |c| {
                let value = probe.cell(c);
                (AIR || value != Cell::Air).then_some(value)
            }),
        };
        Cursor {
            cell,
            t_max,
            t,
            axis,
            left,
        } = cur;
        if let Some(end) = end {
            break end;
        }
    };
    stats.touched = first_section.map(|f| {
        let mut b = SectionBox::of(IVec3::from_array(f));
        b.include(IVec3::from_array(last_section));
        b
    });
    let used = start_left - left;
    stats.cells = used;
    let _ = budget.try_take(used);
    stats
}

#[cfg(test)]
mod tests;
