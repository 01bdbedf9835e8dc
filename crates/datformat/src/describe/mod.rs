//! One parsed entry of any [`RecordType`], with a text rendering (`Display`) and a JSON shape
//! (`Serialize`), so the CLI, tests and other tools print records the same way.
//!
//! The JSON of Region, SoundTable, LandBlock and LandBlockInfo is the record itself (field names
//! are snake_case forms of DatReaderWriter's); a Wave is summarised (its header bytes and the
//! facts decoded from them, the sample data by its size) and an Iteration lists its ranges.

mod text;

use std::fmt;

use serde::{Serialize, Serializer};

use crate::container::{Iteration, IterationError, Trimmed};
use crate::entry_type::RecordType;
use crate::record::{
    LandBlock, LandBlockInfo, Padded, ReadRecordError, Record, Region, SoundTable, Wave,
    WriteRecordError,
};

/// A parsed entry.
#[derive(Clone, Debug, PartialEq)]
pub enum Decoded {
    /// A Region (boxed: it is six times larger than the others).
    Region(Box<Region>),
    /// A SoundTable.
    SoundTable(SoundTable),
    /// A Wave.
    Wave(Wave),
    /// A LandBlock.
    LandBlock(LandBlock),
    /// A LandBlockInfo.
    LandBlockInfo(LandBlockInfo),
    /// The Iteration record.
    Iteration(Iteration),
}

/// Parsing an entry as a [`RecordType`] failed. The message is the cause's own line.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeError {
    /// A DBObj record failed to parse.
    #[error("{0}")]
    Record(ReadRecordError),
    /// The Iteration record failed to parse.
    #[error("{0}")]
    Iteration(IterationError),
}

impl Decoded {
    /// Parses `bytes` (one entry's payload) as `kind`, counting zero padding after the last
    /// field (for every type, the Iteration record included).
    pub fn parse(kind: RecordType, bytes: &[u8]) -> Result<Padded<Self>, DecodeError> {
        fn rec<T: Record>(
            bytes: &[u8],
            wrap: fn(T) -> Decoded,
        ) -> Result<Padded<Decoded>, DecodeError> {
            let p = T::from_bytes_padded(bytes).map_err(DecodeError::Record)?;
            Ok(Padded {
                record: wrap(p.record),
                padding: p.padding,
            })
        }
        match kind {
            RecordType::Region => rec(bytes, |r| Self::Region(Box::new(r))),
            RecordType::SoundTable => rec(bytes, Self::SoundTable),
            RecordType::Wave => rec(bytes, Self::Wave),
            RecordType::LandBlock => rec(bytes, Self::LandBlock),
            RecordType::LandBlockInfo => rec(bytes, Self::LandBlockInfo),
            RecordType::Iteration => {
                let (it, padding) = match Iteration::from_bytes(bytes) {
                    // zero bytes after the last run are padding, as after any record
                    Err(IterationError::TrailingBytes { offset, len })
                        if bytes
                            .get(offset..)
                            .is_some_and(|r| r.iter().all(|&b| b == 0)) =>
                    {
                        let head = bytes.get(..offset).unwrap_or_default();
                        (Iteration::from_bytes(head), len)
                    }
                    other => (other, 0),
                };
                Ok(Padded {
                    record: Self::Iteration(it.map_err(DecodeError::Iteration)?),
                    padding,
                })
            }
        }
    }

    /// [`Decoded::parse`] over a payload read by `DatReader::read_entry_trimmed`: parsed from
    /// its bytes and the first [`TAIL_SLACK`] zeros after them, the other zeros counted into
    /// the padding without existing. A payload up to [`WHOLE_PAYLOAD_CAP`] that does not parse
    /// so is parsed whole (a record whose zero-valued fields run past the slack, as a Wave
    /// ending in silence), so up to that size the result is [`Decoded::parse`]'s.
    pub fn parse_trimmed(kind: RecordType, payload: &Trimmed) -> Result<Padded<Self>, DecodeError> {
        let slack = payload.zeros.min(TAIL_SLACK);
        let mut bytes = Vec::with_capacity(payload.head.len() + slack as usize);
        bytes.extend_from_slice(&payload.head);
        bytes.resize(payload.head.len() + slack as usize, 0);
        let rest = (payload.zeros - slack) as usize;
        match Self::parse(kind, &bytes) {
            Ok(mut p) => {
                p.padding += rest;
                Ok(p)
            }
            Err(_) if rest > 0 && payload.len() <= WHOLE_PAYLOAD_CAP => {
                bytes.resize(payload.len() as usize, 0);
                Self::parse(kind, &bytes)
            }
            Err(e) => Err(e),
        }
    }

    /// The record's type.
    #[must_use]
    pub fn record_type(&self) -> RecordType {
        match self {
            Self::Region(_) => RecordType::Region,
            Self::SoundTable(_) => RecordType::SoundTable,
            Self::Wave(_) => RecordType::Wave,
            Self::LandBlock(_) => RecordType::LandBlock,
            Self::LandBlockInfo(_) => RecordType::LandBlockInfo,
            Self::Iteration(_) => RecordType::Iteration,
        }
    }

    /// Writes the record back (without padding).
    pub fn to_bytes(&self) -> Result<Vec<u8>, WriteRecordError> {
        match self {
            Self::Region(r) => r.to_bytes(),
            Self::SoundTable(t) => t.to_bytes(),
            Self::Wave(w) => w.to_bytes(),
            Self::LandBlock(b) => b.to_bytes(),
            Self::LandBlockInfo(i) => i.to_bytes(),
            Self::Iteration(it) => Ok(it.to_bytes()),
        }
    }
}

impl Padded<Decoded> {
    /// The entry's bytes: the record followed by its zero padding.
    pub fn to_bytes(&self) -> Result<Vec<u8>, WriteRecordError> {
        let mut bytes = self.record.to_bytes()?;
        bytes.resize(bytes.len() + self.padding, 0);
        Ok(bytes)
    }
}

/// Zero bytes of a trimmed payload's tail handed to the parser (a record whose last fields are
/// zero needs some of them); the rest are counted as padding without existing.
pub const TAIL_SLACK: u64 = 64 << 10;

/// A trimmed payload up to this long is parsed whole when its trimmed form does not parse.
pub const WHOLE_PAYLOAD_CAP: u64 = 16 << 20;

/// The text rendering: a header line naming the record and its id, then its contents.
impl fmt::Display for Padded<Decoded> {
    /// The record's text, then a line for its zero padding, if any.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.record)?;
        if self.padding > 0 {
            writeln!(
                f,
                "padding: {} zero bytes after the last field",
                self.padding
            )?;
        }
        Ok(())
    }
}

impl fmt::Display for Decoded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&match self {
            Self::Region(r) => text::region_text(r),
            Self::SoundTable(t) => text::sound_table_text(t),
            Self::Wave(w) => text::wave_text(w),
            Self::LandBlock(b) => text::land_block_text(b),
            Self::LandBlockInfo(i) => text::land_block_info_text(i),
            Self::Iteration(it) => text::iteration_text(it),
        })
    }
}

impl Serialize for Decoded {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Region(r) => r.serialize(serializer),
            Self::SoundTable(t) => t.serialize(serializer),
            Self::Wave(w) => WaveSummary::new(w).serialize(serializer),
            Self::LandBlock(b) => b.serialize(serializer),
            Self::LandBlockInfo(i) => i.serialize(serializer),
            Self::Iteration(it) => IterationSummary::new(it).serialize(serializer),
        }
    }
}

/// The JSON form of a Wave: DRW's `Header` bytes plus the facts decoded from them (the sample
/// data, DRW's `Data`, is summarised by `data_size`).
#[derive(Serialize)]
struct WaveSummary<'a> {
    id: u32,
    format_tag: Option<u16>,
    channels: Option<u16>,
    sample_rate: Option<u32>,
    avg_bytes_per_sec: Option<u32>,
    block_align: Option<u16>,
    bits_per_sample: Option<u16>,
    header: &'a [u8],
    header_size: usize,
    data_size: usize,
    duration_s: f64,
}

impl<'a> WaveSummary<'a> {
    fn new(w: &'a Wave) -> Self {
        Self {
            id: w.id,
            format_tag: w.format_tag(),
            channels: w.channels(),
            sample_rate: w.sample_rate(),
            avg_bytes_per_sec: w.avg_bytes_per_sec(),
            block_align: w.block_align(),
            bits_per_sample: w.bits_per_sample(),
            header: &w.header,
            header_size: w.header.len(),
            data_size: w.data.len(),
            duration_s: text::duration_s(w),
        }
    }
}

/// The JSON form of the Iteration record.
#[derive(Serialize)]
struct IterationSummary {
    current: i32,
    ranges: Vec<RangeSummary>,
}

/// One Iteration range.
#[derive(Serialize)]
struct RangeSummary {
    consecutive: i32,
    starting: i32,
}

impl IterationSummary {
    fn new(it: &Iteration) -> Self {
        Self {
            current: it.current,
            ranges: it
                .ranges
                .iter()
                .map(|r| RangeSummary {
                    consecutive: r.consecutive,
                    starting: r.starting,
                })
                .collect(),
        }
    }
}
