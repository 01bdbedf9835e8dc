//! Errors of reading and writing records.

use super::codec_error::{CountExceedsDataError, ValueTooLargeError};
use super::sound::Sound;

/// Reading a record from its payload bytes failed. The message is one plain line: record type,
/// id, byte offset, the field being read and what was wrong; no cause is chained behind it.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ReadRecordError {
    /// The bytes do not form a valid record (truncated, a count larger than the remaining
    /// bytes, an invalid value, …).
    #[error("{record} {}: at byte {offset}{}: {fault}", IdDisplay(*.id), FieldDisplay(.field))]
    Malformed {
        /// Record type name ([`Record::NAME`](super::Record::NAME)).
        record: &'static str,
        /// The record id, when the first four bytes could be read.
        id: Option<u32>,
        /// Byte offset from the start of the payload where parsing failed.
        offset: u64,
        /// The field being read, outermost first (`land_defs.land_height_table`), when known.
        field: Option<String>,
        /// What was wrong.
        fault: Fault,
    },
    /// The record parsed but bytes other than zero padding follow its last field.
    #[error(
        "{record} {}: {remaining} trailing bytes after byte {offset}, not all zero (first non-zero \
         at byte {nonzero_at})",
        IdDisplay(*.id)
    )]
    TrailingBytes {
        /// Record type name.
        record: &'static str,
        /// The record id.
        id: Option<u32>,
        /// Offset where the record ended.
        offset: u64,
        /// Number of unread bytes.
        remaining: u64,
        /// Offset of the first non-zero trailing byte.
        nonzero_at: u64,
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

    /// What was wrong, for [`ReadRecordError::Malformed`].
    #[must_use]
    pub fn fault(&self) -> Option<&Fault> {
        match self {
            Self::Malformed { fault, .. } => Some(fault),
            _ => None,
        }
    }
}

/// Writing a record to bytes failed (a value that cannot be encoded, e.g. a list longer than
/// its count field allows or a PartsMask that disagrees with the present parts).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum WriteRecordError {
    /// The record could not be encoded.
    #[error("{record} 0x{id:08X}: cannot write at byte {offset}{}: {fault}", FieldDisplay(.field))]
    Unencodable {
        /// Record type name.
        record: &'static str,
        /// The record id.
        id: u32,
        /// Output offset where encoding failed.
        offset: u64,
        /// The field being written, outermost first, when known.
        field: Option<String>,
        /// What was wrong.
        fault: Fault,
    },
}

/// What was wrong with a record's bytes or values, in plain words: binrw's error mapped to
/// datformat's own, without binrw's backtrace, colours or source locations.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Fault {
    /// The data ends before the field is complete.
    #[error("expected more bytes, the data ends (truncated)")]
    Truncated,
    /// A count needs more bytes than remain.
    #[error("{0}")]
    CountExceedsData(CountExceedsDataError),
    /// A value does not fit its on-disk field.
    #[error("{0}")]
    ValueTooLarge(ValueTooLargeError),
    /// `SoundData` announces nested child nodes.
    #[error("{0}")]
    NestedSoundNodes(NestedSoundNodesError),
    /// A value failed a check (an assertion, a magic number, an enum tag).
    #[error("{message}")]
    Invalid {
        /// What was expected.
        message: String,
    },
}

/// binrw's error as (position, field path, fault).
pub(crate) fn map_binrw(error: &binrw::Error) -> (Option<u64>, Option<String>, Fault) {
    let mut fields: Vec<String> = Vec::new();
    let mut e = error;
    while let binrw::Error::Backtrace(bt) = e {
        // frames are innermost first; keep the path outermost first
        let mut names: Vec<String> = bt.frames.iter().filter_map(frame_field).collect();
        names.reverse();
        names.extend(fields);
        fields = names;
        e = &bt.error;
    }
    let (pos, fault) = match e {
        binrw::Error::Io(io) if io.kind() == std::io::ErrorKind::UnexpectedEof => {
            (None, Fault::Truncated)
        }
        binrw::Error::Io(io) => (
            None,
            Fault::Invalid {
                message: format!("I/O error: {}", io.kind()),
            },
        ),
        binrw::Error::Custom { pos, err } => {
            let fault = if let Some(c) = err.downcast_ref::<CountExceedsDataError>() {
                Fault::CountExceedsData(c.clone())
            } else if let Some(v) = err.downcast_ref::<ValueTooLargeError>() {
                Fault::ValueTooLarge(v.clone())
            } else if let Some(n) = err.downcast_ref::<NestedSoundNodesError>() {
                Fault::NestedSoundNodes(n.clone())
            } else {
                Fault::Invalid {
                    message: plain(&err.to_string()),
                }
            };
            (Some(*pos), fault)
        }
        binrw::Error::AssertFail { pos, message } => (
            Some(*pos),
            Fault::Invalid {
                message: plain(message),
            },
        ),
        binrw::Error::BadMagic { pos, found } => (
            Some(*pos),
            Fault::Invalid {
                message: plain(&format!("unexpected magic {found:?}")),
            },
        ),
        binrw::Error::NoVariantMatch { pos } | binrw::Error::EnumErrors { pos, .. } => (
            Some(*pos),
            Fault::Invalid {
                message: "no variant matches the tag".to_owned(),
            },
        ),
        _ => (
            None,
            Fault::Invalid {
                message: "unreadable value".to_owned(),
            },
        ),
    };
    let field = (!fields.is_empty()).then(|| fields.join("."));
    (pos, field, fault)
}

/// The field name of a binrw context frame (`While parsing field 'x' in Y` → `x`).
fn frame_field(frame: &binrw::error::BacktraceFrame) -> Option<String> {
    let message = match frame {
        binrw::error::BacktraceFrame::Full { message, .. }
        | binrw::error::BacktraceFrame::Message(message) => message,
        binrw::error::BacktraceFrame::Custom(_) => return None,
    };
    let start = message.find('\'')? + 1;
    let len = message.get(start..)?.find('\'')?;
    message.get(start..start + len).map(str::to_owned)
}

/// `text` with control characters (ANSI escapes among them) removed and line breaks as spaces.
pub(super) fn plain(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // CSI: ESC [ parameters… final byte in @..~
            for d in chars.by_ref() {
                if ('@'..='~').contains(&d) && d != '[' {
                    break;
                }
            }
        } else if c.is_control() {
            if !out.ends_with(' ') {
                out.push(' ');
            }
        } else {
            out.push(c);
        }
    }
    out.trim().to_owned()
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
            Some(id) => write!(f, "0x{id:08X}"),
            None => f.write_str("(id unknown)"),
        }
    }
}

/// Formats an optional field path as ` in field x.y`, or nothing.
struct FieldDisplay<'a>(&'a Option<String>);

impl std::fmt::Display for FieldDisplay<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(field) => write!(f, " in field {field}"),
            None => Ok(()),
        }
    }
}
