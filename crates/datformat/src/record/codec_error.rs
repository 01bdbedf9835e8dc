//! The binrw custom errors the codec helpers raise: a count that needs more bytes than remain,
//! a value too large for its on-disk field. [`ReadRecordError`](super::ReadRecordError) and
//! [`WriteRecordError`](super::WriteRecordError) classify them as faults.

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
