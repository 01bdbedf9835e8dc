// SPDX-License-Identifier: GPL-3.0-only
//! The 101 block sound types SPR's tables are keyed by.
//!
//! Follows SPR `config/SoundTypes.java` (the name table) at `ca0f8fe`; spec `spr.md` §2.

macro_rules! sound_types {
    ($($variant:ident),+ $(,)?) => {
        /// A Minecraft block `SoundType` as named in SPR's configuration (spec `spr.md` §2).
        ///
        /// SPR keys its occlusion and reflectivity tables by these names. Sound types missing from
        /// this list (e.g. `EMPTY`, used by water and lava) fall back to the config defaults.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[allow(non_camel_case_types)]
        pub enum SoundType {
            $(
                #[doc = concat!("`", stringify!($variant), "`")]
                $variant,
            )+
        }

        impl SoundType {
            /// Every sound type of SPR's table, in SPR's order.
            pub const ALL: &'static [SoundType] = &[$(SoundType::$variant),+];

            /// The upper-case name SPR's config file uses (e.g. `"DEEPSLATE_BRICKS"`).
            #[must_use]
            pub const fn name(self) -> &'static str {
                match self {
                    $(SoundType::$variant => stringify!($variant),)+
                }
            }
        }
    };
}

sound_types! {
    WOOD, GRAVEL, GRASS, LILY_PAD, STONE, METAL, GLASS, WOOL, SAND, SNOW, POWDER_SNOW, LADDER,
    ANVIL, SLIME_BLOCK, HONEY_BLOCK, WET_GRASS, CORAL_BLOCK, BAMBOO, BAMBOO_SAPLING, SCAFFOLDING,
    SWEET_BERRY_BUSH, CROP, HARD_CROP, VINE, NETHER_WART, LANTERN, STEM, NYLIUM, FUNGUS, ROOTS,
    SHROOMLIGHT, WEEPING_VINES, TWISTING_VINES, SOUL_SAND, SOUL_SOIL, BASALT, WART_BLOCK,
    NETHERRACK, NETHER_BRICKS, NETHER_SPROUTS, NETHER_ORE, BONE_BLOCK, NETHERITE_BLOCK,
    ANCIENT_DEBRIS, LODESTONE, CHAIN, NETHER_GOLD_ORE, GILDED_BLACKSTONE, CANDLE, AMETHYST,
    AMETHYST_CLUSTER, SMALL_AMETHYST_BUD, MEDIUM_AMETHYST_BUD, LARGE_AMETHYST_BUD, TUFF, CALCITE,
    DRIPSTONE_BLOCK, POINTED_DRIPSTONE, COPPER, CAVE_VINES, SPORE_BLOSSOM, AZALEA,
    FLOWERING_AZALEA, MOSS_CARPET, MOSS, BIG_DRIPLEAF, SMALL_DRIPLEAF, ROOTED_DIRT, HANGING_ROOTS,
    AZALEA_LEAVES, SCULK_SENSOR, SCULK_CATALYST, SCULK, SCULK_VEIN, SCULK_SHRIEKER, GLOW_LICHEN,
    DEEPSLATE, DEEPSLATE_BRICKS, DEEPSLATE_TILES, POLISHED_DEEPSLATE, FROGLIGHT, FROGSPAWN,
    MANGROVE_ROOTS, MUDDY_MANGROVE_ROOTS, MUD, MUD_BRICKS, PACKED_MUD, HANGING_SIGN,
    NETHER_WOOD_HANGING_SIGN, BAMBOO_WOOD_HANGING_SIGN, BAMBOO_WOOD, NETHER_WOOD, CHERRY_WOOD,
    CHERRY_SAPLING, CHERRY_LEAVES, CHERRY_WOOD_HANGING_SIGN, CHISELED_BOOKSHELF, SUSPICIOUS_SAND,
    SUSPICIOUS_GRAVEL, DECORATED_POT, DECORATED_POT_CRACKED,
}

impl SoundType {
    /// Looks a sound type up by its SPR config name, ignoring ASCII case.
    #[must_use]
    pub fn from_name(name: &str) -> Option<SoundType> {
        SoundType::ALL
            .iter()
            .copied()
            .find(|t| t.name().eq_ignore_ascii_case(name))
    }
}
