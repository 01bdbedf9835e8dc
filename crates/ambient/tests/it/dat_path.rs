//! The same rebuild through the dat container (the path the CLI and the engine use).

use std::io::Cursor;

use resound_ambient::DatSource;
use resound_datformat::container::{DatReader, DatWriter, EntryOptions};
use resound_datformat::record::Region;
use resound_fixture as fixture;

use crate::common::{SEEDS, ambient, on_cell, sources};

#[test]
fn rebuild_from_fixture_dats_matches_memory() {
    let world = fixture::write_world();
    let mut portal = DatSource::new(DatReader::new(Cursor::new(world.portal)).unwrap());
    let mut cell = DatSource::new(DatReader::new(Cursor::new(world.cell)).unwrap());
    let region: Region = portal.load_record(fixture::REGION_ID).unwrap().unwrap();
    assert_eq!(region, fixture::region());
    let mut from_dat = resound_ambient::Ambient::new(&region, SEEDS, Default::default()).unwrap();
    let mut from_mem = ambient();
    let (mut t, mut lb) = sources();
    let (mut e1, mut e2) = (Vec::new(), Vec::new());
    for (i, p) in [
        on_cell(0xA9, 0xB4, 3, 3, 1.0, 1.0),
        on_cell(0xA9, 0xB4, 5, 5, 1.0, 1.0),
        on_cell(0xA8, 0xB3, 7, 7, 1.0, 1.0),
    ]
    .iter()
    .enumerate()
    {
        let a = from_dat
            .change_position(p, false, i as f64, &mut portal, &mut cell, &mut e1)
            .unwrap();
        let b = from_mem
            .change_position(p, false, i as f64, &mut t, &mut lb, &mut e2)
            .unwrap();
        assert_eq!(a, b);
        assert_eq!(from_dat.snapshot(), from_mem.snapshot());
    }
    assert_eq!(e1, e2);
    assert_eq!(portal.loads, t.loads.len() + 1, "plus the Region");
    assert_eq!(portal.releases, t.releases.len());
}

/// A SoundTable entry that does not parse is a reported failure, negative-cached like a missing
/// table; the rest of the rebuild goes on.
#[test]
fn corrupt_sound_table_in_the_dat() {
    let world = fixture::write_world();
    let mut w = DatWriter::from_bytes(world.portal).unwrap();
    w.insert(0x2000_0011, b"not a sound table", EntryOptions::default())
        .unwrap();
    let mut portal = DatSource::new(DatReader::new(Cursor::new(w.finish())).unwrap());
    let mut cell = DatSource::new(DatReader::new(Cursor::new(world.cell)).unwrap());
    let mut a = ambient();
    let mut ev = Vec::new();
    let c = a
        .change_position(
            &on_cell(0xA9, 0xB4, 3, 3, 1.0, 1.0),
            false,
            0.0,
            &mut portal,
            &mut cell,
            &mut ev,
        )
        .unwrap();
    let resound_ambient::PositionChange::Rebuilt(r) = c else {
        panic!("{c:?}")
    };
    assert_eq!(r.failures.len(), 1);
    assert_eq!(r.failures[0].id, 0x2000_0011);
    assert!(
        r.failures[0].message.contains("parsed"),
        "{}",
        r.failures[0].message
    );
    assert!(a.region().stb_desc()[0].stb_not_found);
    assert!(a.sounds().iter().all(|s| s.desc != 0));
    assert!(a.total_sound_count() > 0.0);
}
