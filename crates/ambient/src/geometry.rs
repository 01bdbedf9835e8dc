//! Landblock geometry (`LandDefs`, `Position`): cell ids, block offsets, land-cell vertices and
//! the eight viewer-relative directions (spec `ambient-runtime.md` §5, §7).

#[cfg(test)]
mod tests;

use glam::Vec3;
use resound_datformat::id::CellId;
use serde::Serialize;

/// Landblocks along each axis (`LandDefs::get_vars`).
pub const LAND_BLOCKS_PER_SIDE: u32 = 255;
/// Land cells along each side of a landblock (`side_cell_count`).
pub const CELLS_PER_SIDE: usize = 8;
/// Terrain vertices along each side of a landblock.
pub const VERTICES_PER_SIDE: usize = 9;
/// The side of a land cell in metres.
pub const CELL_LENGTH: f32 = 24.0;
/// The side of a landblock in metres (8 × 24).
pub const BLOCK_LENGTH: f32 = 192.0;
/// Global land-cell coordinates (`lcoord`) run `0..MAX_LCOORD`.
pub const MAX_LCOORD: u32 = 2040;

/// A retail `Position`: an object cell id `0xXXYYCCCC` and a landblock-relative origin.
///
/// The frame's orientation is not needed by the ambient gather; the listener's heading is
/// carried separately by [`crate::Listener`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Position {
    /// The object cell id: block x (east) in the top byte, block y (north) in the next, cell
    /// in the low word.
    pub objcell_id: CellId,
    /// Metres from the landblock's south-west corner (x east, y north, z up).
    pub origin: Vec3,
}

impl Position {
    /// A position from a raw cell id and a landblock-relative origin.
    #[must_use]
    pub const fn new(objcell_id: u32, origin: Vec3) -> Self {
        Self {
            objcell_id: CellId(objcell_id),
            origin,
        }
    }

    /// `Position::get_offset` @ 0x00509F60: `other − self` in metres, with the landblock delta
    /// taken in integers first (`LandDefs::get_block_offset` @ 0x0043E630), then
    /// `(block_offset + other.origin) − self.origin`.
    #[must_use]
    pub fn get_offset(&self, other: &Position) -> Vec3 {
        (block_offset(self.objcell_id.0, other.objcell_id.0) + other.origin) - self.origin
    }

    /// `Position::distance`: the 3-D length of [`Position::get_offset`].
    #[must_use]
    pub fn distance(&self, other: &Position) -> f32 {
        self.get_offset(other).length()
    }

    /// `Position::heading(other)` @ 0x005A9520: the compass bearing in degrees from `self` to
    /// `other` (0 = +y north, 90 = +x east), `(450 − atan2(dy, dx)°) mod 360`; 0 when the
    /// horizontal offset is under 0.0002 m on both axes (straight above or below).
    /// Confidence M (spec §4.4: the operand order is inferred from ACE and DR).
    #[must_use]
    pub fn heading(&self, other: &Position) -> f32 {
        let d = self.get_offset(other);
        if d.x.abs() < 0.0002 && d.y.abs() < 0.0002 {
            return 0.0;
        }
        // libm's atan2 (not the platform's): the same heading on every target.
        let deg = 450.0 - libm::atan2(f64::from(d.y), f64::from(d.x)).to_degrees();
        (deg % 360.0) as f32
    }
}

/// Whether a landblock-relative `origin` lies in `objcell_id`'s ground square: for a land cell,
/// the 24 m square `LandDefs::gid_to_lcoord` gives it (`x·8 + y + 1`); for an EnvCell or the
/// landblock itself, the block's 192 m square. Only x and y are checked (z is free).
#[must_use]
pub fn origin_in_cell(objcell_id: u32, origin: Vec3) -> bool {
    let (x, y) = (origin.x, origin.y);
    let in_block = (0.0..BLOCK_LENGTH).contains(&x) && (0.0..BLOCK_LENGTH).contains(&y);
    if !is_land_cell(objcell_id) {
        return in_block;
    }
    let c = (objcell_id & 0xFFFF) - 1;
    let (cx, cy) = ((c / 8) as f32, (c % 8) as f32);
    in_block && (x / CELL_LENGTH).floor() == cx && (y / CELL_LENGTH).floor() == cy
}

/// The landblock id part (`0xXXYY0000`) of a cell id.
#[must_use]
pub const fn block_of(objcell_id: u32) -> u32 {
    objcell_id & 0xFFFF_0000
}

/// Block x (east) and block y (north) of a cell id.
#[must_use]
pub const fn block_xy(objcell_id: u32) -> (u32, u32) {
    (objcell_id >> 24, (objcell_id >> 16) & 0xFF)
}

/// The cell-dat id of a landblock's `LandBlock` record (`0xXXYYFFFF`).
#[must_use]
pub const fn land_block_id(block_x: u32, block_y: u32) -> u32 {
    (block_x << 24) | (block_y << 16) | 0xFFFF
}

/// Whether the cell id is an outdoor land cell (low word `1..=0x40`).
#[must_use]
pub const fn is_land_cell(objcell_id: u32) -> bool {
    let low = objcell_id & 0xFFFF;
    low >= 1 && low <= 0x40
}

/// Whether `CellManager::ChangePosition` counts the cell as outdoor: its low word is below
/// `0x100` (spec `ambient-runtime.md` §6).
#[must_use]
pub const fn is_outdoor_cell(objcell_id: u32) -> bool {
    objcell_id & 0xFFFF < 0x100
}

/// `inbound_valid_cellid`: the low word is a land cell, an EnvCell (`0x100..=0xFFFD`) or the
/// landblock (`0xFFFF`), and the block's lcoords are below 2040.
#[must_use]
pub const fn is_valid_cell_id(objcell_id: u32) -> bool {
    let low = objcell_id & 0xFFFF;
    let low_ok = (low >= 1 && low <= 0x40) || (low >= 0x100 && low <= 0xFFFD) || low == 0xFFFF;
    let (bx, by) = block_xy(objcell_id);
    low_ok && bx * 8 < MAX_LCOORD && by * 8 < MAX_LCOORD
}

/// The land cell id `0xXXYY00CC` of land cell `(cx, cy)` in block `(bx, by)`:
/// `CC = cx·8 + cy + 1` (`LandDefs::lcoord_to_gid`). Cell 1 is the south-west cell.
#[must_use]
pub const fn land_cell_id(block_x: u32, block_y: u32, cx: u32, cy: u32) -> u32 {
    (block_x << 24) | (block_y << 16) | (cx * 8 + cy + 1)
}

/// `LandDefs::lcoord_to_gid`: the land cell id of global land-cell coordinates `(gx, gy)`.
#[must_use]
pub const fn lcoord_to_gid(gx: u32, gy: u32) -> u32 {
    (((gx >> 3) << 8) | (gy >> 3)) << 16 | ((gx & 7) * 8 + (gy & 7) + 1)
}

/// `LandDefs::get_block_offset` @ 0x0043E630: zero in the same landblock, otherwise the block
/// delta × 192 m, computed in integers.
#[must_use]
pub fn block_offset(from: u32, to: u32) -> Vec3 {
    if from >> 16 == to >> 16 {
        return Vec3::ZERO;
    }
    let (fx, fy) = block_xy(from);
    let (tx, ty) = block_xy(to);
    let dx = i64::from(tx) - i64::from(fx);
    let dy = i64::from(ty) - i64::from(fy);
    Vec3::new(dx as f32 * BLOCK_LENGTH, dy as f32 * BLOCK_LENGTH, 0.0)
}

/// `LandDefs::Direction` (acclient.h:3284): where a sound lies as seen from the player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[repr(u8)]
pub enum Direction {
    /// `IN_VIEWER_BLOCK` (0): within 14.14 m horizontally.
    InViewerBlock = 0,
    /// `NORTH_OF_VIEWER` (1), +y.
    North = 1,
    /// `SOUTH_OF_VIEWER` (2).
    South = 2,
    /// `EAST_OF_VIEWER` (3), +x.
    East = 3,
    /// `WEST_OF_VIEWER` (4).
    West = 4,
    /// `NORTHWEST_OF_VIEWER` (5).
    NorthWest = 5,
    /// `SOUTHWEST_OF_VIEWER` (6).
    SouthWest = 6,
    /// `NORTHEAST_OF_VIEWER` (7).
    NorthEast = 7,
    /// `SOUTHEAST_OF_VIEWER` (8).
    SouthEast = 8,
}

impl Direction {
    /// The order `IntermitSound::AddTo` visits the eight directions for an in-viewer-block
    /// cell: N, S, E, W, NW, NE, SW, SE.
    pub const ADD_TO_ORDER: [Direction; 8] = [
        Direction::North,
        Direction::South,
        Direction::East,
        Direction::West,
        Direction::NorthWest,
        Direction::NorthEast,
        Direction::SouthWest,
        Direction::SouthEast,
    ];

    /// `LandDefs::heading` (HR `geometry/LandDefs.c` @ 0x005A9A30): the octant's compass heading
    /// in radians (0 for `IN_VIEWER_BLOCK`).
    #[must_use]
    pub const fn heading(self) -> f32 {
        use std::f32::consts::{FRAC_PI_2, FRAC_PI_4, PI};
        match self {
            Direction::InViewerBlock | Direction::North => 0.0,
            Direction::South => PI,
            Direction::East => FRAC_PI_2,
            Direction::West => 3.0 * PI / 2.0,
            // the table's stored floats (spec §5); they are exactly f32(7π/4) and f32(5π/4)
            Direction::NorthWest => 5.497_787,
            Direction::SouthWest => 3.926_990_7,
            Direction::NorthEast => FRAC_PI_4,
            Direction::SouthEast => 3.0 * PI / 4.0,
        }
    }
}
