//! Occlusion along a segment: summed `occ` with SPR's stop rules (spec §2.2, §4 step 1).

use glam::DVec3;

use super::dda::{Flow, WalkEnd, WalkStats, walk_solid};
use crate::budget::Budget;
use crate::world::material::MaterialTable;
use crate::world::probe::{Cell, WorldProbe};

/// Stop rules of an occlusion trace.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OcclusionSettings {
    /// Stop after this many occluding cells (16).
    pub max_hits: u32,
    /// Stop once the sum exceeds this (64).
    pub max_occlusion: f64,
}

impl Default for OcclusionSettings {
    fn default() -> Self {
        Self {
            max_hits: 16,
            max_occlusion: 64.0,
        }
    }
}

/// Result of one occlusion trace.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct OcclusionTrace {
    /// Summed occlusion (partial cells ×0.25, source cell excluded).
    pub occ: f64,
    /// Summed low-band loss in dB (material rates × occlusion).
    pub low_db: f64,
    /// Summed high-band loss in dB.
    pub high_db: f64,
    /// Occluding cells counted.
    pub hits: u32,
    /// Walk counters (cells, unknown, touched sections, end).
    pub stats: WalkStats,
}

/// Traces the segment `from → to`, summing occlusion of the crossed solid cells except the one
/// holding `from`. Cells with zero occlusion (foliage, liquids) do not count as hits.
pub fn trace_occlusion<P: WorldProbe + ?Sized>(
    probe: &P,
    materials: &MaterialTable,
    from: DVec3,
    to: DVec3,
    settings: &OcclusionSettings,
    budget: &mut Budget,
) -> OcclusionTrace {
    let mut out = OcclusionTrace::default();
    let delta = to - from;
    let len = delta.length();
    if !len.is_finite() {
        out.stats.end = WalkEnd::LeftWorld;
        return out;
    }
    let dir = if len > 0.0 { delta / len } else { DVec3::ZERO };
    let start = from.floor().as_ivec3();
    let stats = walk_solid(probe, from, dir, len, budget, |step| {
        if let Cell::Solid { mat, partial } = step.value {
            if step.cell == start {
                return Flow::Continue;
            }
            let m = materials.get(mat);
            let add = m.occlusion_of_cell(partial);
            if add > 0.0 {
                out.occ += add;
                out.low_db += add * m.low_db_per_occ;
                out.high_db += add * m.high_db_per_occ;
                out.hits += 1;
                if out.hits >= settings.max_hits || out.occ > settings.max_occlusion {
                    return Flow::Stop;
                }
            }
        }
        Flow::Continue
    });
    out.stats = stats;
    out
}

#[cfg(test)]
mod tests;
