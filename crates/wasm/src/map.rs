//! The fixture world's map for a page: heights and features of its terrain vertices.

use resound_fixture::terrain::{Feature, GRID, feature, height_m};

/// 41 × 41 vertices (24 m apart, rows from the south, east first), two values each: the
/// height in metres and the feature as a number (lake 0, river 1, shore 2, valley 3, flat 4,
/// ridge 5, sand 6, plain 7).
#[must_use]
pub fn fixture_map() -> Vec<f32> {
    let mut out = Vec::with_capacity(2 * GRID * GRID);
    for gy in 0..GRID {
        for gx in 0..GRID {
            let kind = match feature(gx, gy) {
                Feature::Lake => 0.0,
                Feature::River => 1.0,
                Feature::Shore => 2.0,
                Feature::Valley => 3.0,
                Feature::Flat => 4.0,
                Feature::Ridge => 5.0,
                Feature::Sand => 6.0,
                Feature::Plain => 7.0,
            };
            out.push(height_m(gx, gy) as f32);
            out.push(kind);
        }
    }
    out
}
