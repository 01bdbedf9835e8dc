//! Tests of `resound ambient` (included from `cmd_ambient.rs`).
use super::*;

#[test]
fn parses_at() {
    let p = parse_at("0xA9B40025:100,100.5,72").unwrap();
    assert_eq!(p.objcell_id, 0xA9B4_0025);
    assert_eq!((p.origin.x, p.origin.y, p.origin.z), (100.0, 100.5, 72.0));
    assert_eq!(parse_at("A9B40025:1,2,3").unwrap().objcell_id, 0xA9B4_0025);
    assert!(parse_at("A9B40025:1,2").is_err());
    assert!(parse_at("A9B40025").is_err());
    assert!(parse_at("zz:1,2,3").is_err());
    assert!(parse_at("A9B40025:1,x,3").is_err());
}

#[test]
fn rebuild_and_walk_on_the_fixture_world() {
    let dir = tempfile::tempdir().unwrap();
    let world = resound_fixture::write_world();
    std::fs::write(dir.path().join(PORTAL_DAT), &world.portal).unwrap();
    std::fs::write(dir.path().join(CELL_DAT), &world.cell).unwrap();
    let mut portal = open(&dir.path().join(PORTAL_DAT)).unwrap();
    let mut cell = open(&dir.path().join(CELL_DAT)).unwrap();
    let region: Region = portal.load_record(0x1300_0000).unwrap().unwrap();
    let mut a = Ambient::new(&region, Seeds { ran2: 1, crt: 1 }, SoundSettings::default()).unwrap();
    let pos = parse_at("0xA9B40025:100,100,72").unwrap();
    let mut ev = Vec::new();
    let PositionChange::Rebuilt(r) = a
        .change_position(&pos, false, 0.0, &mut portal, &mut cell, &mut ev)
        .unwrap()
    else {
        panic!()
    };
    let text = format_rebuild(&pos, &r, &a.snapshot(), &ev);
    assert!(text.contains("landblocks: 9 gathered, 0 missing"), "{text}");
    assert!(text.contains("total weight"));
    let doc = rebuild_doc(&pos, &r, &a.snapshot(), &ev, &portal);
    assert_eq!(doc["rebuild"]["land_blocks"].as_array().unwrap().len(), 9);
    assert!(doc["snapshot"]["total_sound_count"].as_f64().unwrap() > 0.0);
    assert_eq!(
        doc["snapshot"]["sounds"].as_array().unwrap().len(),
        a.sounds().len()
    );
    assert!(doc["sound_table_loads"].as_u64().unwrap() >= 1);
    // the shipped example path walks the fixture world
    let walk = read_walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../crates/ambient/examples-data/walk.json"),
    )
    .unwrap();
    let log = walk.run(&mut a, 30.0, &mut portal, &mut cell).unwrap();
    assert!(
        log.iter()
            .any(|e| matches!(e, WalkEntry::Event(ev) if matches!(ev.outcome, Outcome::Play(_))))
    );
    assert!(
        log.iter()
            .filter(|e| matches!(e, WalkEntry::Rebuild { .. }))
            .count()
            > 3
    );
    for e in &log {
        assert!(!format_entry(e).is_empty());
    }
}
