//! Bends put onto the cell edges they wrap, in closed form.
//!
//! Solid cells are unit boxes, so a taut path bends only on their edges: lines parallel to an
//! axis whose two other coordinates are whole numbers. [`snap`] takes each bend to the edge
//! line nearest it and moves it along that line to the point that makes its two legs shortest
//! (unfolding the legs about the line: the point divides the legs' spans along the line in the
//! ratio of their distances from it), a few sweeps over all bends since each one's best point
//! depends on its neighbours. No walk is needed for that; one line-of-sight walk per leg then
//! checks the result. A bend a hair ([`NUDGE`]) off its edge, away from the solid cells round
//! it, keeps the walks off their faces. Where a check fails (a bend not yet near the edge it
//! wraps, an edge line with no solid cell beside it, a blocked leg) the caller keeps the path it
//! had and pulls it tighter, or slides its bends by bisection.

use glam::DVec3;

use super::grid::{AirGrid, Exhausted};
use crate::budget::Budget;
use crate::world::probe::WorldProbe;

/// Sweeps of the closed-form moves over all bends.
const SWEEPS: usize = 12;
/// How far a snapped bend sits off its edge, toward where it was (blocks).
pub(crate) const NUDGE: f64 = 1.0 / 1024.0;
/// A bend farther than this from every edge line is not snapped (blocks).
const NEAR: f64 = 0.75;

/// An edge line: a point on it and its axis (0, 1, 2).
#[derive(Clone, Copy, Debug)]
struct Edge {
    origin: DVec3,
    axis: usize,
}

impl Edge {
    /// The point of this line nearest `p`.
    fn foot(self, p: DVec3) -> DVec3 {
        let mut f = self.origin;
        f[self.axis] = p[self.axis];
        f
    }

    /// The point of the line that makes `|a − p| + |p − b|` least.
    fn best(self, a: DVec3, b: DVec3) -> DVec3 {
        let (fa, fb) = (self.foot(a), self.foot(b));
        let (ra, rb) = (a.distance(fa), b.distance(fb));
        let (ta, tb) = (a[self.axis], b[self.axis]);
        let t = if ra + rb > 0.0 {
            ta + (tb - ta) * ra / (ra + rb)
        } else {
            ta
        };
        let mut p = self.origin;
        p[self.axis] = t;
        p
    }
}

/// The edge line nearest `q`, if one is within [`NEAR`].
fn nearest_edge(q: DVec3) -> Option<Edge> {
    let mut best: Option<(f64, Edge)> = None;
    for axis in 0..3 {
        let mut origin = q.round();
        origin[axis] = 0.0;
        let edge = Edge { origin, axis };
        let d = q.distance(edge.foot(q));
        if d <= NEAR && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, edge));
        }
    }
    best.map(|(_, e)| e)
}

/// The unit direction, across the edge line at `p`, away from the solid cells of the four
/// round it (each read charged one cell); zero when none or all of them are solid.
fn away_from_solid<P: WorldProbe + ?Sized>(
    grid: &mut AirGrid<'_, P>,
    edge: Edge,
    p: DVec3,
    budget: &mut Budget,
) -> Result<DVec3, Exhausted> {
    let (u, v) = ((edge.axis + 1) % 3, (edge.axis + 2) % 3);
    let mut solid = DVec3::ZERO;
    for (du, dv) in [(-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)] {
        let mut d = DVec3::ZERO;
        d[u] = du;
        d[v] = dv;
        if !budget.try_take(1) {
            return Err(Exhausted);
        }
        if grid.blocked((p + d).floor().as_ivec3()) {
            solid += d;
        }
    }
    Ok((-solid).normalize_or_zero())
}

fn length(poly: &[DVec3]) -> f64 {
    poly.windows(2).map(|w| w[0].distance(w[1])).sum()
}

/// `poly` with every bend on its edge (see the module docs), if every bend has an edge near it,
/// the new path is no longer and all its legs are clear; else `None` (and `poly` unchanged).
pub(crate) fn snap<P: WorldProbe + ?Sized>(
    grid: &mut AirGrid<'_, P>,
    poly: &[DVec3],
    budget: &mut Budget,
) -> Result<Option<Vec<DVec3>>, Exhausted> {
    let n = poly.len();
    if n < 3 {
        return Ok(None);
    }
    let mut edges = Vec::with_capacity(n - 2);
    for &q in &poly[1..n - 1] {
        let Some(e) = nearest_edge(q) else {
            return Ok(None);
        };
        edges.push(e);
    }
    let mut out = poly.to_vec();
    for _ in 0..SWEEPS {
        for k in 1..n - 1 {
            out[k] = edges[k - 1].best(out[k - 1], out[k + 1]);
        }
    }
    // Off the edge, away from the solid cells round it.
    for k in 1..n - 1 {
        let dir = away_from_solid(grid, edges[k - 1], out[k], budget)?;
        if dir == DVec3::ZERO {
            // No solid cell round it, or solid all round: not an edge a path wraps.
            return Ok(None);
        }
        out[k] += dir * NUDGE;
    }
    if length(&out) > length(poly) + NUDGE {
        return Ok(None);
    }
    for w in out.windows(2) {
        if !grid.clear(w[0], w[1], budget)? {
            return Ok(None);
        }
    }
    Ok(Some(out))
}
