//! Over the top: on a heightfield world, the taut string over the terrain profile in the
//! vertical plane through source and listener.
//!
//! Where terrain blocks the straight line, the dominant air path over a ridge lies in that
//! plane: the upper convex hull of the ground's voxel tops along the line, from the source to
//! the listener. The horizontal line is walked column by column (a 2-D DDA over the voxel
//! columns it crosses); each column's top (the first air cell above its ground, from
//! [`WorldProbe::ground_height`] at the column's centre) holds over the part of the line inside
//! the column, so the hull of those plateaus clears every column the line crosses. One height
//! read per column, each charged as one cell; the hull's segments are then checked for line of
//! sight (boxes placed over the terrain may still block them), their DDA steps charged too.
//! Two corners less than [`CREST`] apart (the flat top of the voxel staircase at a crest) are
//! joined into one where the segments either side meet, so a ridge bends the path once.
//! Failing that the caller searches cell by cell.

use glam::{DVec2, DVec3};

use super::grid::{AirGrid, Exhausted};
use crate::budget::Budget;
use crate::world::probe::WorldProbe;

/// How far above a column's top the string passes (metres): clear of the top cell's face
/// whatever the rounding.
const LIFT: f64 = 1e-3;

/// A point of the profile: distance along the horizontal line, height.
#[derive(Clone, Copy, Debug)]
struct Sample {
    t: f64,
    y: f64,
}

/// `> 0` when `o → a → b` turns up (counter-clockwise in the `(t, y)` plane).
fn turn(o: Sample, a: Sample, b: Sample) -> f64 {
    (a.t - o.t) * (b.y - o.y) - (a.y - o.y) * (b.t - o.t)
}

/// Two hull corners closer than this (metres along the line) are one crest: the flat top of a
/// voxel staircase over a ridge, which a wave diffracts round as one edge.
const CREST: f64 = 2.5;

/// Joins corner pairs of `hull` less than [`CREST`] apart into one corner where the segments
/// either side of the pair meet (above the pair, the hull being convex, so still clear).
fn merge_crests(hull: &mut Vec<Sample>) {
    let mut i = 1;
    while i + 2 < hull.len() {
        let (a, b, c, d) = (hull[i - 1], hull[i], hull[i + 1], hull[i + 2]);
        if c.t - b.t < CREST && b.t - a.t > 1e-9 && d.t - c.t > 1e-9 {
            let m1 = (b.y - a.y) / (b.t - a.t);
            let m2 = (d.y - c.y) / (d.t - c.t);
            if m1 - m2 > 1e-9 {
                let t = (c.y - a.y + m1 * a.t - m2 * c.t) / (m1 - m2);
                if (b.t..=c.t).contains(&t) {
                    hull[i] = Sample {
                        t,
                        y: a.y + m1 * (t - a.t),
                    };
                    hull.remove(i + 1);
                    continue;
                }
            }
        }
        i += 1;
    }
}

/// The first air cell's floor over column `(x, z)` (cells whose centre lies below the ground
/// are solid), or `None` where the world knows no ground there (Unknown counts as air).
fn column_top<P: WorldProbe + ?Sized>(probe: &P, x: i32, z: i32) -> Option<f64> {
    let h = probe.ground_height(f64::from(x) + 0.5, f64::from(z) + 0.5)?;
    Some((h - 0.5).ceil())
}

/// The corners of the taut string over the terrain between `source` and `listener`, in order;
/// `Ok(None)` when the world is no heightfield under the ends, the ends are stacked vertically,
/// the string has no corner (something else blocks the line) or a segment of it is blocked.
///
/// # Errors
/// [`Exhausted`] when the budget runs out first.
pub(crate) fn over_the_top<P: WorldProbe + ?Sized>(
    grid: &mut AirGrid<'_, P>,
    probe: &P,
    source: DVec3,
    listener: DVec3,
    budget: &mut Budget,
) -> Result<Option<Vec<DVec3>>, Exhausted> {
    if probe.ground_height(source.x, source.z).is_none()
        || probe.ground_height(listener.x, listener.z).is_none()
    {
        return Ok(None);
    }
    let (a, b) = (
        DVec2::new(source.x, source.z),
        DVec2::new(listener.x, listener.z),
    );
    let length = a.distance(b);
    if length < 1.0 {
        return Ok(None);
    }
    let dir = (b - a) / length;
    let mut hull: Vec<Sample> = Vec::with_capacity(64);
    let mut push = |s: Sample| {
        while hull.len() >= 2 && turn(hull[hull.len() - 2], hull[hull.len() - 1], s) >= 0.0 {
            hull.pop();
        }
        hull.push(s);
    };
    push(Sample {
        t: 0.0,
        y: source.y,
    });
    // 2-D DDA over the columns the horizontal line crosses.
    let mut col = a.floor().as_ivec2();
    let last = b.floor().as_ivec2();
    let step = dir.signum().as_ivec2();
    let next_edge = |c: i32, s: i32| f64::from(if s > 0 { c + 1 } else { c });
    let axis_t = |p: f64, c: i32, s: i32, d: f64| {
        if s == 0 || d == 0.0 {
            f64::INFINITY
        } else {
            (next_edge(c, s) - p) / d
        }
    };
    let mut t_max = DVec2::new(
        axis_t(a.x, col.x, step.x, dir.x),
        axis_t(a.y, col.y, step.y, dir.y),
    );
    let t_delta = DVec2::new(1.0 / dir.x.abs(), 1.0 / dir.y.abs());
    let mut t_in = 0.0;
    // A line crosses at most |dx| + |dy| + 1 columns; the bound keeps a rounding slip finite.
    let most = (last - col).abs().element_sum() + 1;
    for _ in 0..=most {
        if !budget.try_take(1) {
            return Err(Exhausted);
        }
        let done = col == last;
        let t_out = if done {
            length
        } else {
            t_max.min_element().min(length)
        };
        if let Some(top) = column_top(probe, col.x, col.y) {
            let y = top + LIFT;
            push(Sample { t: t_in, y });
            push(Sample { t: t_out, y });
        }
        if done {
            break;
        }
        t_in = t_out;
        if t_max.x < t_max.y {
            col.x += step.x;
            t_max.x += t_delta.x;
        } else {
            col.y += step.y;
            t_max.y += t_delta.y;
        }
    }
    push(Sample {
        t: length,
        y: listener.y,
    });
    merge_crests(&mut hull);
    if hull.len() < 3 {
        return Ok(None);
    }
    let point = |s: Sample| {
        let p = a + dir * s.t;
        DVec3::new(p.x, s.y, p.y)
    };
    let mut corners: Vec<DVec3> = hull[1..hull.len() - 1].iter().map(|&s| point(s)).collect();
    corners.dedup_by(|x, y| x.distance_squared(*y) < 1e-12);
    let mut from = source;
    for &to in corners.iter().chain(std::iter::once(&listener)) {
        if !grid.clear(from, to, budget)? {
            return Ok(None);
        }
        from = to;
    }
    Ok(Some(corners))
}
