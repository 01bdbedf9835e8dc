//! `SkyDesc` and its parts (spec §4.1): day groups, sky objects, sky times of day.

use binrw::io::{Read, Seek};
use binrw::{BinRead, BinResult, BinWrite, Endian, binrw};
use serde::Serialize;

use super::codec::{Fields, MinSize, fixed_size_read, read_block, read_list_u32, write_list_u32};
use super::primitive::{ColorArgb, PString};

/// `SkyDesc`: tick sizes and the day groups.
#[binrw]
#[brw(little)]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SkyDesc {
    /// `TickSize` (f64, only 4-aligned on disk).
    pub tick_size: f64,
    /// `LightTickSize`.
    pub light_tick_size: f64,
    /// `DayGroups`.
    #[br(parse_with = read_list_u32)]
    #[bw(write_with = write_list_u32)]
    pub day_groups: Vec<DayGroup>,
}

/// `DayGroup`: a weather/day variant with its sky objects and times of day.
#[binrw]
#[brw(little)]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct DayGroup {
    /// `ChanceOfOccur`.
    pub chance_of_occur: f32,
    /// `DayName`.
    pub day_name: PString,
    /// `SkyObjects`.
    #[br(parse_with = read_list_u32)]
    #[bw(write_with = write_list_u32)]
    pub sky_objects: Vec<SkyObject>,
    /// `SkyTime`.
    #[br(parse_with = read_list_u32)]
    #[bw(write_with = write_list_u32)]
    pub sky_time: Vec<SkyTimeOfDay>,
}

impl MinSize for DayGroup {
    const MIN_SIZE: u64 = 4 + 2 + 4 + 4;
}

/// `SkyObject` (36 bytes).
#[derive(BinWrite)]
#[bw(little)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct SkyObject {
    /// `BeginTime`.
    pub begin_time: f32,
    /// `EndTime`.
    pub end_time: f32,
    /// `BeginAngle`.
    pub begin_angle: f32,
    /// `EndAngle`.
    pub end_angle: f32,
    /// `TexVelocityX`.
    pub tex_velocity_x: f32,
    /// `TexVelocityY`.
    pub tex_velocity_y: f32,
    /// `DefaultGfxObjectId` (GfxObj 0x01…).
    pub default_gfx_object_id: u32,
    /// `DefaultPesObjectId` (PhysicsScript 0x33…).
    pub default_pes_object_id: u32,
    /// `Properties`.
    pub properties: u32,
}

fixed_size_read!(SkyObject, 36, {
    begin_time,
    end_time,
    begin_angle,
    end_angle,
    tex_velocity_x,
    tex_velocity_y,
    default_gfx_object_id,
    default_pes_object_id,
    properties,
});

/// `SkyTimeOfDay` (44 bytes + replace list).
#[derive(BinWrite)]
#[bw(little)]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SkyTimeOfDay {
    /// `Begin`.
    pub begin: f32,
    /// `DirBright`.
    pub dir_bright: f32,
    /// `DirHeading`.
    pub dir_heading: f32,
    /// `DirPitch`.
    pub dir_pitch: f32,
    /// `DirColor`.
    pub dir_color: ColorArgb,
    /// `AmbBright`.
    pub amb_bright: f32,
    /// `AmbColor`.
    pub amb_color: ColorArgb,
    /// `MinWorldFog`.
    pub min_world_fog: f32,
    /// `MaxWorldFog`.
    pub max_world_fog: f32,
    /// `WorldFogColor`.
    pub world_fog_color: ColorArgb,
    /// `WorldFog`.
    pub world_fog: u32,
    /// `SkyObjReplace`.
    #[bw(write_with = write_list_u32)]
    pub sky_obj_replace: Vec<SkyObjectReplace>,
}

impl BinRead for SkyTimeOfDay {
    type Args<'a> = ();

    fn read_options<R: Read + Seek>(
        reader: &mut R,
        endian: Endian,
        (): Self::Args<'_>,
    ) -> BinResult<Self> {
        // The 44 fixed bytes in one read, then the list.
        let block = read_block::<R, 44>(reader)?;
        let mut f = Fields::new(&block, endian);
        Ok(Self {
            begin: f.get(),
            dir_bright: f.get(),
            dir_heading: f.get(),
            dir_pitch: f.get(),
            dir_color: f.get(),
            amb_bright: f.get(),
            amb_color: f.get(),
            min_world_fog: f.get(),
            max_world_fog: f.get(),
            world_fog_color: f.get(),
            world_fog: f.get(),
            sky_obj_replace: read_list_u32(reader, endian, ())?,
        })
    }
}

impl MinSize for SkyTimeOfDay {
    const MIN_SIZE: u64 = 48;
}

/// `SkyObjectReplace` (24 bytes).
#[derive(BinWrite)]
#[bw(little)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct SkyObjectReplace {
    /// `ObjectIndex`.
    pub object_index: u32,
    /// `GfxObjId`.
    pub gfx_obj_id: u32,
    /// `Rotate`.
    pub rotate: f32,
    /// `Transparent`.
    pub transparent: f32,
    /// `Luminosity`.
    pub luminosity: f32,
    /// `MaxBright`.
    pub max_bright: f32,
}

fixed_size_read!(SkyObjectReplace, 24, {
    object_index,
    gfx_obj_id,
    rotate,
    transparent,
    luminosity,
    max_bright,
});
