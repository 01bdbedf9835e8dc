//! `SoundTable` — portal dat, ids 0x20000000..=0x2000FFFF (spec §4.2): which Wave files play for
//! each [`Sound`] slot, with priority, probability and volume.
//!
//! In retail terms the table is a recursive node; every shipped table has no nested children
//! (`SoundData.unknown == 0`). A non-zero child count is rejected with
//! [`ReadRecordError::NestedSoundNodes`](super::ReadRecordError::NestedSoundNodes), never skipped.

use binrw::io::{Read, Seek, Write};
use binrw::{BinRead, BinResult, BinWrite, Endian, binrw};
use serde::Serialize;

use super::codec::{
    check_count, count_u32, fixed_size_read, read_list_u32, write_items, write_list_u32,
};
use super::error::NestedSoundNodesError;
use super::sound::Sound;

/// A SoundTable DBObj.
#[binrw]
#[brw(little)]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SoundTable {
    /// File id.
    pub id: u32,
    /// `HashKey` (the root node's key; ACE calls it `Unknown`; 0 in EoR).
    pub hash_key: i32,
    /// `Hashes`: the root node's entries.
    #[br(parse_with = read_list_u32)]
    #[bw(write_with = write_list_u32)]
    pub hashes: Vec<SoundHashEntry>,
    /// `Sounds`: sound slot → data, in file order (u32 count).
    #[br(parse_with = read_sounds)]
    #[bw(write_with = write_sounds)]
    pub sounds: Vec<(Sound, SoundData)>,
}

impl SoundTable {
    /// The data for a sound slot (the first entry with that key).
    #[must_use]
    pub fn sound(&self, s: Sound) -> Option<&SoundData> {
        self.sounds.iter().find(|(k, _)| *k == s).map(|(_, d)| d)
    }
}

/// One `Hashes` entry (16 bytes): a key and the same three weights as a [`SoundEntry`].
#[derive(BinWrite)]
#[bw(little)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct SoundHashEntry {
    /// Key (ACE `SoundId`).
    pub key: u32,
    /// `Priority`.
    pub priority: f32,
    /// `Probability`.
    pub probability: f32,
    /// `Volume`.
    pub volume: f32,
}

fixed_size_read!(SoundHashEntry, 16, { key, priority, probability, volume });

/// `SoundData`: the waves of one sound slot, then the nested child count.
#[binrw]
#[brw(little)]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SoundData {
    /// `Entries`.
    #[br(parse_with = read_list_u32)]
    #[bw(write_with = write_list_u32)]
    pub entries: Vec<SoundEntry>,
    /// `Unknown`: retail's nested child count. Always 0 in parsed data (non-zero is rejected on
    /// read and on write).
    pub unknown: i32,
}

/// `SoundEntry` (16 bytes): one candidate wave.
#[derive(BinWrite)]
#[bw(little)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct SoundEntry {
    /// `Id`: Wave id (0x0A…).
    pub id: u32,
    /// `Priority`.
    pub priority: f32,
    /// `Probability`.
    pub probability: f32,
    /// `Volume`.
    pub volume: f32,
}

fixed_size_read!(SoundEntry, 16, { id, priority, probability, volume });

/// Minimum bytes of one `(Sound, SoundData)` pair: key, entry count, unknown.
const SOUND_PAIR_MIN_SIZE: u64 = 12;

/// Reads the u32-counted `Sounds` map, rejecting nested child nodes.
fn read_sounds<R: Read + Seek>(
    reader: &mut R,
    endian: Endian,
    (): (),
) -> BinResult<Vec<(Sound, SoundData)>> {
    let count = u32::read_options(reader, endian, ())?;
    check_count(reader, u64::from(count), SOUND_PAIR_MIN_SIZE)?;
    let mut sounds = Vec::with_capacity(usize::try_from(count).unwrap_or(0));
    for _ in 0..count {
        let sound = Sound::read_options(reader, endian, ())?;
        let data = SoundData::read_options(reader, endian, ())?;
        if data.unknown != 0 {
            return Err(binrw::Error::Custom {
                pos: reader.stream_position()?.saturating_sub(4),
                err: Box::new(NestedSoundNodesError {
                    sound,
                    child_count: data.unknown,
                }),
            });
        }
        sounds.push((sound, data));
    }
    Ok(sounds)
}

/// Writes the u32-counted `Sounds` map; nested child counts cannot be written.
#[allow(
    clippy::ptr_arg,
    reason = "binrw write_with hands the field as &Vec<T>"
)]
fn write_sounds<W: Write + Seek>(
    sounds: &Vec<(Sound, SoundData)>,
    writer: &mut W,
    endian: Endian,
    (): (),
) -> BinResult<()> {
    count_u32(writer, sounds.len())?.write_options(writer, endian, ())?;
    for (sound, data) in sounds {
        if data.unknown != 0 {
            return Err(binrw::Error::Custom {
                pos: writer.stream_position()?,
                err: Box::new(NestedSoundNodesError {
                    sound: *sound,
                    child_count: data.unknown,
                }),
            });
        }
        sound.write_options(writer, endian, ())?;
        count_u32(writer, data.entries.len())?.write_options(writer, endian, ())?;
        write_items(&data.entries, writer, endian)?;
        data.unknown.write_options(writer, endian, ())?;
    }
    Ok(())
}
