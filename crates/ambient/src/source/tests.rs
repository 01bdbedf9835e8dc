//! Unit tests of `source`, each named after the retail function it checks.
use super::*;

#[test]
fn memory_sources_count_calls() {
    let table = SoundTable {
        id: 0x2000_0001,
        ..SoundTable::default()
    };
    let mut t = MemorySoundTables::new([table]);
    assert!(
        t.load_sound_table(SoundTableId(0x2000_0001))
            .unwrap()
            .is_some()
    );
    assert!(
        t.load_sound_table(SoundTableId(0x2000_0002))
            .unwrap()
            .is_none()
    );
    t.release_sound_table(SoundTableId(0x2000_0001));
    assert_eq!(t.loads, [0x2000_0001, 0x2000_0002]);
    assert_eq!(t.releases, [0x2000_0001]);

    let mut b = MemoryLandBlocks::new([LandBlock {
        id: 0xA9B4_FFFF,
        ..LandBlock::default()
    }]);
    assert!(b.load_land_block(CellId(0xA9B4_FFFF)).unwrap().is_some());
    assert!(b.load_land_block(CellId(0xA9B5_FFFF)).unwrap().is_none());
    assert_eq!(b.loads, 2);
}
