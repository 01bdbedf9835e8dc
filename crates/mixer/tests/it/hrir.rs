//! A synthetic HRIR set for the binaural tests: on a sphere of directions (every 30° of
//! azimuth on rings at −60°..=60° of elevation, plus the poles), each ear's response is one
//! impulse whose delay and level follow the direction's right component `x` — the far ear
//! later (up to 20 frames) and quieter (down to 0.25) — plus a weaker second impulse on the
//! front/back axis, so front and back differ.

use std::sync::Arc;

use resound_dsp::hrtf::{HrirSet, HrtfBank, from_azimuth_elevation};

/// Frames of each response.
pub const TAPS: usize = 64;

/// The synthetic bank at `rate` Hz.
pub fn bank(rate: u32) -> Arc<HrtfBank> {
    let mut dirs = vec![[0.0, 1.0, 0.0], [0.0, -1.0, 0.0]];
    for el in [-60.0f32, -30.0, 0.0, 30.0, 60.0] {
        for k in 0..12 {
            dirs.push(from_azimuth_elevation(30.0 * k as f32, el));
        }
    }
    let (mut left, mut right) = (Vec::new(), Vec::new());
    for d in &dirs {
        let x = d[0];
        for (ear, sign) in [(&mut left, -1.0f32), (&mut right, 1.0)] {
            let mut ir = [0.0f32; TAPS];
            // Near ear (sign·x > 0): early and loud.
            let delay = (10.0 - 10.0 * sign * x).round() as usize;
            ir[delay] = 0.625 + 0.375 * sign * x;
            // Front (−z) puts the echo at +30 frames, back at +40.
            let echo = if d[2] < 0.0 { 30 } else { 40 };
            ir[delay + echo] = 0.2;
            ear.extend_from_slice(&ir);
        }
    }
    let set = HrirSet::new(rate as f32, TAPS, &dirs, &left, &right).unwrap();
    Arc::new(HrtfBank::new(set))
}
