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
