//! Materials of the terrain by terrain type (spec §12 "Voxels").

use resound_acoustics::{Layers, MaterialId, MaterialTable};
use resound_datformat::record::TerrainTextureType as T;

/// Metres of water over stone under a water terrain type.
pub const WATER_DEPTH: f32 = 2.0;

/// The acoustic materials the terrain uses, looked up once in a material table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TerrainMaterials {
    /// Water (the top [`WATER_DEPTH`] metres under water types).
    pub water: MaterialId,
    /// Stone (rock and volcanic types; under water).
    pub stone: MaterialId,
    /// Sand.
    pub sand: MaterialId,
    /// Snow and ice.
    pub snow: MaterialId,
    /// Everything else (grass, dirt, forest floor, moss, marsh).
    pub dirt: MaterialId,
}

/// A material the terrain needs is not in the table.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("the material table has no {0:?} (the terrain needs water, stone, sand, snow and dirt)")]
pub struct MissingMaterial(pub &'static str);

impl TerrainMaterials {
    /// Looks the five materials up by name.
    ///
    /// # Errors
    /// [`MissingMaterial`] naming the first one absent.
    pub fn from_table(table: &MaterialTable) -> Result<Self, MissingMaterial> {
        let get = |name: &'static str| table.by_name(name).ok_or(MissingMaterial(name));
        Ok(Self {
            water: get("water")?,
            stone: get("stone")?,
            sand: get("sand")?,
            snow: get("snow")?,
            dirt: get("dirt")?,
        })
    }

    /// The layers under a terrain type.
    #[must_use]
    pub fn layers(&self, terrain: T) -> Layers {
        match terrain {
            T::WaterRunning
            | T::WaterStandingFresh
            | T::WaterShallowSea
            | T::WaterShallowStillSea
            | T::WaterDeepSea
            | T::FauxWaterRunning => Layers {
                top: self.water,
                depth: WATER_DEPTH,
                below: self.stone,
            },
            T::BarrenRock
            | T::SedimentaryRock
            | T::SemiBarrenRock
            | T::ObsidianPlain
            | T::Volcano1
            | T::Volcano2 => Layers::uniform(self.stone),
            T::SandYellow | T::SandGrey | T::SandRockStrewn => Layers::uniform(self.sand),
            T::Snow | T::Ice | T::BlueIce => Layers::uniform(self.snow),
            _ => Layers::uniform(self.dirt),
        }
    }
}
