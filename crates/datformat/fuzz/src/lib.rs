//! Helpers shared by the fuzz targets: every target must never panic on any input, and every
//! input a parser accepts must be written back byte for byte.

use std::io::Cursor;

use resound_datformat::container::{DatReader, DatWriter, EntryOptions};
use resound_datformat::record::Record;

/// Most entries `read_dat` follows per input, so one input stays fast.
pub const MAX_ENTRIES: usize = 256;

/// Parses `data` as `T`; when it parses, the record and its zero padding must write back to
/// exactly `data`.
pub fn round_trip<T: Record>(data: &[u8]) {
    let Ok(record) = T::from_bytes_padded(data) else {
        return;
    };
    let written = record
        .to_bytes()
        .unwrap_or_else(|e| panic!("{} parsed but cannot be written: {e}", T::NAME));
    assert!(
        written == data,
        "{} round trip differs ({} bytes in, {} out)",
        T::NAME,
        data.len(),
        written.len()
    );
}

/// Opens `data` as a dat, walks its B-tree and reads up to [`MAX_ENTRIES`] payloads; every
/// payload read is stored in a fresh dat with the same block size, which must give the same
/// bytes back. Also opens `data` for editing, which must not panic either.
pub fn read_dat(data: &[u8]) {
    let _ = DatWriter::from_bytes(data.to_vec());
    let Ok(mut reader) = DatReader::new(Cursor::new(data)) else {
        return;
    };
    let header = reader.header().clone();
    let Ok(entries) = reader.entries() else {
        return;
    };
    let mut payloads = Vec::new();
    for entry in entries.iter().take(MAX_ENTRIES) {
        if let Ok(payload) = reader.read_entry(entry) {
            payloads.push((entry.id, payload));
        }
    }
    let mut writer = DatWriter::new(header.dat_type, header.block_size)
        .unwrap_or_else(|e| panic!("an accepted block size was refused: {e}"));
    for (id, payload) in &payloads {
        writer
            .insert(*id, payload, EntryOptions::default())
            .unwrap_or_else(|e| panic!("insert {id:#010x}: {e}"));
    }
    let mut copy = DatReader::new(Cursor::new(writer.finish()))
        .unwrap_or_else(|e| panic!("a written dat does not open: {e}"));
    for (id, payload) in &payloads {
        let back = copy
            .read(*id)
            .unwrap_or_else(|e| panic!("read back {id:#010x}: {e}"));
        assert!(
            back.as_deref() == Some(payload.as_slice()),
            "{id:#010x} reads back differently"
        );
    }
}
