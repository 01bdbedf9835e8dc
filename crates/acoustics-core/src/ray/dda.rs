//! Amanatides–Woo cell walk that jumps `Empty`/`Unknown` sections in one step (spec §3.1).

use glam::{DVec3, IVec3};

use crate::budget::Budget;
use crate::world::probe::{Cell, SECTION_SIZE, SectionBox, SectionClass, WorldProbe, section_of};
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

/// Walks the cells of the ray `origin + t·dir`, `0 ≤ t ≤ max_t` (`dir` need not be unit; `t` is
/// in units of `|dir|` only if it is — pass a unit vector for distances), calling `visit` for
/// every cell of non-skipped sections. Empty/Unknown sections cost 1 step each.
///
/// Non-finite input walks nothing (`WalkEnd::LeftWorld`).
pub fn walk<P, F>(
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
    let mut cell = origin.floor().as_ivec3().to_array();
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
    let mut t = 0.0f64;
    let mut axis: Option<usize> = None;
    let mut cur_section = IVec3::splat(i32::MIN);
    let mut class = SectionClass::Empty;
    let mut cells_ref = None;
    loop {
        if t > max_t {
            stats.end = WalkEnd::Reached;
            break;
        }
        let c = IVec3::from_array(cell);
        if c.abs().max_element() >= WORLD_LIMIT {
            stats.end = WalkEnd::LeftWorld;
            break;
        }
        let s = section_of(c);
        if s != cur_section {
            cur_section = s;
            (class, cells_ref) = probe.section_view(s);
            match &mut stats.touched {
                Some(b) => b.include(s),
                None => stats.touched = Some(SectionBox::of(s)),
            }
        }
        if !budget.try_take(1) {
            stats.end = WalkEnd::BudgetExhausted;
            break;
        }
        stats.cells += 1;
        let value = match class {
            SectionClass::Empty | SectionClass::Unknown => {
                if class == SectionClass::Unknown {
                    stats.met_unknown = true;
                    stats.unknown_steps += 1;
                }
                stats.skipped_sections += 1;
                // Jump to the first cell beyond this section.
                let lo = s * SECTION_SIZE;
                let hi = lo + IVec3::splat(SECTION_SIZE);
                let (lo, hi) = (lo.to_array(), hi.to_array());
                let mut exit = [f64::INFINITY; 3];
                for a in 0..3 {
                    exit[a] = match step[a] {
                        1 => (f64::from(hi[a]) - o[a]) * inv[a],
                        -1 => (f64::from(lo[a]) - o[a]) * inv[a],
                        _ => f64::INFINITY,
                    };
                }
                let t_exit = exit[0].min(exit[1]).min(exit[2]);
                if t_exit.is_nan() || t_exit > max_t {
                    stats.end = WalkEnd::Reached;
                    break;
                }
                let mut first_axis = None;
                for a in 0..3 {
                    if exit[a] <= t_exit {
                        cell[a] = if step[a] > 0 { hi[a] } else { lo[a] - 1 };
                        first_axis.get_or_insert(a);
                    } else {
                        let p = (o[a] + d[a] * t_exit).floor();
                        // Clamp into the section: the ray is still inside on this axis.
                        let p = p.clamp(f64::from(lo[a]), f64::from(hi[a] - 1));
                        cell[a] = p as i32;
                    }
                    t_max[a] = axis_t(cell[a], o[a], inv[a], step[a]);
                }
                t = t_exit.max(t);
                axis = first_axis;
                continue;
            }
            SectionClass::Full(mat) => Cell::Solid {
                mat,
                partial: false,
            },
            SectionClass::Mixed => match cells_ref {
                Some(cells) => cells.get(c),
                None => probe.cell(c),
            },
        };
        if value == Cell::Unknown {
            stats.met_unknown = true;
            stats.unknown_steps += 1;
        }
        let (sign, ax) = match axis {
            Some(a) => (step[a], Some(a)),
            None => (0, None),
        };
        if visit(&Step {
            cell: c,
            value,
            t_enter: t,
            axis: ax,
            sign,
        }) == Flow::Stop
        {
            stats.end = WalkEnd::Stopped;
            break;
        }
        // Advance to the next cell.
        let a = if t_max[0] <= t_max[1] {
            if t_max[0] <= t_max[2] { 0 } else { 2 }
        } else if t_max[1] <= t_max[2] {
            1
        } else {
            2
        };
        if !t_max[a].is_finite() {
            stats.end = WalkEnd::Reached;
            break;
        }
        t = t_max[a];
        cell[a] += step[a];
        t_max[a] += t_delta[a];
        axis = Some(a);
    }
    stats
}
