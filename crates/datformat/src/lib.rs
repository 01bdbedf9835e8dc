//! Asheron's Call DAT files: the container (reader and writer) and the records Resound needs.
//!
//! Spec: `docs/spec/dat-format.md`.
//!
//! - [`container`] — the `.dat` file system: header, B-tree directory, block chains, zlib
//!   entries; a reader and a writer.
//! - [`id`] — typed ids (`WaveId`, `SoundTableId`, `CellId`) for values that leave this crate.
//! - [`record`] — the DBObj records: `Region`, `SoundTable`, `Wave`, `LandBlock`,
//!   `LandBlockInfo`, `EnvCell`, with byte-identical read/write.
//! - [`entry_type`] — which record type a dat entry holds, from the dat kind and the id.
//! - [`describe`] — any parsed entry as one value ([`describe::Decoded`]) with a text rendering
//!   and a JSON shape.
//! - [`check`] — the per-entry round trip of `resound dat check` and its report.
//! - [`listing`] — a dat's header and entries as a table or JSON (`resound dat ls`).
//!
//! The synthetic fixture world (portal + cell dat) lives in the `resound-fixture` crate.

pub mod check;
pub mod container;
pub mod describe;
pub mod entry_type;
pub mod listing;
pub mod record;

pub mod id;

pub use record::{Padded, ReadRecordError, Record, WriteRecordError};
