//! Asheron's Call terrain as an acoustic world (spec `acoustics.md` §12; a divergence from
//! retail, which had no acoustics).
//!
//! [`TerrainWorld`] presents the landblocks around the listener as a storage-free
//! [`Heightfield`] probe of 1 m voxels: vertex heights from the Region's LandHeightTable, the
//! retail cell split ([`split`]), materials by terrain type ([`material`]), boxes placed over
//! the terrain (a demo's gorge walls, tunnel or hall). Landblocks load lazily as the listener
//! moves: the [`RING`]-block ring around the listener's block (5 × 5, 960 m) is resident; a
//! block absent from the cell dat, and everything beyond the ring, is `Unknown` (counted as air
//! and reported in the unknown share). The AC ↔ voxel mapping is [`axes`], the one mapping.
//!
//! ```text
//! let mut terrain = TerrainWorld::new(&region, &MaterialTable::standard())?;
//! terrain.update_listener(&listener_position, &mut cell_dat)?;   // loads the 5 × 5 ring
//! model.evaluate(terrain.probe(), &request, Mode::Full, &mut budget)?;
//! ```

pub mod axes;
pub mod material;
pub mod position;
pub mod split;

use std::collections::BTreeMap;
use std::sync::Arc;

use glam::{IVec2, Vec3};
use resound_acoustics::{
    Cell, Heightfield, HeightfieldError, Layers, MaterialTable, PlacedBox, VertexGrid, WorldProbe,
};
use resound_ambient::{LandBlockSource, Position};
use resound_datformat::record::{LandBlock, Region};

pub use axes::{ac_to_voxel, voxel_dir_to_ac, voxel_to_ac};
pub use material::{MissingMaterial, TerrainMaterials};
pub use position::{PositionError, parse_position, show_position};
pub use split::{Split, cell_split, split_hash};

/// Landblocks resident on each side of the listener's block (2: a 5 × 5 ring, 960 m across).
pub const RING: u8 = 2;
/// Height of a standing listener's ears above the ground (metres; `--ground`).
pub const EAR_HEIGHT: f32 = 1.75;
/// Cells per landblock side.
const CELLS: u32 = 8;
/// Vertices per landblock side.
const SIDE: usize = 9;
/// Largest landblock coordinate with land cells.
const LAST_BLOCK: u8 = 254;

/// Why the terrain could not be built.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TerrainError {
    /// The cell dat has the landblock but it could not be read (a corrupt record).
    #[error("LandBlock 0x{id:08X} could not be read")]
    LandBlock {
        /// The landblock id `0xXXYYFFFF`.
        id: u32,
        /// The reader's error.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The record read for a landblock carries another id.
    #[error("LandBlock 0x{asked:08X} holds a record with id 0x{got:08X}")]
    WrongId {
        /// The id asked for.
        asked: u32,
        /// The id in the record.
        got: u32,
    },
    /// The material table lacks a terrain material.
    #[error(transparent)]
    Material(#[from] MissingMaterial),
    /// The heightfield could not be built (non-finite heights).
    #[error("terrain heightfield: {0}")]
    Heightfield(HeightfieldError),
}

/// The landblock id `0xXXYYFFFF` of block `(x, y)`.
#[must_use]
pub fn land_block_id(x: u8, y: u8) -> u32 {
    u32::from(x) << 24 | u32::from(y) << 16 | 0xFFFF
}

/// The terrain around the listener, as a [`Heightfield`] probe.
#[derive(Clone, Debug)]
pub struct TerrainWorld {
    heights: [f32; 256],
    materials: TerrainMaterials,
    /// Resident ring: `None` for a block absent from the dat.
    blocks: BTreeMap<(u8, u8), Option<Arc<LandBlock>>>,
    centre: Option<(u8, u8)>,
    field: Heightfield,
    boxes: Vec<PlacedBox>,
    revision: u64,
    /// Landblock reads so far.
    pub loads: usize,
}

fn empty_field() -> Heightfield {
    // A 2 × 2 grid of absent vertices: every cell Unknown.
    let grid = VertexGrid::new(IVec2::ZERO, 24, 2, 2);
    Heightfield::new(
        &grid,
        |_, _| split::Split::SeNw.diagonal(),
        |_, _| Layers::uniform(resound_acoustics::MaterialId::DEFAULT),
        Cell::Unknown,
    )
    .unwrap_or_else(|_| unreachable!("a 2 × 2 grid of spacing 24 is valid"))
}

impl TerrainWorld {
    /// Terrain over a Region's height table (as retail installs it:
    /// `LandDefs::set_height_table`, entries in [0, 800]) and a material table holding water,
    /// stone, sand, snow and dirt. Nothing is resident until [`TerrainWorld::update_listener`].
    ///
    /// # Errors
    /// [`TerrainError::Material`].
    pub fn new(region: &Region, materials: &MaterialTable) -> Result<Self, TerrainError> {
        Ok(Self {
            heights: region.land_defs.retail_height_table(),
            materials: TerrainMaterials::from_table(materials)?,
            blocks: BTreeMap::new(),
            centre: None,
            field: empty_field(),
            boxes: Vec::new(),
            revision: 0,
            loads: 0,
        })
    }

    /// The probe acoustics traces.
    #[must_use]
    pub fn probe(&self) -> &Heightfield {
        &self.field
    }

    /// The landblock the ring is centred on.
    #[must_use]
    pub fn centre(&self) -> Option<(u8, u8)> {
        self.centre
    }

    /// Ids of the resident ring's blocks with whether the dat had them.
    pub fn resident(&self) -> impl Iterator<Item = (u32, bool)> + '_ {
        self.blocks
            .iter()
            .map(|(&(x, y), b)| (land_block_id(x, y), b.is_some()))
    }

    /// Places a box over the terrain (it wins where it overlaps); kept across ring moves.
    pub fn place(&mut self, placed: PlacedBox) {
        self.boxes.push(placed);
        self.revision += 1;
        self.field.place(placed);
        self.field.set_revision(self.revision);
    }

    /// The boxes placed over the terrain, in order.
    #[must_use]
    pub fn boxes(&self) -> &[PlacedBox] {
        &self.boxes
    }

    /// Sets the probe's epoch (a world switch or teleport clears acoustics caches).
    pub fn set_epoch(&mut self, epoch: u64) {
        self.field.set_epoch(epoch);
    }

    /// Makes the ring around the listener's landblock resident, loading blocks that entered it
    /// and dropping those that left. Returns true when the resident set changed (the probe's
    /// revision is then bumped).
    ///
    /// # Errors
    /// [`TerrainError::LandBlock`] / [`TerrainError::WrongId`] for a landblock that exists but
    /// cannot be read (the previous ring stays resident).
    pub fn update_listener<S>(
        &mut self,
        listener: &Position,
        source: &mut S,
    ) -> Result<bool, TerrainError>
    where
        S: LandBlockSource,
        S::Error: Send + Sync + 'static,
    {
        let [x, y, _, _] = listener.objcell_id.get().to_be_bytes();
        let centre = (x.min(LAST_BLOCK), y.min(LAST_BLOCK));
        if self.centre == Some(centre) {
            return Ok(false);
        }
        let range = |c: u8| c.saturating_sub(RING)..=c.saturating_add(RING).min(LAST_BLOCK);
        let mut blocks = BTreeMap::new();
        for bx in range(centre.0) {
            for by in range(centre.1) {
                let block = match self.blocks.get(&(bx, by)) {
                    Some(b) => b.clone(),
                    None => self.load(bx, by, source)?,
                };
                blocks.insert((bx, by), block);
            }
        }
        self.blocks = blocks;
        self.centre = Some(centre);
        self.rebuild()?;
        Ok(true)
    }

    fn load<S>(
        &mut self,
        x: u8,
        y: u8,
        source: &mut S,
    ) -> Result<Option<Arc<LandBlock>>, TerrainError>
    where
        S: LandBlockSource,
        S::Error: Send + Sync + 'static,
    {
        let id = land_block_id(x, y);
        self.loads += 1;
        let block = source
            .load_land_block(id.into())
            .map_err(|e| TerrainError::LandBlock {
                id,
                source: Box::new(e),
            })?;
        if let Some(b) = &block
            && b.id != id
        {
            return Err(TerrainError::WrongId {
                asked: id,
                got: b.id,
            });
        }
        Ok(block)
    }

    /// Rebuilds the heightfield over the resident ring.
    fn rebuild(&mut self) -> Result<(), TerrainError> {
        let (Some(&(bx0, by0)), Some(&(bx1, by1))) =
            (self.blocks.keys().next(), self.blocks.keys().next_back())
        else {
            return Ok(());
        };
        let gx0 = u32::from(bx0) * CELLS;
        let gy_max = (u32::from(by1) + 1) * CELLS;
        let cols = (usize::from(bx1 - bx0) + 1) * 8 + 1;
        let rows = (usize::from(by1 - by0) + 1) * 8 + 1;
        // Vertex (0, 0) is the ring's NW corner (global vertex (gx0, gy_max)); the grid's k axis
        // runs south like voxel z, so vertex (i, k) is global vertex (gx0 + i, gy_max − k).
        let nw = ac_to_voxel(&Position::new(
            land_block_id(bx0, by1.saturating_add(1)) & 0xFFFF_0000,
            Vec3::ZERO,
        ));
        let origin = IVec2::new(nw.x as i32, nw.z as i32);
        let mut grid = VertexGrid::new(origin, 24, cols, rows);
        for (&(bx, by), block) in &self.blocks {
            let Some(block) = block else { continue };
            for vx in 0..SIDE {
                for vy in 0..SIDE {
                    let gx = u32::from(bx) * CELLS + vx as u32;
                    let gy = u32::from(by) * CELLS + vy as u32;
                    let byte = block.height[vx * SIDE + vy];
                    let h = self.heights[usize::from(byte)];
                    grid.set((gx - gx0) as usize, (gy_max - gy) as usize, h);
                }
            }
        }
        let blocks = &self.blocks;
        let materials = self.materials;
        let mut field = Heightfield::new(
            &grid,
            |i, k| {
                let (gx, gy) = (gx0 + i as u32, gy_max - k as u32 - 1);
                cell_split(gx, gy).diagonal()
            },
            |i, k| {
                // The terrain type of the land cell's SW vertex (always in the cell's block).
                let (gx, gy) = (gx0 + i as u32, gy_max - k as u32 - 1);
                let key = ((gx / CELLS) as u8, (gy / CELLS) as u8);
                let word = blocks
                    .get(&key)
                    .and_then(Option::as_ref)
                    .map(|b| b.terrain_word((gx % CELLS) as usize, (gy % CELLS) as usize));
                word.map_or(Layers::uniform(materials.dirt), |w| {
                    materials.layers(w.terrain_type())
                })
            },
            Cell::Unknown,
        )
        .map_err(TerrainError::Heightfield)?;
        for b in &self.boxes {
            field.place(*b);
        }
        field.set_epoch(WorldProbe::epoch(&self.field));
        self.revision += 1;
        field.set_revision(self.revision);
        self.field = field;
        Ok(())
    }

    /// Terrain height (AC `z`, metres) under a position, `None` where no landblock is resident.
    #[must_use]
    pub fn height_at(&self, pos: &Position) -> Option<f32> {
        let v = ac_to_voxel(pos);
        self.field.height_at(v.x, v.z)
    }

    /// The position moved to `above` metres over the terrain under it (`--ground` uses
    /// [`EAR_HEIGHT`]); `None` where no landblock is resident.
    #[must_use]
    pub fn on_ground(&self, pos: &Position, above: f32) -> Option<Position> {
        let h = self.height_at(pos)?;
        Some(Position::new(
            pos.objcell_id.get(),
            Vec3::new(pos.origin.x, pos.origin.y, h + above),
        ))
    }
}

#[cfg(test)]
mod tests;
