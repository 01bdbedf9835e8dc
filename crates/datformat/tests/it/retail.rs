//! Real end-of-retail client dats: the golden values DatReaderWriter's tests read from them
//! (issue 17) and the retail facts of spec §4. Ignored by default (the files are proprietary
//! and not in the repository); `cargo xtask test --retail-dats DIR` sets `RESOUND_DAT_DIR` and
//! runs this test alone with `--ignored`, so a missing folder is never reported as a pass.

#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a failed unwrap is a failed test"
)]

use resound_datformat::container::DatReader;
use resound_datformat::record::{
    LandBlock, LandBlockInfo, Record, Region, Sound, SoundTable, Wave,
};

/// Region "Dereth".
const REGION_ID: u32 = 0x1300_0000;

/// Real end-of-retail dats (spec §4.1, §4.2, §4.4) in the folder `RESOUND_DAT_DIR` names.
#[test]
#[ignore = "needs retail DAT files: cargo xtask test --retail-dats DIR"]
fn retail_dats_match_the_spec() {
    let dir = std::env::var_os("RESOUND_DAT_DIR")
        .expect("RESOUND_DAT_DIR names the folder of the end-of-retail client dats");
    let dir = std::path::PathBuf::from(dir);
    let open = |name: &str| {
        let file = std::fs::File::open(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        DatReader::new(std::io::BufReader::new(file)).unwrap()
    };
    let mut portal = open("client_portal.dat");
    let h = portal.header();
    assert_eq!(
        (h.block_size, h.engine_version, h.minor_version),
        (1024, 110, 6657),
        "portal header"
    );
    assert_eq!(portal.entries().unwrap().len(), 79_694, "portal entries");
    let payload = portal.read(REGION_ID).unwrap().unwrap();
    // a retail Region entry may end in zero padding: kept, so the round trip is exact
    let padded = Region::from_bytes_padded(&payload).unwrap();
    assert_eq!(padded.to_bytes().unwrap(), payload, "Region round trip");
    let region = padded.record;
    assert_eq!(region.region_name.to_string(), "Dereth");
    assert_eq!((region.region_number, region.version), (1, 3));
    assert_eq!(region.parts_mask.bits(), 0x21F);
    assert_eq!(region.land_defs.l_block_length, 8);
    assert_eq!(region.scene_info.as_ref().unwrap().scene_types.len(), 89);
    assert_eq!(region.terrain_info.terrain_types.len(), 32);
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
    let h = cell.header();
    assert_eq!((h.block_size, h.engine_version), (256, 22), "cell header");
    assert_eq!(cell.entries().unwrap().len(), 805_348, "cell entries");
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
