//! The loss of one bend: Maekawa's barrier curve, shifted to 0 dB at grazing incidence.
//!
//! `physics-reference.md` §"Diffraction round an edge": path difference
//! `δ = (a + b) − d` (a, b: the two legs meeting at the bend, d: the chord between their far
//! ends), Fresnel number `N = 2δf/c`, Maekawa's `A ≈ 10·log10(3 + 20·N)` dB, edges in series
//! add. Resound uses `A(N) = min(CAP, 10·log10(3 + 20·N) − 10·log10(3))`: the same growth with
//! bend angle and frequency, but 0 dB (not Maekawa's 4.8 dB) at N = 0, so that a source moving
//! out of the shadow meets the line-of-sight result without a step. The price is up to 4.8 dB
//! less loss than Maekawa close to the shadow boundary, under a dB beyond N ≈ 30 (most bends
//! on the high band), and nothing once the cap holds.

use glam::DVec3;

/// Speed of sound (m/s; one block is one metre).
pub const SPEED_OF_SOUND: f64 = 343.0;
/// Representative frequencies of the crate's three bands (low < 500 Hz, mid, high > 2 kHz),
/// in Hz: the Fresnel number of a band is taken at these.
pub const BAND_HZ: [f64; 3] = [250.0, 1000.0, 4000.0];
/// Most loss one bend adds, dB (Maekawa's curve is usually capped at 20–25 dB).
pub const BEND_CAP_DB: f64 = 24.0;

/// Path difference of a bend at `corner` between `before` and `after` (≥ 0).
#[must_use]
pub fn path_difference(before: DVec3, corner: DVec3, after: DVec3) -> f64 {
    let legs = before.distance(corner) + corner.distance(after);
    (legs - before.distance(after)).max(0.0)
}

/// Loss in dB of a bend with path difference `delta` (m) at frequency `hz`.
#[must_use]
pub fn bend_loss_db(delta: f64, hz: f64) -> f64 {
    let n = 2.0 * delta.max(0.0) * hz / SPEED_OF_SOUND;
    (10.0 * (1.0 + 20.0 / 3.0 * n).log10()).min(BEND_CAP_DB)
}

/// Per-band loss (low, mid, high) in dB of a bend with path difference `delta`.
#[must_use]
pub fn band_loss_db(delta: f64) -> [f64; 3] {
    BAND_HZ.map(|hz| bend_loss_db(delta, hz))
}

/// Bend angle at `corner` in radians: 0 for a straight continuation, π for a U-turn.
#[must_use]
pub fn bend_angle(before: DVec3, corner: DVec3, after: DVec3) -> f64 {
    let (u, v) = (corner - before, after - corner);
    match (u.try_normalize(), v.try_normalize()) {
        (Some(u), Some(v)) => u.dot(v).clamp(-1.0, 1.0).acos(),
        _ => 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grazing_is_zero_and_loss_grows_with_delta_and_frequency() {
        assert!(bend_loss_db(0.0, 4000.0).abs() < 1e-12);
        let low = bend_loss_db(0.5, 250.0);
        let high = bend_loss_db(0.5, 4000.0);
        assert!(low > 0.0 && high > low, "{low} {high}");
        assert!(bend_loss_db(1.0, 250.0) > low);
        // Far into the shadow Maekawa's 10·log10(3 + 20N) less 4.77 dB, up to the cap.
        let n = 2.0 * 0.1 * 1000.0 / SPEED_OF_SOUND;
        let maekawa = 10.0 * (3.0 + 20.0 * n).log10();
        assert!((bend_loss_db(0.1, 1000.0) - (maekawa - 10.0 * 3f64.log10())).abs() < 1e-9);
        assert!((bend_loss_db(100.0, 4000.0) - BEND_CAP_DB).abs() < 1e-12);
    }

    #[test]
    fn path_difference_grows_with_bend_angle() {
        let a = DVec3::new(-5.0, 0.0, 0.0);
        let c = DVec3::ZERO;
        let mut last = -1.0;
        for deg in [0.0f64, 30.0, 60.0, 90.0, 135.0] {
            let r = deg.to_radians();
            let b = DVec3::new(5.0 * r.cos(), 5.0 * r.sin(), 0.0);
            let d = path_difference(a, c, b);
            assert!(d > last, "{deg}: {d}");
            assert!((bend_angle(a, c, b) - r).abs() < 1e-9);
            last = d;
        }
    }
}
