// SPDX-License-Identifier: GPL-3.0-only
//! SPR's ray primitive: Minecraft's voxel traversal with whole-cube shape clipping.
//!
//! Follows SPR `utils/RaycastUtils.java` `rayCast` (RU:18-44), which walks vanilla
//! `BlockGetter.traverseBlocks` and clips each visited block with `VoxelShape.clip` /
//! `AABB.clip`; spec `spr.md` §1.1. Cells are whole cubes here (Resound's world has no shapes).

use glam::{DVec3, IVec3};

use crate::{Direction, SprBlock, SprWorld};

/// A ray hit on a block.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit {
    /// The hit point.
    pub location: DVec3,
    /// The face reported by the clip (outward normal = `face.step()`).
    pub face: Direction,
    /// The cell that was hit.
    pub cell: IVec3,
    /// The hit block's SPR values.
    pub block: SprBlock,
}

/// Ray slack of vanilla's end nudging and AABB clip.
const EPS: f64 = 1.0e-7;
/// A segment shorter than this (squared) gives no hit in `VoxelShape.clip`.
const MIN_LENGTH_SQ: f64 = 1.0e-7;
/// The inside-quirk probe distance along the segment (`VoxelShape.clip`).
const INSIDE_PROBE: f64 = 0.001;

fn floor_cell(p: DVec3) -> Option<IVec3> {
    let f = p.floor();
    let ok = |v: f64| v.is_finite() && v >= f64::from(i32::MIN) && v <= f64::from(i32::MAX);
    if ok(f.x) && ok(f.y) && ok(f.z) {
        Some(IVec3::new(f.x as i32, f.y as i32, f.z as i32))
    } else {
        None
    }
}

/// The block cell containing `p` (`BlockPos.containing`); `None` for non-finite or out-of-range
/// coordinates.
#[must_use]
pub fn cell_of(p: DVec3) -> Option<IVec3> {
    floor_cell(p)
}

/// Clips the segment `from → to` against the unit cube at `cell` (`VoxelShape.clip` of a full
/// block, including the inside quirk). Returns the hit point and face.
fn clip_cube(from: DVec3, to: DVec3, cell: IVec3, quirk: bool) -> Option<(DVec3, Direction)> {
    let delta = to - from;
    if delta.length_squared() < MIN_LENGTH_SQ {
        return None;
    }
    let min = cell.as_dvec3();
    let max = min + DVec3::ONE;
    // Inside quirk: the point 0.001 along the segment lies inside the shape.
    let probe = from + delta * INSIDE_PROBE;
    let rel = probe - min;
    let inside = |v: f64| (0.0..1.0).contains(&v);
    if quirk && inside(rel.x) && inside(rel.y) && inside(rel.z) {
        return Some((probe, Direction::approximate_nearest(delta).opposite()));
    }
    // AABB.clip: faces facing the ray, 0 < t < best (starting at 1), 1e-7 slack on the others.
    let mut best = 1.0_f64;
    let mut face = None;
    let mut try_face = |t: f64, a: f64, amin: f64, amax: f64, b: f64, bmin: f64, bmax: f64, f| {
        if 0.0 < t
            && t < best
            && amin - EPS < a
            && a < amax + EPS
            && bmin - EPS < b
            && b < bmax + EPS
        {
            best = t;
            face = Some(f);
        }
    };
    if delta.x > EPS || delta.x < -EPS {
        let (side, f) = if delta.x > EPS {
            (min.x, Direction::West)
        } else {
            (max.x, Direction::East)
        };
        let t = (side - from.x) / delta.x;
        let y = from.y + t * delta.y;
        let z = from.z + t * delta.z;
        try_face(t, y, min.y, max.y, z, min.z, max.z, f);
    }
    if delta.y > EPS || delta.y < -EPS {
        let (side, f) = if delta.y > EPS {
            (min.y, Direction::Down)
        } else {
            (max.y, Direction::Up)
        };
        let t = (side - from.y) / delta.y;
        let x = from.x + t * delta.x;
        let z = from.z + t * delta.z;
        try_face(t, x, min.x, max.x, z, min.z, max.z, f);
    }
    if delta.z > EPS || delta.z < -EPS {
        let (side, f) = if delta.z > EPS {
            (min.z, Direction::North)
        } else {
            (max.z, Direction::South)
        };
        let t = (side - from.z) / delta.z;
        let x = from.x + t * delta.x;
        let y = from.y + t * delta.y;
        try_face(t, x, min.x, max.x, y, min.y, max.y, f);
    }
    face.map(|f| (from + delta * best, f))
}

/// Cap on the DDA steps of one cast, so a malformed (huge) segment cannot loop for long. A
/// segment steps at most once per crossed cell boundary (≤ |dx| + |dy| + |dz| + 3), so every
/// segment shorter than about 350 000 blocks is walked to its end, as SPR's casts are (shared-
/// airspace casts reach 512/attenuation_factor, i.e. 5120 blocks at attenuation_factor 0.1).
const MAX_STEPS: f64 = 1_048_576.0;

/// Cells visited by casts, against a limit (acoustics-core's cell budget).
///
/// Once the limit is reached every further cast reports a MISS and `exhausted` is set: the
/// evaluation is then incomplete (SPR itself has no budget; the default limit is unlimited).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellCount {
    /// Cells visited so far.
    pub cells: u64,
    /// Most cells allowed.
    pub limit: u64,
    /// The limit was hit.
    pub exhausted: bool,
}

impl CellCount {
    /// A counter with no practical limit.
    #[must_use]
    pub const fn unlimited() -> CellCount {
        CellCount::with_limit(u64::MAX)
    }

    /// A counter stopping at `limit` cells.
    #[must_use]
    pub const fn with_limit(limit: u64) -> CellCount {
        CellCount {
            cells: 0,
            limit,
            exhausted: false,
        }
    }

    fn take(&mut self) -> bool {
        if self.cells >= self.limit {
            self.exhausted = true;
            false
        } else {
            self.cells += 1;
            true
        }
    }
}

/// Casts `from → to` through `world`, skipping the cell `ignore` (spec `spr.md` §1.1).
///
/// Returns the first block hit in traversal order, or `None` (a MISS, whose location SPR takes as
/// `to`). Counts the visited cells into `count`; an exhausted count ends the cast as a MISS.
pub fn cast<W: SprWorld + ?Sized>(
    world: &W,
    from: DVec3,
    to: DVec3,
    ignore: Option<IVec3>,
    count: &mut CellCount,
) -> Option<RayHit> {
    cast_with(world, from, to, ignore, true, count)
}

/// [`cast`] with the inside quirk of `VoxelShape.clip` switched on (SPR/Minecraft) or off (true
/// entry faces only; for comparison, spec `spr.md` §4.4).
pub fn cast_with<W: SprWorld + ?Sized>(
    world: &W,
    from: DVec3,
    to: DVec3,
    ignore: Option<IVec3>,
    inside_quirk: bool,
    count: &mut CellCount,
) -> Option<RayHit> {
    if from == to || !from.is_finite() || !to.is_finite() {
        return None;
    }
    // Both ends pushed outward by 1e-7 of the segment (Mth.lerp(-1e-7, ...)).
    let end = to + (to - from) * EPS;
    let start = from - (to - from) * EPS;
    let first = floor_cell(start)?;
    let mut cell = first.to_array();
    let visit = |c: IVec3| -> Option<RayHit> {
        if Some(c) == ignore {
            return None;
        }
        let block = world.block(c)?;
        let (location, face) = clip_cube(from, to, c, inside_quirk)?;
        Some(RayHit {
            location,
            face,
            cell: c,
            block,
        })
    };
    let d = (end - start).to_array();
    let s = start.to_array();
    // Per axis: step sign, tDelta, tMax (vanilla's `traverseBlocks`); a zero component never
    // steps.
    let mut sign = [0_i32; 3];
    let mut delta = [f64::INFINITY; 3];
    let mut t_max = [f64::INFINITY; 3];
    for a in 0..3 {
        let frac = s[a] - s[a].floor();
        if d[a] > 0.0 {
            sign[a] = 1;
            delta[a] = 1.0 / d[a];
            t_max[a] = delta[a] * (1.0 - frac);
        } else if d[a] < 0.0 {
            sign[a] = -1;
            delta[a] = -1.0 / d[a];
            t_max[a] = delta[a] * frac;
        }
    }
    // Every boundary crossing of the segment, plus slack for the nudged ends.
    let max_steps = (d[0].abs() + d[1].abs() + d[2].abs() + 4.0).min(MAX_STEPS) as u32;
    let mut checked_section = None;
    let mut steps = 0;
    loop {
        if !count.take() {
            return None;
        }
        let here = IVec3::from_array(cell);
        if let Some(h) = visit(here) {
            return Some(h);
        }
        // Section skipping: a passable 16³ section cannot produce a hit, so advance every axis
        // past the steps that stay inside it (same additions as the cell walk, so the state on
        // leaving is bit-identical to walking it cell by cell).
        let section = IVec3::new(cell[0] >> 4, cell[1] >> 4, cell[2] >> 4);
        if checked_section != Some(section) {
            checked_section = Some(section);
            if world.section_is_passable(section) {
                skip_section(&mut cell, &mut t_max, sign, delta, section);
            }
        }
        if !(t_max[0] <= 1.0 || t_max[1] <= 1.0 || t_max[2] <= 1.0) || steps >= max_steps {
            return None;
        }
        steps += 1;
        // Ties: z beats y, y beats x (vanilla's comparison order).
        let a = if t_max[0] < t_max[1] {
            if t_max[0] < t_max[2] { 0 } else { 2 }
        } else if t_max[1] < t_max[2] {
            1
        } else {
            2
        };
        cell[a] = cell[a].wrapping_add(sign[a]);
        t_max[a] += delta[a];
    }
}

/// Advances the walk to the last cell of `section` before the ray leaves it: every step whose
/// `t_max` lies below the section exit time is taken.
fn skip_section(
    cell: &mut [i32; 3],
    t_max: &mut [f64; 3],
    sign: [i32; 3],
    delta: [f64; 3],
    section: IVec3,
) {
    let lo = (section * 16).to_array();
    let mut exit = f64::INFINITY;
    let mut exit_t = [f64::INFINITY; 3];
    for a in 0..3 {
        let steps = match sign[a] {
            1 => lo[a] + 15 - cell[a],
            -1 => cell[a] - lo[a],
            _ => continue,
        };
        // t of the step that leaves the section along this axis, by repeated addition.
        let mut t = t_max[a];
        for _ in 0..steps.clamp(0, 16) {
            t += delta[a];
        }
        exit_t[a] = t;
        exit = exit.min(t);
    }
    for a in 0..3 {
        while t_max[a] < exit && t_max[a] < exit_t[a] {
            cell[a] = cell[a].wrapping_add(sign[a]);
            t_max[a] += delta[a];
        }
    }
}

#[cfg(test)]
mod tests;
