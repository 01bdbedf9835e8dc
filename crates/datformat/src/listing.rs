//! The listing of a dat (`resound dat ls`): its header and every entry with its record type,
//! as a table ([`Display`](std::fmt::Display)) or serialised with stable keys.

use std::fmt;

use serde::Serialize;

use crate::container::{DatEntry, DatHeader};
use crate::entry_type::entry_type;

/// One listed entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ListedEntry {
    /// Entry id.
    pub id: u32,
    /// `0xXXXXXXXX`.
    pub id_hex: String,
    /// Stored size in bytes.
    pub size: u32,
    /// Record type name.
    pub record_type: &'static str,
    /// First block's offset.
    pub offset: u32,
    /// Entry flags.
    pub flags: u16,
    /// Entry version.
    pub version: u16,
    /// Stored zlib-compressed.
    pub compressed: bool,
    /// The raw date word.
    pub raw_date: u32,
    /// The iteration word.
    pub iteration: u32,
}

/// A dat's header and entries.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Listing {
    /// The file as given.
    pub file: String,
    /// The dat kind.
    pub dat_type: String,
    /// Block size.
    pub block_size: u32,
    /// File size from the header.
    pub file_size: u32,
    /// Engine version.
    pub engine_version: u32,
    /// Minor version.
    pub minor_version: u32,
    /// Every entry, in B-tree order.
    pub entries: Vec<ListedEntry>,
}

impl Listing {
    /// The listing of a dat at `file` with `header` and `entries`.
    #[must_use]
    pub fn new(file: String, header: &DatHeader, entries: &[DatEntry]) -> Self {
        let kind = header.dat_type;
        Self {
            file,
            dat_type: kind.to_string(),
            block_size: header.block_size,
            file_size: header.file_size,
            engine_version: header.engine_version,
            minor_version: header.minor_version,
            entries: entries
                .iter()
                .map(|e| ListedEntry {
                    id: e.id,
                    id_hex: format!("0x{:08X}", e.id),
                    size: e.size,
                    record_type: entry_type(kind, e.id).name,
                    offset: e.offset,
                    flags: e.flags,
                    version: e.version,
                    compressed: e.is_compressed(),
                    raw_date: e.raw_date,
                    iteration: e.iteration,
                })
                .collect(),
        }
    }
}

impl fmt::Display for Listing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}: {} dat, block_size {}, file_size {}, {} entries",
            self.file,
            self.dat_type,
            self.block_size,
            self.file_size,
            self.entries.len()
        )?;
        writeln!(f, "{:<12} {:>10}  record type", "id", "size")?;
        for e in &self.entries {
            let z = if e.compressed { " (zlib)" } else { "" };
            writeln!(f, "0x{:08X}   {:>10}  {}{z}", e.id, e.size, e.record_type)?;
        }
        Ok(())
    }
}
