//! The ambient runtime's dat reader (`resound_ambient::DatSource`): it reads an entry trimmed
//! (the bytes before its zero padding, plus a margin), and must give exactly what the whole
//! payload's parse gives — the same record, or a failure where the whole payload fails.

use std::io::Cursor;

use resound_ambient::DatSource;
use resound_datformat::container::DatReader;
use resound_datformat::entry_type::{RecordType, entry_type};
use resound_datformat::record::{LandBlock, LandBlockInfo, Record, Region, SoundTable, Wave};

/// The most entries one input loads (each may inflate up to the reader's caps).
const MAX_LOADS: usize = 16;

/// Opens `data` as a dat twice (a plain reader, and a `DatSource` over it) and, for each of
/// the first entries of the record types the runtime loads, compares `load_record` with the
/// parse of the whole payload.
pub fn load_records(data: &[u8]) {
    let Ok(mut whole) = DatReader::new(Cursor::new(data)) else {
        return;
    };
    let kind = whole.header().dat_type;
    let Ok(entries) = whole.entries() else {
        return;
    };
    let Ok(reader) = DatReader::new(Cursor::new(data)) else {
        panic!("the dat opened once and not twice");
    };
    let mut source = DatSource::new(reader);
    for entry in entries.iter().take(MAX_LOADS) {
        let Ok(payload) = whole.read_entry(entry) else {
            // Unreadable whole (corrupt, over a cap): the trimmed read may still succeed on
            // the bytes before the damage; it must not panic.
            let _ = source.load_record::<LandBlock>(entry.id);
            continue;
        };
        match entry_type(kind, entry.id).parsed {
            Some(RecordType::LandBlock) => agree::<LandBlock>(&mut source, entry.id, &payload),
            Some(RecordType::LandBlockInfo) => {
                agree::<LandBlockInfo>(&mut source, entry.id, &payload);
            }
            Some(RecordType::Region) => agree::<Region>(&mut source, entry.id, &payload),
            Some(RecordType::SoundTable) => agree::<SoundTable>(&mut source, entry.id, &payload),
            Some(RecordType::Wave) => agree::<Wave>(&mut source, entry.id, &payload),
            _ => {}
        }
    }
}

/// `load_record` of `id` gives the whole payload's record, or fails where it fails. Compared
/// through `Debug`, so a NaN read from the bytes equals itself.
fn agree<T: Record + std::fmt::Debug>(
    source: &mut DatSource<Cursor<&[u8]>>,
    id: u32,
    payload: &[u8],
) {
    let expected = T::from_bytes(payload).ok();
    match source.load_record::<T>(id) {
        Ok(got) => assert_eq!(
            format!("{got:?}"),
            format!("{expected:?}"),
            "{id:#010x}: the trimmed load differs"
        ),
        Err(e) => assert!(
            expected.is_none(),
            "{id:#010x}: the trimmed load failed ({e}) where the whole payload parses"
        ),
    }
}
