//! The search: a straight-line check, then (on a heightfield world) the string over the
//! terrain profile, then A* over air cells, then any-angle smoothing.
//!
//! On a world that answers [`WorldProbe::ground_height`] (terrain) a blocked line is first
//! tried over the top (`over`): the upper hull of the ground along the vertical plane through
//! source and listener, one height read per voxel column crossed (each charged as a cell), its
//! segments checked for line of sight. When that string is clear and within the length limit
//! it is the path; otherwise (a box over the terrain in the way, too long) the cell search
//! below runs on what is left of the budget, each of its reads there charged as
//! `TERRAIN_READ_COST` (3) cells (a terrain read costs about three stored-voxel reads), so the
//! caps bound time on terrain too.
//!
//! A* (`astar`) runs on the 6-connected cell grid in Mixed sections and crosses Empty or
//! Unknown sections as whole nodes (Manhattan heuristic, ties to the deeper node), pruned to the
//! ellipsoid of paths no longer than the limit; a Full section is skipped with one read. The
//! cell path is then pulled taut (`smooth`, with its bends snapped onto the cell edges they wrap)
//! so it bends only at edges of solid cells. Every neighbour read costs one cell of the budget
//! and every line-of-sight walk its DDA steps; the work depends only on the world and the inputs,
//! never on time, so offline renders stay deterministic.

use glam::DVec3;

use super::astar::{astar, centre};
use super::grid::{AirGrid, TERRAIN_READ_COST};
use super::over::over_the_top;
use super::result::{AirPath, PathError, PathLimits};
use super::smooth::{pull, tighten};
use crate::budget::Budget;
use crate::world::probe::WorldProbe;
use crate::world::store::WORLD_LIMIT;

pub use super::astar::MAX_NODES;

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
/// of the shortest 6-connected cell path (near-shortest where it crosses Empty or Unknown
/// sections, each searched as one node); where two routes are almost equally long it may take
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
    let heightfield = probe.ground_height(source.x, source.z).is_some();
    if heightfield {
        grid.read_cost = TERRAIN_READ_COST;
    }
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
    if let Some(corners) =
        over_the_top(&mut grid, probe, source, listener, budget).map_err(|_| over(budget))?
    {
        let path = AirPath::through(source, corners, listener);
        if path.length <= max_len {
            return Ok(Some(finish(path, &grid, budget)));
        }
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
