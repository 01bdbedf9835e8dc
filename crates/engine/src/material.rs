//! What a world's cells are made of: [`Material`] by name, with the acoustic values the
//! engine uses for each, [`Block`]s (a material, full or partial) and the game's own materials
//! ([`Materials`], [`MaterialSpec`]).

use resound_acoustics::{Cell, MaterialId, MaterialTable};

/// A material cells are made of. The named constants are the engine's standard table; a
/// game adds its own with [`Materials::add`] and [`crate::EngineBuilder::materials`].
///
/// Each constant lists its occlusion per crossed full cell (`occ`: what a metre of it takes
/// from the direct sound: about −2.6 dB below 1 kHz and −26 dB above per unit), its
/// reflectivity (`refl`: what the echo and reverb models weigh it by, 0.1 soft … 1.5 hard) and
/// its random-incidence absorption (low < 500 Hz / mid / high > 2 kHz) that the physical
/// reverb reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Material(pub(crate) u16);

/// The id [`Material::AIR`] carries: not a table entry (air is no solid).
const AIR_ID: u16 = u16::MAX;

impl Material {
    /// Air: nothing. Setting a cell to air clears it.
    pub const AIR: Self = Self(AIR_ID);
    /// A generic masonry block: occ 1.0, refl 0.5, absorption 0.03 / 0.035 / 0.06 (brick).
    pub const DEFAULT: Self = Self(0);
    /// Stone, rock, concrete: occ 1.0, refl 1.5, absorption 0.01 / 0.02 / 0.025.
    pub const STONE: Self = Self(1);
    /// Metal: occ 1.0, refl 1.25, absorption as stone.
    pub const METAL: Self = Self(9);
    /// Wood: occ 1.0, refl 0.4, absorption 0.13 / 0.085 / 0.065.
    pub const WOOD: Self = Self(13);
    /// Gravel: occ 1.0, refl 0.3, absorption 0.20 / 0.475 / 0.60 (loose soil).
    pub const GRAVEL: Self = Self(14);
    /// Grass (turf): occ 1.0, refl 0.3, absorption 0.185 / 0.645 / 0.955.
    pub const GRASS: Self = Self(15);
    /// Dirt, soil: occ 1.0, refl 0.3, absorption 0.20 / 0.475 / 0.60.
    pub const DIRT: Self = Self(16);
    /// Sand: occ 1.0, refl 0.2, absorption 0.25 / 0.45 / 0.675.
    pub const SAND: Self = Self(17);
    /// Snow: occ 0.1, refl 0.15, absorption 0.60 / 0.925 / 0.95.
    pub const SNOW: Self = Self(18);
    /// Cloth, wool, carpet: occ 1.5, refl 0.1, absorption 0.16 / 0.63 / 0.72.
    pub const CLOTH: Self = Self(19);
    /// Glass: occ 0.1, refl 0.75, absorption 0.30 / 0.15 / 0.055.
    pub const GLASS: Self = Self(20);
    /// Water (a liquid: it reflects, it does not occlude): occ 0.25, refl 0.5, absorption
    /// 0.01 / 0.0125 / 0.0225.
    pub const WATER: Self = Self(21);
    /// Foliage, leaves: occ 0.0, refl 0.1, absorption 0.045 / 0.14 / 0.29.
    pub const FOLIAGE: Self = Self(22);
    /// Plants, crops, vines: occ 0.0, refl 0.1, absorption as foliage.
    pub const PLANTS: Self = Self(23);

    /// The named materials and their names in the standard table (tests and tools).
    pub const NAMED: [(Self, &'static str); 14] = [
        (Self::DEFAULT, "default"),
        (Self::STONE, "stone"),
        (Self::METAL, "metal"),
        (Self::WOOD, "wood"),
        (Self::GRAVEL, "gravel"),
        (Self::GRASS, "grass"),
        (Self::DIRT, "dirt"),
        (Self::SAND, "sand"),
        (Self::SNOW, "snow"),
        (Self::CLOTH, "wool"),
        (Self::GLASS, "glass"),
        (Self::WATER, "water"),
        (Self::FOLIAGE, "leaves"),
        (Self::PLANTS, "plants"),
    ];

    /// A full block of this material.
    #[must_use]
    pub fn block(self) -> Block {
        Block {
            material: self,
            partial: false,
        }
    }

    /// A partial block (door, fence, slab, stairs): it occludes a quarter of a full one.
    #[must_use]
    pub fn partial(self) -> Block {
        Block {
            material: self,
            partial: true,
        }
    }

    /// The material's index in the engine's table (`None` for air).
    #[must_use]
    pub fn id(self) -> Option<u16> {
        (self.0 != AIR_ID).then_some(self.0)
    }
}

/// What one cell holds: a material, full or partial.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Block {
    /// The material.
    pub material: Material,
    /// A partial block (doors, fences, stairs) occludes ×0.25.
    pub partial: bool,
}

impl From<Material> for Block {
    fn from(m: Material) -> Self {
        m.block()
    }
}

impl From<Block> for Cell {
    fn from(b: Block) -> Self {
        match b.material.id() {
            None => Cell::Air,
            Some(id) => Cell::Solid {
                mat: MaterialId(id),
                partial: b.partial,
            },
        }
    }
}

impl From<Material> for Cell {
    fn from(m: Material) -> Self {
        Block::from(m).into()
    }
}

/// A game's own material: its name and acoustic values.
#[derive(Debug, Clone, PartialEq)]
pub struct MaterialSpec {
    /// Lower-case name, unique in the table.
    pub name: String,
    /// Occlusion per crossed full cell, ≥ 0 (stone 1.0, glass 0.1, leaves 0).
    pub occlusion: f64,
    /// Reflectivity, ≥ 0 (wool 0.1 … stone 1.5).
    pub reflectivity: f64,
    /// Random-incidence absorption coefficients, low < 500 Hz / mid / high > 2 kHz, each 0..=1.
    pub absorption: [f64; 3],
    /// A liquid reflects but does not occlude.
    pub liquid: bool,
}

/// Why a material could not be added.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MaterialError {
    /// The table is full (32 767 materials).
    #[error("the material table is full")]
    Full,
    /// A value is NaN, infinite, negative, or an absorption above 1.
    #[error("material {0} has a value out of range")]
    BadValue(String),
    /// The name is empty or already used.
    #[error("material name {0:?} is empty or taken")]
    Name(String),
}

/// The engine's material table: the standard materials ([`Material`]'s constants) and the
/// game's own. Hand it to [`crate::EngineBuilder::materials`].
#[derive(Debug, Clone, PartialEq)]
pub struct Materials {
    pub(crate) table: MaterialTable,
}

impl Default for Materials {
    fn default() -> Self {
        Self {
            table: MaterialTable::standard(),
        }
    }
}

impl Materials {
    /// The standard table.
    #[must_use]
    pub fn standard() -> Self {
        Self::default()
    }

    /// Adds a material.
    ///
    /// # Errors
    /// [`MaterialError`]: a full table, a bad value, an empty or taken name.
    pub fn add(&mut self, spec: MaterialSpec) -> Result<Material, MaterialError> {
        if spec.name.is_empty() || self.table.by_name(&spec.name).is_some() {
            return Err(MaterialError::Name(spec.name));
        }
        if spec
            .absorption
            .iter()
            .any(|a| !a.is_finite() || !(0.0..=1.0).contains(a))
        {
            return Err(MaterialError::BadValue(spec.name));
        }
        let mut m = resound_acoustics::Material::new(&spec.name, spec.occlusion, spec.reflectivity);
        m.absorption = spec.absorption;
        m.liquid = spec.liquid;
        match self.table.add(m) {
            Ok(id) if id.0 < AIR_ID => Ok(Material(id.0)),
            Ok(_) | Err(resound_acoustics::world::material::AddMaterialError::Full) => {
                Err(MaterialError::Full)
            }
            Err(_) => Err(MaterialError::BadValue(spec.name)),
        }
    }

    /// The material named `name`.
    #[must_use]
    pub fn by_name(&self, name: &str) -> Option<Material> {
        if name == "air" {
            return Some(Material::AIR);
        }
        self.table.by_name(name).map(|id| Material(id.0))
    }

    /// The values of a material (`None` for air or a material not in this table).
    #[must_use]
    pub fn spec(&self, material: Material) -> Option<MaterialSpec> {
        let id = material.id()?;
        if usize::from(id) >= self.table.len() {
            return None;
        }
        let m = self.table.get(MaterialId(id));
        Some(MaterialSpec {
            name: m.name.clone(),
            occlusion: m.occlusion,
            reflectivity: m.reflectivity,
            absorption: m.absorption,
            liquid: m.liquid,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_named_materials_are_the_standard_tables() {
        let t = Materials::standard();
        for (m, name) in Material::NAMED {
            assert_eq!(t.by_name(name), Some(m), "{name}");
            assert_eq!(t.spec(m).map(|s| s.name), Some(name.to_owned()));
        }
        assert_eq!(t.spec(Material::STONE).unwrap().reflectivity, 1.5);
        assert!(t.spec(Material::WATER).unwrap().liquid);
        assert_eq!(Cell::from(Material::AIR), Cell::Air);
        assert_eq!(
            Cell::from(Material::WOOD.partial()),
            Cell::Solid {
                mat: MaterialId(13),
                partial: true
            }
        );
    }

    #[test]
    fn a_game_adds_its_own_materials() {
        let mut t = Materials::standard();
        let moss = t
            .add(MaterialSpec {
                name: "moss".into(),
                occlusion: 0.5,
                reflectivity: 0.2,
                absorption: [0.2, 0.5, 0.7],
                liquid: false,
            })
            .unwrap();
        assert_eq!(t.by_name("moss"), Some(moss));
        assert_eq!(t.spec(moss).unwrap().absorption, [0.2, 0.5, 0.7]);
        let dup = MaterialSpec {
            name: "moss".into(),
            occlusion: 0.5,
            reflectivity: 0.2,
            absorption: [0.2, 0.5, 0.7],
            liquid: false,
        };
        assert!(matches!(t.add(dup), Err(MaterialError::Name(_))));
        let bad = MaterialSpec {
            name: "foam".into(),
            occlusion: f64::NAN,
            reflectivity: 0.2,
            absorption: [0.2, 0.5, 0.7],
            liquid: false,
        };
        assert!(t.add(bad).is_err());
    }
}
