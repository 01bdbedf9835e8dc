//! Any-angle smoothing: the cell path pulled into a taut string that bends only at edges.
//!
//! [`pull`] keeps, from each kept point, the farthest later cell centre still in sight (string
//! pulling over the cell path with the DDA line-of-sight walk, galloping). [`tighten`] then
//! puts the bends onto the cell edges they wrap in closed form (`snap`: one walk per leg to
//! check), pulling again over points sampled near the bends until that succeeds; if it never
//! does, it slides every bend along its legs and toward the chord of its neighbours by bisection
//! (to 1/64 block) while both legs stay clear: solid cells are boxes, so a bend stuck on a face
//! slides along it to the edge, and along the edge to the shortest spot. Bends the legs no
//! longer need go.

use glam::DVec3;

use super::grid::{AirGrid, Exhausted};
use super::snap::snap;
use crate::budget::Budget;
use crate::world::probe::WorldProbe;

/// Passes of [`tighten`] at most.
const PASSES: usize = 8;
/// Pulls stop once a pass shortens the path by less than this (blocks).
const STEP_MIN: f64 = 1.0 / 128.0;

/// The polyline `points[0] → … → points[n−1]` reduced to the points where the line of sight
/// breaks (first and last kept). The farthest point in sight is found by galloping (reach
/// doubled, then halved back): a few walks per kept point instead of one per point.
pub(crate) fn pull<P: WorldProbe + ?Sized>(
    grid: &mut AirGrid<'_, P>,
    points: &[DVec3],
    budget: &mut Budget,
) -> Result<Vec<DVec3>, Exhausted> {
    let n = points.len();
    let mut out = Vec::new();
    let Some(&first) = points.first() else {
        return Ok(out);
    };
    out.push(first);
    // Galloping: from each kept point, double the reach while the line of sight holds, then
    // halve back to the farthest point in sight (the neighbouring point is always kept).
    let mut anchor = 0;
    while anchor + 1 < n {
        let mut lo = anchor + 1;
        let mut step = 1;
        let mut hi = lo + step;
        while hi < n && grid.clear(points[anchor], points[hi], budget)? {
            lo = hi;
            step *= 2;
            hi = lo + step;
        }
        let mut hi = hi.min(n);
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if grid.clear(points[anchor], points[mid], budget)? {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        if lo + 1 >= n {
            break;
        }
        out.push(points[lo]);
        anchor = lo;
    }
    if n > 1 {
        out.push(points[n - 1]);
    }
    Ok(out)
}

fn legs(a: DVec3, q: DVec3, b: DVec3) -> f64 {
    a.distance(q) + q.distance(b)
}

/// Shortens `poly` (see the module docs): a snap of the bends onto their edges, tried first and
/// after each pass of string pulls, forward and backward, over
/// points sampled along the legs near every bend (so a bend can move toward the edge it wraps
/// by up to 2 blocks and as little as 1/16 per pull), one split of every bend in two (a path
/// that must wrap two edges, as through a door in a 1-block wall, can then); if no snap holds,
/// a slide of each bend toward the chord of its neighbours; finally merges bends that met and
/// drops bends whose neighbours see each other.
pub(crate) fn tighten<P: WorldProbe + ?Sized>(
    grid: &mut AirGrid<'_, P>,
    poly: &mut Vec<DVec3>,
    budget: &mut Budget,
) -> Result<(), Exhausted> {
    drop_unneeded(grid, poly, budget)?;
    split(grid, poly, budget)?;
    for pass in 0..=PASSES {
        // Bends near their edges snap onto them at the cost of one walk per leg; else pull on.
        if let Some(snapped) = snap(grid, poly, budget)? {
            *poly = snapped;
            merge(grid, poly, budget)?;
            drop_unneeded(grid, poly, budget)?;
            return Ok(());
        }
        if pass == PASSES {
            break;
        }
        let before = length(poly);
        *poly = pull(grid, &samples(poly), budget)?;
        let mut back = samples(poly);
        back.reverse();
        *poly = pull(grid, &back, budget)?;
        poly.reverse();
        if before - length(poly) < STEP_MIN {
            break;
        }
    }
    for _ in 0..2 {
        for k in 1..poly.len().saturating_sub(1) {
            let (a, b) = (poly[k - 1], poly[k + 1]);
            let q = along_leg(grid, a, poly[k], b, budget)?;
            let q = along_leg(grid, b, q, a, budget)?;
            poly[k] = toward_chord(grid, a, q, b, budget)?;
        }
    }
    merge(grid, poly, budget)?;
    drop_unneeded(grid, poly, budget)?;
    Ok(())
}

/// Farthest a bend moves in one [`along_leg`] or [`toward_chord`] (blocks): after the pulls a
/// bend is near its edge, and a bisection over the whole leg spent its first steps far away.
const REACH: f64 = 16.0;
/// Bisection steps of one such move: [`REACH`] / 2¹⁰ = 1/64 block.
const STEPS: usize = 10;

fn length(poly: &[DVec3]) -> f64 {
    poly.windows(2).map(|w| w[0].distance(w[1])).sum()
}

/// Distances from a bend at which its legs are sampled (each below half the leg).
const SAMPLES: [f64; 6] = [1.0 / 16.0, 0.125, 0.25, 0.5, 1.0, 2.0];

/// The polyline with extra points on each leg near each bend ([`SAMPLES`]), in order.
fn samples(poly: &[DVec3]) -> Vec<DVec3> {
    let mut out = Vec::with_capacity(poly.len() * (2 * SAMPLES.len() + 1));
    for (i, w) in poly.windows(2).enumerate() {
        let (a, b) = (w[0], w[1]);
        let len = a.distance(b);
        out.push(a);
        if len <= 0.0 {
            continue;
        }
        let dir = (b - a) / len;
        // After the bend at `a` (not the source), then before the bend at `b` (not the end).
        if i > 0 {
            out.extend(
                SAMPLES
                    .iter()
                    .filter(|&&d| d < len * 0.5)
                    .map(|&d| a + dir * d),
            );
        }
        if i + 2 < poly.len() {
            out.extend(
                SAMPLES
                    .iter()
                    .rev()
                    .filter(|&&d| d < len * 0.5)
                    .map(|&d| b - dir * d),
            );
        }
    }
    if let Some(&last) = poly.last() {
        out.push(last);
    }
    out
}

/// Moves the bend `q` along its leg toward `a`, by at most [`REACH`], as far as `b` stays in
/// sight (bisection, [`STEPS`] steps): every such move shortens `a → q → b` (triangle inequality), and it brings a bend that
/// overshot its edge back onto it.
fn along_leg<P: WorldProbe + ?Sized>(
    grid: &mut AirGrid<'_, P>,
    a: DVec3,
    q: DVec3,
    b: DVec3,
    budget: &mut Budget,
) -> Result<DVec3, Exhausted> {
    let toward = (a - q).clamp_length_max(REACH);
    let (mut lo, mut hi) = (0.0, 1.0);
    for _ in 0..STEPS {
        let mid = 0.5 * (lo + hi);
        if grid.clear(q + toward * mid, b, budget)? {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Ok(q + toward * lo)
}

/// Moves the bend `q` between `a` and `b` toward its closest point on the chord `a → b` as
/// far as both legs stay clear, by at most [`REACH`] (bisection, [`STEPS`] steps).
fn toward_chord<P: WorldProbe + ?Sized>(
    grid: &mut AirGrid<'_, P>,
    a: DVec3,
    q: DVec3,
    b: DVec3,
    budget: &mut Budget,
) -> Result<DVec3, Exhausted> {
    let ab = b - a;
    let t = if ab.length_squared() > 0.0 {
        ((q - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let toward = (a + ab * t - q).clamp_length_max(REACH);
    let (mut lo, mut hi) = (0.0, 1.0);
    for _ in 0..STEPS {
        let mid = 0.5 * (lo + hi);
        let c = q + toward * mid;
        if grid.clear(a, c, budget)? && grid.clear(c, b, budget)? {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Ok(q + toward * lo)
}

/// Removes bends whose neighbours see each other.
fn drop_unneeded<P: WorldProbe + ?Sized>(
    grid: &mut AirGrid<'_, P>,
    poly: &mut Vec<DVec3>,
    budget: &mut Budget,
) -> Result<(), Exhausted> {
    let mut k = 1;
    while k + 1 < poly.len() {
        if grid.clear(poly[k - 1], poly[k + 1], budget)? {
            poly.remove(k);
        } else {
            k += 1;
        }
    }
    Ok(())
}

/// Replaces each bend `q` by two points on its legs, up to one block from it, where the chord
/// between them is clear (shorter by the triangle inequality).
fn split<P: WorldProbe + ?Sized>(
    grid: &mut AirGrid<'_, P>,
    poly: &mut Vec<DVec3>,
    budget: &mut Budget,
) -> Result<(), Exhausted> {
    let mut out = Vec::with_capacity(poly.len() * 2);
    out.push(poly[0]);
    for k in 1..poly.len().saturating_sub(1) {
        let (a, q, b) = (poly[k - 1], poly[k], poly[k + 1]);
        let mut done = false;
        for reach in [1.0f64, 0.5, 0.25] {
            let p1 = q + (a - q).clamp_length_max(reach.min(0.5 * a.distance(q)));
            let p2 = q + (b - q).clamp_length_max(reach.min(0.5 * b.distance(q)));
            if grid.clear(p1, p2, budget)? {
                out.push(p1);
                out.push(p2);
                done = true;
                break;
            }
        }
        if !done {
            out.push(q);
        }
    }
    if poly.len() > 1 {
        out.push(poly[poly.len() - 1]);
    }
    *poly = out;
    Ok(())
}

/// Bends closer than this are merged into one where the legs allow.
const MERGE_DISTANCE: f64 = 0.25;

/// Merges consecutive bends closer than [`MERGE_DISTANCE`] into the one of them (or their
/// midpoint) that keeps both outer legs clear and the path shortest.
fn merge<P: WorldProbe + ?Sized>(
    grid: &mut AirGrid<'_, P>,
    poly: &mut Vec<DVec3>,
    budget: &mut Budget,
) -> Result<(), Exhausted> {
    let mut k = 1;
    while k + 2 < poly.len() {
        let (a, p, q, b) = (poly[k - 1], poly[k], poly[k + 1], poly[k + 2]);
        if p.distance(q) >= MERGE_DISTANCE {
            k += 1;
            continue;
        }
        let mut best: Option<(f64, DVec3)> = None;
        for c in [p, q, (p + q) * 0.5] {
            let len = legs(a, c, b);
            if best.is_none_or(|(l, _)| len < l)
                && grid.clear(a, c, budget)?
                && grid.clear(c, b, budget)?
            {
                best = Some((len, c));
            }
        }
        if let Some((_, c)) = best {
            poly[k] = c;
            poly.remove(k + 1);
        } else {
            k += 1;
        }
    }
    Ok(())
}
