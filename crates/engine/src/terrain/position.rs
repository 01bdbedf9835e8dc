//! AC positions in the retail landblock-local text form `0xXXYYCCCC:X,Y,Z`, checked.

use glam::Vec3;
use resound_ambient::Position;
use resound_ambient::geometry::{is_land_cell, is_valid_cell_id, origin_in_cell};

/// Largest |Z| accepted (metres).
pub const MAX_ABS_Z: f32 = 10_000.0;

/// Why a position text was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum PositionError {
    /// No `:` between the cell id and the coordinates.
    #[error("{0:?}: expected 0xXXYYCCCC:X,Y,Z")]
    Form(String),
    /// The cell id is not hexadecimal.
    #[error("{0:?} is not a hexadecimal cell id")]
    CellId(String),
    /// A coordinate is not a number.
    #[error("{0:?} is not a number")]
    Number(String),
    /// Not exactly three coordinates.
    #[error("{0:?}: expected three coordinates X,Y,Z")]
    Count(String),
    /// The id names no land cell, EnvCell or landblock of a valid landblock.
    #[error(
        "cell id 0x{0:08X} is not a valid land cell, EnvCell or landblock id: it is not a land cell (0xXXYY0001..0xXXYY0040), an EnvCell (0xXXYY0100..0xXXYYFFFD) or a landblock (0xXXYYFFFF) with XX, YY at most 0xFE"
    )]
    InvalidCell(u32),
    /// The point lies outside the named cell.
    #[error(
        "({x:?}, {y:?}) is not inside cell 0x{id:08X}: the point lies outside cell 0x{id:08X} (X in [{}, {}), Y in [{}, {}), landblock-relative metres)",
        lo[0], hi[0], lo[1], hi[1]
    )]
    Outside {
        /// The cell id.
        id: u32,
        /// X.
        x: f32,
        /// Y.
        y: f32,
        /// Lowest X, Y of the cell.
        lo: [f32; 2],
        /// Bound (exclusive) of X, Y.
        hi: [f32; 2],
    },
    /// The height is beyond ±[`MAX_ABS_Z`].
    #[error("height {0:?} is outside -10000..=10000 m (Z in [-10000, 10000])")]
    Height(f32),
}

/// Parses `0xXXYYCCCC:X,Y,Z` (landblock-relative metres, as `resound ambient --at` and
/// `resound acoustics` take them): a valid cell id (`inbound_valid_cellid`), a land cell's
/// point in its 24 m cell, an EnvCell's or landblock's in its landblock, `|Z|` ≤ 10 000 m.
///
/// # Errors
/// [`PositionError`].
pub fn parse_position(text: &str) -> Result<Position, PositionError> {
    let (cell, xyz) = text
        .split_once(':')
        .ok_or_else(|| PositionError::Form(text.to_owned()))?;
    let digits = cell
        .trim()
        .trim_start_matches("0x")
        .trim_start_matches("0X");
    let id = u32::from_str_radix(digits, 16).map_err(|_| PositionError::CellId(cell.to_owned()))?;
    let v = xyz
        .split(',')
        .map(|s| {
            s.trim()
                .parse::<f32>()
                .map_err(|_| PositionError::Number(s.to_owned()))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let [x, y, z] = v[..] else {
        return Err(PositionError::Count(text.to_owned()));
    };
    if !is_valid_cell_id(id) {
        return Err(PositionError::InvalidCell(id));
    }
    let origin = Vec3::new(x, y, z);
    if !origin_in_cell(id, origin) {
        let (lo, hi) = if is_land_cell(id) {
            let c = (id & 0xFFFF) - 1;
            let (cx, cy) = ((c / 8) as f32, (c % 8) as f32);
            (
                [24.0 * cx, 24.0 * cy],
                [24.0 * (cx + 1.0), 24.0 * (cy + 1.0)],
            )
        } else {
            ([0.0; 2], [192.0; 2])
        };
        return Err(PositionError::Outside { id, x, y, lo, hi });
    }
    if !(-MAX_ABS_Z..=MAX_ABS_Z).contains(&z) {
        return Err(PositionError::Height(z));
    }
    Ok(Position::new(id, Vec3::new(x, y, z)))
}

/// The text form of a position, `0xXXYYCCCC:X,Y,Z` with centimetres.
#[must_use]
pub fn show_position(p: &Position) -> String {
    format!(
        "0x{:08X}:{:.2},{:.2},{:.2}",
        p.objcell_id.get(),
        p.origin.x,
        p.origin.y,
        p.origin.z
    )
}

#[cfg(test)]
mod tests;
