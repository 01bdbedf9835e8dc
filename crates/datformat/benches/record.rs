//! Criterion benches: record parsing and writing.
//!
//! `region_parse` parses a realistic Region (12 STB descs with 4 ambient sounds each, 32 terrain
//! types with names and scene types, a full TexMerge with 33 TMTerrainDescs, a sky with 4 day
//! groups); target ≤ 20 µs.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use resound_datformat::record::{
    AmbientSoundDesc, AmbientStbDesc, Bool32, ColorArgb, DayGroup, GameTime, LandBlock, LandDefs,
    LandSurf, PString, PartsMask, Record, Region, RegionMisc, RoadAlphaMap, SceneDesc, SceneType,
    Season, SkyDesc, SkyObject, SkyObjectReplace, SkyTimeOfDay, Sound, SoundData, SoundDesc,
    SoundEntry, SoundTable, TerrainAlphaMap, TerrainDesc, TerrainTex, TerrainTextureType,
    TerrainType, TexMerge, TimeOfDay, TmTerrainDesc,
};

fn name(s: &str) -> PString {
    PString::from(s)
}

fn realistic_region() -> Region {
    let mut land_height_table = [0.0f32; 256];
    for (i, h) in land_height_table.iter_mut().enumerate() {
        *h = i as f32 * 2.0;
    }
    let sky = SkyDesc {
        tick_size: 0.05,
        light_tick_size: 0.5,
        day_groups: (0..4)
            .map(|g| DayGroup {
                chance_of_occur: 0.25,
                day_name: name(["Sunny", "Cloudy", "Rainy", "Stormy"][g]),
                sky_objects: (0..10)
                    .map(|i| SkyObject {
                        begin_time: 0.0,
                        end_time: 1.0,
                        begin_angle: 0.0,
                        end_angle: 180.0,
                        tex_velocity_x: 0.001 * i as f32,
                        tex_velocity_y: 0.0,
                        default_gfx_object_id: 0x0100_0000 + i,
                        default_pes_object_id: 0,
                        properties: 1,
                    })
                    .collect(),
                sky_time: (0..8)
                    .map(|i| SkyTimeOfDay {
                        begin: i as f32 / 8.0,
                        dir_bright: 1.0,
                        dir_heading: 0.0,
                        dir_pitch: 60.0,
                        dir_color: ColorArgb::from_u32(0xFFFF_FFFF),
                        amb_bright: 0.4,
                        amb_color: ColorArgb::from_u32(0xFF80_8080),
                        min_world_fog: 200.0,
                        max_world_fog: 1500.0,
                        world_fog_color: ColorArgb::from_u32(0xFF60_6070),
                        world_fog: 1,
                        sky_obj_replace: (0..3)
                            .map(|k| SkyObjectReplace {
                                object_index: k,
                                gfx_obj_id: 0x0100_2000 + k,
                                rotate: 0.0,
                                transparent: 0.5,
                                luminosity: 1.0,
                                max_bright: 1.0,
                            })
                            .collect(),
                    })
                    .collect(),
            })
            .collect(),
    };
    let sound = SoundDesc {
        stb_desc: (0..12)
            .map(|i| AmbientStbDesc {
                stb_id: 0x2000_0100 + i,
                ambient_sounds: (0..4)
                    .map(|k| AmbientSoundDesc {
                        s_type: Sound::from_u32(0x46 + k),
                        volume: 0.6,
                        base_chance: if k == 0 { 0.0 } else { 0.05 },
                        min_rate: 5.0,
                        max_rate: 20.0,
                    })
                    .collect(),
            })
            .collect(),
    };
    let scene = SceneDesc {
        scene_types: (0..90)
            .map(|i| SceneType {
                stb_index: i % 12,
                scenes: (0..6).map(|k| 0x1200_0000 + i * 8 + k).collect(),
            })
            .collect(),
    };
    let terrain = TerrainDesc {
        terrain_types: (0..32)
            .map(|i| TerrainType {
                terrain_name: name(&format!("TerrainType{i}")),
                terrain_color: ColorArgb::from_u32(0xFF00_0000 | (i * 0x0101)),
                scene_types: (0..12).map(|k| (i + k) % 90).collect(),
            })
            .collect(),
        land_surfaces: LandSurf {
            kind: 0,
            tex_merge: TexMerge {
                base_tex_size: 512,
                corner_terrain_maps: (0..4)
                    .map(|i| TerrainAlphaMap {
                        t_code: 8 >> i,
                        texture_id: 0x0500_0100 + i,
                    })
                    .collect(),
                side_terrain_maps: (0..4)
                    .map(|i| TerrainAlphaMap {
                        t_code: 9 + i,
                        texture_id: 0x0500_0200 + i,
                    })
                    .collect(),
                road_maps: (0..6)
                    .map(|i| RoadAlphaMap {
                        r_code: 5 + i,
                        texture_id: 0x0500_0300 + i,
                    })
                    .collect(),
                terrain_desc: (0..33)
                    .map(|i| TmTerrainDesc {
                        terrain_type: TerrainTextureType::from_i32(i),
                        terrain_tex: TerrainTex {
                            texture_id: 0x0500_1000 + i as u32,
                            tex_tiling: 4,
                            max_vert_bright: 200,
                            min_vert_bright: 50,
                            max_vert_saturate: 80,
                            min_vert_saturate: 20,
                            max_vert_hue: 30,
                            min_vert_hue: 10,
                            detail_tex_tiling: 8,
                            detail_texture_id: 0x0500_2000,
                        },
                    })
                    .collect(),
            },
        },
    };
    Region {
        id: 0x1300_0000,
        region_number: 1,
        version: 3,
        region_name: name("Dereth"),
        land_defs: LandDefs {
            num_block_length: 255,
            num_block_width: 255,
            square_length: 24.0,
            l_block_length: 8,
            vertex_per_cell: 1,
            max_obj_height: 200.0,
            sky_height: 1000.0,
            road_width: 5.0,
            land_height_table,
        },
        game_time: GameTime {
            zero_time_of_year: 0.0,
            zero_year: 10,
            day_length: 7620.0,
            days_per_year: 360,
            year_spec: name("P.Y."),
            times_of_day: (0..16)
                .map(|i| TimeOfDay {
                    start: i as f32 / 16.0,
                    is_night: Bool32::from(!(4..=12).contains(&i)),
                    name: name(&format!("Hour{i}")),
                })
                .collect(),
            days_of_week: (0..6).map(|i| name(&format!("Day{i}"))).collect(),
            seasons: (0..4)
                .map(|i| Season {
                    start_date: i * 90,
                    name: name(["Snowreap", "Coldeve", "Seedsow", "Harvestgain"][i as usize]),
                })
                .collect(),
        },
        parts_mask: PartsMask(0x213),
        sky_info: Some(sky),
        sound_info: Some(sound),
        scene_info: Some(scene),
        terrain_info: terrain,
        region_misc: Some(RegionMisc {
            version: 1,
            game_map_id: 0x0600_127D,
            autotest_map_id: 0x0600_0261,
            autotest_map_size: 4,
            clear_cell_id: 0x0100_0FDE,
            clear_monster_id: 0x0100_1612,
        }),
    }
}

fn sound_table() -> SoundTable {
    SoundTable {
        id: 0x2000_0001,
        hash_key: 0,
        hashes: vec![],
        sounds: (0..52)
            .map(|i| {
                (
                    Sound::from_u32(i),
                    SoundData {
                        entries: (0..3)
                            .map(|k| SoundEntry {
                                id: 0x0A00_0000 + i * 4 + k,
                                priority: 0.5,
                                probability: 0.33,
                                volume: 0.9,
                            })
                            .collect(),
                        unknown: 0,
                    },
                )
            })
            .collect(),
    }
}

fn benches(c: &mut Criterion) {
    let region = realistic_region();
    let region_bytes = region.to_bytes().expect("region encodes");
    c.bench_function(&format!("region_parse_{}_bytes", region_bytes.len()), |b| {
        b.iter(|| Region::from_bytes(black_box(&region_bytes)).expect("region parses"));
    });
    c.bench_function("region_write", |b| {
        b.iter(|| black_box(&region).to_bytes().expect("region encodes"));
    });
    let table = sound_table().to_bytes().expect("table encodes");
    c.bench_function("sound_table_parse_52_sounds", |b| {
        b.iter(|| SoundTable::from_bytes(black_box(&table)).expect("table parses"));
    });
    let land = LandBlock::default().to_bytes().expect("landblock encodes");
    c.bench_function("land_block_parse", |b| {
        b.iter(|| LandBlock::from_bytes(black_box(&land)).expect("landblock parses"));
    });
}

criterion_group!(record, benches);
criterion_main!(record);
