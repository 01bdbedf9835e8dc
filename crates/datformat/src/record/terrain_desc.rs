//! `TerrainDesc` and its parts (spec §4.1): terrain types, LandSurf, TexMerge, alpha maps,
//! TMTerrainDesc, TerrainTex.

use binrw::{BinWrite, binrw};
use serde::Serialize;

use super::codec::{MinSize, fixed_size_read, read_fixed_u32, read_list_u32, write_list_u32};
use super::primitive::{ColorArgb, PString};
use super::terrain_texture_type::TerrainTextureType;

/// `TerrainDesc` (always present in a Region).
#[binrw]
#[brw(little)]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct TerrainDesc {
    /// `TerrainTypes`, indexed by a terrain word's 5-bit type.
    #[br(parse_with = read_list_u32)]
    #[bw(write_with = write_list_u32)]
    pub terrain_types: Vec<TerrainType>,
    /// `LandSurfaces`.
    pub land_surfaces: LandSurf,
}

/// `TerrainType`.
#[binrw]
#[brw(little)]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct TerrainType {
    /// `TerrainName`.
    pub terrain_name: PString,
    /// `TerrainColor`.
    pub terrain_color: ColorArgb,
    /// `SceneTypes`: indices into `SceneDesc.scene_types`, selected by a terrain word's
    /// scenery bits.
    #[br(parse_with = read_fixed_u32)]
    #[bw(write_with = write_list_u32)]
    pub scene_types: Vec<u32>,
}

impl MinSize for TerrainType {
    const MIN_SIZE: u64 = 2 + 4 + 4;
}

/// `LandSurf`: a type (0 in retail; 1 = an unseen palette-shift variant) and the TexMerge,
/// which DRW always reads.
#[binrw]
#[brw(little)]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct LandSurf {
    /// `Type`.
    #[serde(rename = "type")]
    pub kind: u32,
    /// `TexMerge`.
    pub tex_merge: TexMerge,
}

/// `TexMerge`: terrain texture blending tables.
#[binrw]
#[brw(little)]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct TexMerge {
    /// `BaseTexSize`.
    pub base_tex_size: u32,
    /// `CornerTerrainMaps`.
    #[br(parse_with = read_list_u32)]
    #[bw(write_with = write_list_u32)]
    pub corner_terrain_maps: Vec<TerrainAlphaMap>,
    /// `SideTerrainMaps`.
    #[br(parse_with = read_list_u32)]
    #[bw(write_with = write_list_u32)]
    pub side_terrain_maps: Vec<TerrainAlphaMap>,
    /// `RoadMaps`.
    #[br(parse_with = read_list_u32)]
    #[bw(write_with = write_list_u32)]
    pub road_maps: Vec<RoadAlphaMap>,
    /// `TerrainDesc`.
    #[br(parse_with = read_list_u32)]
    #[bw(write_with = write_list_u32)]
    pub terrain_desc: Vec<TmTerrainDesc>,
}

/// `TerrainAlphaMap` (8 bytes).
#[derive(BinWrite)]
#[bw(little)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TerrainAlphaMap {
    /// `TCode`.
    pub t_code: u32,
    /// `TextureId` (SurfaceTexture 0x05…).
    pub texture_id: u32,
}

fixed_size_read!(TerrainAlphaMap, 8, { t_code, texture_id });

/// `RoadAlphaMap` (8 bytes).
#[derive(BinWrite)]
#[bw(little)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RoadAlphaMap {
    /// `RCode`.
    pub r_code: u32,
    /// `TextureId`.
    pub texture_id: u32,
}

fixed_size_read!(RoadAlphaMap, 8, { r_code, texture_id });

/// `TMTerrainDesc` (44 bytes).
#[derive(BinWrite)]
#[bw(little)]
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TmTerrainDesc {
    /// `TerrainType` (i32 on disk).
    pub terrain_type: TerrainTextureType,
    /// `TerrainTex`.
    pub terrain_tex: TerrainTex,
}

fixed_size_read!(TmTerrainDesc, 44, { terrain_type, terrain_tex });

/// `TerrainTex` (40 bytes).
#[derive(BinWrite)]
#[bw(little)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TerrainTex {
    /// `TextureId`.
    pub texture_id: u32,
    /// `TexTiling`.
    pub tex_tiling: u32,
    /// `MaxVertBright`.
    pub max_vert_bright: u32,
    /// `MinVertBright`.
    pub min_vert_bright: u32,
    /// `MaxVertSaturate`.
    pub max_vert_saturate: u32,
    /// `MinVertSaturate`.
    pub min_vert_saturate: u32,
    /// `MaxVertHue`.
    pub max_vert_hue: u32,
    /// `MinVertHue`.
    pub min_vert_hue: u32,
    /// `DetailTexTiling`.
    pub detail_tex_tiling: u32,
    /// `DetailTextureId`.
    pub detail_texture_id: u32,
}

fixed_size_read!(TerrainTex, 40, {
    texture_id,
    tex_tiling,
    max_vert_bright,
    min_vert_bright,
    max_vert_saturate,
    min_vert_saturate,
    max_vert_hue,
    min_vert_hue,
    detail_tex_tiling,
    detail_texture_id,
});
