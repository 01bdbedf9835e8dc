//! DBObj records: Region, SoundTable, Wave, LandBlock, LandBlockInfo, EnvCell (spec
//! `docs/spec/dat-format.md` §2–§4).
//!
//! Every record implements [`Record`]: [`Record::from_bytes`] parses one entry's payload (as
//! [`DatReader::read`](crate::container) returns it); [`Record::to_bytes`] writes it back
//! byte-identically. All values are little-endian; 4-byte alignment is relative to the payload
//! start; pad bytes read are kept.
//!
//! After the last field an entry may carry zero bytes (a retail Region entry has up to 16):
//! they are accepted, and [`Record::from_bytes_padded`] keeps their count in a [`Padded`] so
//! the entry round-trips byte-exactly. Any non-zero byte after the last field is an error.
//!
//! Parsing never panics: every count read from the bytes is checked against the bytes that
//! remain before anything is allocated, and every failure is a [`ReadRecordError`] carrying the
//! record name, its id when known, the byte offset, the field and what was wrong, in plain
//! words (binrw's errors are mapped, never shown).
//!
//! | record | dat | ids |
//! |---|---|---|
//! | [`Region`] | portal | 0x13000000..=0x1300FFFF |
//! | [`SoundTable`] | portal | 0x20000000..=0x2000FFFF |
//! | [`Wave`] | portal | 0x0A000000..=0x0A00FFFF |
//! | [`LandBlock`] | cell | 0xXXYYFFFF |
//! | [`LandBlockInfo`] | cell | 0xXXYYFFFE |
//! | [`EnvCell`] | cell | 0xXXYY0100..=0xXXYYFFFD |

mod codec;
mod codec_error;
mod env_cell;
mod error;
mod land_block;
mod land_block_info;
mod parts_mask;
mod primitive;
mod region;
mod sky;
mod sound;
mod sound_desc;
mod sound_table;
mod terrain_desc;
mod terrain_texture_type;
mod wave;

#[cfg(test)]
mod tests;

use binrw::io::Cursor;
use binrw::{BinRead, BinWrite, Endian};

pub use codec_error::{CountExceedsDataError, ValueTooLargeError};
pub use env_cell::{CellPortal, EnvCell};
pub use error::{Fault, NestedSoundNodesError, ReadRecordError, WriteRecordError};
pub use land_block::{LAND_BLOCK_SIDE, LAND_BLOCK_VERTICES, LandBlock, TerrainWord};
pub use land_block_info::{BuildingInfo, BuildingPortal, LandBlockInfo, RestrictionTable, Stab};
pub use parts_mask::PartsMask;
pub use primitive::{Bool32, ColorArgb, CompressedUInt, Frame, PString, Quaternion, Vector3};
pub use region::{GameTime, LandDefs, Region, RegionMisc, Season, TimeOfDay};
pub use sky::{DayGroup, SkyDesc, SkyObject, SkyObjectReplace, SkyTimeOfDay};
pub use sound::Sound;
pub use sound_desc::{AmbientSoundDesc, AmbientStbDesc, SceneDesc, SceneType, SoundDesc};
pub use sound_table::{SoundData, SoundEntry, SoundHashEntry, SoundTable};
pub use terrain_desc::{
    LandSurf, RoadAlphaMap, TerrainAlphaMap, TerrainDesc, TerrainTex, TerrainType, TexMerge,
    TmTerrainDesc,
};
pub use terrain_texture_type::TerrainTextureType;
pub use wave::{DecodePcmError, WAVE_FORMAT_MPEGLAYER3, WAVE_FORMAT_PCM, Wave};

/// A DBObj record type with byte-identical read and write.
pub trait Record: Sized {
    /// The record type's name (DRW's class name), used in errors.
    const NAME: &'static str;

    /// Parses one entry's payload; the bytes after the last field, if any, must all be zero
    /// (they are dropped here; [`Record::from_bytes_padded`] keeps their count).
    fn from_bytes(bytes: &[u8]) -> Result<Self, ReadRecordError> {
        Self::from_bytes_padded(bytes).map(|p| p.record)
    }

    /// Parses one entry's payload and counts the zero bytes after the last field;
    /// `from_bytes_padded(x)?.to_bytes()? == x` for every accepted `x`.
    fn from_bytes_padded(bytes: &[u8]) -> Result<Padded<Self>, ReadRecordError>;

    /// Writes the record without padding; `from_bytes(x)?.to_bytes()? == x` for every accepted
    /// `x` that has none.
    fn to_bytes(&self) -> Result<Vec<u8>, WriteRecordError>;

    /// The record's file id.
    fn id(&self) -> u32;
}

/// A record with the count of zero bytes that followed its last field in the entry.
#[derive(Clone, Debug, PartialEq)]
pub struct Padded<T> {
    /// The record.
    pub record: T,
    /// Zero bytes after the record's last field.
    pub padding: usize,
}

impl<T: Record> Padded<T> {
    /// The entry's bytes: the record followed by its zero padding.
    pub fn to_bytes(&self) -> Result<Vec<u8>, WriteRecordError> {
        let mut bytes = self.record.to_bytes()?;
        bytes.resize(bytes.len() + self.padding, 0);
        Ok(bytes)
    }
}

/// The first four bytes as the record id, when present.
fn leading_id(bytes: &[u8]) -> Option<u32> {
    codec::le_u32_at(bytes, 0)
}

/// Shared `from_bytes_padded`: parse from offset 0, map errors, allow only zero bytes after.
fn parse_record<T>(name: &'static str, bytes: &[u8]) -> Result<Padded<T>, ReadRecordError>
where
    T: for<'a> BinRead<Args<'a> = ()>,
{
    let id = leading_id(bytes);
    let mut cursor = Cursor::new(bytes);
    let record = T::read_options(&mut cursor, Endian::Little, ()).map_err(|source| {
        let (pos, field, fault) = error::map_binrw(&source);
        // binrw rewinds a failed struct read, so a truncation is reported where the data ends
        let offset = match (&fault, pos) {
            (Fault::Truncated, _) => bytes.len() as u64,
            (_, Some(pos)) => pos,
            (_, None) => cursor.position(),
        };
        match fault {
            Fault::NestedSoundNodes(nested) => ReadRecordError::NestedSoundNodes {
                record: name,
                id,
                offset,
                sound: nested.sound,
                child_count: nested.child_count,
            },
            fault => ReadRecordError::Malformed {
                record: name,
                id,
                offset,
                field,
                fault,
            },
        }
    })?;
    let offset = cursor.position();
    let rest = usize::try_from(offset)
        .ok()
        .and_then(|at| bytes.get(at..))
        .unwrap_or_default();
    if let Some(nonzero) = rest.iter().position(|&b| b != 0) {
        return Err(ReadRecordError::TrailingBytes {
            record: name,
            id,
            offset,
            remaining: rest.len() as u64,
            nonzero_at: offset + nonzero as u64,
        });
    }
    Ok(Padded {
        record,
        padding: rest.len(),
    })
}

/// Shared `to_bytes`: write from offset 0 into a fresh buffer.
fn write_record<T>(name: &'static str, id: u32, value: &T) -> Result<Vec<u8>, WriteRecordError>
where
    T: for<'a> BinWrite<Args<'a> = ()>,
{
    let mut cursor = Cursor::new(Vec::new());
    value
        .write_options(&mut cursor, Endian::Little, ())
        .map_err(|source| {
            let (pos, field, fault) = error::map_binrw(&source);
            WriteRecordError::Unencodable {
                record: name,
                id,
                offset: pos.unwrap_or(cursor.position()),
                field,
                fault,
            }
        })?;
    Ok(cursor.into_inner())
}

/// Implements [`Record`] through the shared helpers.
macro_rules! impl_record {
    ($($ty:ident),*) => {$(
        impl Record for $ty {
            const NAME: &'static str = stringify!($ty);

            fn from_bytes_padded(bytes: &[u8]) -> Result<Padded<Self>, ReadRecordError> {
                parse_record(Self::NAME, bytes)
            }

            fn to_bytes(&self) -> Result<Vec<u8>, WriteRecordError> {
                write_record(Self::NAME, self.id, self)
            }

            fn id(&self) -> u32 {
                self.id
            }
        }
    )*};
}

impl_record!(Region, SoundTable, Wave, LandBlock, LandBlockInfo, EnvCell);
