//! The cell walk as it was before the per-storage loops and the crossing of clear sparse
//! sections (commit 27216c0), kept as the reference the current walk must match bit for bit:
//! same steps in the same order, same stats.

use glam::{DVec3, IVec3};

use crate::budget::Budget;
use crate::ray::dda::{Flow, Step, WalkEnd, WalkStats};
use crate::world::probe::{Cell, SECTION_SIZE, SectionBox, SectionClass, WorldProbe, section_of};
use crate::world::section::{CellCode, SectionCells};
use crate::world::store::WORLD_LIMIT;

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

/// The reference walk: `AIR` true is [`crate::ray::dda::walk`], false
/// [`crate::ray::dda::walk_solid`].
#[allow(clippy::too_many_lines, reason = "a verbatim copy of the old walk")]
pub fn reference_walk<P, F, const AIR: bool>(
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
    let mut left = budget.remaining();
    let mut used: u64 = 0;
    let mut t = 0.0f64;
    let mut axis: Option<usize> = None;
    let sdelta = t_delta.map(|x| x * f64::from(SECTION_SIZE));
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
        let (mut class, mut cells_ref) = (access.class, access.cells);
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
                used += 1;
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
                (class, cells_ref) = (access.class, access.cells);
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
        let lo = s.map(|v| v * SECTION_SIZE);
        let hi = lo.map(|v| v + SECTION_SIZE);
        // A sparsely stored section: searched cell by cell (no index).
        let sparse = access.sparse;
        // Walk the cells of a Full or Mixed section, with the DDA state in scalars so that the
        // axis choice compiles to conditional moves (it is data-dependent: as a branch it
        // mispredicts) and the loop-carried chain stays in registers.
        let [mut cx, mut cy, mut cz] = cell;
        let [mut tx, mut ty, mut tz] = t_max;
        let [dx, dy, dz] = t_delta;
        let [sx, sy, sz] = step;
        loop {
            if t > max_t {
                break 'outer WalkEnd::Reached;
            }
            if left == 0 {
                break 'outer WalkEnd::BudgetExhausted;
            }
            left -= 1;
            used += 1;
            let c = IVec3::new(cx, cy, cz);
            let value = match (class, cells_ref) {
                (SectionClass::Full(mat), _) => Some(Cell::Solid {
                    mat,
                    partial: false,
                }),
                (_, Some(cells)) => {
                    let code = cells.code(c);
                    if !AIR && code == CellCode::AIR {
                        None
                    } else {
                        Some(code.decode())
                    }
                }
                _ => match &sparse {
                    Some(view) => {
                        let code = view.listed(SectionCells::index(c));
                        if !AIR && code == CellCode::AIR {
                            None
                        } else {
                            Some(code.decode())
                        }
                    }
                    None => Some(probe.cell(c)),
                },
            };
            if let Some(value) = value {
                if value == Cell::Unknown {
                    stats.met_unknown = true;
                    stats.unknown_steps += 1;
                }
                if AIR || value != Cell::Air {
                    let (sign, ax) = match axis {
                        Some(a) => (step[a], Some(a)),
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
                        break 'outer WalkEnd::Stopped;
                    }
                }
            }
            // Nearest boundary; the lowest axis wins ties.
            let x_min = tx <= ty && tx <= tz;
            let y_min = !x_min && ty <= tz;
            let z_min = !x_min && !y_min;
            let t_next = tx.min(ty).min(tz);
            if !t_next.is_finite() {
                break 'outer WalkEnd::Reached;
            }
            t = t_next;
            tx = if x_min { tx + dx } else { tx };
            ty = if y_min { ty + dy } else { ty };
            tz = if z_min { tz + dz } else { tz };
            cx += sx * i32::from(x_min);
            cy += sy * i32::from(y_min);
            cz += sz * i32::from(z_min);
            let a = if x_min {
                0
            } else if y_min {
                1
            } else {
                2
            };
            axis = Some(a);
            if cx < lo[0] || cx >= hi[0] || cy < lo[1] || cy >= hi[1] || cz < lo[2] || cz >= hi[2] {
                cell = [cx, cy, cz];
                t_max = [tx, ty, tz];
                break;
            }
        }
    };
    stats.touched = first_section.map(|f| {
        let mut b = SectionBox::of(IVec3::from_array(f));
        b.include(IVec3::from_array(last_section));
        b
    });
    stats.cells = used;
    let _ = budget.try_take(used);
    stats
}
