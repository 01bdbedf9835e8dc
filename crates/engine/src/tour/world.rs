//! The tour's world: the dat's terrain (the 5 × 5 landblocks around the tour) with the gorge,
//! tunnel and hall placed on it as §12 boxes, copied into the engine's voxel store along the
//! walk.
//!
//! The terrain comes from [`TerrainWorld`] (the §12 adapter); the structures are
//! [`PlacedBox`]es on its [`Heightfield`](resound_acoustics::Heightfield) probe. The engine
//! traces a [`WorldStore`], so every 16³ section within [`MARGIN`] metres of the walk, the
//! structures and the event points is copied from the probe (empty sections skipped, full ones
//! stored uniform); everything else is air.

use std::collections::BTreeSet;

use glam::{DVec2, DVec3, IVec3};
use resound_acoustics::{
    Absent, Cell, CellCode, MaterialTable, PlacedBox, SectionCells, SectionClass, SectionData,
    WorldProbe, WorldStore,
};
use resound_ambient::{LandBlockSource, Position};
use resound_datformat::record::Region;

use super::TourError;
use super::script::{
    AREA_METRES, EVENTS, EAR, FIRST_BLOCK, Fill, PATH, STRUCTURES, floor_point, on_floor,
};
use crate::terrain::TerrainWorld;
use crate::terrain::axes::{BLOCK_METRES, voxel_to_ac};

/// Metres of terrain copied on each side of the walk and around each event point.
pub const MARGIN: f64 = 64.0;
/// Section side in cells.
const SECTION: i32 = 16;

/// The terrain with the structures placed, and the mapping from area metres to voxels.
pub struct TourWorld {
    terrain: TerrainWorld,
    /// Height (AC z, metres) of the structures' common floor.
    pub floor: f64,
    water: Option<resound_acoustics::MaterialId>,
}

/// The AC position of an area point at height `z`.
#[must_use]
pub fn area_to_ac(xy: DVec2, z: f64) -> Option<Position> {
    let gx = f64::from(FIRST_BLOCK.0) * BLOCK_METRES + xy.x;
    let gy = f64::from(FIRST_BLOCK.1) * BLOCK_METRES + xy.y;
    voxel_to_ac(DVec3::new(gx, z, -gy))
}

/// The voxel position of an area point at height `z`.
#[must_use]
pub fn area_to_voxel(xy: DVec2, z: f64) -> DVec3 {
    let gx = f64::from(FIRST_BLOCK.0) * BLOCK_METRES + xy.x;
    let gy = f64::from(FIRST_BLOCK.1) * BLOCK_METRES + xy.y;
    DVec3::new(gx, z, -gy)
}

impl TourWorld {
    /// Loads the 5 × 5 landblocks around the centre of the area from `cells` and places the
    /// structures.
    ///
    /// # Errors
    /// [`TourError::Terrain`] when the Region's materials or a landblock cannot be read;
    /// [`TourError::NoTerrain`] when the dat has no terrain under the structures.
    pub fn load<S>(region: &Region, cells: &mut S) -> Result<Self, TourError>
    where
        S: LandBlockSource,
        S::Error: Send + Sync + 'static,
    {
        let materials = MaterialTable::standard();
        let mut terrain = TerrainWorld::new(region, &materials)?;
        let centre = area_to_ac(DVec2::splat(AREA_METRES / 2.0), 0.0).ok_or(TourError::NoTerrain)?;
        terrain.update_listener(&centre, cells)?;
        let at = area_to_ac(floor_point(), 0.0).ok_or(TourError::NoTerrain)?;
        let floor = f64::from(terrain.height_at(&at).ok_or(TourError::NoTerrain)?).round();
        let stone = materials.by_name("stone").ok_or(TourError::NoTerrain)?;
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
            let max = IVec3::new(b.x.ceil() as i32 - 1, b.y as i32 - 1, a.z.floor() as i32 - 1);
            terrain.place(PlacedBox { min, max, cell });
        }
        Ok(Self {
            terrain,
            floor,
            water: materials.by_name("water"),
        })
    }

    /// Ground (or structure floor) height at an area point, AC metres.
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
    pub fn probe(&self) -> &resound_acoustics::Heightfield {
        self.terrain.probe()
    }

    /// A voxel store holding the probe's sections near the walk (air elsewhere).
    ///
    /// # Errors
    /// [`TourError::World`] if a section cannot be stored.
    pub fn store(&self) -> Result<WorldStore, TourError> {
        let mut columns = BTreeSet::new();
        let mut add_disc = |xy: DVec2| {
            let v = area_to_voxel(xy, 0.0);
            let r = MARGIN;
            let (x0, x1) = (sec(v.x - r), sec(v.x + r));
            let (z0, z1) = (sec(v.z - r), sec(v.z + r));
            for sx in x0..=x1 {
                for sz in z0..=z1 {
                    columns.insert((sx, sz));
                }
            }
        };
        for w in PATH.windows(2) {
            let len = w[0].xy.distance(w[1].xy);
            let steps = (len / 8.0).ceil().max(1.0) as usize;
            for i in 0..=steps {
                add_disc(w[0].xy.lerp(w[1].xy, i as f64 / steps as f64));
            }
        }
        for e in EVENTS {
            add_disc(e.xy);
        }
        let mut store = WorldStore::new(Absent::Air);
        let probe = self.terrain.probe();
        let top = sec(self.floor + 48.0);
        for &(sx, sz) in &columns {
            // From the lowest section that can hold the surface up to above the structures.
            let mut lo = i32::MAX;
            let mut hi = top;
            for (dx, dz) in [(0, 0), (SECTION, 0), (0, SECTION), (SECTION, SECTION), (8, 8)] {
                let x = f64::from(sx * SECTION + dx);
                let z = f64::from(sz * SECTION + dz);
                if let Some(h) = probe.height_at(x, z) {
                    lo = lo.min(sec(f64::from(h) - 24.0));
                    hi = hi.max(sec(f64::from(h) + 8.0));
                }
            }
            lo = lo.min(sec(self.floor - 16.0));
            for sy in lo..=hi {
                let section = IVec3::new(sx, sy, sz);
                if let Some(data) = section_data(probe, section) {
                    store.load_section(section, data).map_err(TourError::World)?;
                }
            }
        }
        Ok(store)
    }
}

fn sec(v: f64) -> i32 {
    (v.floor() as i32).div_euclid(SECTION)
}

/// The probe's section as stored data; `None` for an empty (all air) section.
fn section_data(probe: &impl WorldProbe, section: IVec3) -> Option<SectionData> {
    match probe.section_class(section) {
        SectionClass::Empty | SectionClass::Unknown => None,
        SectionClass::Full(_) | SectionClass::Mixed => {
            let base = section * SECTION;
            let first = probe.cell(base);
            let mut cells = SectionCells::filled(CellCode::encode(first)?);
            let mut solid = false;
            let mut uniform = true;
            for y in 0..SECTION {
                for z in 0..SECTION {
                    for x in 0..SECTION {
                        let local = IVec3::new(x, y, z);
                        let c = probe.cell(base + local);
                        solid |= c.is_solid();
                        if c != first {
                            uniform = false;
                            cells.set(local, CellCode::encode(c)?);
                        }
                    }
                }
            }
            if !solid {
                None
            } else if uniform {
                Some(SectionData::Uniform(first))
            } else {
                Some(SectionData::Cells(cells))
            }
        }
    }
}
