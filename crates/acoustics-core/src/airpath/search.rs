//! The search: a straight-line check, then A* over air cells, then any-angle smoothing.
//!
//! A* runs on the 6-connected cell grid (unit steps, Manhattan heuristic, ties to the deeper
//! node), pruned to the ellipsoid of paths no longer than the limit. Whole sections are read
//! once: an Empty or Unknown section answers "air" and a Full one "solid" for all its cells
//! without a cell read. The cell path is then pulled taut (`smooth`) so it bends only
//! at edges of solid cells. Every neighbour read costs one cell of the budget and every
//! line-of-sight walk its DDA steps; the work depends only on the world and the inputs, never on
//! time, so offline renders stay deterministic.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::hash::BuildHasherDefault;

use glam::{DVec3, IVec3};

use super::grid::{AirGrid, Exhausted};
use super::result::{AirPath, PathError, PathLimits};
use super::smooth::{pull, tighten};
use crate::budget::Budget;
use crate::world::probe::WorldProbe;
use crate::world::store::{SectionHasher, WORLD_LIMIT};

/// Most nodes one search may hold (a memory bound even on an unlimited budget): beyond it the
/// search ends as [`PathError::OverBudget`].
pub const MAX_NODES: usize = 1 << 22;

/// The six face neighbours, in the fixed order the search expands them.
const STEPS: [IVec3; 6] = [
    IVec3::X,
    IVec3::NEG_X,
    IVec3::Y,
    IVec3::NEG_Y,
    IVec3::Z,
    IVec3::NEG_Z,
];

#[derive(Clone, Copy, Debug)]
struct Node {
    cell: IVec3,
    g: u32,
    parent: u32,
    closed: bool,
}

fn centre(cell: IVec3) -> DVec3 {
    cell.as_dvec3() + DVec3::splat(0.5)
}

fn manhattan(a: IVec3, b: IVec3) -> u32 {
    let d = (a - b).abs();
    (d.x + d.y + d.z).unsigned_abs()
}

fn check(p: DVec3, what: &'static str) -> Result<(), PathError> {
    if !p.is_finite() || p.abs().max_element() >= f64::from(WORLD_LIMIT) - 1024.0 {
        return Err(PathError::BadInput(what));
    }
    Ok(())
}

/// The shortest path through air from `source` to `listener` in `probe`'s world, within
/// `limits` and `budget` (cells).
///
/// `Ok(Some(path))`: a path, straight (`path.is_line()`) when nothing solid lies on the line.
/// `Ok(None)`: no air path within `limits.max_length(straight)`. The path is the taut string
/// of the shortest 6-connected cell path; where two routes are almost equally long it may take
/// the one the cell grid prefers.
///
/// # Errors
/// [`PathError::OverBudget`] when the budget (or [`MAX_NODES`]) runs out first: no path is
/// guessed, fall back to occlusion. [`PathError::BadInput`] for non-finite or out-of-world
/// positions or limits that are not positive.
pub fn find_air_path<P: WorldProbe + ?Sized>(
    probe: &P,
    source: DVec3,
    listener: DVec3,
    limits: &PathLimits,
    budget: &mut Budget,
) -> Result<Option<AirPath>, PathError> {
    check(source, "source position is not finite or outside the world")?;
    check(
        listener,
        "listener position is not finite or outside the world",
    )?;
    if !(limits.length_factor > 0.0 && limits.range > 0.0) || limits.length_factor.is_nan() {
        return Err(PathError::BadInput("limits must be positive"));
    }
    let start_used = budget.used();
    let over = |budget: &Budget| PathError::OverBudget {
        cells: budget.used() - start_used,
    };
    let straight = source.distance(listener);
    let max_len = limits.max_length(straight);
    if straight > max_len {
        return Ok(None);
    }
    let (from, to) = (source.floor().as_ivec3(), listener.floor().as_ivec3());
    let mut grid = AirGrid::new(probe, [from, to]);
    let finish = |mut path: AirPath, grid: &AirGrid<'_, P>, budget: &Budget| {
        path.cells = budget.used() - start_used;
        path.met_unknown = grid.met_unknown;
        path
    };
    if grid
        .clear(source, listener, budget)
        .map_err(|_| over(budget))?
    {
        let path = AirPath::through(source, Vec::new(), listener);
        return Ok(Some(finish(path, &grid, budget)));
    }
    let Some(cells) =
        astar(&mut grid, from, to, source, listener, max_len, budget).map_err(|_| over(budget))?
    else {
        return Ok(None);
    };
    let mut points: Vec<DVec3> = cells.iter().map(|&c| centre(c)).collect();
    if let Some(first) = points.first_mut() {
        *first = source;
    }
    if let Some(last) = points.last_mut() {
        *last = listener;
    }
    let mut poly = pull(&mut grid, &points, budget).map_err(|_| over(budget))?;
    tighten(&mut grid, &mut poly, budget).map_err(|_| over(budget))?;
    let corners = poly[1..poly.len() - 1].to_vec();
    let path = AirPath::through(source, corners, listener);
    if path.length > max_len {
        return Ok(None);
    }
    Ok(Some(finish(path, &grid, budget)))
}

/// A* from `from` to `to`; the cells of the path (both ends included), `None` if the open set
/// empties first.
fn astar<P: WorldProbe + ?Sized>(
    grid: &mut AirGrid<'_, P>,
    from: IVec3,
    to: IVec3,
    source: DVec3,
    listener: DVec3,
    max_len: f64,
    budget: &mut Budget,
) -> Result<Option<Vec<IVec3>>, Exhausted> {
    // A cell centre is within √3/2 of any point of its cell: allow that at both ends.
    let reach = max_len + 3f64.sqrt();
    let mut nodes = vec![Node {
        cell: from,
        g: 0,
        parent: u32::MAX,
        closed: false,
    }];
    let mut index: HashMap<IVec3, u32, BuildHasherDefault<SectionHasher>> = HashMap::default();
    index.insert(from, 0);
    let mut open = BinaryHeap::new();
    let key = |g: u32, h: u32| (u64::from(g + h) << 32) | u64::from(u32::MAX - g);
    open.push(Reverse((key(0, manhattan(from, to)), 0u32)));
    while let Some(Reverse((_, i))) = open.pop() {
        let node = nodes[i as usize];
        if node.closed {
            continue;
        }
        nodes[i as usize].closed = true;
        if node.cell == to {
            let mut cells = Vec::new();
            let mut k = i;
            while k != u32::MAX {
                cells.push(nodes[k as usize].cell);
                k = nodes[k as usize].parent;
            }
            cells.reverse();
            return Ok(Some(cells));
        }
        for step in STEPS {
            let cell = node.cell + step;
            if !budget.try_take(1) {
                return Err(Exhausted);
            }
            let c = centre(cell);
            if c.distance(source) + c.distance(listener) > reach || grid.blocked(cell) {
                continue;
            }
            let g = node.g + 1;
            let j = match index.get(&cell) {
                Some(&j) => {
                    let n = &mut nodes[j as usize];
                    if n.closed || n.g <= g {
                        continue;
                    }
                    n.g = g;
                    n.parent = i;
                    j
                }
                None => {
                    if nodes.len() >= MAX_NODES {
                        return Err(Exhausted);
                    }
                    let j = u32::try_from(nodes.len()).map_err(|_| Exhausted)?;
                    nodes.push(Node {
                        cell,
                        g,
                        parent: i,
                        closed: false,
                    });
                    index.insert(cell, j);
                    j
                }
            };
            open.push(Reverse((key(g, manhattan(cell, to)), j)));
        }
    }
    Ok(None)
}
