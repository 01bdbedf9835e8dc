//! First-hit casts: the first solid cell along a ray, with the face it was entered through.

use glam::{DVec3, IVec3};

use super::dda::{CentreRay, Flow, StartSection, Step, WalkStats, walk_solid};
use crate::budget::Budget;
use crate::world::material::MaterialId;
use crate::world::probe::{Cell, WorldProbe};

/// The first solid cell met by a ray.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hit {
    /// The solid cell.
    pub cell: IVec3,
    /// Distance from the ray origin to the entered face.
    pub t: f64,
    /// Point on the entered face.
    pub point: DVec3,
    /// Axis of the entered face (0 = x, 1 = y, 2 = z).
    pub axis: usize,
    /// Sign of the face normal on `axis` (points back toward the ray origin).
    pub normal_sign: i32,
    /// Coordinate of the face plane on `axis`.
    pub plane: i32,
    /// Material of the cell.
    pub mat: MaterialId,
    /// Partial (non-full) cell.
    pub partial: bool,
}

/// Result of a cast.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Cast {
    /// The first hit, if any within the length.
    pub hit: Option<Hit>,
    /// Walk counters.
    pub stats: WalkStats,
}

/// Casts `origin + t·dir` (`dir` unit) up to `length` and returns the first solid cell,
/// ignoring the cell holding `origin` (a listener inside rock still hears its surroundings).
pub fn first_hit<P: WorldProbe + ?Sized>(
    probe: &P,
    origin: DVec3,
    dir: DVec3,
    length: f64,
    budget: &mut Budget,
) -> Cast {
    first_hit_where(probe, origin, dir, length, budget, |_, _| true)
}

/// Like [`first_hit`], but only solid cells for which `accept(mat, partial)` holds stop the
/// ray; the others are passed through (room rays pass foliage, spec §6).
pub fn first_hit_where<P, F>(
    probe: &P,
    origin: DVec3,
    dir: DVec3,
    length: f64,
    budget: &mut Budget,
    accept: F,
) -> Cast
where
    P: WorldProbe + ?Sized,
    F: Fn(MaterialId, bool) -> bool,
{
    let mut hit = None;
    let stats = walk_solid(probe, origin, dir, length, budget, |step| {
        first_solid(step, origin, dir, &accept, &mut hit)
    });
    Cast { hit, stats }
}

/// Like [`first_hit_where`] from the centre of `cell` along a kept ray ([`CentreRay`]) in the
/// world of `start` (which keeps the section of `cell` for the casts of other rays from
/// there): the same cast, the walk read from the ray's kept cells (room rays).
pub fn first_hit_from_centre<P, F>(
    start: &mut StartSection<'_, P>,
    cell: IVec3,
    ray: &CentreRay,
    budget: &mut Budget,
    accept: F,
) -> Cast
where
    P: WorldProbe + ?Sized,
    F: Fn(MaterialId, bool) -> bool,
{
    let mut hit = None;
    let origin = cell.as_dvec3() + DVec3::splat(0.5);
    let stats = ray.walk_solid_from(start, cell, budget, |step| {
        first_solid(step, origin, ray.dir(), &accept, &mut hit)
    });
    Cast { hit, stats }
}

/// The visitor of a first-hit cast: stops on the first accepted solid cell after the start
/// cell and keeps it in `hit`.
#[inline(always)]
fn first_solid(
    step: &Step,
    origin: DVec3,
    dir: DVec3,
    accept: &impl Fn(MaterialId, bool) -> bool,
    hit: &mut Option<Hit>,
) -> Flow {
    let Some(axis) = step.axis else {
        return Flow::Continue;
    };
    if let Cell::Solid { mat, partial } = step.value
        && accept(mat, partial)
    {
        let normal_sign = -step.sign;
        let plane = if step.sign > 0 {
            step.cell[axis]
        } else {
            step.cell[axis] + 1
        };
        *hit = Some(Hit {
            cell: step.cell,
            t: step.t_enter,
            point: origin + dir * step.t_enter,
            axis,
            normal_sign,
            plane,
            mat,
            partial,
        });
        return Flow::Stop;
    }
    Flow::Continue
}

#[cfg(test)]
mod tests;
