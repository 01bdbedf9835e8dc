//! The Iteration record, file id 0xFFFF0001, present in retail dats (spec §1.8).
//!
//! Layout (no DBObj header): `i32 current`, then `(i32 consecutive, i32 starting)` pairs read
//! while the running sum `current + Σ consecutive` is > 0. Retail: `current, -current, 1`.

use super::bytes::put32;

/// File id of the Iteration record.
pub const ITERATION_ID: u32 = 0xFFFF_0001;

/// One run of iterations: `consecutive` iterations starting at `starting`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IterationRange {
    /// Number of iterations (retail stores it negated).
    pub consecutive: i32,
    /// First iteration of the run.
    pub starting: i32,
}

/// The Iteration record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration {
    /// The dat's current iteration.
    pub current: i32,
    /// The runs, in file order.
    pub ranges: Vec<IterationRange>,
}

/// Decoding an Iteration payload failed.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum IterationError {
    /// The payload ends inside a field.
    #[error("Iteration 0xFFFF0001: payload ends at byte {offset} inside a field")]
    Truncated {
        /// Byte offset of the incomplete field.
        offset: usize,
    },
    /// Bytes remain after the last run.
    #[error("Iteration 0xFFFF0001: {len} bytes left over at byte {offset}")]
    TrailingBytes {
        /// Offset of the first unread byte.
        offset: usize,
        /// Bytes left.
        len: usize,
    },
}

impl Iteration {
    /// The retail form: `current`, one run of `-current` iterations starting at 1. This is
    /// also what DatReaderWriter writes.
    #[must_use]
    pub fn new(current: i32) -> Self {
        Self {
            current,
            ranges: vec![IterationRange {
                consecutive: current.wrapping_neg(),
                starting: 1,
            }],
        }
    }

    /// Decodes a payload, consuming exactly all bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, IterationError> {
        let read = |at: usize| -> Result<i32, IterationError> {
            bytes
                .get(at..at + 4)
                .and_then(|s| <[u8; 4]>::try_from(s).ok())
                .map(i32::from_le_bytes)
                .ok_or(IterationError::Truncated { offset: at })
        };
        let current = read(0)?;
        let mut sum = i64::from(current);
        let mut ranges = Vec::new();
        let mut at = 4;
        // Each run takes 8 bytes, so the loop ends by the payload length at the latest.
        while sum > 0 {
            let consecutive = read(at)?;
            let starting = read(at + 4)?;
            ranges.push(IterationRange {
                consecutive,
                starting,
            });
            sum += i64::from(consecutive);
            at += 8;
        }
        if at != bytes.len() {
            return Err(IterationError::TrailingBytes {
                offset: at,
                len: bytes.len() - at,
            });
        }
        Ok(Self { current, ranges })
    }

    /// Encodes the record.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = vec![0u8; 4 + 8 * self.ranges.len()];
        put32(&mut out, 0, self.current as u32);
        for (i, r) in self.ranges.iter().enumerate() {
            put32(&mut out, 4 + 8 * i, r.consecutive as u32);
            put32(&mut out, 8 + 8 * i, r.starting as u32);
        }
        out
    }
}
