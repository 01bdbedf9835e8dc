//! `LandBlock` — cell dat, ids `0xXXYYFFFF` (spec §4.4): the 9×9 vertex grid of one landblock
//! (terrain words and height bytes). 252 bytes.

use binrw::binrw;
use serde::Serialize;

use super::codec::{read_fixed_array, serialize_array};
use super::terrain_texture_type::TerrainTextureType;

/// Vertices per side of a landblock grid.
pub const LAND_BLOCK_SIDE: usize = 9;
/// Vertices in a landblock grid.
pub const LAND_BLOCK_VERTICES: usize = LAND_BLOCK_SIDE * LAND_BLOCK_SIDE;

/// A LandBlock DBObj.
#[binrw]
#[brw(little)]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LandBlock {
    /// File id (`0xXXYYFFFF`).
    pub id: u32,
    /// `HasObjects` (raw bool32, kept for round trip; DRW reads `!= 0`).
    pub has_objects: u32,
    /// `Terrain`: terrain words, index `x * 9 + y` (see [`TerrainWord`]).
    #[br(parse_with = read_fixed_array)]
    #[serde(serialize_with = "serialize_array")]
    pub terrain: [u16; LAND_BLOCK_VERTICES],
    /// `Height`: height bytes (→ `LandDefs.land_height_table`), index `x * 9 + y`.
    #[br(parse_with = read_fixed_array)]
    #[serde(serialize_with = "serialize_array")]
    pub height: [u8; LAND_BLOCK_VERTICES],
    /// The align4 pad byte at offset 251, kept for round trip (not a DRW property, so not in
    /// the serde form).
    #[serde(skip)]
    pub pad: u8,
}

impl Default for LandBlock {
    fn default() -> Self {
        Self {
            id: 0,
            has_objects: 0,
            terrain: [0; LAND_BLOCK_VERTICES],
            height: [0; LAND_BLOCK_VERTICES],
            pad: 0,
        }
    }
}

impl LandBlock {
    /// Encoded size in bytes.
    pub const SIZE: usize = 252;

    /// `HasObjects != 0`.
    #[must_use]
    pub fn has_objects(&self) -> bool {
        self.has_objects != 0
    }

    /// Landblock column (west → east), `id >> 24`.
    #[must_use]
    pub fn block_x(&self) -> u8 {
        self.id.to_be_bytes()[0]
    }

    /// Landblock row (south → north), `(id >> 16) & 0xFF`.
    #[must_use]
    pub fn block_y(&self) -> u8 {
        self.id.to_be_bytes()[1]
    }

    /// Index of vertex `(x, y)` (x east, y north, both `0..9`), or `None` outside the grid.
    #[must_use]
    pub fn vertex_index(x: usize, y: usize) -> Option<usize> {
        (x < LAND_BLOCK_SIDE && y < LAND_BLOCK_SIDE).then_some(x * LAND_BLOCK_SIDE + y)
    }

    /// The terrain word of vertex `(x, y)`; coordinates beyond the grid are clamped to its
    /// edge (8). Use [`LandBlock::get_terrain_word`] to detect out-of-range coordinates.
    #[must_use]
    pub fn terrain_word(&self, x: usize, y: usize) -> TerrainWord {
        let max = LAND_BLOCK_SIDE - 1;
        let i = x.min(max) * LAND_BLOCK_SIDE + y.min(max);
        TerrainWord(self.terrain.get(i).copied().unwrap_or(0))
    }

    /// The terrain word of vertex `(x, y)`, or `None` outside the grid.
    #[must_use]
    pub fn get_terrain_word(&self, x: usize, y: usize) -> Option<TerrainWord> {
        Self::vertex_index(x, y)
            .and_then(|i| self.terrain.get(i))
            .map(|&t| TerrainWord(t))
    }

    /// The height byte of vertex `(x, y)`, or `None` outside the grid.
    #[must_use]
    pub fn height_at(&self, x: usize, y: usize) -> Option<u8> {
        Self::vertex_index(x, y)
            .and_then(|i| self.height.get(i))
            .copied()
    }
}

/// A LandBlock terrain word: bits 0–1 road, 2–6 terrain type, 7–10 unused, 11–15 scenery.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(transparent)]
pub struct TerrainWord(pub u16);

impl TerrainWord {
    /// Road bits (`& 0x3`); non-zero means a road on this vertex.
    #[must_use]
    pub fn road(self) -> u8 {
        (self.0 & 0x3) as u8
    }

    /// Terrain texture type (`(t >> 2) & 0x1F`).
    #[must_use]
    pub fn terrain_type(self) -> TerrainTextureType {
        TerrainTextureType::from_i32(i32::from((self.0 >> 2) & 0x1F))
    }

    /// Scenery index (`t >> 11`, 0..=31) into the terrain type's `scene_types`.
    #[must_use]
    pub fn scenery(self) -> u8 {
        (self.0 >> 11) as u8
    }

    /// A word from its three parts (each masked to its width; unused bits 0).
    #[must_use]
    pub fn new(road: u8, terrain_type: u8, scenery: u8) -> Self {
        Self(
            u16::from(road & 0x3)
                | u16::from(terrain_type & 0x1F) << 2
                | u16::from(scenery & 0x1F) << 11,
        )
    }
}
