//! The `.dat` container: header, B-tree directory, block chains, reader and writer
//! (spec `dat-format.md` §1).
//!
//! - [`DatReader`] opens a portal, cell or local dat over any `Read + Seek`, looks ids up
//!   through the B-tree, assembles payloads from their block chains and inflates zlib entries.
//!   Every offset, count and size read from the file is checked against the file size before
//!   it is followed or allocated; corrupt files give an error, never a panic or a hang.
//! - [`DatReader::read_entry_trimmed`] reads a payload in memory that follows its content:
//!   inflated in pieces, a trailing run of zeros only counted ([`Trimmed`]), the bytes before it
//!   capped; [`DatReader::payload_size`] gives the declared size before anything inflates.
//! - [`DatWriter`] builds or edits a dat in memory, laid out as DatReaderWriter lays it out.
//! - [`Iteration`] is the record stored under [`ITERATION_ID`] (0xFFFF0001).
//!
//! ```
//! use resound_datformat::container::{DatKind, DatReader, DatWriter, EntryOptions};
//!
//! let mut writer = DatWriter::new(DatKind::Portal, 1024)?;
//! writer.insert(0x0A00_0001, b"RIFF....", EntryOptions::default())?;
//! let bytes = writer.finish();
//!
//! let mut reader = DatReader::new(std::io::Cursor::new(bytes))?;
//! assert_eq!(reader.read(0x0A00_0001)?.as_deref(), Some(&b"RIFF...."[..]));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod bytes;
mod chain;
mod entry;
mod error;
mod header;
mod iteration;
mod node;
mod reader;
mod trimmed;
mod writer;

#[cfg(test)]
mod tests;

pub use entry::{DatEntry, ENTRY_SIZE, ENTRY_VERSION, FLAG_COMPRESSED};
pub use error::{
    LookupError, MAX_DEPTH, OpenDatError, ReadEntryError, ReadIterationError, WriteDatError,
};
pub use header::{
    DAT_MAGIC, DRW_TRANSACTIONS, DatHeader, DatKind, HEADER_SIZE, MAX_BLOCK_SIZE, MIN_BLOCK_SIZE,
    first_block_offset, is_sane_block_size,
};
pub use iteration::{ITERATION_ID, Iteration, IterationError, IterationRange};
pub use node::{BRANCH_FILL, DEGREE, MAX_BRANCHES, MAX_ENTRIES, NODE_READ_SIZE, NODE_WRITE_SIZE};
pub use reader::DatReader;
pub use trimmed::Trimmed;
pub use writer::{DatWriter, EntryOptions, HeaderMut};
