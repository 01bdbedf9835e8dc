//! The limits a scene file must keep, checked the same way for `resound render`, `play` and
//! `acoustics` (the engine's caps on what a source may be, the voxel world's extent), each
//! refusal naming its cap in one plain line.

use anyhow::bail;
use resound_engine::advanced::acoustics::scene::Scene;
use resound_engine::advanced::acoustics::world::store::WORLD_LIMIT;
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
