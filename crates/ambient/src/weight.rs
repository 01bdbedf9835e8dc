//! `Ambient::CalcWeight` and `Ambient::CalcDir`: how much a land cell contributes and from
//! which of the eight directions (spec `ambient-data-path.md` §4.2, `ambient-runtime.md`
//! §3.6–3.7), with the retail constants (`.data` 0x0081F148–0x0081F158).

#[cfg(test)]
mod tests;

use glam::Vec3;

use crate::geometry::Direction;

/// `Ambient::ambient_sound_min_dist` @ 0x0081F148: full weight within 20 m.
pub const AMBIENT_SOUND_MIN_DIST: f32 = 20.0;
/// `Ambient::ambient_sound_min_dist_sq` @ 0x0081F14C.
pub const AMBIENT_SOUND_MIN_DIST_SQ: f32 = 400.0;
/// `Ambient::ambient_sound_max_dist` @ 0x0081F150: silent beyond 120 m.
pub const AMBIENT_SOUND_MAX_DIST: f32 = 120.0;
/// `Ambient::ambient_sound_max_dist_sq` @ 0x0081F154.
pub const AMBIENT_SOUND_MAX_DIST_SQ: f32 = 14400.0;
/// `Ambient::ambient_sound_min_vol` @ 0x0081F158 (0.03, stored as 0.029999999).
pub const AMBIENT_SOUND_MIN_VOL: f32 = 0.03;
/// The Ambient module's `upper_bound`: the direction jitter arc, π/8 (stored 0.39269909).
pub const DIRECTION_JITTER: f32 = std::f32::consts::FRAC_PI_8;

/// `Ambient::CalcWeight` @ 0x00550DD0 (byte-verified): 0 beyond 120 m (`d² > 14400`), 1 within
/// 20 m (`d² < 400`), otherwise `400 / d²`, with `d²` the 3-D squared length.
#[must_use]
pub fn calc_weight(offset: Vec3) -> f32 {
    let d2 = offset.x * offset.x + offset.y * offset.y + offset.z * offset.z;
    if d2 > AMBIENT_SOUND_MAX_DIST_SQ {
        return 0.0;
    }
    if d2 < AMBIENT_SOUND_MIN_DIST_SQ {
        return 1.0;
    }
    AMBIENT_SOUND_MIN_DIST_SQ / d2
}

/// `Ambient::CalcDir` @ 0x00550E40 (acclient.c:383879): the octant of the sound as seen from the
/// player, from x and y only. Within `x² + y² < 200` it is `IN_VIEWER_BLOCK`; the cardinal
/// sectors are 53.13° wide (`|y|/|x| > 2` or `|x|/|y| > 2`), the diagonals 36.87°.
#[must_use]
pub fn calc_dir(offset: Vec3) -> Direction {
    let (x, y) = (offset.x, offset.y);
    if x * x + y * y < AMBIENT_SOUND_MIN_DIST_SQ * 0.5 {
        return Direction::InViewerBlock;
    }
    let ax = x.abs();
    let ay = y.abs();
    if ax < 0.0002 || ay / ax > 2.0 {
        return if y >= 0.0 {
            Direction::North
        } else {
            Direction::South
        };
    }
    if ay < 0.0002 || ax / ay > 2.0 {
        return if x < 0.0 {
            Direction::West
        } else {
            Direction::East
        };
    }
    match (x < 0.0, y < 0.0) {
        (true, true) => Direction::SouthWest,
        (true, false) => Direction::NorthWest,
        (false, true) => Direction::SouthEast,
        (false, false) => Direction::NorthEast,
    }
}
