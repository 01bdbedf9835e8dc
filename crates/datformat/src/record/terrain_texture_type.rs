//! The `TerrainTextureType` enum (spec §4.6): 5 bits of a LandBlock terrain word, an i32 in
//! `TMTerrainDesc`.

use serde::Serialize;

use super::codec::raw_enum_codec;

/// Declares the enum and its values.
macro_rules! terrain_types {
    ($($variant:ident = $value:literal,)*) => {
        /// A terrain texture type. Values 0x00..=0x20 are named after DRW; anything else is kept
        /// as [`TerrainTextureType::Unknown`] so it round-trips.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
        #[non_exhaustive]
        pub enum TerrainTextureType {
            $(
                #[doc = concat!("`", stringify!($variant), "` (", stringify!($value), ").")]
                $variant,
            )*
            /// A value outside the known list (construct it with
            /// [`TerrainTextureType::from_i32`]; an `Unknown` holding a known value reads back
            /// as the named variant).
            Unknown(i32),
        }

        impl TerrainTextureType {
            /// The type for a raw value.
            #[must_use]
            pub fn from_i32(value: i32) -> Self {
                match value {
                    $($value => Self::$variant,)*
                    other => Self::Unknown(other),
                }
            }

            /// The raw value.
            #[must_use]
            pub fn to_i32(self) -> i32 {
                match self {
                    $(Self::$variant => $value,)*
                    Self::Unknown(other) => other,
                }
            }
        }
    };
}

terrain_types! {
    BarrenRock = 0x00,
    Grassland = 0x01,
    Ice = 0x02,
    LushGrass = 0x03,
    MarshSparseSwamp = 0x04,
    MudRichDirt = 0x05,
    ObsidianPlain = 0x06,
    PackedDirt = 0x07,
    PatchyDirt = 0x08,
    PatchyGrassland = 0x09,
    SandYellow = 0x0A,
    SandGrey = 0x0B,
    SandRockStrewn = 0x0C,
    SedimentaryRock = 0x0D,
    SemiBarrenRock = 0x0E,
    Snow = 0x0F,
    WaterRunning = 0x10,
    WaterStandingFresh = 0x11,
    WaterShallowSea = 0x12,
    WaterShallowStillSea = 0x13,
    WaterDeepSea = 0x14,
    ForestFloor = 0x15,
    FauxWaterRunning = 0x16,
    SeaSlime = 0x17,
    Argila = 0x18,
    Volcano1 = 0x19,
    Volcano2 = 0x1A,
    BlueIce = 0x1B,
    Moss = 0x1C,
    DarkMoss = 0x1D,
    Olthoi = 0x1E,
    DesolateLands = 0x1F,
    RoadType = 0x20,
}

raw_enum_codec!(TerrainTextureType, i32, from_i32, to_i32);
