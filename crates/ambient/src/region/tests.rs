//! Unit tests of `region`, each named after the retail function it checks.
use std::sync::Arc;

use super::*;
use crate::source::MemorySoundTables;
use crate::testkit::{asd, region, stb, table};

fn sample() -> Region {
    region(
        vec![
            stb(0x2000_0001, vec![asd(0x46, 1.0, 0.5, 5.0, 9.0)]),
            stb(0x2000_0002, vec![asd(0x47, 0.5, 0.0, 6.0, 6.0)]),
            stb(0x2000_00F0, vec![asd(0x48, 0.5, 0.2, 6.0, 8.0)]), // table absent
            stb(INVALID_DID, vec![asd(0x49, 0.5, 0.2, 6.0, 8.0)]),
        ],
        &[0, NO_INDEX, 1, 2, 3],
        &[&[0, 1], &[2, NO_INDEX, 3, 4], &[]],
    )
}

/// `CRegionDesc::UnPack` @ 0x004FF440: 0xFFFFFFFF resolves to none, the rest to the target.
#[test]
fn unpack_resolution() {
    let r = AmbientRegion::new(&sample()).unwrap();
    assert_eq!(r.stb_desc().len(), 4);
    assert_eq!(r.terrain_stb_desc(0, 0), Some(0));
    assert_eq!(r.terrain_stb_desc(0, 1), None); // scene type 1 has no STB
    assert_eq!(r.terrain_stb_desc(1, 0), Some(1));
    assert_eq!(r.terrain_stb_desc(1, 1), None); // no scene type
    assert_eq!(r.terrain_stb_desc(1, 2), Some(2));
    assert_eq!(r.terrain_stb_desc(1, 3), Some(3));
    assert_eq!(r.terrain_stb_desc(1, 4), None); // beyond the slots
    assert_eq!(r.terrain_stb_desc(7, 0), None); // beyond the terrain types
    assert_eq!(r.height_table()[100], 200.0);
}

/// `CTerrainDesc::NumSceneType` @ 0x00502430.
#[test]
fn num_scene_type() {
    let r = AmbientRegion::new(&sample()).unwrap();
    assert_eq!(r.num_scene_type(0), 2);
    assert_eq!(r.num_scene_type(1), 4);
    assert_eq!(r.num_scene_type(2), 0);
    assert_eq!(r.num_scene_type(31), 0);
    assert_eq!(r.num_scene_type(u32::MAX), 0);
}

/// A region whose indices point outside their arrays is a typed error, never a panic.
#[test]
fn out_of_range_indices_are_errors() {
    let bad_stb = region(vec![stb(0x2000_0001, vec![])], &[0, 1], &[&[0]]);
    assert_eq!(
        AmbientRegion::new(&bad_stb).unwrap_err(),
        ResolveRegionError::StbIndexOutOfRange {
            scene_type: 1,
            stb_index: 1,
            stb_count: 1
        }
    );
    let bad_scene = region(
        vec![stb(0x2000_0001, vec![])],
        &[0],
        &[&[0], &[NO_INDEX, 5]],
    );
    assert_eq!(
        AmbientRegion::new(&bad_scene).unwrap_err(),
        ResolveRegionError::SceneTypeIndexOutOfRange {
            terrain_type: 1,
            slot: 1,
            scene_type_index: 5,
            scene_type_count: 1,
        }
    );
    // no sound_info at all: any STB index is out of range
    let mut none = sample();
    none.sound_info = None;
    assert!(matches!(
        AmbientRegion::new(&none),
        Err(ResolveRegionError::StbIndexOutOfRange { stb_count: 0, .. })
    ));
    // no scene_info: terrain slots pointing at scene types are out of range
    let mut none = sample();
    none.scene_info = None;
    assert!(matches!(
        AmbientRegion::new(&none),
        Err(ResolveRegionError::SceneTypeIndexOutOfRange {
            scene_type_count: 0,
            ..
        })
    ));
}

/// `LandDefs::set_height_table`: values in [0, 800] up to the first one outside.
#[test]
fn set_height_table() {
    let mut reg = sample();
    reg.land_defs.land_height_table[10] = 900.0;
    let r = AmbientRegion::new(&reg).unwrap();
    assert_eq!(r.height_table()[9], 18.0);
    assert_eq!(r.height_table()[10], 0.0);
    assert_eq!(r.height_table()[11], 0.0);
    reg.land_defs.land_height_table[5] = f32::NAN;
    let r = AmbientRegion::new(&reg).unwrap();
    assert_eq!(r.height_table()[5], 0.0);
}

/// `CRegionDesc::GetSTBDesc` @ 0x004FEAB0 with `AmbientSTBDesc::InitSoundTable` @ 0x004FEA60:
/// lazy load once; a missing table is negative-cached and never retried; INVALID_DID never loads.
#[test]
fn get_stb_desc_and_init_sound_table() {
    let mut r = AmbientRegion::new(&sample()).unwrap();
    let mut src = MemorySoundTables::new([table(0x2000_0001, &[]), table(0x2000_0002, &[])]);
    let mut failures = Vec::new();
    assert_eq!(r.get_stb_desc(0, 0, &mut src, &mut failures), Some(0));
    assert_eq!(r.get_stb_desc(0, 0, &mut src, &mut failures), Some(0));
    assert_eq!(src.loads, [0x2000_0001], "loaded once, then cached");
    // the missing table: one load attempt, then never again
    for _ in 0..5 {
        assert_eq!(r.get_stb_desc(1, 2, &mut src, &mut failures), None);
    }
    assert_eq!(src.loads, [0x2000_0001, 0x2000_00F0]);
    assert!(r.stb_desc()[2].stb_not_found);
    // INVALID_DID: never fetched, not negative-cached either
    assert_eq!(r.get_stb_desc(1, 3, &mut src, &mut failures), None);
    assert_eq!(src.loads.len(), 2);
    assert!(!r.stb_desc()[3].stb_not_found);
    // a released table is fetched again
    r.stb_desc_mut()[0].sound_table = None;
    assert_eq!(r.get_stb_desc(0, 0, &mut src, &mut failures), Some(0));
    assert_eq!(src.loads.len(), 3);
    assert!(failures.is_empty());
    assert!(Arc::ptr_eq(
        r.stb_desc()[0].sound_table.as_ref().unwrap(),
        r.stb_desc()[0].sound_table.as_ref().unwrap()
    ));
}

#[derive(Debug, thiserror::Error)]
#[error("corrupt table")]
struct Corrupt;

struct Failing(u32);

impl SoundTableSource for Failing {
    type Error = Corrupt;
    fn load_sound_table(&mut self, _: SoundTableId) -> Result<Option<Arc<SoundTable>>, Corrupt> {
        self.0 += 1;
        Err(Corrupt)
    }
}

/// A source error is treated like a missing table (negative cache) and reported.
#[test]
fn init_sound_table_source_error() {
    let mut r = AmbientRegion::new(&sample()).unwrap();
    let mut src = Failing(0);
    let mut failures = Vec::new();
    assert_eq!(r.get_stb_desc(0, 0, &mut src, &mut failures), None);
    assert_eq!(r.get_stb_desc(0, 0, &mut src, &mut failures), None);
    assert_eq!(src.0, 1);
    assert_eq!(
        failures,
        [SourceFailure {
            kind: SourceKind::SoundTable,
            id: 0x2000_0001,
            message: "corrupt table".into()
        }]
    );
}
