//! Errors of reading and writing records.

use super::sound::Sound;

/// Reading a record from its payload bytes failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadRecordError {
    /// The bytes do not form a valid record (truncated, a count larger than the remaining
    /// bytes, an invalid value, …). `source` carries binrw's position and cause.
    #[error("{record} {}: malformed at byte {offset}", IdDisplay(*.id))]
    Malformed {
        /// Record type name ([`Record::NAME`](super::Record::NAME)).
        record: &'static str,
        /// The record id, when the first four bytes could be read.
        id: Option<u32>,
        /// Byte offset from the start of the payload where parsing failed.
        offset: u64,
        /// The underlying binrw error.
        #[source]
        source: binrw::Error,
    },
    /// The record parsed but did not consume all bytes of the entry.
    #[error("{record} {}: {remaining} trailing bytes after byte {offset}", IdDisplay(*.id))]
    TrailingBytes {
        /// Record type name.
        record: &'static str,
        /// The record id.
        id: Option<u32>,
        /// Offset where the record ended.
        offset: u64,
        /// Number of unread bytes.
        remaining: u64,
    },
    /// A SoundTable `SoundData` announces nested child nodes (`unknown != 0`), which retail
    /// would recurse into. They are not supported; the record is rejected, never skipped.
    #[error(
        "{record} {}: sound {sound:?} at byte {offset} has {child_count} nested child nodes \
         (unsupported)",
        IdDisplay(*.id)
    )]
    NestedSoundNodes {
        /// Record type name.
        record: &'static str,
        /// The record id.
        id: Option<u32>,
        /// Offset of the offending `unknown` field.
        offset: u64,
        /// The sound key whose data carries children.
        sound: Sound,
        /// The child count read.
        child_count: i32,
        /// The underlying binrw error (a [`NestedSoundNodesError`] custom error).
        #[source]
        source: binrw::Error,
    },
}

impl ReadRecordError {
    /// Record type name.
    #[must_use]
    pub fn record(&self) -> &'static str {
        match self {
            Self::Malformed { record, .. }
            | Self::TrailingBytes { record, .. }
            | Self::NestedSoundNodes { record, .. } => record,
        }
    }

    /// Record id, when known.
    #[must_use]
    pub fn id(&self) -> Option<u32> {
        match self {
            Self::Malformed { id, .. }
            | Self::TrailingBytes { id, .. }
            | Self::NestedSoundNodes { id, .. } => *id,
        }
    }

    /// Byte offset (from the start of the payload) of the failure.
    #[must_use]
    pub fn offset(&self) -> u64 {
        match self {
            Self::Malformed { offset, .. }
            | Self::TrailingBytes { offset, .. }
            | Self::NestedSoundNodes { offset, .. } => *offset,
        }
    }
}

/// Writing a record to bytes failed (a value that cannot be encoded, e.g. a list longer than
/// its count field allows or a PartsMask that disagrees with the present parts).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WriteRecordError {
    /// The record could not be encoded.
    #[error("{record} {id:#010X}: cannot write at byte {offset}")]
    Unencodable {
        /// Record type name.
        record: &'static str,
        /// The record id.
        id: u32,
        /// Output offset where encoding failed.
        offset: u64,
        /// The underlying binrw error.
        #[source]
        source: binrw::Error,
    },
}

/// binrw custom error: a count read from the data needs more bytes than remain.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("count {count} needs at least {needed} bytes but only {remaining} remain")]
pub struct CountExceedsDataError {
    /// The count read.
    pub count: u64,
    /// Minimum bytes the items need.
    pub needed: u64,
    /// Bytes left in the payload.
    pub remaining: u64,
}

/// binrw custom error: a value cannot be written in its on-disk field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{what}: {value} does not fit the on-disk field")]
pub struct ValueTooLargeError {
    /// What was being written.
    pub what: &'static str,
    /// The value.
    pub value: u64,
}

/// binrw custom error: `SoundData.unknown` (the nested child count) is non-zero.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("SoundData of {sound:?} has {child_count} nested child nodes (unsupported)")]
pub struct NestedSoundNodesError {
    /// The sound key whose data carries children.
    pub sound: Sound,
    /// The child count read.
    pub child_count: i32,
}

/// Formats an optional id as hex or `?`.
struct IdDisplay(Option<u32>);

impl std::fmt::Display for IdDisplay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(id) => write!(f, "{id:#010X}"),
            None => f.write_str("(id unknown)"),
        }
    }
}
