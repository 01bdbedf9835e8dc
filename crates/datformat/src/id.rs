//! Typed DAT ids for values that cross a crate boundary: a [`WaveId`], a [`SoundTableId`] and a
//! [`CellId`] cannot be mixed up. Each wraps the raw `u32`, serialises as that number
//! (`serde(transparent)`) and displays in the one house style, `0x0A000101` (lower-case `0x`,
//! eight upper-case digits). The records keep raw `u32` fields; convert with `From`.

#[cfg(test)]
mod tests;

use std::fmt;

use serde::{Deserialize, Serialize};

macro_rules! dat_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(
            Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
        )]
        #[serde(transparent)]
        pub struct $name(pub u32);

        impl $name {
            /// The raw id.
            #[must_use]
            pub const fn get(self) -> u32 {
                self.0
            }
        }

        impl From<u32> for $name {
            fn from(id: u32) -> Self {
                Self(id)
            }
        }

        impl From<$name> for u32 {
            fn from(id: $name) -> u32 {
                id.0
            }
        }

        impl PartialEq<u32> for $name {
            fn eq(&self, other: &u32) -> bool {
                self.0 == *other
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "0x{:08X}", self.0)
            }
        }
    };
}

dat_id!(
    /// A `Wave` record id in the portal dat (`0x0A……`).
    WaveId
);
dat_id!(
    /// A `SoundTable` record id in the portal dat (`0x20……`).
    SoundTableId
);
dat_id!(
    /// An object cell id `0xXXYYCCCC`: landblock x and y, then the cell (a land cell
    /// `0x0001..=0x0040`, an EnvCell `0x0100..=0xFFFD`, the landblock `0xFFFF`).
    CellId
);

/// Why an id text was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseIdError {
    /// Neither `0x` hex nor decimal.
    #[error("bad id {0:?}: use decimal or 0x hex (e.g. 0x13000000)")]
    Id(String),
    /// Not hexadecimal.
    #[error("{0:?} is not a hexadecimal id")]
    Hex(String),
    /// A hexadecimal id outside the Region range.
    #[error("0x{0:08X} is not a Region id (0x13000000..=0x1300FFFF)")]
    Region(u32),
}

/// Parses an entry id: `0x` hex or decimal, `_` separators allowed.
///
/// # Errors
/// [`ParseIdError::Id`].
pub fn parse_id(text: &str) -> Result<u32, ParseIdError> {
    let t = text.trim().replace('_', "");
    let parsed = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(hex) => u32::from_str_radix(hex, 16),
        None => t.parse(),
    };
    parsed.map_err(|_| ParseIdError::Id(text.to_owned()))
}

/// Parses a Region id: hexadecimal (`0x` optional), `0x13000000..=0x1300FFFF`.
///
/// # Errors
/// [`ParseIdError::Hex`], [`ParseIdError::Region`].
pub fn parse_region_id(text: &str) -> Result<u32, ParseIdError> {
    let t = text.trim();
    let digits = t
        .strip_prefix("0x")
        .or_else(|| t.strip_prefix("0X"))
        .unwrap_or(t);
    let id = u32::from_str_radix(digits, 16).map_err(|_| ParseIdError::Hex(text.to_owned()))?;
    if id >> 16 != 0x1300 {
        return Err(ParseIdError::Region(id));
    }
    Ok(id)
}
