//! `PartsMask` (spec §4.1/§4.6): which optional parts a Region holds.

use binrw::binrw;
use serde::Serialize;

/// The Region parts bitmask (u32). Bits other than the four named ones are kept but ignored.
#[binrw]
#[brw(little)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(transparent)]
pub struct PartsMask(pub u32);

impl PartsMask {
    /// `HasSoundInfo`: a `SoundDesc` is present.
    pub const SOUND: u32 = 0x01;
    /// `HasSceneInfo`: a `SceneDesc` is present.
    pub const SCENE: u32 = 0x02;
    /// `HasSkyInfo`: a `SkyDesc` is present.
    pub const SKY: u32 = 0x10;
    /// `HasRegionMisc`: a `RegionMisc` is present.
    pub const REGION_MISC: u32 = 0x200;

    /// The raw bits.
    #[must_use]
    pub fn bits(self) -> u32 {
        self.0
    }

    /// Whether every bit of `bits` is set.
    #[must_use]
    pub fn contains(self, bits: u32) -> bool {
        self.0 & bits == bits
    }

    /// A copy with `bits` set (`on`) or cleared.
    #[must_use]
    pub fn with(self, bits: u32, on: bool) -> Self {
        if on {
            Self(self.0 | bits)
        } else {
            Self(self.0 & !bits)
        }
    }

    /// Sound info present.
    #[must_use]
    pub fn has_sound(self) -> bool {
        self.contains(Self::SOUND)
    }

    /// Scene info present.
    #[must_use]
    pub fn has_scene(self) -> bool {
        self.contains(Self::SCENE)
    }

    /// Sky info present.
    #[must_use]
    pub fn has_sky(self) -> bool {
        self.contains(Self::SKY)
    }

    /// Region misc present.
    #[must_use]
    pub fn has_region_misc(self) -> bool {
        self.contains(Self::REGION_MISC)
    }
}
