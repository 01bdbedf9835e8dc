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
    /// Random-incidence absorption coefficient per band (low < 500 Hz, mid, high > 2 kHz),
    /// from [`ABSORPTION_TABLE`] by name ([`band_absorption`]); the physical decay model reads it.
    #[serde(default = "default_absorption")]
    pub absorption: [f64; 3],
}

/// Absorption coefficients of the measured-material table, octave bands 125, 250, 500, 1k,
/// 2k, 4k Hz (typical published figures: Kuttruff, *Room Acoustics*; Everest, *Master Handbook
/// of Acoustics*; as listed in the project's `physics-reference.md`). `air` is an opening: it
/// returns nothing (coefficient 1).
pub const ABSORPTION_TABLE: &[(&str, [f64; 6])] = &[
    ("stone", [0.01, 0.01, 0.02, 0.02, 0.02, 0.03]),
    ("brick", [0.03, 0.03, 0.03, 0.04, 0.05, 0.07]),
    ("wood", [0.15, 0.11, 0.10, 0.07, 0.06, 0.07]),
    ("glass", [0.35, 0.25, 0.18, 0.12, 0.07, 0.04]),
    ("water", [0.01, 0.01, 0.01, 0.015, 0.02, 0.025]),
    ("grass", [0.11, 0.26, 0.60, 0.69, 0.92, 0.99]),
    ("soil", [0.15, 0.25, 0.40, 0.55, 0.60, 0.60]),
    ("snow", [0.45, 0.75, 0.90, 0.95, 0.95, 0.95]),
    ("sand", [0.15, 0.35, 0.40, 0.50, 0.55, 0.80]),
    ("cloth", [0.08, 0.24, 0.57, 0.69, 0.71, 0.73]),
    ("foliage", [0.03, 0.06, 0.11, 0.17, 0.27, 0.31]),
    ("air", [1.0, 1.0, 1.0, 1.0, 1.0, 1.0]),
];

/// Which row of [`ABSORPTION_TABLE`] a material of the standard table reads. Hard blocks
/// without a row of their own (metal, bone, calcite…) read `stone` (hard, smooth, nearly
/// reflecting); `default` reads `brick` (a generic masonry block: the table's next-hardest
/// building material); loose ground (`dirt`, `gravel`) reads `soil`; plants read `foliage`.
#[must_use]
pub fn absorption_row(material: &str) -> &'static str {
    match material.to_ascii_lowercase().as_str() {
        "wood" | "ladders" => "wood",
        "glass" => "glass",
        "water" => "water",
        "grass" => "grass",
        "dirt" | "gravel" | "soil" => "soil",
        "snow" => "snow",
        "sand" => "sand",
        "wool" | "cloth" => "cloth",
        "leaves" | "plants" | "vines" | "crops" | "foliage" => "foliage",
        "air" => "air",
        "default" | "brick" | "nether_bricks" => "brick",
        _ => "stone",
    }
}

/// The three-band absorption of a table row: low = mean of 125 and 250 Hz, mid = mean of 500
/// Hz and 1 kHz, high = mean of 2 and 4 kHz. An unknown row reads `brick`.
#[must_use]
pub fn band_absorption(row: &str) -> [f64; 3] {
    let o = ABSORPTION_TABLE
        .iter()
        .find(|(n, _)| *n == row)
        .or_else(|| ABSORPTION_TABLE.iter().find(|(n, _)| *n == "brick"))
        .map_or([0.03; 6], |(_, o)| *o);
    [
        (o[0] + o[1]) / 2.0,
        (o[2] + o[3]) / 2.0,
        (o[4] + o[5]) / 2.0,
    ]
}

/// The absorption of a material deserialised without one: the default material's (`brick`).
fn default_absorption() -> [f64; 3] {
    band_absorption("brick")
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
            absorption: band_absorption(absorption_row(name)),
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
        let absorption_ok = material
            .absorption
            .iter()
            .all(|a| a.is_finite() && (0.0..=1.0).contains(a));
        if !absorption_ok || values.iter().any(|v| !v.is_finite() || *v < 0.0) {
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
