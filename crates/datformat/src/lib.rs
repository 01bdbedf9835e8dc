//! Asheron's Call DAT files: the container (reader and writer) and the records Resound needs.
//!
//! Spec: `shared/spec/dat-format.md`.
//!
//! - [`container`] — the `.dat` file system: header, B-tree directory, block chains, zlib
//!   entries; a reader and a writer.
//! - [`id`] — typed ids (`WaveId`, `SoundTableId`, `CellId`) for values that leave this crate.
//! - [`record`] — the DBObj records: `Region`, `SoundTable`, `Wave`, `LandBlock`,
//!   `LandBlockInfo`, with byte-identical read/write.
//! - [`fixture`] — the synthetic, deterministic fixture world (portal + cell dat).

pub mod container;
pub mod fixture;
pub mod record;

pub mod id;

pub use record::{ReadRecordError, Record, WriteRecordError};
