//! Integration tests: record (round trips, exact consumption, corruption, WAV export).

#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a failing unwrap is a failing test"
)]

use std::fmt::Debug;

use proptest::prelude::*;
use resound_datformat::record::{
    AmbientSoundDesc, AmbientStbDesc, Bool32, BuildingInfo, BuildingPortal, ColorArgb,
    CountExceedsDataError, DayGroup, Fault, Frame, GameTime, LandBlock, LandBlockInfo, LandDefs,
    LandSurf, PString, PartsMask, Quaternion, ReadRecordError, Record, Region, RegionMisc,
    RestrictionTable, RoadAlphaMap, SceneDesc, SceneType, Season, SkyDesc, SkyObject,
    SkyObjectReplace, SkyTimeOfDay, Sound, SoundData, SoundDesc, SoundEntry, SoundHashEntry,
    SoundTable, Stab, TerrainAlphaMap, TerrainDesc, TerrainTex, TerrainTextureType, TerrainType,
    TerrainWord, TexMerge, TimeOfDay, TmTerrainDesc, Vector3, Wave, WriteRecordError,
};

// ---------------------------------------------------------------------------------------------
// Builders

fn pstr(s: &str) -> PString {
    PString::from(s)
}

fn land_defs() -> LandDefs {
    let mut table = [0.0f32; 256];
    for (i, h) in table.iter_mut().enumerate() {
        *h = i as f32 * 2.0;
    }
    LandDefs {
        num_block_length: 255,
        num_block_width: 255,
        square_length: 24.0,
        l_block_length: 8,
        vertex_per_cell: 1,
        max_obj_height: 200.0,
        sky_height: 1000.0,
        road_width: 5.0,
        land_height_table: table,
    }
}

fn game_time() -> GameTime {
    GameTime {
        zero_time_of_year: 3600.5,
        zero_year: 10,
        day_length: 7620.0,
        days_per_year: 360,
        year_spec: pstr("P.Y."),
        times_of_day: vec![
            TimeOfDay {
                start: 0.0,
                is_night: Bool32(1),
                name: pstr("Darktide"),
            },
            TimeOfDay {
                start: 0.25,
                is_night: Bool32(0),
                name: pstr("Dawnsong"),
            },
        ],
        days_of_week: vec![pstr("Snowreap"), pstr("Coldeve"), pstr("Wintersebb")],
        seasons: vec![Season {
            start_date: 0,
            name: pstr("Winter"),
        }],
    }
}

fn sky(groups: usize) -> SkyDesc {
    SkyDesc {
        tick_size: 1.5,
        light_tick_size: 2.25,
        day_groups: (0..groups)
            .map(|g| DayGroup {
                chance_of_occur: 0.5,
                day_name: pstr(&"Sunny".repeat(g + 1)),
                sky_objects: (0..3)
                    .map(|i| SkyObject {
                        begin_time: 0.1 * i as f32,
                        end_time: 0.9,
                        begin_angle: 10.0,
                        end_angle: 170.0,
                        tex_velocity_x: 0.01,
                        tex_velocity_y: -0.02,
                        default_gfx_object_id: 0x0100_0000 + i,
                        default_pes_object_id: 0x3300_0000 + i,
                        properties: i,
                    })
                    .collect(),
                sky_time: (0..2)
                    .map(|i| SkyTimeOfDay {
                        begin: 0.5 * i as f32,
                        dir_bright: 1.0,
                        dir_heading: 90.0,
                        dir_pitch: 45.0,
                        dir_color: ColorArgb::from_u32(0xFF10_2030),
                        amb_bright: 0.5,
                        amb_color: ColorArgb::from_u32(0x8040_5060),
                        min_world_fog: 100.0,
                        max_world_fog: 500.0,
                        world_fog_color: ColorArgb::from_u32(0x0102_0304),
                        world_fog: 1,
                        sky_obj_replace: (0..i)
                            .map(|k| SkyObjectReplace {
                                object_index: k,
                                gfx_obj_id: 0x0100_1000 + k,
                                rotate: 1.0,
                                transparent: 0.5,
                                luminosity: 0.25,
                                max_bright: 1.0,
                            })
                            .collect(),
                    })
                    .collect(),
            })
            .collect(),
    }
}

fn sound_desc(n: u32) -> SoundDesc {
    SoundDesc {
        stb_desc: (0..n)
            .map(|i| AmbientStbDesc {
                stb_id: 0x2000_0100 + i,
                ambient_sounds: (0..(i % 4))
                    .map(|k| AmbientSoundDesc {
                        s_type: Sound::from_u32(0x46 + k),
                        volume: 0.5,
                        base_chance: if k == 0 { 0.0 } else { 0.1 },
                        min_rate: 2.0,
                        max_rate: 8.0,
                    })
                    .collect(),
            })
            .collect(),
    }
}

fn scene_desc() -> SceneDesc {
    SceneDesc {
        scene_types: vec![
            SceneType {
                stb_index: 0,
                scenes: vec![0x1200_0001, 0x1200_0002],
            },
            SceneType {
                stb_index: SceneType::NO_STB,
                scenes: vec![],
            },
        ],
    }
}

fn terrain(types: usize) -> TerrainDesc {
    TerrainDesc {
        terrain_types: (0..types)
            .map(|i| TerrainType {
                terrain_name: pstr(&"T".repeat(i % 9)),
                terrain_color: ColorArgb::from_u32(0xFF00_0000 | i as u32),
                scene_types: (0..(i as u32 % 3)).collect(),
            })
            .collect(),
        land_surfaces: LandSurf {
            kind: 0,
            tex_merge: TexMerge {
                base_tex_size: 512,
                corner_terrain_maps: vec![TerrainAlphaMap {
                    t_code: 8,
                    texture_id: 0x0500_0001,
                }],
                side_terrain_maps: vec![TerrainAlphaMap {
                    t_code: 9,
                    texture_id: 0x0500_0002,
                }],
                road_maps: vec![RoadAlphaMap {
                    r_code: 5,
                    texture_id: 0x0500_0003,
                }],
                terrain_desc: (0..types.min(33))
                    .map(|i| TmTerrainDesc {
                        terrain_type: TerrainTextureType::from_i32(i as i32),
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
    }
}

fn region_misc() -> RegionMisc {
    RegionMisc {
        version: 1,
        game_map_id: 0x0600_127D,
        autotest_map_id: 0x0600_0261,
        autotest_map_size: 4,
        clear_cell_id: 0x0100_0FDE,
        clear_monster_id: 0x0100_1612,
    }
}

/// A Region with the parts selected by `mask` (other bits kept as given).
fn region(mask: u32) -> Region {
    let parts_mask = PartsMask(mask);
    Region {
        id: 0x1300_0000,
        region_number: 1,
        version: 3,
        region_name: pstr("Dereth"),
        land_defs: land_defs(),
        game_time: game_time(),
        parts_mask,
        sky_info: parts_mask.has_sky().then(|| sky(2)),
        sound_info: parts_mask.has_sound().then(|| sound_desc(5)),
        scene_info: parts_mask.has_scene().then(scene_desc),
        terrain_info: terrain(5),
        region_misc: parts_mask.has_region_misc().then(region_misc),
    }
}

pub(crate) fn full_region() -> Region {
    region(0x213)
}

pub(crate) fn sound_table() -> SoundTable {
    SoundTable {
        id: 0x2000_0001,
        hash_key: 0,
        hashes: vec![SoundHashEntry {
            key: 0,
            priority: 0.0,
            probability: 1.0,
            volume: 1.0,
        }],
        sounds: vec![
            (
                Sound::ShieldUp,
                SoundData {
                    entries: vec![SoundEntry {
                        id: 0x0A00_0262,
                        priority: 0.7,
                        probability: 1.0,
                        volume: 1.0,
                    }],
                    unknown: 0,
                },
            ),
            (
                Sound::Swoosh2,
                SoundData {
                    entries: vec![
                        SoundEntry {
                            id: 0x0A00_0519,
                            priority: 0.5,
                            probability: 0.5,
                            volume: 0.9,
                        },
                        SoundEntry {
                            id: 0x0A00_051A,
                            priority: 0.5,
                            probability: 0.25,
                            volume: 0.8,
                        },
                        SoundEntry {
                            id: 0x0A00_051E,
                            priority: 0.5,
                            probability: 0.25,
                            volume: 0.7,
                        },
                    ],
                    unknown: 0,
                },
            ),
            (Sound::Ambient1, SoundData::default()),
            (Sound::Unknown(0x1234), SoundData::default()),
        ],
    }
}

fn pcm_header(tag: u16, channels: u16, rate: u32, bits: u16, extra: &[u8]) -> Vec<u8> {
    let block_align = channels * bits / 8;
    let mut h = Vec::new();
    h.extend_from_slice(&tag.to_le_bytes());
    h.extend_from_slice(&channels.to_le_bytes());
    h.extend_from_slice(&rate.to_le_bytes());
    h.extend_from_slice(&(rate * u32::from(block_align)).to_le_bytes());
    h.extend_from_slice(&block_align.to_le_bytes());
    h.extend_from_slice(&bits.to_le_bytes());
    h.extend_from_slice(&(extra.len() as u16).to_le_bytes());
    h.extend_from_slice(extra);
    h
}

pub(crate) fn wave_pcm16() -> Wave {
    let samples: [i16; 6] = [0, 1000, -1000, i16::MAX, i16::MIN, 12345];
    Wave {
        id: 0x0A00_0002,
        header: pcm_header(1, 2, 22050, 16, &[]),
        data: samples.iter().flat_map(|s| s.to_le_bytes()).collect(),
    }
}

pub(crate) fn land_block() -> LandBlock {
    let mut lb = LandBlock {
        id: 0x9AB1_FFFF,
        has_objects: 0,
        pad: 0,
        ..LandBlock::default()
    };
    for i in 0..81 {
        lb.terrain[i] = TerrainWord::new((i % 4) as u8, (i % 32) as u8, (i % 32) as u8).0;
        lb.height[i] = (i * 3) as u8;
    }
    lb
}

pub(crate) fn land_block_info() -> LandBlockInfo {
    LandBlockInfo {
        id: 0x1455_FFFE,
        num_cells: 5,
        objects: vec![Stab {
            id: 0x0200_0001,
            frame: Frame {
                origin: Vector3 {
                    x: 1.0,
                    y: 2.0,
                    z: 3.0,
                },
                orientation: Quaternion::default(),
            },
        }],
        pack_mask: 1,
        buildings: vec![BuildingInfo {
            model_id: 0x0100_11A9,
            frame: Frame {
                origin: Vector3 {
                    x: 174.003,
                    y: 17.634,
                    z: 70.0,
                },
                orientation: Quaternion {
                    w: 0.392_739,
                    x: 0.0,
                    y: 0.0,
                    z: -0.919_65,
                },
            },
            num_leaves: 127,
            portals: vec![
                BuildingPortal {
                    flags: 3,
                    other_cell_id: 260,
                    other_portal_id: 1,
                    stab_list: vec![256, 257, 258, 259, 260],
                    pad: [0; 3],
                },
                BuildingPortal {
                    flags: 1,
                    other_cell_id: 261,
                    other_portal_id: 0,
                    stab_list: vec![],
                    pad: [0; 3],
                },
            ],
        }],
        restriction_table: Some(RestrictionTable {
            bucket_size: 8,
            entries: vec![(0, 0x7526_200C)],
        }),
    }
}

// ---------------------------------------------------------------------------------------------
// Helpers

/// to_bytes → from_bytes gives the same value and the same bytes again.
fn round_trip<T: Record + PartialEq + Debug>(value: &T) -> Vec<u8> {
    let bytes = value.to_bytes().unwrap();
    let back = T::from_bytes(&bytes).unwrap();
    assert_eq!(&back, value);
    assert_eq!(back.to_bytes().unwrap(), bytes);
    bytes
}

/// Parsing `bytes` must not panic; if it succeeds, writing must reproduce `bytes`.
fn parse_is_exact_or_err<T: Record + Debug>(bytes: &[u8]) -> bool {
    match T::from_bytes_padded(bytes) {
        Ok(v) => {
            assert_eq!(
                v.to_bytes().unwrap(),
                bytes,
                "accepted bytes must round-trip"
            );
            true
        }
        Err(_) => false,
    }
}

fn truncations_all_fail<T: Record + Debug>(bytes: &[u8]) {
    for cut in 0..bytes.len() {
        let err = T::from_bytes(&bytes[..cut]);
        assert!(err.is_err(), "{} truncated to {cut} bytes parsed", T::NAME);
    }
}

/// Trailing zero bytes are padding (kept, byte-exact round trip); a non-zero one is an error.
fn trailing_byte_fails<T: Record + Debug>(bytes: &[u8]) {
    let mut padded = bytes.to_vec();
    padded.extend_from_slice(&[0; 5]);
    let p = T::from_bytes_padded(&padded).unwrap();
    assert_eq!(p.padding, 5);
    assert_eq!(p.to_bytes().unwrap(), padded);
    assert_eq!(T::from_bytes(&padded).unwrap().to_bytes().unwrap(), bytes);
    let mut longer = padded.clone();
    longer.push(1);
    match T::from_bytes(&longer) {
        Err(ReadRecordError::TrailingBytes {
            record,
            offset,
            remaining,
            nonzero_at,
            ..
        }) => {
            assert_eq!(record, T::NAME);
            assert_eq!(offset, bytes.len() as u64);
            assert_eq!(remaining, 6);
            assert_eq!(nonzero_at, bytes.len() as u64 + 5);
        }
        other => panic!("expected TrailingBytes, got {other:?}"),
    }
}

/// Tiny deterministic PRNG (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn random_flips<T: Record + Debug>(bytes: &[u8], seed: u64, rounds: usize) {
    let mut rng = Rng(seed);
    for _ in 0..rounds {
        let mut b = bytes.to_vec();
        for _ in 0..=rng.below(4) {
            let at = rng.below(b.len());
            b[at] ^= 1 << rng.below(8);
        }
        parse_is_exact_or_err::<T>(&b);
    }
}

/// Every 4-byte aligned dword set to 0xFFFFFFFF: never panics; accepted bytes round-trip.
fn max_dwords<T: Record + Debug>(bytes: &[u8]) {
    for at in (0..bytes.len().saturating_sub(3)).step_by(2) {
        let mut b = bytes.to_vec();
        b[at..at + 4].copy_from_slice(&[0xFF; 4]);
        parse_is_exact_or_err::<T>(&b);
    }
}

fn count_error(err: &ReadRecordError) -> Option<CountExceedsDataError> {
    match err {
        ReadRecordError::Malformed {
            fault: Fault::CountExceedsData(c),
            ..
        } => Some(c.clone()),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------
// Region

#[test]
fn region_round_trips_every_parts_mask_combination() {
    for combo in 0u32..16 {
        let mut mask = 0;
        for (bit, flag) in [
            PartsMask::SOUND,
            PartsMask::SCENE,
            PartsMask::SKY,
            PartsMask::REGION_MISC,
        ]
        .into_iter()
        .enumerate()
        {
            if combo & (1 << bit) != 0 {
                mask |= flag;
            }
        }
        let r = region(mask);
        let bytes = round_trip(&r);
        assert_eq!(Region::from_bytes(&bytes).unwrap().parts_mask.bits(), mask);
        // Unnamed bits are kept and ignored.
        let r2 = region(mask | 0x0000_0104);
        let b2 = round_trip(&r2);
        assert_eq!(b2.len(), bytes.len());
    }
}

#[test]
fn region_layout_matches_spec_offsets() {
    let r = region(0);
    let b = r.to_bytes().unwrap();
    assert_eq!(&b[0..4], &0x1300_0000u32.to_le_bytes());
    assert_eq!(&b[4..8], &1u32.to_le_bytes());
    assert_eq!(&b[8..12], &3u32.to_le_bytes());
    // "Dereth": u16 6 + 6 bytes ends at 20, no pad.
    assert_eq!(&b[12..14], &6u16.to_le_bytes());
    assert_eq!(&b[14..20], b"Dereth");
    // LandDefs: 1056 bytes from 20.
    assert_eq!(&b[20..24], &255i32.to_le_bytes());
    assert_eq!(
        &b[20 + 32 + 4 * 255..20 + 32 + 4 * 256],
        &510.0f32.to_le_bytes()
    );
    // GameTime starts at 1076 with the f64 ZeroTimeOfYear (4-aligned only).
    assert_eq!(&b[1076..1084], &3600.5f64.to_le_bytes());
}

#[test]
fn region_part_order_is_sky_sound_scene_terrain_misc() {
    let with = full_region();
    let without_sky = Region {
        parts_mask: PartsMask(with.parts_mask.bits() & !PartsMask::SKY),
        sky_info: None,
        ..with.clone()
    };
    let a = with.to_bytes().unwrap();
    let b = without_sky.to_bytes().unwrap();
    // Hand-computed: name ends at 20, LandDefs to 1076, GameTime to 1204, mask at 1204..1208.
    assert_eq!(&a[1204..1208], &0x213u32.to_le_bytes());
    assert_eq!(&b[1204..1208], &0x203u32.to_le_bytes());
    let sky_len = a.len() - b.len();
    // The sky sits right after the mask, then the rest is identical.
    assert_eq!(&a[1208..1216], &1.5f64.to_le_bytes());
    assert_eq!(a[1208 + sky_len..], b[1208..]);
    // Sound follows the sky: 5 STB descs, the first id 0x20000100.
    let s = 1208 + sky_len;
    assert_eq!(&a[s..s + 4], &5u32.to_le_bytes());
    assert_eq!(&a[s + 4..s + 8], &0x2000_0100u32.to_le_bytes());
    // RegionMisc is last.
    assert_eq!(&a[a.len() - 24..a.len() - 20], &1u32.to_le_bytes());
    assert_eq!(&a[a.len() - 4..], &0x0100_1612u32.to_le_bytes());
}

#[test]
fn region_name_lengths_0_to_7_align_to_4() {
    for n in 0..8usize {
        let name = "abcdefg"[..n].to_string();
        let r = Region {
            region_name: pstr(&name),
            ..region(0)
        };
        let b = round_trip(&r);
        // name at offset 12: u16 + n bytes + pad to 4.
        let end = 12 + 2 + n;
        let padded = end.div_ceil(4) * 4;
        assert_eq!(&b[12..14], &(n as u16).to_le_bytes());
        assert_eq!(&b[14..end], name.as_bytes());
        assert!(b[end..padded].iter().all(|&x| x == 0));
        // LandDefs follows right after the pad.
        assert_eq!(&b[padded..padded + 4], &255i32.to_le_bytes());
    }
}

#[test]
fn pad_bytes_read_are_kept_on_rewrite() {
    let r = Region {
        region_name: pstr("Abc"),
        ..region(0)
    };
    let mut b = r.to_bytes().unwrap();
    // "Abc" ends at 17 → 3 pad bytes at 17..20.
    b[17..20].copy_from_slice(&[0xCD, 0xAB, 0x01]);
    let back = Region::from_bytes(&b).unwrap();
    assert_eq!(back.region_name.pad, [0xCD, 0xAB, 0x01]);
    assert_eq!(back.region_name.to_string(), "Abc");
    assert_eq!(back.to_bytes().unwrap(), b);
}

#[test]
fn string_length_escape_0xffff() {
    // A long name needs the escape.
    let long = "x".repeat(70_000);
    let r = Region {
        region_name: pstr(&long),
        ..region(0x213)
    };
    let b = round_trip(&r);
    assert_eq!(&b[12..14], &[0xFF, 0xFF]);
    assert_eq!(&b[14..18], &70_000u32.to_le_bytes());
    // Exactly 0xFFFF bytes also needs the escape.
    let r = Region {
        region_name: PString::from_bytes(vec![b'y'; 0xFFFF]),
        ..region(0)
    };
    let b = round_trip(&r);
    assert_eq!(&b[12..18], &[0xFF, 0xFF, 0xFF, 0xFF, 0, 0]);
    // A short name written with the escape is kept that way.
    let mut name = pstr("Dereth");
    name.long_length = true;
    let r = Region {
        region_name: name,
        ..region(0)
    };
    let b = round_trip(&r);
    assert_eq!(&b[12..18], &[0xFF, 0xFF, 6, 0, 0, 0]);
    assert_eq!(&b[18..24], b"Dereth");
}

#[test]
fn region_with_empty_lists_round_trips() {
    let r = Region {
        id: 0x1300_0001,
        region_number: 0,
        version: 0,
        region_name: PString::default(),
        land_defs: LandDefs::default(),
        game_time: GameTime::default(),
        parts_mask: PartsMask(0x213),
        sky_info: Some(SkyDesc::default()),
        sound_info: Some(SoundDesc::default()),
        scene_info: Some(SceneDesc::default()),
        terrain_info: TerrainDesc::default(),
        region_misc: Some(RegionMisc::default()),
    };
    let b = round_trip(&r);
    // 12 + 4 (empty string) + 1056 + GameTime(8+4+4+4+4+12) + mask 4 + sky 20 + sound 4
    // + scene 4 + terrain (4 + 4 + 4*5) + misc 24
    assert_eq!(b.len(), 12 + 4 + 1056 + 36 + 4 + 20 + 4 + 4 + 28 + 24);
}

#[test]
fn region_exact_consumption_and_corruption() {
    let r = full_region();
    let b = round_trip(&r);
    trailing_byte_fails::<Region>(&b);
    truncations_all_fail::<Region>(&b);
    max_dwords::<Region>(&b);
    random_flips::<Region>(&b, 0x5EED_0001, 3000);
}

#[test]
fn region_count_of_0xffffffff_fails_fast() {
    let r = region(0);
    let mut b = r.to_bytes().unwrap();
    // GameTime: 1076 f64, 1084 zero_year, 1088 day_length, 1092 days_per_year, 1096 "P.Y."
    // (2+4 → pad to 1104), 1104 = TimesOfDay count.
    assert_eq!(&b[1104..1108], &2u32.to_le_bytes());
    b[1104..1108].copy_from_slice(&[0xFF; 4]);
    let err = Region::from_bytes(&b).unwrap_err();
    let count = count_error(&err).expect("a count error");
    assert_eq!(count.count, 0xFFFF_FFFF);
    assert_eq!(err.record(), "Region");
    assert_eq!(err.id(), Some(0x1300_0000));
    assert!(err.offset() >= 1108, "offset {}", err.offset());
    let text = err.to_string();
    assert!(text.contains("Region 0x13000000"), "{text}");
    // the cause is in the message, not behind it as well
    assert!(std::error::Error::source(&err).is_none());
    assert!(text.contains("count 4294967295 needs"), "{text}");
    assert!(text.contains("in field game_time.times_of_day"), "{text}");
}

/// A retail Region entry carries up to 16 zero bytes after RegionMisc (issue 17).
#[test]
fn region_with_16_trailing_zero_bytes_parses_and_round_trips() {
    let r = full_region();
    let mut b = r.to_bytes().unwrap();
    let len = b.len();
    b.extend_from_slice(&[0; 16]);
    assert_eq!(Region::from_bytes(&b).unwrap(), r);
    let padded = Region::from_bytes_padded(&b).unwrap();
    assert_eq!(padded.record, r);
    assert_eq!(padded.padding, 16);
    assert_eq!(padded.to_bytes().unwrap(), b);
    // one non-zero byte among them is a typed error naming where it is
    b[len + 9] = 0x01;
    let err = Region::from_bytes(&b).unwrap_err();
    assert_eq!(
        err,
        ReadRecordError::TrailingBytes {
            record: "Region",
            id: Some(0x1300_0000),
            offset: len as u64,
            remaining: 16,
            nonzero_at: len as u64 + 9,
        }
    );
    assert_eq!(
        err.to_string(),
        format!(
            "Region 0x13000000: 16 trailing bytes after byte {len}, not all zero (first non-zero \
             at byte {})",
            len + 9
        )
    );
}

/// Errors are one plain line: binrw's backtrace art, colours and source paths never show.
#[test]
fn record_errors_are_plain_text() {
    let r = full_region();
    let b = r.to_bytes().unwrap();
    let mut texts = Vec::new();
    for cut in (0..b.len()).step_by(7) {
        texts.push(Region::from_bytes(&b[..cut]).unwrap_err().to_string());
    }
    let mut bad = r.clone();
    bad.sky_info = None;
    texts.push(bad.to_bytes().unwrap_err().to_string());
    for text in &texts {
        assert!(!text.contains('\u{1b}'), "{text:?}");
        assert!(!text.contains(".rs:"), "{text:?}");
        assert!(!text.contains("Backtrace"), "{text:?}");
        assert!(!text.contains('\n'), "{text:?}");
    }
    let truncated = Region::from_bytes(&b[..20]).unwrap_err().to_string();
    assert_eq!(
        truncated,
        "Region 0x13000000: at byte 20 in field land_defs.num_block_length: expected more bytes, \
         the data ends (truncated)"
    );
    assert!(
        texts
            .last()
            .unwrap()
            .contains("sky_info disagrees with parts_mask"),
        "{}",
        texts.last().unwrap()
    );
}

#[test]
fn record_errors_are_send_sync_static() {
    fn check<E: std::error::Error + Send + Sync + 'static>() {}
    check::<ReadRecordError>();
    check::<WriteRecordError>();
    let err = Region::from_bytes(&[1, 2]).unwrap_err();
    assert_eq!(err.id(), None);
    assert!(err.to_string().contains("id unknown"), "{err}");
}

#[test]
fn region_write_rejects_mask_disagreeing_with_parts() {
    let mut r = full_region();
    r.sky_info = None;
    match r.to_bytes() {
        Err(WriteRecordError::Unencodable { record, id, .. }) => {
            assert_eq!(record, "Region");
            assert_eq!(id, 0x1300_0000);
        }
        other => panic!("expected a write error, got {other:?}"),
    }
    assert_eq!(r.derived_parts_mask().bits(), 0x203);
    r.parts_mask = r.derived_parts_mask();
    round_trip(&r);
}

#[test]
fn region_retail_helpers() {
    let mut r = full_region();
    assert!(r.is_retail_version());
    r.version = 2;
    assert!(!r.is_retail_version());
    let mut defs = land_defs();
    defs.land_height_table[10] = 900.0;
    let t = defs.retail_height_table();
    assert_eq!(t[9], 18.0);
    assert!(t[10..].iter().all(|&h| h == 0.0));
    defs.land_height_table[10] = -1.0;
    assert!(defs.retail_height_table()[10..].iter().all(|&h| h == 0.0));
    defs.land_height_table[10] = 800.0;
    assert_eq!(defs.retail_height_table()[10], 800.0);
    assert_eq!(defs.retail_height_table()[255], 510.0);
}

#[test]
fn region_serializes_to_json_with_snake_case_names() {
    let v = serde_json::to_value(full_region()).unwrap();
    assert_eq!(v["region_name"], "Dereth");
    assert_eq!(v["parts_mask"], 0x213);
    assert_eq!(
        v["land_defs"]["land_height_table"]
            .as_array()
            .unwrap()
            .len(),
        256
    );
    assert_eq!(
        v["sound_info"]["stb_desc"][1]["ambient_sounds"][0]["s_type"],
        "Ambient1"
    );
    assert_eq!(v["game_time"]["times_of_day"][0]["is_night"], true);
    assert_eq!(v["terrain_info"]["land_surfaces"]["type"], 0);
    assert_eq!(
        v["terrain_info"]["land_surfaces"]["tex_merge"]["terrain_desc"][1]["terrain_type"],
        "Grassland"
    );
}

#[test]
fn json_names_follow_drw_property_names() {
    let v = serde_json::to_value(full_region()).unwrap();
    let season = &v["game_time"]["seasons"][0];
    // DRW's `Season.Start`, not the Rust field name `start_date`
    assert!(season["start"].is_number(), "{season}");
    assert!(season.get("start_date").is_none(), "{season}");
    let block = serde_json::to_value(LandBlock::default()).unwrap();
    // the pad byte is not a DRW property
    assert!(block.get("pad").is_none(), "{block}");
    assert!(block["has_objects"].is_number());
}

// ---------------------------------------------------------------------------------------------
// SoundTable

#[test]
fn sound_table_round_trips_with_multi_entry_sound_data() {
    let t = sound_table();
    let b = round_trip(&t);
    // id, hash_key, 1 hash (16), count, ShieldUp(4+4+16+4), Swoosh2(4+4+48+4), 2 × empty(12)
    assert_eq!(b.len(), 4 + 4 + 4 + 16 + 4 + 28 + 60 + 24);
    let back = SoundTable::from_bytes(&b).unwrap();
    let swoosh = back.sound(Sound::Swoosh2).unwrap();
    assert_eq!(swoosh.entries.len(), 3);
    assert_eq!(swoosh.entries[0].id, 0x0A00_0519);
    assert_eq!(swoosh.entries[2].id, 0x0A00_051E);
    assert_eq!(
        back.sound(Sound::ShieldUp).unwrap().entries[0].priority,
        0.7
    );
    assert!(back.sound(Sound::Unknown(0x1234)).is_some());
    assert!(back.sound(Sound::Ambient2).is_none());
}

#[test]
fn sound_table_empty_round_trips() {
    let t = SoundTable {
        id: 0x2000_0002,
        ..SoundTable::default()
    };
    assert_eq!(round_trip(&t).len(), 16);
}

#[test]
fn sound_table_nested_child_nodes_are_a_typed_error() {
    let t = sound_table();
    let mut b = t.to_bytes().unwrap();
    // ShieldUp's unknown sits at 32 + 4 + 4 + 16 = 56.
    assert_eq!(&b[56..60], &0i32.to_le_bytes());
    b[56..60].copy_from_slice(&2i32.to_le_bytes());
    match SoundTable::from_bytes(&b) {
        Err(ReadRecordError::NestedSoundNodes {
            sound,
            child_count,
            offset,
            id,
            ..
        }) => {
            assert_eq!(sound, Sound::ShieldUp);
            assert_eq!(child_count, 2);
            assert_eq!(offset, 56);
            assert_eq!(id, Some(0x2000_0001));
        }
        other => panic!("expected NestedSoundNodes, got {other:?}"),
    }
    // Writing a non-zero child count is refused as well.
    let mut t = sound_table();
    t.sounds[0].1.unknown = 1;
    assert!(t.to_bytes().is_err());
}

#[test]
fn sound_table_exact_consumption_and_corruption() {
    let b = round_trip(&sound_table());
    trailing_byte_fails::<SoundTable>(&b);
    truncations_all_fail::<SoundTable>(&b);
    max_dwords::<SoundTable>(&b);
    random_flips::<SoundTable>(&b, 0x5EED_0002, 3000);
    for at in [8usize, 28, 36] {
        let mut c = b.clone();
        c[at..at + 4].copy_from_slice(&[0xFF; 4]);
        let err = SoundTable::from_bytes(&c).unwrap_err();
        assert_eq!(
            count_error(&err).unwrap().count,
            0xFFFF_FFFF,
            "count at {at}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Wave

#[test]
fn wave_round_trips_and_layout() {
    let w = wave_pcm16();
    let b = round_trip(&w);
    assert_eq!(&b[4..8], &18i32.to_le_bytes());
    assert_eq!(&b[8..12], &12i32.to_le_bytes());
    assert_eq!(b.len(), 12 + 18 + 12);
    let empty = Wave {
        id: 0x0A00_0001,
        header: vec![],
        data: vec![],
    };
    assert_eq!(round_trip(&empty).len(), 12);
    let drw = Wave {
        id: 0x0A00_0001,
        header: vec![4, 3, 2, 1],
        data: (1..=7).collect(),
    };
    round_trip(&drw);
}

#[test]
fn wave_exact_consumption_and_corruption() {
    let b = round_trip(&wave_pcm16());
    trailing_byte_fails::<Wave>(&b);
    truncations_all_fail::<Wave>(&b);
    max_dwords::<Wave>(&b);
    random_flips::<Wave>(&b, 0x5EED_0003, 2000);
    for size in [0x7FFF_FFFFi32, -1, i32::MIN] {
        for at in [4usize, 8] {
            let mut c = b.clone();
            c[at..at + 4].copy_from_slice(&size.to_le_bytes());
            assert!(Wave::from_bytes(&c).is_err());
        }
    }
}

#[test]
fn wave_exports_playable_pcm16_wav() {
    let w = wave_pcm16();
    let wav = w.to_wav_bytes();
    let mut reader = hound::WavReader::new(std::io::Cursor::new(wav)).unwrap();
    let spec = reader.spec();
    assert_eq!(spec.channels, 2);
    assert_eq!(spec.sample_rate, 22050);
    assert_eq!(spec.bits_per_sample, 16);
    assert_eq!(spec.sample_format, hound::SampleFormat::Int);
    let read: Vec<i16> = reader.samples::<i16>().map(Result::unwrap).collect();
    assert_eq!(read, vec![0, 1000, -1000, i16::MAX, i16::MIN, 12345]);
    let f = w.decode_pcm_f32().unwrap();
    let expect: Vec<f32> = read.iter().map(|&s| f32::from(s) / 32768.0).collect();
    assert_eq!(f, expect);
    assert_eq!(f[4], -1.0);
}

#[test]
fn wave_exports_8bit_mono_with_odd_length_pad() {
    let w = Wave {
        id: 0x0A00_0003,
        header: pcm_header(1, 1, 11025, 8, &[]),
        data: vec![0, 64, 128, 192, 255],
    };
    let wav = w.to_wav_bytes();
    // RIFF check by hand: sizes and the pad byte.
    assert_eq!(&wav[0..4], b"RIFF");
    assert_eq!(
        u32::from_le_bytes(wav[4..8].try_into().unwrap()) as usize,
        wav.len() - 8
    );
    assert_eq!(&wav[8..16], b"WAVEfmt ");
    assert_eq!(u32::from_le_bytes(wav[16..20].try_into().unwrap()), 18);
    assert_eq!(&wav[20..38], &w.header[..]);
    assert_eq!(&wav[38..42], b"data");
    assert_eq!(u32::from_le_bytes(wav[42..46].try_into().unwrap()), 5);
    assert_eq!(&wav[46..51], &w.data[..]);
    assert_eq!(wav[51], 0);
    assert_eq!(wav.len(), 52);
    let mut reader = hound::WavReader::new(std::io::Cursor::new(wav)).unwrap();
    assert_eq!(reader.spec().bits_per_sample, 8);
    let read: Vec<i8> = reader.samples::<i8>().map(Result::unwrap).collect();
    assert_eq!(read, vec![-128, -64, 0, 64, 127]);
    let f = w.decode_pcm_f32().unwrap();
    assert_eq!(f, vec![-1.0, -0.5, 0.0, 0.5, 127.0 / 128.0]);
}

#[test]
fn wave_export_counts_the_fmt_pad_byte_in_the_riff_size() {
    // a 19-byte header (cbSize 1) needs a pad byte after the fmt chunk
    let w = Wave {
        id: 0x0A00_0004,
        header: pcm_header(1, 1, 11025, 8, &[7]),
        data: vec![1, 2],
    };
    assert_eq!(w.header.len(), 19);
    let wav = w.to_wav_bytes();
    assert_eq!(
        u32::from_le_bytes(wav[4..8].try_into().unwrap()) as usize,
        wav.len() - 8
    );
    assert_eq!(wav[39], 0);
    assert_eq!(&wav[40..44], b"data");
}

#[test]
fn wave_mp3_bytes_and_wav_wrapper() {
    let extra = [1u8, 0, 2, 0, 0, 0, 0x80, 1, 1, 0, 0x71, 5];
    let w = Wave {
        id: 0x0A00_0393,
        header: pcm_header(0x55, 1, 22050, 0, &extra),
        data: vec![0xFF, 0xFB, 0x90, 0x64, 0x00, 0x11, 0x22],
    };
    assert_eq!(w.header.len(), 30);
    assert_eq!(w.format_tag(), Some(0x55));
    assert_eq!(w.mp3_bytes(), Some(&w.data[..]));
    assert!(w.decode_pcm_f32().is_err());
    round_trip(&w);
    let wav = w.to_wav_bytes();
    assert_eq!(u32::from_le_bytes(wav[16..20].try_into().unwrap()), 30);
    assert_eq!(&wav[20..50], &w.header[..]);
    assert_eq!(&wav[50..54], b"data");
    assert_eq!(wav.len(), 4 + 4 + 4 + 8 + 30 + 8 + 7 + 1);
    assert_eq!(wave_pcm16().mp3_bytes(), None);
}

#[test]
fn wave_decode_errors_are_typed() {
    let short = Wave {
        id: 1,
        header: vec![1, 0],
        data: vec![],
    };
    assert!(short.decode_pcm_f32().is_err());
    assert_eq!(short.sample_rate(), None);
    let bits24 = Wave {
        id: 1,
        header: pcm_header(1, 1, 8000, 24, &[]),
        data: vec![0; 6],
    };
    assert!(bits24.decode_pcm_f32().is_err());
    let zero_ch = Wave {
        id: 1,
        header: pcm_header(1, 0, 8000, 16, &[]),
        data: vec![0; 6],
    };
    assert!(zero_ch.decode_pcm_f32().is_err());
}

// ---------------------------------------------------------------------------------------------
// LandBlock

#[test]
fn land_block_round_trips_and_keeps_pad() {
    let mut lb = land_block();
    lb.pad = 0xAB;
    lb.has_objects = 7;
    let b = round_trip(&lb);
    assert_eq!(b.len(), LandBlock::SIZE);
    assert_eq!(b[251], 0xAB);
    assert_eq!(&b[4..8], &7u32.to_le_bytes());
    assert_eq!(&b[8..10], &lb.terrain[0].to_le_bytes());
    assert_eq!(b[170], lb.height[0]);
    assert!(LandBlock::from_bytes(&b).unwrap().has_objects());
}

#[test]
fn land_block_terrain_word_accessors() {
    let mut lb = land_block();
    // EoR 0x9AB1FFFF facts: Terrain[0] = road 0, SedimentaryRock, scenery 9.
    lb.terrain[0] = 9 << 11 | 0x0D << 2;
    lb.terrain[1] = 13 << 11 | 0x09 << 2 | 2;
    lb.terrain[80] = 0xFFFF;
    let w = lb.terrain_word(0, 0);
    assert_eq!(w.road(), 0);
    assert_eq!(w.terrain_type(), TerrainTextureType::SedimentaryRock);
    assert_eq!(w.scenery(), 9);
    let w = lb.terrain_word(0, 1);
    assert_eq!(w.road(), 2);
    assert_eq!(w.terrain_type(), TerrainTextureType::PatchyGrassland);
    assert_eq!(w.scenery(), 13);
    let w = lb.terrain_word(8, 8);
    assert_eq!(
        (w.road(), w.terrain_type(), w.scenery()),
        (3, TerrainTextureType::DesolateLands, 31)
    );
    assert_eq!(lb.terrain_word(20, 30), w);
    assert_eq!(lb.get_terrain_word(9, 0), None);
    assert_eq!(lb.height_at(1, 0), Some(lb.height[9]));
    assert_eq!(lb.block_x(), 0x9A);
    assert_eq!(lb.block_y(), 0xB1);
    assert_eq!(TerrainWord::new(2, 0x0D, 9).0, 9 << 11 | 0x0D << 2 | 2);
}

#[test]
fn land_block_exact_consumption_and_corruption() {
    let b = round_trip(&land_block());
    trailing_byte_fails::<LandBlock>(&b);
    truncations_all_fail::<LandBlock>(&b);
    // A LandBlock has no counts: every byte pattern of the right length is valid.
    let mut rng = Rng(0x5EED_0004);
    for _ in 0..500 {
        let bytes: Vec<u8> = (0..252).map(|_| rng.next() as u8).collect();
        assert!(parse_is_exact_or_err::<LandBlock>(&bytes));
    }
}

// ---------------------------------------------------------------------------------------------
// LandBlockInfo

#[test]
fn land_block_info_round_trips_with_align4_portals() {
    let info = land_block_info();
    let b = round_trip(&info);
    // 12 + 32 (stab) + 4 + building (40 + portal 8+10+2 pad + portal 8) + table 4 + 8
    assert_eq!(b.len(), 12 + 32 + 4 + 40 + 20 + 8 + 4 + 8);
    let no_table = LandBlockInfo {
        pack_mask: 0,
        restriction_table: None,
        ..info.clone()
    };
    round_trip(&no_table);
    let empty = LandBlockInfo {
        id: 0x5262_FFFE,
        num_cells: 74,
        ..LandBlockInfo::default()
    };
    assert_eq!(round_trip(&empty).len(), 16);
    // Stab list lengths 0..=5 → every alignment, pad bytes kept.
    for n in 0..6u16 {
        let mut i = info.clone();
        i.buildings[0].portals[0].stab_list = (0..n).collect();
        i.buildings[0].portals[0].pad = [0x11, 0x22, 0x33];
        let b = i.to_bytes().unwrap();
        let back = LandBlockInfo::from_bytes(&b).unwrap();
        assert_eq!(back.to_bytes().unwrap(), b);
        let expect_pad = if n % 2 == 1 { [0x11, 0x22, 0] } else { [0; 3] };
        assert_eq!(back.buildings[0].portals[0].pad, expect_pad, "n = {n}");
    }
}

#[test]
fn land_block_info_exact_consumption_and_corruption() {
    let b = round_trip(&land_block_info());
    trailing_byte_fails::<LandBlockInfo>(&b);
    truncations_all_fail::<LandBlockInfo>(&b);
    max_dwords::<LandBlockInfo>(&b);
    random_flips::<LandBlockInfo>(&b, 0x5EED_0005, 3000);
    let mut c = b.clone();
    c[8..12].copy_from_slice(&[0xFF; 4]);
    assert_eq!(
        count_error(&LandBlockInfo::from_bytes(&c).unwrap_err())
            .unwrap()
            .count,
        0xFFFF_FFFF
    );
    let mut info = land_block_info();
    info.pack_mask = 0;
    assert!(info.to_bytes().is_err());
}

// ---------------------------------------------------------------------------------------------
// Enums

#[test]
fn sound_enum_covers_0_to_0xcc_and_keeps_unknown() {
    assert_eq!(Sound::ALL.len(), 0xCD);
    for (i, s) in Sound::ALL.iter().enumerate() {
        assert_eq!(s.to_u32(), i as u32);
        assert_eq!(Sound::from_u32(i as u32), *s);
        assert!(s.name().is_some());
    }
    assert_eq!(Sound::from_u32(0x46), Sound::Ambient1);
    assert_eq!(Sound::from_u32(0x4D), Sound::Ambient8);
    assert_eq!(Sound::from_u32(0x6A).name(), Some("UI_EnterPortal"));
    assert_eq!(Sound::from_u32(0xCC), Sound::SkillDownVoid);
    assert_eq!(Sound::from_u32(0xC9), Sound::TriggerActivated50);
    assert_eq!(Sound::from_u32(0xCD), Sound::Unknown(0xCD));
    assert_eq!(Sound::Unknown(0xCD).to_u32(), 0xCD);
    assert!(Sound::Ambient3.is_ambient());
    assert!(!Sound::Waterfall.is_ambient());
    assert_eq!(serde_json::to_value(Sound::Unknown(999)).unwrap(), 999);
}

#[test]
fn terrain_texture_type_keeps_unknown() {
    assert_eq!(
        TerrainTextureType::from_i32(0x20),
        TerrainTextureType::RoadType
    );
    assert_eq!(
        TerrainTextureType::from_i32(-5),
        TerrainTextureType::Unknown(-5)
    );
    assert_eq!(TerrainTextureType::Unknown(-5).to_i32(), -5);
    for i in 0..=0x20 {
        assert_eq!(TerrainTextureType::from_i32(i).to_i32(), i);
    }
}

// ---------------------------------------------------------------------------------------------
// Property tests

fn arb_f32() -> impl Strategy<Value = f32> {
    -1.0e6f32..1.0e6
}

fn arb_sound_entry() -> impl Strategy<Value = SoundEntry> {
    (any::<u32>(), arb_f32(), arb_f32(), arb_f32()).prop_map(
        |(id, priority, probability, volume)| SoundEntry {
            id,
            priority,
            probability,
            volume,
        },
    )
}

fn arb_sound_table() -> impl Strategy<Value = SoundTable> {
    (
        any::<u32>(),
        any::<i32>(),
        prop::collection::vec(
            (any::<u32>(), arb_f32(), arb_f32(), arb_f32()).prop_map(
                |(key, priority, probability, volume)| SoundHashEntry {
                    key,
                    priority,
                    probability,
                    volume,
                },
            ),
            0..4,
        ),
        prop::collection::vec(
            (any::<u32>(), prop::collection::vec(arb_sound_entry(), 0..5)),
            0..8,
        ),
    )
        .prop_map(|(id, hash_key, hashes, sounds)| SoundTable {
            id,
            hash_key,
            hashes,
            sounds: sounds
                .into_iter()
                .map(|(k, entries)| {
                    (
                        Sound::from_u32(k),
                        SoundData {
                            entries,
                            unknown: 0,
                        },
                    )
                })
                .collect(),
        })
}

fn arb_land_block() -> impl Strategy<Value = LandBlock> {
    (
        any::<u32>(),
        any::<u32>(),
        prop::collection::vec(any::<u16>(), 81),
        prop::collection::vec(any::<u8>(), 81),
        any::<u8>(),
    )
        .prop_map(|(id, has_objects, t, h, pad)| LandBlock {
            id,
            has_objects,
            terrain: t.try_into().unwrap(),
            height: h.try_into().unwrap(),
            pad,
        })
}

fn arb_pstring() -> impl Strategy<Value = PString> {
    (prop::collection::vec(any::<u8>(), 0..12), any::<bool>()).prop_map(|(bytes, long_length)| {
        PString {
            bytes,
            long_length,
            pad: [0; 3],
        }
    })
}

fn arb_region() -> impl Strategy<Value = Region> {
    (
        any::<u32>(),
        arb_pstring(),
        prop::collection::vec(arb_pstring(), 0..4),
        prop::collection::vec(
            (
                arb_pstring(),
                any::<u32>(),
                prop::collection::vec(any::<u32>(), 0..4),
            ),
            0..6,
        ),
        any::<u32>(),
    )
        .prop_map(|(id, name, days, types, mask)| {
            let mut r = region(mask & 0x213);
            r.id = id;
            r.region_name = name;
            r.game_time.days_of_week = days;
            r.terrain_info.terrain_types = types
                .into_iter()
                .map(|(terrain_name, c, scene_types)| TerrainType {
                    terrain_name,
                    terrain_color: ColorArgb::from_u32(c),
                    scene_types,
                })
                .collect();
            r
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn prop_sound_table_round_trips(t in arb_sound_table()) {
        let b = t.to_bytes().unwrap();
        let back = SoundTable::from_bytes(&b).unwrap();
        prop_assert_eq!(&back, &t);
        prop_assert_eq!(back.to_bytes().unwrap(), b);
    }

    #[test]
    fn prop_land_block_round_trips(lb in arb_land_block()) {
        let b = lb.to_bytes().unwrap();
        prop_assert_eq!(b.len(), 252);
        let back = LandBlock::from_bytes(&b).unwrap();
        prop_assert_eq!(&back, &lb);
        prop_assert_eq!(back.to_bytes().unwrap(), b);
    }

    #[test]
    fn prop_region_round_trips(r in arb_region()) {
        let b = r.to_bytes().unwrap();
        let back = Region::from_bytes(&b).unwrap();
        prop_assert_eq!(&back, &r);
        prop_assert_eq!(back.to_bytes().unwrap(), b);
    }

    #[test]
    fn prop_arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        parse_is_exact_or_err::<Region>(&bytes);
        parse_is_exact_or_err::<SoundTable>(&bytes);
        parse_is_exact_or_err::<Wave>(&bytes);
        parse_is_exact_or_err::<LandBlock>(&bytes);
        parse_is_exact_or_err::<LandBlockInfo>(&bytes);
    }
}
