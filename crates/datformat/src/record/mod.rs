//! DBObj records: Region, SoundTable, Wave, LandBlock, LandBlockInfo (spec
//! `shared/spec/dat-format.md` §2–§4).
//!
//! Every record implements [`Record`]: [`Record::from_bytes`] parses one entry's payload (as
//! [`DatReader::read`](crate::container) returns it) and must consume exactly all of it;
//! [`Record::to_bytes`] writes it back byte-identically. All values are little-endian; 4-byte
//! alignment is relative to the payload start; pad bytes read are kept.
//!
//! Parsing never panics: every count read from the bytes is checked against the bytes that
//! remain before anything is allocated, and every failure is a [`ReadRecordError`] carrying the
//! record name, its id when known, the byte offset and the binrw cause.
//!
//! | record | dat | ids |
//! |---|---|---|
//! | [`Region`] | portal | 0x13000000..=0x1300FFFF |
//! | [`SoundTable`] | portal | 0x20000000..=0x2000FFFF |
//! | [`Wave`] | portal | 0x0A000000..=0x0A00FFFF |
//! | [`LandBlock`] | cell | 0xXXYYFFFF |
//! | [`LandBlockInfo`] | cell | 0xXXYYFFFE |

mod codec;
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

pub use error::{
    CountExceedsDataError, NestedSoundNodesError, ReadRecordError, ValueTooLargeError,
    WriteRecordError,
};
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

    /// Parses one entry's payload; all bytes must be consumed.
    fn from_bytes(bytes: &[u8]) -> Result<Self, ReadRecordError>;

    /// Writes the record; `from_bytes(x)?.to_bytes()? == x` for every accepted `x`.
    fn to_bytes(&self) -> Result<Vec<u8>, WriteRecordError>;

    /// The record's file id.
    fn id(&self) -> u32;
}

/// The first four bytes as the record id, when present.
fn leading_id(bytes: &[u8]) -> Option<u32> {
    codec::le_u32_at(bytes, 0)
}

/// The position a binrw error points at, or `fallback` (I/O errors carry none).
fn error_pos(error: &binrw::Error, fallback: u64) -> u64 {
    match error.root_cause() {
        binrw::Error::BadMagic { pos, .. }
        | binrw::Error::AssertFail { pos, .. }
        | binrw::Error::Custom { pos, .. }
        | binrw::Error::NoVariantMatch { pos }
        | binrw::Error::EnumErrors { pos, .. } => *pos,
        _ => fallback,
    }
}

/// Shared `from_bytes`: parse from offset 0, map errors, require exact consumption.
fn parse_record<T>(name: &'static str, bytes: &[u8]) -> Result<T, ReadRecordError>
where
    T: for<'a> BinRead<Args<'a> = ()>,
{
    let id = leading_id(bytes);
    let mut cursor = Cursor::new(bytes);
    let value = T::read_options(&mut cursor, Endian::Little, ()).map_err(|source| {
        let offset = error_pos(&source, cursor.position());
        match source.custom_err::<NestedSoundNodesError>() {
            Some(nested) => ReadRecordError::NestedSoundNodes {
                record: name,
                id,
                offset,
                sound: nested.sound,
                child_count: nested.child_count,
                source,
            },
            None => ReadRecordError::Malformed {
                record: name,
                id,
                offset,
                source,
            },
        }
    })?;
    let offset = cursor.position();
    let len = bytes.len() as u64;
    if offset != len {
        return Err(ReadRecordError::TrailingBytes {
            record: name,
            id,
            offset,
            remaining: len.saturating_sub(offset),
        });
    }
    Ok(value)
}

/// Shared `to_bytes`: write from offset 0 into a fresh buffer.
fn write_record<T>(name: &'static str, id: u32, value: &T) -> Result<Vec<u8>, WriteRecordError>
where
    T: for<'a> BinWrite<Args<'a> = ()>,
{
    let mut cursor = Cursor::new(Vec::new());
    value
        .write_options(&mut cursor, Endian::Little, ())
        .map_err(|source| WriteRecordError::Unencodable {
            record: name,
            id,
            offset: error_pos(&source, cursor.position()),
            source,
        })?;
    Ok(cursor.into_inner())
}

/// Implements [`Record`] through the shared helpers.
macro_rules! impl_record {
    ($($ty:ident),*) => {$(
        impl Record for $ty {
            const NAME: &'static str = stringify!($ty);

            fn from_bytes(bytes: &[u8]) -> Result<Self, ReadRecordError> {
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

impl_record!(Region, SoundTable, Wave, LandBlock, LandBlockInfo);
