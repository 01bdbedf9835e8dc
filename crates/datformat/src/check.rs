//! The per-entry check of `resound dat check`: parse an entry as its [`RecordType`], write it
//! back, and compare the bytes; [`report`] tallies the outcomes of whole dats.

pub mod report;

use crate::describe::{DecodeError, Decoded};
use crate::entry_type::RecordType;
use crate::record::WriteRecordError;

/// A passed round trip.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundTrip {
    /// Zero bytes after the record's last field (kept, and written back).
    pub padding: usize,
}

/// A failed round trip. Each message is one plain line holding its cause.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum CheckError {
    /// The entry does not parse.
    #[error("parse: {0}")]
    Parse(DecodeError),
    /// The parsed record cannot be written.
    #[error("write: {0}")]
    Write(WriteRecordError),
    /// The written bytes differ from the entry's.
    #[error("round trip differs {} (wrote {wrote} bytes, read {read})", DiffAt(*.at))]
    Differs {
        /// First differing byte; `None` when one is a prefix of the other.
        at: Option<usize>,
        /// Bytes written.
        wrote: usize,
        /// Bytes in the entry.
        read: usize,
    },
}

/// ` at byte N` or ` in length`.
struct DiffAt(Option<usize>);

impl std::fmt::Display for DiffAt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(at) => write!(f, "at byte {at}"),
            None => f.write_str("in length"),
        }
    }
}

/// Parses `payload` as `kind`, writes it back with its padding and requires the same bytes.
pub fn round_trip(kind: RecordType, payload: &[u8]) -> Result<RoundTrip, CheckError> {
    let decoded = Decoded::parse(kind, payload).map_err(CheckError::Parse)?;
    let written = decoded.to_bytes().map_err(CheckError::Write)?;
    if written == payload {
        return Ok(RoundTrip {
            padding: decoded.padding,
        });
    }
    Err(CheckError::Differs {
        at: written.iter().zip(payload).position(|(a, b)| a != b),
        wrote: written.len(),
        read: payload.len(),
    })
}
