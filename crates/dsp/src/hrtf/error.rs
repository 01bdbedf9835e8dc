//! [`HrirError`]: why an HRIR set could not be built or loaded.

use std::fmt;

/// Why an HRIR set could not be built, loaded or resampled. Every message is one plain line.
#[derive(Clone, Debug, PartialEq)]
pub enum HrirError {
    /// The file could not be read.
    Io(String),
    /// The bytes are not a readable HDF5/SOFA file (the parser's message).
    Parse(String),
    /// A global attribute has the wrong value (e.g. `SOFAConventions` is not
    /// `SimpleFreeFieldHRIR`, or `DataType` is not `FIR`).
    Convention {
        /// The attribute's name.
        attribute: &'static str,
        /// The value that was expected.
        expected: &'static str,
        /// The value found (empty when the attribute is absent).
        found: String,
    },
    /// A variable the convention requires is absent or unreadable.
    MissingVariable(&'static str),
    /// A variable's shape does not match the others.
    Shape(String),
    /// A size is beyond the documented limits (memory stays bounded).
    TooLarge {
        /// What is too large.
        what: &'static str,
        /// Its value.
        value: usize,
        /// The limit.
        limit: usize,
    },
    /// A sample rate is not a finite rate in [`crate::SAMPLE_RATE_RANGE`].
    SampleRate(f64),
    /// A sample or a position is NaN or infinite.
    NotFinite(&'static str),
    /// No measured direction (or no tap) at all.
    Empty,
    /// The resampler refused the conversion (its message).
    Resample(String),
}

impl fmt::Display for HrirError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Io(m) => write!(f, "cannot read the HRIR file: {m}"),
            Self::Parse(m) => write!(f, "not a readable SOFA (HDF5) file: {m}"),
            Self::Convention {
                attribute,
                expected,
                found,
            } => write!(
                f,
                "SOFA attribute {attribute} is {found:?}, expected {expected:?}"
            ),
            Self::MissingVariable(v) => write!(f, "SOFA variable {v} is missing or unreadable"),
            Self::Shape(m) => write!(f, "HRIR data has an inconsistent shape: {m}"),
            Self::TooLarge { what, value, limit } => {
                write!(f, "HRIR {what} is {value}, more than the limit {limit}")
            }
            Self::SampleRate(r) => write!(f, "HRIR sample rate {r} Hz is not usable"),
            Self::NotFinite(what) => write!(f, "HRIR {what} holds NaN or infinity"),
            Self::Empty => write!(f, "HRIR set has no measured direction"),
            Self::Resample(m) => write!(f, "cannot resample the HRIRs: {m}"),
        }
    }
}

impl std::error::Error for HrirError {}
