//! The listener's Asheron's Call cell for the ambient runtime: by default the outdoor land cell
//! under the listener's voxel position; a host can name the cell instead, outdoor or indoor
//! (an EnvCell, low word `0x0100..=0xFFFD`), with the EnvCell's `seen_outside` flag given or
//! read from the cell dat's EnvCell record ([`Engine::set_listener_cell`](crate::Engine)).
//!
//! Retail gathers land ambient at a cell change only when the cell is outdoor or sees outside
//! (`CellManager::ChangePosition` @ 0x004559B0: `isOutdoorCell(newPos) ||
//! curr_cell->seen_outside` gates `LScape::add_ambient_sounds` @ 0x00505810); the EnvCell hook
//! `CEnvCell::add_ambient_sounds` @ 0x00694750 is an empty stub. So an EnvCell without
//! `seen_outside` hears no land ambient, and one with it hears the outdoor set of its landblock
//! (spec `ambient-data-path.md` §5, `ambient-runtime.md` rebuild step 3).

use glam::{DVec3, Vec3};
use resound_ambient::Position;
use resound_ambient::geometry::{is_land_cell, is_valid_cell_id};
use thiserror::Error;

use crate::terrain::axes::BLOCK_METRES;

/// Where an EnvCell's `seen_outside` flag comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeenOutside {
    /// Read from the cell dat's EnvCell record (`Flags & SeenOutside`) through the attached
    /// ambient source, once, when the cell is set.
    FromCellDat,
    /// Given by the host.
    Given(bool),
}

/// The AC cell the ambient runtime takes the listener to be in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ListenerCell {
    /// The outdoor land cell `0xXXYY00CC` under the listener's voxel position, followed as the
    /// listener moves (the default).
    #[default]
    Outdoor,
    /// A cell the host names, held until it names another: a land cell
    /// (`0xXXYY0001..=0xXXYY0040`; `seen_outside` is not used) or an EnvCell
    /// (`0xXXYY0100..=0xXXYYFFFD`). The listener's voxel position is expressed relative to
    /// this cell's landblock.
    Cell {
        /// The cell id.
        id: u32,
        /// Whether the (EnvCell) cell sees outside.
        seen_outside: SeenOutside,
    },
}

impl ListenerCell {
    /// An EnvCell whose `seen_outside` flag the engine reads from the cell dat.
    #[must_use]
    pub const fn env_cell(id: u32) -> Self {
        Self::Cell {
            id,
            seen_outside: SeenOutside::FromCellDat,
        }
    }

    /// An EnvCell with the `seen_outside` flag the host gives.
    #[must_use]
    pub const fn env_cell_seen_outside(id: u32, seen_outside: bool) -> Self {
        Self::Cell {
            id,
            seen_outside: SeenOutside::Given(seen_outside),
        }
    }

    /// A land cell named explicitly (held even when the listener walks out of it).
    #[must_use]
    pub const fn land_cell(id: u32) -> Self {
        Self::Cell {
            id,
            seen_outside: SeenOutside::Given(false),
        }
    }
}

/// Why [`Engine::set_listener_cell`](crate::Engine) refused a cell (the listener's cell is
/// left as it was).
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ListenerCellError {
    /// No ambient runtime is attached (the cell belongs to it; attach first).
    #[error("no ambient runtime is attached")]
    NotAttached,
    /// The id is neither a land cell nor an EnvCell.
    #[error(
        "cell id {0:#010x} is not a land cell (low word 0x0001..=0x0040) or an EnvCell (0x0100..=0xFFFD)"
    )]
    InvalidCell(u32),
    /// `SeenOutside::FromCellDat` and the cell dat has no such EnvCell.
    #[error("the cell dat has no EnvCell {0:#010x}")]
    NoEnvCell(u32),
    /// `SeenOutside::FromCellDat` and the EnvCell record could not be read.
    #[error("EnvCell {cell:#010x} could not be read")]
    Read {
        /// The cell.
        cell: u32,
        /// Why.
        #[source]
        source: crate::sound::SourceError,
    },
}

/// A named cell with its flag known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct HeldCell {
    /// The cell id.
    pub id: u32,
    /// Whether it sees outside (`false` for a land cell, whose flag is not used).
    pub seen_outside: bool,
}

/// Whether `id` may be the listener's cell: a land cell or an EnvCell (`inbound_valid_cellid`
/// without the landblock id `0xFFFF`).
pub(crate) fn valid_cell(id: u32) -> bool {
    is_valid_cell_id(id) && (is_land_cell(id) || (0x0100..=0xFFFD).contains(&(id & 0xFFFF)))
}

/// The AC position of voxel position `v` in cell `id`: the origin is relative to the cell's
/// landblock (it may lie outside `[0, 192)`); `None` for non-finite input.
pub(crate) fn position_in(id: u32, v: DVec3) -> Option<Position> {
    if !v.is_finite() {
        return None;
    }
    // Voxel (x east, y up, z south) → AC global metres (east, north, up); terrain/axes.rs.
    let (gx, gy, gz) = (v.x, -v.z, v.y);
    let [xx, yy, _, _] = id.to_be_bytes();
    let origin = Vec3::new(
        (gx - f64::from(xx) * BLOCK_METRES) as f32,
        (gy - f64::from(yy) * BLOCK_METRES) as f32,
        gz as f32,
    );
    origin.is_finite().then(|| Position::new(id, origin))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::terrain::{ac_to_voxel, voxel_to_ac};

    #[test]
    fn a_named_cell_keeps_the_listener_where_the_outdoor_cell_has_it() {
        let outdoor = Position::new(0xA9B4_0016, Vec3::new(60.0, 130.0, 12.5));
        let v = ac_to_voxel(&outdoor);
        assert_eq!(voxel_to_ac(v), Some(outdoor));
        let inside = position_in(0xA9B4_0100, v).unwrap();
        assert_eq!(inside.objcell_id.get(), 0xA9B4_0100);
        assert_eq!(inside.origin, outdoor.origin);
        // A cell of the next landblock east: the origin is 192 m further west.
        let east = position_in(0xAAB4_0100, v).unwrap();
        assert_eq!(east.origin, Vec3::new(60.0 - 192.0, 130.0, 12.5));
        assert!(position_in(0xA9B4_0100, DVec3::NAN).is_none());
    }

    #[test]
    fn only_land_cells_and_env_cells_are_listener_cells() {
        assert!(valid_cell(0xA9B4_0001));
        assert!(valid_cell(0xA9B4_0040));
        assert!(valid_cell(0xA9B4_0100));
        assert!(valid_cell(0xA9B4_FFFD));
        for bad in [
            0,
            0xA9B4_0000,
            0xA9B4_0041,
            0xA9B4_00FF,
            0xA9B4_FFFE,
            0xA9B4_FFFF,
        ] {
            assert!(!valid_cell(bad), "{bad:#010x}");
        }
    }
}
