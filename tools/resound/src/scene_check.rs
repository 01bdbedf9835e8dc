//! The limits a scene file must keep, checked the same way for `resound render`, `play` and
//! `acoustics` (the engine's caps on what a source may be, the voxel world's extent), each
//! refusal naming its cap in one plain line.

use anyhow::bail;
use resound_engine::advanced::acoustics::scene::Scene;
use resound_engine::advanced::acoustics::world::store::{
    SPARSE_MAX_CELLS, WORLD_LIMIT, partial_sections,
};
use resound_engine::{MAX_COORDINATE, MAX_RANGE, MAX_VOLUME};

use crate::report::num;

/// Checks `scene` against the engine's caps ([`Scene::from_json`] has checked its shape).
///
/// # Errors
/// The first value outside its cap.
pub fn check(scene: &Scene) -> anyhow::Result<()> {
    for (i, b) in scene.boxes.iter().enumerate() {
        for c in b.min.iter().chain(&b.max) {
            if c.unsigned_abs() >= WORLD_LIMIT.unsigned_abs() {
                bail!(
                    "box {i}: coordinate {c} is outside the voxel world (|c| < {WORLD_LIMIT} cells)"
                );
            }
        }
    }
    sections(scene)?;
    position("source", scene.source)?;
    position("listener", scene.listener)?;
    range("range", scene.range)?;
    for (i, v) in scene.voices.iter().enumerate() {
        position(&format!("voice {i}: position"), v.position)?;
        range(&format!("voice {i}: range"), v.range)?;
        let cap = f64::from(MAX_VOLUME);
        if !(v.volume.is_finite() && (0.0..=cap).contains(&v.volume)) {
            bail!(
                "voice {i}: volume {} is outside 0..={} (the volume cap)",
                num(v.volume),
                num(cap)
            );
        }
    }
    Ok(())
}

fn position(what: &str, p: [f64; 3]) -> anyhow::Result<()> {
    for x in p {
        if !(x.is_finite() && x.abs() < MAX_COORDINATE) {
            bail!(
                "{what} coordinate {} is outside the world (|x| < {} m)",
                num(x),
                num(MAX_COORDINATE)
            );
        }
    }
    Ok(())
}

fn range(what: &str, r: f64) -> anyhow::Result<()> {
    let cap = f64::from(MAX_RANGE);
    if !(r.is_finite() && r > 0.0 && r <= cap) {
        bail!(
            "{what} {} is outside 0..={} m (the range cap; above 0)",
            num(r),
            num(cap)
        );
    }
    Ok(())
}

/// Most 16³-cell arrays (8 KiB each) a scene's boxes may need: 32 MiB of voxels.
pub const MAX_PARTIAL_SECTIONS: u64 = 4096;

/// Bytes of one partly filled section's cells.
const SECTION_BYTES: u64 = 8 << 10;

/// Shapes one box cuts out of the sections it fills in part: its first, middle and last
/// section along each axis. The store shares one array among the sections a box cuts alike
/// from the same code (`WorldStore::fill_box`).
const SHAPES: u64 = 27;

/// The voxel arrays the boxes can need, against [`MAX_PARTIAL_SECTIONS`]. An upper bound:
/// box `b` needs at most one array per shape and per code its sections held before (the
/// absent code, or a code an earlier box filled whole sections with: at most one per earlier
/// box), plus one for every section an earlier box left cut (those are copied, not shared),
/// and never more than the sections it cuts. Boxes of a few cells are stored as lists and
/// need no array, but the sections they cut count for the boxes after them. A slab one cell
/// thick across 256 × 256 sections needs 9 arrays, not 65 536.
fn sections(scene: &Scene) -> anyhow::Result<()> {
    let (mut arrays, mut cut_before, mut boxes_before) = (0u64, 0u64, 0u64);
    for b in &scene.boxes {
        let cells = (0..3)
            .map(|a| (i64::from(b.max[a]) - i64::from(b.min[a]) + 1).unsigned_abs())
            .fold(1u64, u64::saturating_mul);
        let partial = partial_sections(b.min, b.max);
        if cells > SPARSE_MAX_CELLS as u64 {
            let shared = SHAPES
                .saturating_mul(boxes_before.saturating_add(1))
                .saturating_add(cut_before);
            arrays = arrays.saturating_add(partial.min(shared));
        }
        cut_before = cut_before.saturating_add(partial);
        boxes_before += 1;
    }
    if arrays > MAX_PARTIAL_SECTIONS {
        bail!(
            "boxes may need {arrays} voxel arrays ({} MiB at 8 KiB each), more than {MAX_PARTIAL_SECTIONS} ({} MiB, the voxel-memory cap)",
            arrays.saturating_mul(SECTION_BYTES) >> 20,
            (MAX_PARTIAL_SECTIONS * SECTION_BYTES) >> 20
        );
    }
    Ok(())
}

/// Blanks the value of a scene's top-level `"expected"` (notes for readers that no command
/// reads) to `null`, in place and keeping every line break, before the scene is parsed: a
/// 62 MB array there is skimmed over once, never built. Text that is not a JSON object, or
/// has no such key, is left as it is (the parser then reports what it finds).
pub fn blank_unused(text: &mut String) {
    let Some(range) = crate::json_skim::top_level_value(text, "expected") else {
        return;
    };
    if range.len() <= 4 {
        return;
    }
    // In place: the bytes become ASCII (`null`, spaces, the line breaks), so the text stays
    // UTF-8 and no second copy of a large value is ever made.
    let mut bytes = std::mem::take(text).into_bytes();
    for (i, b) in bytes[range].iter_mut().enumerate() {
        *b = match (i, *b) {
            (0..4, _) => b"null"[i],
            (_, b'\n') => b'\n',
            _ => b' ',
        };
    }
    *text = String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: [&str; 18] = [
        "BB", "BS", "BW", "C", "D", "E1", "E2", "E3", "F", "G", "P", "R", "T", "U", "W0", "W1",
        "W2", "W3",
    ];

    #[test]
    fn every_built_in_scene_is_under_the_voxel_cap() {
        for name in NAMES {
            let text = resound_studio::scene_render::builtin(name).unwrap();
            let scene: Scene = serde_json::from_str(text).unwrap();
            sections(&scene).unwrap();
        }
    }

    #[test]
    fn the_expected_field_is_blanked_keeping_its_lines() {
        let mut text = "{\"expected\": {\"a\": [1, 2,\n 3]}, \"name\": \"x\"}".to_owned();
        let len = text.len();
        blank_unused(&mut text);
        assert_eq!(text.len(), len);
        assert_eq!(text, "{\"expected\": null        \n    , \"name\": \"x\"}");
        let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(doc["expected"], serde_json::Value::Null);
        assert_eq!(doc["name"], "x");
    }
}
