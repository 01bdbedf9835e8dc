// SPDX-License-Identifier: GPL-3.0-only
//! SPR's default per-material tables: occlusion and reflectivity per sound type and block id.
//!
//! Follows SPR `config/OcclusionConfig.java` (`addDefaults`), `config/ReflectivityConfig.java`
//! (`addDefaults`) and `config/blocksound/BlockSoundConfigBase.java` (the lookup order) at
//! `ca0f8fe`; spec `spr.md` §2.

use crate::SoundType;

/// SPR's default occlusion for a sound type without an override (`default_block_occlusion_factor`).
pub const DEFAULT_OCCLUSION: f32 = 1.0;
/// SPR's default reflectivity for a sound type without an override (`default_block_reflectivity`).
pub const DEFAULT_REFLECTIVITY: f32 = 0.5;

/// The block ids SPR's occlusion table overrides directly (spec `spr.md` §2, "By block ID").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum BlockId {
    /// `minecraft:water` (occlusion 0.25; sound type `EMPTY`, never sturdy).
    Water,
    /// `minecraft:lava` (occlusion 0.75; sound type `EMPTY`, never sturdy: 0.1875 per cell).
    Lava,
    /// `minecraft:jukebox` (occlusion 0; sound type `WOOD`).
    Jukebox,
}

impl BlockId {
    /// The occlusion SPR's table gives this block id.
    #[must_use]
    pub const fn occlusion(self) -> f32 {
        match self {
            BlockId::Water => 0.25,
            BlockId::Lava => 0.75,
            BlockId::Jukebox => 0.0,
        }
    }

    /// The sound type of the block in vanilla (`None` = `EMPTY`, not in SPR's table).
    #[must_use]
    pub const fn sound_type(self) -> Option<SoundType> {
        match self {
            BlockId::Water | BlockId::Lava => None,
            BlockId::Jukebox => Some(SoundType::WOOD),
        }
    }
}

impl SoundType {
    /// SPR's default occlusion factor for this sound type (before the non-sturdy ×0.25).
    #[must_use]
    pub const fn occlusion(self) -> f32 {
        use SoundType as T;
        match self {
            T::WOOL => 1.5,
            T::MOSS => 0.75,
            T::HONEY_BLOCK => 0.5,
            T::GLASS
            | T::SNOW
            | T::POWDER_SNOW
            | T::BAMBOO
            | T::BAMBOO_SAPLING
            | T::WET_GRASS
            | T::MOSS_CARPET => 0.1,
            T::WEEPING_VINES
            | T::TWISTING_VINES
            | T::VINE
            | T::SWEET_BERRY_BUSH
            | T::SPORE_BLOSSOM
            | T::SMALL_DRIPLEAF
            | T::ROOTS
            | T::POINTED_DRIPSTONE
            | T::SCAFFOLDING
            | T::GLOW_LICHEN
            | T::CROP
            | T::FUNGUS
            | T::LILY_PAD
            | T::LARGE_AMETHYST_BUD
            | T::MEDIUM_AMETHYST_BUD
            | T::SMALL_AMETHYST_BUD
            | T::LADDER
            | T::CHAIN => 0.0,
            _ => DEFAULT_OCCLUSION,
        }
    }

    /// SPR's default reflectivity for this sound type.
    #[must_use]
    pub const fn reflectivity(self) -> f32 {
        use SoundType as T;
        match self {
            T::STONE
            | T::NETHERITE_BLOCK
            | T::TUFF
            | T::AMETHYST
            | T::BASALT
            | T::CALCITE
            | T::BONE_BLOCK
            | T::DEEPSLATE
            | T::DEEPSLATE_BRICKS
            | T::DEEPSLATE_TILES
            | T::POLISHED_DEEPSLATE
            | T::NETHER_BRICKS => 1.5,
            T::COPPER | T::METAL => 1.25,
            T::NETHERRACK | T::NETHER_GOLD_ORE | T::NETHER_ORE => 1.1,
            T::GLASS => 0.75,
            T::WOOD | T::STEM => 0.4,
            T::GRAVEL | T::GRASS => 0.3,
            T::SAND | T::SOUL_SAND | T::SOUL_SOIL | T::CORAL_BLOCK => 0.2,
            T::SNOW => 0.15,
            T::WOOL | T::HONEY_BLOCK | T::MOSS => 0.1,
            _ => DEFAULT_REFLECTIVITY,
        }
    }
}

/// What SPR knows about one solid cell: its table values and whether its faces are sturdy.
///
/// This is the SPR view of a block after the lookup order of spec `spr.md` §2 (block id → tag →
/// sound type → default) and after the collision shape is reduced to Resound's whole cells.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprBlock {
    /// Occlusion factor (before the non-sturdy ×`non_full_block_occlusion_factor`).
    pub occlusion: f32,
    /// Reflectivity (enters `energyTowardsPlayer`, the delay index and the bounce ratios).
    pub reflectivity: f32,
    /// Whether the block's faces give full support (`isFaceSturdy`); false for partial cells,
    /// leaves and fluids, whose hits count ×0.25.
    pub sturdy: bool,
}

impl SprBlock {
    /// A full, sturdy block of the given sound type with SPR's default table values.
    #[must_use]
    pub const fn of_type(sound_type: SoundType) -> SprBlock {
        SprBlock {
            occlusion: sound_type.occlusion(),
            reflectivity: sound_type.reflectivity(),
            sturdy: true,
        }
    }

    /// A block identified by id (the id's occlusion wins over its sound type; spec `spr.md` §2).
    #[must_use]
    pub const fn of_id(id: BlockId) -> SprBlock {
        let reflectivity = match id.sound_type() {
            Some(t) => t.reflectivity(),
            None => DEFAULT_REFLECTIVITY,
        };
        SprBlock {
            occlusion: id.occlusion(),
            reflectivity,
            // Water's fluid shape is never sturdy; lava likewise.
            sturdy: !matches!(id, BlockId::Water | BlockId::Lava),
        }
    }

    /// The same block marked as partial (non-sturdy faces: slabs, stairs, doors, fences).
    #[must_use]
    pub const fn partial(self) -> SprBlock {
        SprBlock {
            sturdy: false,
            ..self
        }
    }
}

#[cfg(test)]
mod tests;
