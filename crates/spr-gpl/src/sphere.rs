// SPDX-License-Identifier: GPL-3.0-only
//! SPR's environment ray directions: a golden-angle spiral with its pole on world Z.
//!
//! Follows SPR `SoundPhysics.java` `evaluateEnvironment` (the ray loop, SP:287-300) at `ca0f8fe`;
//! spec `spr.md` §1.4 and the table of §4.5.

use glam::DVec3;

/// `gAngle = 1.618033988f · (float)π · 2` in float32 (= 10.166408).
#[must_use]
pub fn golden_angle() -> f32 {
    1.618_034_f32 * std::f32::consts::PI * 2.0
}

/// Direction of ray `i` of `n` (float32 angles, double vector, as SPR).
///
/// `lat = (float)asin(2·i/n − 1)`, `lon = gAngle·i`, `dir = (cos lat·cos lon, cos lat·sin lon,
/// sin lat)`. Ray 0 is −Z exactly up to float rounding; the lattice uses `i/n`, not `(i+½)/n`.
/// `n = 0` gives the −Z direction.
#[must_use]
pub fn ray_direction(i: u32, n: u32) -> DVec3 {
    let fi_n = if n == 0 { 0.0 } else { i as f32 / n as f32 };
    let lon = golden_angle() * i as f32;
    let lat = f64::from(fi_n * 2.0 - 1.0).asin() as f32;
    let (lat, lon) = (f64::from(lat), f64::from(lon));
    DVec3::new(lat.cos() * lon.cos(), lat.cos() * lon.sin(), lat.sin())
}

/// All `n` ray directions in SPR's order.
#[must_use]
pub fn ray_directions(n: u32) -> Vec<DVec3> {
    (0..n).map(|i| ray_direction(i, n)).collect()
}

#[cfg(test)]
mod tests;
