//! `Region` — portal dat, ids 0x13000000..=0x1300FFFF (retail EoR has one: 0x13000000 "Dereth").
//!
//! Read order (spec §4.1): Id, RegionNumber, Version, RegionName, LandDefs, GameTime, PartsMask,
//! then SkyDesc (0x10) → SoundDesc (0x01) → SceneDesc (0x02) → TerrainDesc (always) →
//! RegionMisc (0x200). Nothing follows RegionMisc.

use binrw::{BinWrite, binrw};
use serde::Serialize;

use super::codec::{
    MinSize, fixed_size_read, read_fixed_array, read_list_u32, serialize_array, write_list_u32,
};
use super::parts_mask::PartsMask;
use super::primitive::{Bool32, PString};
use super::sky::SkyDesc;
use super::sound_desc::{SceneDesc, SoundDesc};
use super::terrain_desc::TerrainDesc;

/// A Region DBObj: world constants, calendar, sky, ambient sounds, scenery and terrain.
#[binrw]
#[brw(little)]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Region {
    /// File id.
    pub id: u32,
    /// `RegionNumber` (1 for Dereth).
    pub region_number: u32,
    /// `Version` (retail requires [`Region::RETAIL_VERSION`]; not enforced here).
    pub version: u32,
    /// `RegionName`.
    pub region_name: PString,
    /// `LandDefs`.
    pub land_defs: LandDefs,
    /// `GameTime`.
    pub game_time: GameTime,
    /// `PartsMask`: which optional parts follow.
    pub parts_mask: PartsMask,
    /// `SkyInfo`, present iff `parts_mask.has_sky()`.
    #[br(if(parts_mask.has_sky()))]
    #[bw(assert(
        sky_info.is_some() == parts_mask.has_sky(),
        "sky_info disagrees with parts_mask"
    ))]
    pub sky_info: Option<SkyDesc>,
    /// `SoundInfo`, present iff `parts_mask.has_sound()`.
    #[br(if(parts_mask.has_sound()))]
    #[bw(assert(
        sound_info.is_some() == parts_mask.has_sound(),
        "sound_info disagrees with parts_mask"
    ))]
    pub sound_info: Option<SoundDesc>,
    /// `SceneInfo`, present iff `parts_mask.has_scene()`.
    #[br(if(parts_mask.has_scene()))]
    #[bw(assert(
        scene_info.is_some() == parts_mask.has_scene(),
        "scene_info disagrees with parts_mask"
    ))]
    pub scene_info: Option<SceneDesc>,
    /// `TerrainInfo` (always present).
    pub terrain_info: TerrainDesc,
    /// `RegionMisc`, present iff `parts_mask.has_region_misc()`.
    #[br(if(parts_mask.has_region_misc()))]
    #[bw(assert(
        region_misc.is_some() == parts_mask.has_region_misc(),
        "region_misc disagrees with parts_mask"
    ))]
    pub region_misc: Option<RegionMisc>,
}

impl Region {
    /// The only `version` the retail client accepts (spec §8).
    pub const RETAIL_VERSION: u32 = 3;

    /// Whether the retail client would accept this region's version.
    #[must_use]
    pub fn is_retail_version(&self) -> bool {
        self.version == Self::RETAIL_VERSION
    }

    /// A copy of `parts_mask` with the four part bits set from which parts are present, so a
    /// hand-built region can be written consistently.
    #[must_use]
    pub fn derived_parts_mask(&self) -> PartsMask {
        self.parts_mask
            .with(PartsMask::SKY, self.sky_info.is_some())
            .with(PartsMask::SOUND, self.sound_info.is_some())
            .with(PartsMask::SCENE, self.scene_info.is_some())
            .with(PartsMask::REGION_MISC, self.region_misc.is_some())
    }
}

/// `LandDefs` (1056 bytes): landscape constants and the height table.
#[binrw]
#[brw(little)]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LandDefs {
    /// `NumBlockLength`.
    pub num_block_length: i32,
    /// `NumBlockWidth`.
    pub num_block_width: i32,
    /// `SquareLength`.
    pub square_length: f32,
    /// `LBlockLength`.
    pub l_block_length: i32,
    /// `VertexPerCell`.
    pub vertex_per_cell: i32,
    /// `MaxObjHeight`.
    pub max_obj_height: f32,
    /// `SkyHeight`.
    pub sky_height: f32,
    /// `RoadWidth`.
    pub road_width: f32,
    /// `LandHeightTable`: LandBlock height byte → world Z.
    #[br(parse_with = read_fixed_array)]
    #[serde(serialize_with = "serialize_array")]
    pub land_height_table: [f32; 256],
}

impl Default for LandDefs {
    fn default() -> Self {
        Self {
            num_block_length: 0,
            num_block_width: 0,
            square_length: 0.0,
            l_block_length: 0,
            vertex_per_cell: 0,
            max_obj_height: 0.0,
            sky_height: 0.0,
            road_width: 0.0,
            land_height_table: [0.0; 256],
        }
    }
}

impl LandDefs {
    /// Upper bound retail's `LandDefs::set_height_table` accepts (spec §8).
    pub const RETAIL_MAX_HEIGHT: f32 = 800.0;

    /// The height table as the retail client installs it (spec §8): entries are copied while
    /// they lie in `[0, 800]`; from the first value outside (or NaN) on, all entries are 0.
    #[must_use]
    pub fn retail_height_table(&self) -> [f32; 256] {
        let mut table = [0.0; 256];
        for (dst, &src) in table.iter_mut().zip(self.land_height_table.iter()) {
            if !(0.0..=Self::RETAIL_MAX_HEIGHT).contains(&src) {
                break;
            }
            *dst = src;
        }
        table
    }
}

/// `GameTime`: the calendar.
#[binrw]
#[brw(little)]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct GameTime {
    /// `ZeroTimeOfYear` (f64, only 4-aligned).
    pub zero_time_of_year: f64,
    /// `ZeroYear`.
    pub zero_year: u32,
    /// `DayLength`.
    pub day_length: f32,
    /// `DaysPerYear`.
    pub days_per_year: u32,
    /// `YearSpec`.
    pub year_spec: PString,
    /// `TimesOfDay`.
    #[br(parse_with = read_list_u32)]
    #[bw(write_with = write_list_u32)]
    pub times_of_day: Vec<TimeOfDay>,
    /// `DaysOfWeek`.
    #[br(parse_with = read_list_u32)]
    #[bw(write_with = write_list_u32)]
    pub days_of_week: Vec<PString>,
    /// `Seasons`.
    #[br(parse_with = read_list_u32)]
    #[bw(write_with = write_list_u32)]
    pub seasons: Vec<Season>,
}

/// `TimeOfDay`.
#[binrw]
#[brw(little)]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct TimeOfDay {
    /// `Start` (fraction of the day).
    pub start: f32,
    /// `IsNight` (bool32, raw value kept).
    pub is_night: Bool32,
    /// `Name`.
    pub name: PString,
}

impl MinSize for TimeOfDay {
    const MIN_SIZE: u64 = 10;
}

/// `Season`.
#[binrw]
#[brw(little)]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Season {
    /// `Start` (start day of the year; DRW's property is `Start`).
    #[serde(rename = "start")]
    pub start_date: u32,
    /// `Name`.
    pub name: PString,
}

impl MinSize for Season {
    const MIN_SIZE: u64 = 6;
}

/// `RegionMisc` (24 bytes).
#[derive(BinWrite)]
#[bw(little)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RegionMisc {
    /// `Version`.
    pub version: u32,
    /// `GameMapId`.
    pub game_map_id: u32,
    /// `AutotestMapId`.
    pub autotest_map_id: u32,
    /// `AutotestMapSize`.
    pub autotest_map_size: u32,
    /// `ClearCellId`.
    pub clear_cell_id: u32,
    /// `ClearMonsterId`.
    pub clear_monster_id: u32,
}

fixed_size_read!(RegionMisc, 24, {
    version,
    game_map_id,
    autotest_map_id,
    autotest_map_size,
    clear_cell_id,
    clear_monster_id,
});
