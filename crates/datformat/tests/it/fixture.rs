//! Integration tests: the fixture world (determinism, completeness, round trips, corruption
//! robustness with an allocation bound) and, when `RESOUND_DAT_DIR` names a folder of
//! end-of-retail dats, the retail facts of spec §4.
//!
//! The corruption routines live in `fixture/corrupt.rs`. Here they check that nothing panics;
//! the dedicated binary `tests/fixture_alloc.rs` runs the same routines under a counting global
//! allocator and also requires that no single allocation exceeds the damaged file's length.

#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a failed unwrap is a failed test"
)]

use std::io::Cursor;

use resound_datformat::container::{DatKind, DatReader, Iteration};
use resound_datformat::fixture::{
    self, CENTER_LANDBLOCK, INFO_BLOCKS, MISSING_STB_ID, REGION_ID, WAVES,
};
use resound_datformat::record::{
    LandBlock, LandBlockInfo, Record, Region, SceneType, Sound, SoundTable, Wave,
};

mod corrupt;

use corrupt::{no_probe, round_trip, world};

fn reader(bytes: &[u8]) -> DatReader<Cursor<&[u8]>> {
    DatReader::new(Cursor::new(bytes)).unwrap()
}

fn read<T: Record>(bytes: &[u8], id: u32) -> T {
    let payload = reader(bytes)
        .read(id)
        .unwrap()
        .unwrap_or_else(|| panic!("{id:#010x} missing"));
    T::from_bytes(&payload).unwrap()
}

#[test]
fn fixture_bytes_are_identical_on_two_runs() {
    let a = fixture::write_world();
    let b = fixture::write_world();
    let (pa, pb) = (
        fixture::fingerprint(&a.portal),
        fixture::fingerprint(&b.portal),
    );
    let (ca, cb) = (fixture::fingerprint(&a.cell), fixture::fingerprint(&b.cell));
    assert_eq!(
        (pa, ca),
        (pb, cb),
        "portal {pa:016x} vs {pb:016x}, cell {ca:016x} vs {cb:016x}"
    );
    assert!(a == b, "fingerprints agree but bytes differ");
    assert_eq!(&a, world());
}

#[test]
fn synthesized_pcm_is_pinned() {
    // The samples use only IEEE basic operations, so they are the same on every platform.
    // If a sound design changes on purpose, update the value printed by this failure.
    let mut all = Vec::new();
    for spec in &WAVES {
        all.extend_from_slice(&fixture::wave(spec, 1.0).data);
    }
    let got = fixture::fingerprint(&all);
    println!("PCM fingerprint {got:#018x}");
    assert_eq!(got, PCM_FINGERPRINT, "PCM fingerprint {got:#018x}");
}

/// FNV-1a-64 of the concatenated PCM data of every fixture Wave.
const PCM_FINGERPRINT: u64 = 0x5092_fa8a_a367_5719;

#[test]
fn every_fixture_entry_parses_and_round_trips() {
    for (name, bytes, kind, expected) in [
        (
            "portal",
            &world().portal,
            DatKind::Portal,
            1 + 1 + 8 + WAVES.len(),
        ),
        (
            "cell",
            &world().cell,
            DatKind::Cell,
            1 + 25 + INFO_BLOCKS.len(),
        ),
    ] {
        let mut r = reader(bytes);
        assert_eq!(r.header().dat_type, kind, "{name}");
        let entries = r.entries().unwrap();
        assert_eq!(entries.len(), expected, "{name} entry count");
        for e in &entries {
            let payload = r.read_entry(e).unwrap();
            assert_eq!(payload.len(), e.size as usize);
            match round_trip(kind, e.id, &payload) {
                Some(Ok(true)) => {}
                other => panic!("{name} {:#010x}: {other:?}", e.id),
            }
        }
        assert_eq!(r.iteration().unwrap(), Some(Iteration::new(1)), "{name}");
    }
}

#[test]
fn region_has_the_required_parts_and_counts() {
    let region: Region = read(&world().portal, REGION_ID);
    assert_eq!(region.version, 3);
    assert_eq!(region.region_name.to_string(), "Fixture");
    let sound = region.sound_info.as_ref().unwrap();
    let scene = region.scene_info.as_ref().unwrap();
    let sky = region.sky_info.as_ref().unwrap();
    assert!(region.region_misc.is_some());
    assert!(sky.day_groups.len() >= 2);
    assert!(sound.stb_desc.len() >= 8);
    let ambient: Vec<_> = sound
        .stb_desc
        .iter()
        .flat_map(|d| &d.ambient_sounds)
        .collect();
    assert!(ambient.len() >= 16);
    assert!(ambient.iter().all(|a| a.s_type.is_ambient()));
    assert!(ambient.iter().any(|a| a.is_continuous()));
    assert!(ambient.iter().any(|a| !a.is_continuous()));
    for a in &ambient {
        assert!((0.0..=1.0).contains(&a.volume) && a.volume > 0.0, "{a:?}");
        assert!(a.min_rate > 0.0, "{a:?}");
        if !a.is_continuous() {
            assert!(a.max_rate >= a.min_rate && a.base_chance <= 1.0, "{a:?}");
        }
    }
    let slots: std::collections::BTreeSet<u32> =
        ambient.iter().map(|a| a.s_type.to_u32()).collect();
    assert_eq!(slots.len(), 8, "Ambient1..8 all used");
    assert!(
        scene
            .scene_types
            .iter()
            .any(|s| s.stb_index == SceneType::NO_STB)
    );
    assert!(
        scene
            .scene_types
            .iter()
            .any(|s| s.stb_index != SceneType::NO_STB)
    );
    for s in &scene.scene_types {
        assert!(s.stb_index == SceneType::NO_STB || (s.stb_index as usize) < sound.stb_desc.len());
    }
    let terrain = &region.terrain_info.terrain_types;
    assert_eq!(terrain.len(), 32);
    for t in terrain {
        assert!(!t.scene_types.is_empty(), "{}", t.terrain_name);
        for &i in &t.scene_types {
            assert!(i == SceneType::NO_STB || (i as usize) < scene.scene_types.len());
        }
    }
    assert_eq!(
        region
            .terrain_info
            .land_surfaces
            .tex_merge
            .terrain_desc
            .len(),
        32
    );
    let h = &region.land_defs.land_height_table;
    assert_eq!(
        (h[200], h[240], h[250], h[254], h[255]),
        (400.0, 560.0, 640.0, 680.0, 700.0)
    );
}

#[test]
fn named_sound_tables_exist_except_the_missing_one() {
    let region: Region = read(&world().portal, REGION_ID);
    let mut r = reader(&world().portal);
    let mut missing = 0;
    for desc in &region.sound_info.unwrap().stb_desc {
        let Some(payload) = r.read(desc.stb_id).unwrap() else {
            assert_eq!(desc.stb_id, MISSING_STB_ID);
            missing += 1;
            continue;
        };
        let table = SoundTable::from_bytes(&payload).unwrap();
        for a in &desc.ambient_sounds {
            let data = table
                .sound(a.s_type)
                .unwrap_or_else(|| panic!("{:?}", a.s_type));
            assert!((1..=3).contains(&data.entries.len()));
            for e in &data.entries {
                let wave = Wave::from_bytes(&r.read(e.id).unwrap().unwrap()).unwrap();
                assert_eq!(wave.header.len(), 18);
                assert_eq!((wave.format_tag(), wave.channels()), (Some(1), Some(1)));
                let rate = wave.sample_rate().unwrap();
                let bits = wave.bits_per_sample().unwrap();
                assert!([11_025, 22_050, 44_100].contains(&rate) && [8, 16].contains(&bits));
                let seconds = wave.data.len() as f64 / f64::from(rate * u32::from(bits) / 8);
                assert!(
                    (1.0..=6.0).contains(&seconds),
                    "{:#010x}: {seconds} s",
                    e.id
                );
                let pcm = wave.decode_pcm_f32().unwrap();
                assert!(
                    pcm.iter().any(|s| s.abs() > 0.5),
                    "{:#010x} is silent",
                    e.id
                );
            }
        }
    }
    assert_eq!(missing, 1);
    assert_eq!(r.read(MISSING_STB_ID).unwrap(), None);
    assert!(r.entry(MISSING_STB_ID).unwrap().is_none());
    // Both sample formats and all three rates occur.
    for (rate, bits) in [(11_025, 8), (22_050, 16), (44_100, 16), (11_025, 16)] {
        assert!(
            WAVES
                .iter()
                .any(|w| w.sample_rate == rate && w.bits_per_sample == bits)
        );
    }
    assert!(Sound::Ambient1.is_ambient());
}

#[test]
fn the_five_by_five_landblocks_exist_and_decode() {
    let mut types = std::collections::BTreeSet::new();
    let (mut roads, mut sceneries, mut lo, mut hi) = (0, 0, u8::MAX, 0);
    let mut r = reader(&world().cell);
    for x in 0xA7u32..=0xAB {
        for y in 0xB2u32..=0xB6 {
            let id = x << 24 | y << 16 | 0xFFFF;
            let block = LandBlock::from_bytes(&r.read(id).unwrap().unwrap()).unwrap();
            assert_eq!(block.id, id);
            let has_info = INFO_BLOCKS.contains(&(x as u8, y as u8));
            assert_eq!(block.has_objects(), has_info, "{id:#010x}");
            let info = r.read(id - 1).unwrap();
            assert_eq!(info.is_some(), has_info, "{:#010x}", id - 1);
            if let Some(info) = info {
                assert_eq!(LandBlockInfo::from_bytes(&info).unwrap().id, id - 1);
            }
            for vx in 0..9 {
                for vy in 0..9 {
                    let w = block.terrain_word(vx, vy);
                    types.insert(w.terrain_type().to_i32());
                    roads += usize::from(w.road() != 0);
                    sceneries += usize::from(w.scenery() != 0);
                    let h = block.height[vx * 9 + vy];
                    (lo, hi) = (lo.min(h), hi.max(h));
                }
            }
        }
    }
    assert!(types.len() >= 10, "terrain types {types:?}");
    assert!(
        types.contains(&0x10) && types.contains(&0x11),
        "running and standing water"
    );
    assert!(
        roads > 20 && sceneries > 100,
        "roads {roads}, sceneries {sceneries}"
    );
    assert!(hi - lo > 100, "heights {lo}..{hi}");
    assert!(r.read(CENTER_LANDBLOCK).unwrap().is_some());
    assert!(r.read(0xA6B4_FFFF).unwrap().is_none());
}

#[test]
fn truncated_dats_never_panic() {
    corrupt::truncations(no_probe);
}

#[test]
fn random_byte_flips_never_panic() {
    corrupt::random_flips(no_probe);
}

#[test]
fn count_fields_set_to_all_ones_never_panic() {
    corrupt::all_ones(no_probe);
}

/// Real end-of-retail dats (spec §4.1, §4.2, §4.4), when `RESOUND_DAT_DIR` names their folder.
#[test]
fn retail_dats_match_the_spec_when_available() {
    let Some(dir) = std::env::var_os("RESOUND_DAT_DIR") else {
        eprintln!("skipped: RESOUND_DAT_DIR is not set (point it at end-of-retail client dats)");
        return;
    };
    let dir = std::path::PathBuf::from(dir);
    let open = |name: &str| {
        let file = std::fs::File::open(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        DatReader::new(std::io::BufReader::new(file)).unwrap()
    };
    let mut portal = open("client_portal.dat");
    let region = Region::from_bytes(&portal.read(REGION_ID).unwrap().unwrap()).unwrap();
    assert_eq!(region.region_name.to_string(), "Dereth");
    assert_eq!(region.region_number, 1);
    let misc = region.region_misc.unwrap();
    assert_eq!(
        (
            misc.version,
            misc.game_map_id,
            misc.autotest_map_id,
            misc.autotest_map_size,
            misc.clear_cell_id,
            misc.clear_monster_id
        ),
        (1, 0x0600_127D, 0x0600_0261, 4, 0x0100_0FDE, 0x0100_1612)
    );
    let h = &region.land_defs.land_height_table;
    assert_eq!(
        (h[100], h[200], h[240], h[250], h[254], h[255]),
        (200.0, 400.0, 560.0, 640.0, 680.0, 700.0)
    );
    let payload = portal.read(REGION_ID).unwrap().unwrap();
    assert_eq!(region.to_bytes().unwrap(), payload, "Region round trip");

    let payload = portal.read(0x2000_0001).unwrap().unwrap();
    let table = SoundTable::from_bytes(&payload).unwrap();
    assert_eq!(table.to_bytes().unwrap(), payload);
    assert_eq!(table.sounds.len(), 52);
    let entry = |t: &SoundTable, s: u32| {
        let e = &t.sound(Sound::from_u32(s)).unwrap().entries;
        (
            e.len(),
            e[0].id,
            e[0].priority,
            e[0].probability,
            e[0].volume,
        )
    };
    assert_eq!(
        entry(&table, 0x58),
        (1, 0x0A00_0262, 0.7, 1.0, 1.0),
        "ShieldUp"
    );
    assert_eq!(
        entry(&table, 0x5B),
        (1, 0x0A00_0274, 0.7, 1.0, 0.8),
        "EnchantDown"
    );
    let payload = portal.read(0x2000_00A8).unwrap().unwrap();
    let table = SoundTable::from_bytes(&payload).unwrap();
    assert_eq!(table.to_bytes().unwrap(), payload);
    assert_eq!(table.sounds.len(), 32);
    let swoosh = &table.sound(Sound::from_u32(0x1F)).unwrap().entries;
    assert_eq!(
        (swoosh.len(), swoosh[0].id, swoosh[1].id),
        (2, 0x0A00_0519, 0x0A00_051E)
    );
    let payload = portal.read(0x0A00_0002).unwrap().unwrap();
    let wave = Wave::from_bytes(&payload).unwrap();
    assert_eq!((wave.header.len(), wave.data.len()), (18, 7046));
    assert_eq!(wave.to_bytes().unwrap(), payload);

    let mut cell = open("client_cell_1.dat");
    let payload = cell.read(0x9AB1_FFFF).unwrap().unwrap();
    let block = LandBlock::from_bytes(&payload).unwrap();
    assert_eq!(block.to_bytes().unwrap(), payload);
    assert!(!block.has_objects());
    let word = |i: usize| {
        let w = block.terrain_word(i / 9, i % 9);
        (w.road(), w.terrain_type().to_i32(), w.scenery())
    };
    assert_eq!(word(0), (0, 0x0D, 9));
    assert_eq!(word(1), (0, 0x09, 13));
    assert_eq!(word(80), (0, 0x0D, 11));
    let h = &block.height;
    assert_eq!((h[0], h[1], h[40], h[79], h[80]), (120, 139, 93, 93, 110));

    let payload = cell.read(0x1455_FFFE).unwrap().unwrap();
    let info = LandBlockInfo::from_bytes(&payload).unwrap();
    assert_eq!(info.to_bytes().unwrap(), payload);
    assert_eq!((info.num_cells, info.buildings.len()), (5, 1));
    let b = &info.buildings[0];
    assert_eq!(
        (b.model_id, b.num_leaves, b.portals.len()),
        (0x0100_11A9, 127, 1)
    );
    let p = &b.portals[0];
    assert_eq!((p.flags, p.other_cell_id, p.other_portal_id), (3, 260, 1));
    assert_eq!(
        (p.stab_list.first(), p.stab_list.last()),
        (Some(&256), Some(&260))
    );
    assert!(info.restriction_table.is_none());
    let payload = cell.read(0x5262_FFFE).unwrap().unwrap();
    let info = LandBlockInfo::from_bytes(&payload).unwrap();
    assert_eq!(info.to_bytes().unwrap(), payload);
    assert_eq!(
        (info.num_cells, info.objects.len(), info.buildings.len()),
        (74, 0, 0)
    );
    let table = info.restriction_table.unwrap();
    assert_eq!(table.entries, vec![(0, 0x7526_200C)]);
}
