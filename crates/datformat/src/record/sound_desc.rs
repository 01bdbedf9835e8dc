//! `SoundDesc` (the Region's ambient sound sets, spec §4.1 and ambient-data-path §3) and
//! `SceneDesc`.

use binrw::{BinWrite, binrw};
use serde::Serialize;

use super::codec::{MinSize, fixed_size_read, read_fixed_u32, read_list_u32, write_list_u32};
use super::sound::Sound;

/// `SoundDesc` (retail `CSoundDesc`): the ambient sound-table descriptions, indexed by a scene
/// type's `stb_index`.
#[binrw]
#[brw(little)]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SoundDesc {
    /// `STBDesc`.
    #[br(parse_with = read_list_u32)]
    #[bw(write_with = write_list_u32)]
    pub stb_desc: Vec<AmbientStbDesc>,
}

/// `AmbientSTBDesc`: a SoundTable id and the ambient sounds drawn from it.
#[binrw]
#[brw(little)]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct AmbientStbDesc {
    /// `STBId`: SoundTable id (0x20…).
    pub stb_id: u32,
    /// `AmbientSounds`.
    #[br(parse_with = read_list_u32)]
    #[bw(write_with = write_list_u32)]
    pub ambient_sounds: Vec<AmbientSoundDesc>,
}

impl MinSize for AmbientStbDesc {
    const MIN_SIZE: u64 = 8;
}

/// `AmbientSoundDesc` (20 bytes on disk). Retail derives `is_continuous = base_chance == 0.0`
/// at unpack (not stored); see [`AmbientSoundDesc::is_continuous`].
#[derive(BinWrite)]
#[bw(little)]
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct AmbientSoundDesc {
    /// `SType`: the SoundTable slot (normally `Ambient1..=Ambient8`).
    pub s_type: Sound,
    /// `Volume`.
    pub volume: f32,
    /// `BaseChance` (0 selects a continuous sound).
    pub base_chance: f32,
    /// `MinRate`.
    pub min_rate: f32,
    /// `MaxRate`.
    pub max_rate: f32,
}

fixed_size_read!(AmbientSoundDesc, 20, { s_type, volume, base_chance, min_rate, max_rate });

impl AmbientSoundDesc {
    /// Retail's derived flag (`AmbientSTBDesc::UnPack`): continuous iff `base_chance == 0.0`.
    #[must_use]
    pub fn is_continuous(&self) -> bool {
        self.base_chance == 0.0
    }
}

/// `SceneDesc`: the scene types referenced by terrain types.
#[binrw]
#[brw(little)]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SceneDesc {
    /// `SceneTypes`.
    #[br(parse_with = read_list_u32)]
    #[bw(write_with = write_list_u32)]
    pub scene_types: Vec<SceneType>,
}

/// `SceneType`: an index into `SoundDesc.stb_desc` (0xFFFFFFFF = none) and scene ids.
#[binrw]
#[brw(little)]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SceneType {
    /// `StbIndex`.
    pub stb_index: u32,
    /// `Scenes` (Scene ids 0x12…).
    #[br(parse_with = read_fixed_u32)]
    #[bw(write_with = write_list_u32)]
    pub scenes: Vec<u32>,
}

impl SceneType {
    /// `stb_index` value meaning "no ambient sound set".
    pub const NO_STB: u32 = 0xFFFF_FFFF;
}

impl MinSize for SceneType {
    const MIN_SIZE: u64 = 8;
}
