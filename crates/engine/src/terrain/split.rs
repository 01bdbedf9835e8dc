//! The retail split of a land cell into two triangles (spec §12 "Cell split").
//!
//! `CLandBlockStruct::ConstructPolygons` hashes the global cell coordinates (the same hash is
//! in AC2D, ACE and holtburger) and picks the shared edge from the top bit.

use resound_acoustics::Diagonal;

/// Which way the shared edge of a land cell runs (AC compass names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Split {
    /// South-west to north-east: triangles SW-SE-NE and SW-NE-NW (top bit of the hash set).
    SwNe,
    /// South-east to north-west: triangles SW-SE-NW and SE-NE-NW (top bit clear; ACE's
    /// "NW-SE split").
    SeNw,
}

/// The retail split hash of global cell `(gx, gy)` (`gx = XX·8 + cx`, `gy = YY·8 + cy`), in
/// wrapping u32 arithmetic: `gx·gy·0x0CCAC033 − gx·0x421BE3BD + gy·0x6C1AC587 − 0x519B8F25`.
#[must_use]
pub fn split_hash(gx: u32, gy: u32) -> u32 {
    gx.wrapping_mul(gy)
        .wrapping_mul(0x0CCA_C033)
        .wrapping_sub(gx.wrapping_mul(0x421B_E3BD))
        .wrapping_add(gy.wrapping_mul(0x6C1A_C587))
        .wrapping_sub(0x519B_8F25)
}

/// The split of global cell `(gx, gy)`.
#[must_use]
pub fn cell_split(gx: u32, gy: u32) -> Split {
    if split_hash(gx, gy) & 0x8000_0000 != 0 {
        Split::SwNe
    } else {
        Split::SeNw
    }
}

impl Split {
    /// The heightfield diagonal under the voxel axes of [`super::axes`] (`z` south): a grid
    /// cell's `c00` corner is the land cell's NW corner, `c10` NE, `c01` SW, `c11` SE, so SW→NE
    /// joins `c01`–`c10` ([`Diagonal::Anti`]) and SE→NW joins `c11`–`c00` ([`Diagonal::Main`]).
    #[must_use]
    pub fn diagonal(self) -> Diagonal {
        match self {
            Self::SwNe => Diagonal::Anti,
            Self::SeNw => Diagonal::Main,
        }
    }
}
