//! Directions in head coordinates, and their azimuth/elevation.
//!
//! **Head coordinates** are the engine's listener axes (`resound_engine::Orientation`'s
//! default): **x right, y up, −z forward** (ahead of the nose), right-handed. A direction is a
//! vector from the centre of the head towards the source; its length does not matter.
//!
//! **Azimuth/elevation** follow AES69 (SOFA) spherical coordinates: azimuth in degrees counted
//! from straight ahead (0°) *counter-clockwise seen from above*, so +90° is the left ear and
//! 270° (or −90°) the right; elevation in degrees, +90° straight up, −90° straight down.

/// The listener's head: unit `forward` and `up` in world axes (need not be exactly orthogonal).
///
/// Turns a world-space offset (source − listener) into head coordinates, so the caller's yaw
/// and pitch count.
pub fn head_direction(offset: [f32; 3], forward: [f32; 3], up: [f32; 3]) -> Option<[f32; 3]> {
    let right = normalize(cross(forward, up))?;
    let fwd = normalize(forward)?;
    let up = cross(right, fwd);
    let v = [dot(offset, right), dot(offset, up), -dot(offset, fwd)];
    normalize(v)
}

/// Azimuth and elevation in degrees (azimuth in `[0, 360)`) of a head-coordinate direction.
/// A zero or non-finite vector gives straight ahead `(0, 0)`.
pub fn azimuth_elevation(dir: [f32; 3]) -> (f32, f32) {
    let Some([x, y, z]) = normalize(dir) else {
        return (0.0, 0.0);
    };
    // SOFA's cartesian axes are x ahead, y left, z up.
    let (sx, sy, sz) = (-z, -x, y);
    let mut az = sy.atan2(sx).to_degrees();
    if az < 0.0 {
        az += 360.0;
    }
    if az >= 360.0 {
        az -= 360.0;
    }
    let el = sz.atan2(sx.hypot(sy)).to_degrees();
    (az, el)
}

/// The unit head-coordinate direction of an azimuth and elevation in degrees (AES69 angles).
pub fn from_azimuth_elevation(azimuth_deg: f32, elevation_deg: f32) -> [f32; 3] {
    let (a, e) = (azimuth_deg.to_radians(), elevation_deg.to_radians());
    let (sx, sy, sz) = (e.cos() * a.cos(), e.cos() * a.sin(), e.sin());
    [-sy, sz, -sx]
}

/// `v / |v|`, or `None` when `v` is zero or not finite.
pub(crate) fn normalize(v: [f32; 3]) -> Option<[f32; 3]> {
    let n = dot(v, v).sqrt();
    if !n.is_finite() || n < 1e-12 {
        return None;
    }
    Some([v[0] / n, v[1] / n, v[2] / n])
}

pub(crate) fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}
