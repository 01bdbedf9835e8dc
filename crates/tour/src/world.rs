//! The tour's world: the gorge, tunnel and hall as §12 boxes over the dat's terrain, and the
//! terrain itself (the 5 × 5 landblocks of the tour's area) for heights (the listener's ear, the
//! event points, the map) and the structures as voxel boxes for
//! [`Engine::place_box`](resound_engine::Engine::place_box).
//!
//! The engine traces its own attached terrain (a ring that follows the listener); the tour
//! places [`TourWorld::boxes`] on it. This [`TerrainWorld`] stays centred on the area so the
//! walk, the event points and the map have heights everywhere.

use resound_engine::TerrainWorld;
use resound_engine::advanced::acoustics::{
    Cell, Heightfield, MaterialId, MaterialTable, PlacedBox, WorldProbe,
};
use resound_engine::advanced::ambient::{LandBlockSource, Position};
use resound_engine::advanced::datformat::record::Region;
use resound_engine::glam::{DVec2, DVec3, IVec3};
use resound_engine::terrain::axes::{BLOCK_METRES, voxel_to_ac};

use crate::error::Error;
use crate::script::{AREA_METRES, EAR, FIRST_BLOCK, Fill, STRUCTURES, floor_point, on_floor};

/// The voxel position of an area point (metres east and north of 0xA7B2's south-west
/// corner) at height `z` (AC metres).
#[must_use]
pub fn area_to_voxel(xy: DVec2, z: f64) -> DVec3 {
    let gx = f64::from(FIRST_BLOCK.0) * BLOCK_METRES + xy.x;
    let gy = f64::from(FIRST_BLOCK.1) * BLOCK_METRES + xy.y;
    DVec3::new(gx, z, -gy)
}

/// The area point (east, north) of a voxel position.
#[must_use]
pub fn voxel_to_area(v: DVec3) -> DVec2 {
    DVec2::new(
        v.x - f64::from(FIRST_BLOCK.0) * BLOCK_METRES,
        -v.z - f64::from(FIRST_BLOCK.1) * BLOCK_METRES,
    )
}

/// The AC position of an area point at height `z`.
#[must_use]
pub fn area_to_ac(xy: DVec2, z: f64) -> Option<Position> {
    voxel_to_ac(area_to_voxel(xy, z))
}

/// The area's terrain with the structures placed.
pub struct TourWorld {
    terrain: TerrainWorld,
    /// Height (AC metres) of the structures' common floor.
    pub floor: f64,
    water: Option<MaterialId>,
    boxes: Vec<PlacedBox>,
}

impl std::fmt::Debug for TourWorld {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TourWorld")
            .field("floor", &self.floor)
            .field("boxes", &self.boxes.len())
            .finish_non_exhaustive()
    }
}

impl TourWorld {
    /// Loads the 5 × 5 landblocks around the centre of the area from `cells` and places the
    /// structures.
    ///
    /// # Errors
    /// [`Error::Terrain`] when the Region's materials or a landblock cannot be read;
    /// [`Error::NoTerrain`] when the dat has no terrain under the structures.
    pub fn load<S>(region: &Region, cells: &mut S) -> Result<Self, Error>
    where
        S: LandBlockSource,
        S::Error: Send + Sync + 'static,
    {
        let materials = MaterialTable::standard();
        let mut terrain = TerrainWorld::new(region, &materials)?;
        let centre = area_to_ac(DVec2::splat(AREA_METRES / 2.0), 0.0).ok_or(Error::NoTerrain)?;
        terrain.update_listener(&centre, cells)?;
        let at = area_to_ac(floor_point(), 0.0).ok_or(Error::NoTerrain)?;
        let floor = f64::from(terrain.height_at(&at).ok_or(Error::NoTerrain)?).round();
        let stone = materials.by_name("stone").ok_or(Error::NoTerrain)?;
        let mut boxes = Vec::with_capacity(STRUCTURES.len());
        for s in STRUCTURES {
            let cell = match s.fill {
                Fill::Stone => Cell::Solid {
                    mat: stone,
                    partial: false,
                },
                Fill::Air => Cell::Air,
            };
            let a = area_to_voxel(s.min, floor + s.z.0);
            let b = area_to_voxel(s.max, floor + s.z.1);
            // Voxel z runs south: the area's north edge is the smaller z.
            let min = IVec3::new(a.x.floor() as i32, a.y as i32, b.z.ceil() as i32);
            let max = IVec3::new(
                b.x.ceil() as i32 - 1,
                b.y as i32 - 1,
                a.z.floor() as i32 - 1,
            );
            let placed = PlacedBox { min, max, cell };
            terrain.place(placed);
            boxes.push(placed);
        }
        Ok(Self {
            terrain,
            floor,
            water: materials.by_name("water"),
            boxes,
        })
    }

    /// Ground (or the structures' floor) height at an area point, AC metres.
    #[must_use]
    pub fn ground(&self, xy: DVec2) -> f64 {
        if on_floor(xy) {
            return self.floor;
        }
        area_to_ac(xy, 0.0)
            .and_then(|p| self.terrain.height_at(&p))
            .map_or(self.floor, f64::from)
    }

    /// Whether the surface at an area point is water.
    #[must_use]
    pub fn water(&self, xy: DVec2) -> bool {
        let v = area_to_voxel(xy, self.ground(xy) - 0.5);
        match self.terrain.probe().cell(v.floor().as_ivec3()) {
            Cell::Solid { mat, .. } => Some(mat) == self.water,
            _ => false,
        }
    }

    /// The listener's ear (voxel) at an area point.
    #[must_use]
    pub fn ear(&self, xy: DVec2) -> DVec3 {
        area_to_voxel(xy, self.ground(xy) + EAR)
    }

    /// The §12 probe (terrain and structures).
    #[must_use]
    pub fn probe(&self) -> &Heightfield {
        self.terrain.probe()
    }

    /// The structures as inclusive voxel boxes, in placing order.
    #[must_use]
    pub fn boxes(&self) -> &[PlacedBox] {
        &self.boxes
    }
}
