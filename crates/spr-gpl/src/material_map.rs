// SPDX-License-Identifier: GPL-3.0-only
//! SPR's tables mapped onto acoustics-core's material table.
//!
//! Follows the lookup order of SPR `config/blocksound/BlockSoundConfigBase.java` (block id →
//! tag → sound type → default) with the defaults of `config/OcclusionConfig.java` and
//! `config/ReflectivityConfig.java` at `ca0f8fe`; spec `spr.md` §2.

use resound_acoustics::{Material, MaterialId, MaterialTable};

use crate::{BlockId, DEFAULT_OCCLUSION, DEFAULT_REFLECTIVITY, SoundType, SprBlock};

/// How SPR sees one named material: a solid block, or nothing at all (no collision shape).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SprSurface {
    /// Rays hit it with these values.
    Solid(SprBlock),
    /// No collision shape (grass tufts, flowers, crops, vines): rays pass, tables never read.
    Passable,
}

/// The SPR view of one of acoustics-core's standard group names (spec `acoustics.md` §2.5), or of
/// a sound-type / block-id name. `None` for names SPR has no entry for.
///
/// Group names use SPR's own values where the two specs differ (`spr.md` is the authority):
/// `anvil` reflects 0.5, `netherite` 1.5, `leaves` are GRASS blocks with empty support shapes
/// (occlusion 1.0×0.25, reflectivity 0.3), `plants`/`vines`/`crops` have no collision shape,
/// `ladders`/`chains` are thin non-sturdy blocks with occlusion 0, `dirt` is GRAVEL, and `water`
/// is the block id `minecraft:water` (0.25, never sturdy: 0.0625 per cell).
#[must_use]
pub fn spr_surface(name: &str) -> Option<SprSurface> {
    use SoundType as T;
    let solid = |t: T| Some(SprSurface::Solid(SprBlock::of_type(t)));
    let lower = name.to_ascii_lowercase();
    match lower.as_str() {
        "default" => Some(SprSurface::Solid(SprBlock {
            occlusion: DEFAULT_OCCLUSION,
            reflectivity: DEFAULT_REFLECTIVITY,
            sturdy: true,
        })),
        "bone" => solid(T::BONE_BLOCK),
        "netherite" => solid(T::NETHERITE_BLOCK),
        "dirt" => solid(T::GRAVEL),
        "leaves" => Some(SprSurface::Solid(SprBlock::of_type(T::GRASS).partial())),
        "plants" | "vines" | "crops" => Some(SprSurface::Passable),
        "ladders" => Some(SprSurface::Solid(SprBlock::of_type(T::LADDER).partial())),
        "chains" => Some(SprSurface::Solid(SprBlock::of_type(T::CHAIN).partial())),
        "water" => Some(SprSurface::Solid(SprBlock::of_id(BlockId::Water))),
        "lava" => Some(SprSurface::Solid(SprBlock::of_id(BlockId::Lava))),
        "jukebox" => Some(SprSurface::Solid(SprBlock::of_id(BlockId::Jukebox))),
        other => SoundType::from_name(other).map(|t| SprSurface::Solid(SprBlock::of_type(t))),
    }
}

/// The SPR view of any material: its name's SPR entry, else the material's own values (a
/// host-added material SPR has no row for), as a full sturdy block.
#[must_use]
pub fn surface_of(material: &Material) -> SprSurface {
    spr_surface(&material.name).unwrap_or(SprSurface::Solid(SprBlock {
        occlusion: material.occlusion as f32,
        reflectivity: material.reflectivity as f32,
        sturdy: true,
    }))
}

/// acoustics-core's standard table (same names and ids), with SPR's occlusion and reflectivity
/// in place of Resound's, followed by every SPR sound type not already named there (lower-case
/// names, e.g. `deepslate_bricks`) and the block ids `lava` and `jukebox`.
///
/// Worlds built with `MaterialTable::standard()` therefore read the same ids here.
#[must_use]
pub fn spr_material_table() -> MaterialTable {
    let standard = MaterialTable::standard();
    let mut table = MaterialTable::minimal();
    let add = |table: &mut MaterialTable, mut m: Material| {
        if let SprSurface::Solid(b) = surface_of(&m) {
            m.occlusion = decimal(b.occlusion);
            m.reflectivity = decimal(b.reflectivity);
        } else {
            m.occlusion = 0.0;
        }
        // Names are unique and values finite, so adding cannot fail; a failure would only drop
        // the entry, never panic.
        let _ = table.add(m);
    };
    for (id, m) in standard.iter() {
        if id != MaterialId::DEFAULT {
            add(&mut table, m.clone());
        }
    }
    let extra = SoundType::ALL
        .iter()
        .map(|t| t.name().to_ascii_lowercase())
        .chain(["lava".to_owned(), "jukebox".to_owned()]);
    for name in extra {
        if table.by_name(&name).is_none() {
            add(&mut table, Material::new(&name, 1.0, 0.5));
        }
    }
    table
}

/// The float32 table value as the decimal SPR's config writes (all have ≤ 3 decimals).
fn decimal(v: f32) -> f64 {
    (f64::from(v) * 1.0e6).round() / 1.0e6
}

/// Per-id SPR surfaces of a material table, indexed by `MaterialId`.
#[must_use]
pub fn surfaces(table: &MaterialTable) -> Vec<SprSurface> {
    table.iter().map(|(_, m)| surface_of(m)).collect()
}
