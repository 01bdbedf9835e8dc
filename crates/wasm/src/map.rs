//! The maps for a page: the fixture world's terrain vertices (heights and features), a fixture
//! position from map metres, and the demo tour's script (path, structures, events).

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

/// Metres between two fixture terrain vertices (an AC land cell's side).
const CELL_METRES: f64 = 24.0;

/// The position `0xXXYYCCCC:X,Y,Z` of a point of the fixture map: `east`, `north` in metres
/// from its south-west corner (landblock 0xA7B2), 2 m above the fixture's terrain vertex
/// nearest it (no dats read: for a quick start; [`crate::Live::place_area`] stands on the
/// dats' own ground).
#[must_use]
pub fn fixture_position(east: f64, north: f64) -> String {
    use resound_fixture::terrain::{BLOCKS, FIRST_X, FIRST_Y};
    let side = f64::from(BLOCKS) * 8.0 * CELL_METRES;
    let (e, n) = (east.clamp(0.0, side - 0.01), north.clamp(0.0, side - 0.01));
    let (bx, by) = ((e / 192.0) as u8, (n / 192.0) as u8);
    let (lx, ly) = (e - f64::from(bx) * 192.0, n - f64::from(by) * 192.0);
    let (cx, cy) = ((lx / CELL_METRES) as u32, (ly / CELL_METRES) as u32);
    let cell =
        (u32::from(FIRST_X + bx) << 24) | (u32::from(FIRST_Y + by) << 16) | (cx * 8 + cy + 1);
    let gx = ((e / CELL_METRES).round() as usize).min(GRID - 1);
    let gy = ((n / CELL_METRES).round() as usize).min(GRID - 1);
    let z = height_m(gx, gy) + 2.0;
    format!("0x{cell:08X}:{lx:.2},{ly:.2},{z:.2}")
}

/// The demo tour's script for a page's map, as JSON: `seconds` (its length), `path`
/// (`[t, east, north]`, t in seconds), `stages` (`[t, name]`), `structures` (stone boxes:
/// `[west, south, east, north]`; the floor slab left out), `events` (`{t, sound, east, north,
/// to, until, label}`).
#[must_use]
pub fn tour_script() -> String {
    use crate::tour::script::{EVENTS, EventSound, Fill, PATH, STAGES, STRUCTURES, TOUR_SECONDS};
    let s = TOUR_SECONDS;
    let path: Vec<_> = PATH
        .iter()
        .map(|w| serde_json::json!([w.at * s, w.xy.x, w.xy.y]))
        .collect();
    let stages: Vec<_> = STAGES
        .iter()
        .map(|st| serde_json::json!([st.from * s, st.name]))
        .collect();
    let structures: Vec<_> = STRUCTURES
        .iter()
        .skip(1)
        .filter(|b| b.fill == Fill::Stone)
        .map(|b| serde_json::json!([b.min.x, b.min.y, b.max.x, b.max.y]))
        .collect();
    let events: Vec<_> = EVENTS
        .iter()
        .map(|e| {
            let sound = match e.sound {
                EventSound::Clap => "clap",
                EventSound::Shot => "shot",
                EventSound::Engine => "engine",
            };
            let moving = e.sound == EventSound::Engine;
            serde_json::json!({
                "t": e.at * s, "sound": sound, "east": e.xy.x, "north": e.xy.y,
                "to": if moving { serde_json::json!([e.to.x, e.to.y]) } else { serde_json::Value::Null },
                "until": if moving { serde_json::json!(e.until * s) } else { serde_json::Value::Null },
                "label": e.label,
            })
        })
        .collect();
    serde_json::json!({
        "seconds": s, "path": path, "stages": stages, "structures": structures, "events": events,
    })
    .to_string()
}
