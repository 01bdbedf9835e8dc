//! Asheron's Call DAT files: the container (reader and writer) and the records Resound needs.
//!
//! Spec: `shared/spec/dat-format.md`.
//!
//! - [`container`] — the `.dat` file system: header, B-tree directory, block chains, zlib
//!   entries; a reader and a writer.
//! - [`record`] — the DBObj records: `Region`, `SoundTable`, `Wave`, `LandBlock`,
//!   `LandBlockInfo`, with byte-identical read/write.
//!
//! The synthetic fixture world (portal + cell dat) lives in the `resound-fixture` crate.

pub mod container;
pub mod record;

pub use record::{Padded, ReadRecordError, Record, WriteRecordError};
