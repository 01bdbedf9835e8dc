//! Material table: occlusion, reflectivity and Resound's per-band transmission loss (spec §2.5, §4).

use serde::{Deserialize, Serialize};

/// Index of a material in a [`MaterialTable`]. Id 0 is always the default material.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct MaterialId(pub u16);

impl MaterialId {
    /// The default material (occlusion 1.0, reflectivity 0.5).
    pub const DEFAULT: Self = Self(0);
    /// Largest id a cell can store (cells pack the id and the partial flag into 16 bits).
    pub const MAX: Self = Self(32_766);
}

/// Low-band loss in dB per unit of occlusion: `20·log10(e)·0.3`, i.e. `gain = exp(-0.3·occ)`,
/// about −2.6 dB per stone block (spec §1, §4).
pub const LOW_DB_PER_OCC: f64 = 20.0 * std::f64::consts::LOG10_E * 0.3;
/// High-band loss in dB per unit of occlusion: `20·log10(e)·3`, i.e. `hf = exp(-3·occ)`,
/// about −26 dB per stone block (spec §1, §4).
pub const HIGH_DB_PER_OCC: f64 = 20.0 * std::f64::consts::LOG10_E * 3.0;

/// Acoustic properties of one material.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Material {
    /// Lower-case name (`"stone"`, `"wool"`, …).
    pub name: String,
    /// Occlusion added per crossed full cell (`occ`).
    pub occlusion: f64,
    /// Reflectivity (`refl`), 0.1 (wool) … 1.5 (stone).
    pub reflectivity: f64,
    /// Low-band transmission loss in dB per unit of occlusion (Resound's own model).
    pub low_db_per_occ: f64,
    /// High-band transmission loss in dB per unit of occlusion (Resound's own model).
    pub high_db_per_occ: f64,
    /// Liquids reflect but do not occlude in v1 (spec §2.5, §11 open items).
    pub liquid: bool,
}

impl Material {
    /// A solid material with the default band rates.
    #[must_use]
    pub fn new(name: &str, occlusion: f64, reflectivity: f64) -> Self {
        Self {
            name: name.to_owned(),
            occlusion,
            reflectivity,
            low_db_per_occ: LOW_DB_PER_OCC,
            high_db_per_occ: HIGH_DB_PER_OCC,
            liquid: false,
        }
    }

    /// Occlusion this material adds to a direct path for one cell (`partial` cells count ×0.25;
    /// liquids add nothing).
    #[must_use]
    pub fn occlusion_of_cell(&self, partial: bool) -> f64 {
        if self.liquid {
            0.0
        } else if partial {
            self.occlusion * PARTIAL_FACTOR
        } else {
            self.occlusion
        }
    }
}

/// Factor for a non-full (partial) cell: doors, stairs, fences (spec §2.2).
pub const PARTIAL_FACTOR: f64 = 0.25;

/// Why a material could not be added.
#[derive(Debug, thiserror::Error, PartialEq)]
#[non_exhaustive]
pub enum AddMaterialError {
    /// The table already holds [`MaterialId::MAX`] + 1 materials.
    #[error("material table is full")]
    Full,
    /// A value is NaN, infinite or negative.
    #[error("material {0:?} has a non-finite or negative value")]
    BadValue(String),
    /// The name is already used.
    #[error("material name {0:?} already exists")]
    Duplicate(String),
}

/// The named groups of spec §2.5 (`name`, occlusion, reflectivity), after `default`.
const NAMED: &[(&str, f64, f64)] = &[
    ("stone", 1.0, 1.5),
    ("deepslate", 1.0, 1.5),
    ("tuff", 1.0, 1.5),
    ("basalt", 1.0, 1.5),
    ("calcite", 1.0, 1.5),
    ("netherrack", 1.0, 1.1),
    ("nether_bricks", 1.0, 1.5),
    ("bone", 1.0, 1.5),
    ("metal", 1.0, 1.25),
    ("copper", 1.0, 1.25),
    ("anvil", 1.0, 1.25),
    ("netherite", 1.0, 1.25),
    ("wood", 1.0, 0.4),
    ("gravel", 1.0, 0.3),
    ("grass", 1.0, 0.3),
    ("dirt", 1.0, 0.3),
    ("sand", 1.0, 0.2),
    ("snow", 0.1, 0.15),
    ("wool", 1.5, 0.1),
    ("glass", 0.1, 0.75),
    ("water", 0.25, 0.5),
    ("leaves", 0.0, 0.1),
    ("plants", 0.0, 0.1),
    ("vines", 0.0, 0.1),
    ("ladders", 0.0, 0.1),
    ("chains", 0.0, 0.1),
    ("crops", 0.0, 0.1),
];

/// Materials by id. Id 0 is `default` (occ 1.0, refl 0.5); unknown ids read as the default.
#[derive(Clone, Debug, PartialEq)]
pub struct MaterialTable {
    materials: Vec<Material>,
}

impl Default for MaterialTable {
    fn default() -> Self {
        Self::standard()
    }
}

impl MaterialTable {
    /// A table holding only `default` (occ 1.0, refl 0.5).
    #[must_use]
    pub fn minimal() -> Self {
        Self {
            materials: vec![Material::new("default", 1.0, 0.5)],
        }
    }

    /// `default` plus the named groups of spec §2.5, in the order listed there
    /// (`stone` = id 1, … see [`MaterialTable::by_name`]).
    #[must_use]
    pub fn standard() -> Self {
        let mut table = Self::minimal();
        for &(name, occ, refl) in NAMED {
            let mut m = Material::new(name, occ, refl);
            m.liquid = name == "water";
            table.materials.push(m);
        }
        table
    }

    /// Adds a material and returns its id.
    ///
    /// # Errors
    /// [`AddMaterialError`] on a full table, bad values or a duplicate name.
    pub fn add(&mut self, material: Material) -> Result<MaterialId, AddMaterialError> {
        let values = [
            material.occlusion,
            material.reflectivity,
            material.low_db_per_occ,
            material.high_db_per_occ,
        ];
        if values.iter().any(|v| !v.is_finite() || *v < 0.0) {
            return Err(AddMaterialError::BadValue(material.name));
        }
        if self.by_name(&material.name).is_some() {
            return Err(AddMaterialError::Duplicate(material.name));
        }
        let id = u16::try_from(self.materials.len()).map_err(|_| AddMaterialError::Full)?;
        if id > MaterialId::MAX.0 {
            return Err(AddMaterialError::Full);
        }
        self.materials.push(material);
        Ok(MaterialId(id))
    }

    /// The material with this id; unknown ids give the default material (a defined result).
    #[must_use]
    pub fn get(&self, id: MaterialId) -> &Material {
        self.materials
            .get(usize::from(id.0))
            .unwrap_or(&self.materials[0])
    }

    /// Looks a material up by (case-insensitive) name.
    #[must_use]
    pub fn by_name(&self, name: &str) -> Option<MaterialId> {
        self.materials
            .iter()
            .position(|m| m.name.eq_ignore_ascii_case(name))
            .and_then(|i| u16::try_from(i).ok())
            .map(MaterialId)
    }

    /// Number of materials.
    #[must_use]
    pub fn len(&self) -> usize {
        self.materials.len()
    }

    /// Always false: the default material is always present.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.materials.is_empty()
    }

    /// All materials in id order.
    pub fn iter(&self) -> impl Iterator<Item = (MaterialId, &Material)> {
        self.materials
            .iter()
            .enumerate()
            .map(|(i, m)| (MaterialId(u16::try_from(i).unwrap_or(u16::MAX)), m))
    }
}

#[cfg(test)]
mod tests;
