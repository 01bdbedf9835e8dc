//! The one mapping between Asheron's Call positions and the voxel world (spec §12 "Axes").
//!
//! AC is x east, y north, z up, with positions landblock-relative (`0xXXYYCCCC` plus metres from
//! the block's south-west corner; ambient-runtime.md §7). The voxel world of `acoustics-core` is
//! `y` up, and this module makes it right-handed with `x` east and `z` **south**:
//!
//! | voxel | AC (global metres) |
//! |---|---|
//! | `x` | `X = XX·192 + origin.x` (east) |
//! | `y` | `Z = origin.z` (up) |
//! | `z` | `−Y = −(YY·192 + origin.y)` (south) |
//!
//! One voxel cell is one metre. Every other part of the engine (terrain, ambient sound
//! positions, the listener) goes through [`ac_to_voxel`] / [`voxel_to_ac`]; nothing else may
//! restate the mapping.

use glam::{DVec3, Vec3};
use resound_ambient::Position;

/// Metres per landblock side.
pub const BLOCK_METRES: f64 = 192.0;
/// Metres per land cell side.
pub const CELL_METRES: f64 = 24.0;
/// Landblocks per axis with a valid land cell (lcoord < 2040, so `XX`, `YY` ≤ 254).
pub const BLOCKS_PER_AXIS: u32 = 255;

/// AC global metres `(X east, Y north, Z up)` of a position (its block offset taken in integers
/// first, then the landblock-relative origin added).
#[must_use]
pub fn ac_global(pos: &Position) -> DVec3 {
    let [xx, yy, _, _] = pos.objcell_id.get().to_be_bytes();
    DVec3::new(
        f64::from(xx) * BLOCK_METRES + f64::from(pos.origin.x),
        f64::from(yy) * BLOCK_METRES + f64::from(pos.origin.y),
        f64::from(pos.origin.z),
    )
}

/// Voxel position of an AC position: `(X, Z, −Y)` in metres (only the landblock part of the
/// cell id matters; the origin may lie outside `[0, 192)`).
#[must_use]
pub fn ac_to_voxel(pos: &Position) -> DVec3 {
    let g = ac_global(pos);
    DVec3::new(g.x, g.z, -g.y)
}

/// AC direction (east, north, up) of a voxel direction (for apparent directions and taps).
#[must_use]
pub fn voxel_dir_to_ac(dir: DVec3) -> DVec3 {
    DVec3::new(dir.x, -dir.z, dir.y)
}

/// The outdoor AC position of a voxel position: the land cell `0xXXYY00CC` holding it and the
/// landblock-relative origin. `None` outside the 255 × 255 landblocks or for non-finite input.
#[must_use]
pub fn voxel_to_ac(v: DVec3) -> Option<Position> {
    if !v.is_finite() {
        return None;
    }
    let (gx, gy, gz) = (v.x, -v.z, v.y);
    let max = f64::from(BLOCKS_PER_AXIS) * BLOCK_METRES;
    if !(0.0..max).contains(&gx) || !(0.0..max).contains(&gy) {
        return None;
    }
    // In range: both block indices are 0..=254.
    let bx = (gx / BLOCK_METRES).floor();
    let by = (gy / BLOCK_METRES).floor();
    let (lx, ly) = (gx - bx * BLOCK_METRES, gy - by * BLOCK_METRES);
    let cx = ((lx / CELL_METRES).floor() as u32).min(7);
    let cy = ((ly / CELL_METRES).floor() as u32).min(7);
    let id = (bx as u32) << 24 | (by as u32) << 16 | (cx * 8 + cy + 1);
    Some(Position::new(
        id,
        Vec3::new(lx as f32, ly as f32, gz as f32),
    ))
}

#[cfg(test)]
mod tests;
