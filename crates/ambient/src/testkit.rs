//! Small hand-built worlds for the unit tests.

use resound_datformat::record::{
    AmbientSoundDesc, AmbientStbDesc, GameTime, LandBlock, LandDefs, PString, PartsMask, Region,
    SceneDesc, SceneType, Sound, SoundData, SoundDesc, SoundEntry, SoundTable, TerrainDesc,
    TerrainType,
};

/// One authored ambient sound.
pub fn asd(
    s_type: u32,
    volume: f32,
    base_chance: f32,
    min_rate: f32,
    max_rate: f32,
) -> AmbientSoundDesc {
    AmbientSoundDesc {
        s_type: Sound::from_u32(s_type),
        volume,
        base_chance,
        min_rate,
        max_rate,
    }
}

/// One STB descriptor.
pub fn stb(stb_id: u32, sounds: Vec<AmbientSoundDesc>) -> AmbientStbDesc {
    AmbientStbDesc {
        stb_id,
        ambient_sounds: sounds,
    }
}

/// A region: the STB descriptors, each scene type's stb index, and each terrain type's
/// scene-type indices. Heights are `2·i`.
pub fn region(stbs: Vec<AmbientStbDesc>, scene_stb: &[u32], terrain: &[&[u32]]) -> Region {
    let mut land_defs = LandDefs::default();
    for (i, h) in land_defs.land_height_table.iter_mut().enumerate() {
        *h = 2.0 * i as f32;
    }
    Region {
        id: 0x1300_0000,
        region_number: 0,
        version: 3,
        region_name: PString::from_bytes(b"Test".to_vec()),
        land_defs,
        game_time: GameTime::default(),
        parts_mask: PartsMask(PartsMask::SOUND | PartsMask::SCENE),
        sky_info: None,
        sound_info: Some(SoundDesc { stb_desc: stbs }),
        scene_info: Some(SceneDesc {
            scene_types: scene_stb
                .iter()
                .map(|&stb_index| SceneType {
                    stb_index,
                    scenes: Vec::new(),
                })
                .collect(),
        }),
        terrain_info: TerrainDesc {
            terrain_types: terrain
                .iter()
                .map(|s| TerrainType {
                    scene_types: s.to_vec(),
                    ..TerrainType::default()
                })
                .collect(),
            ..TerrainDesc::default()
        },
        region_misc: None,
    }
}

/// A sound table with one row list per sound type: `(wave id, probability)` rows.
pub fn table(id: u32, rows: &[(u32, &[(u32, f32)])]) -> SoundTable {
    SoundTable {
        id,
        sounds: rows
            .iter()
            .map(|(s, r)| {
                (
                    Sound::from_u32(*s),
                    SoundData {
                        entries: r
                            .iter()
                            .map(|&(wave, probability)| SoundEntry {
                                id: wave,
                                priority: 0.0,
                                probability,
                                volume: 1.0,
                            })
                            .collect(),
                        unknown: 0,
                    },
                )
            })
            .collect(),
        ..SoundTable::default()
    }
}

/// A landblock whose 81 terrain words are all `word` and heights all `height`.
pub fn block(bx: u32, by: u32, word: u16, height: u8) -> LandBlock {
    LandBlock {
        id: (bx << 24) | (by << 16) | 0xFFFF,
        terrain: [word; 81],
        height: [height; 81],
        ..LandBlock::default()
    }
}

/// A terrain word with `terrain_type` and `scene`.
pub fn word(terrain_type: u16, scene: u16) -> u16 {
    (terrain_type << 2) | (scene << 11)
}
