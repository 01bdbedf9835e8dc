// SPDX-License-Identifier: GPL-3.0-only
//! SPR's direct occlusion: successive-hit ray march, non-sturdy factor and the 9-path minimum.
//!
//! Follows SPR `SoundPhysics.java` `runOcclusion` and `calculateOcclusion` (SP:497-575) at
//! `ca0f8fe`; spec `spr.md` §1.2.

use glam::DVec3;

use crate::config::BLOCK_SOUND_VARIATION;
use crate::ray::{CellCount, cast_with, cell_of};
use crate::{SprConfig, SprWorld};

/// The occlusion of one path `a → b` (`runOcclusion`).
///
/// Up to `max_occlusion_rays` successive hits; each cast ignores the block hit before (the first
/// ignores the block containing `a`), so every solid block on the line counts once. A hit whose
/// side (approximate nearest of hit − block centre) is not sturdy counts ×
/// `non_full_block_occlusion_factor`. Stops once the sum exceeds `max_occlusion`.
pub fn path_occlusion<W: SprWorld + ?Sized>(
    world: &W,
    a: DVec3,
    b: DVec3,
    config: &SprConfig,
    count: &mut CellCount,
) -> f64 {
    let mut occ = 0.0_f64;
    let mut origin = a;
    let mut last = cell_of(a);
    for _ in 0..config.max_occlusion_rays {
        let Some(hit) = cast_with(world, origin, b, last, config.inside_quirk, count) else {
            break;
        };
        last = Some(hit.cell);
        origin = hit.location;
        let mut v = hit.block.occlusion;
        // SPR tests the face `approximate_nearest(hit − block centre)`. Resound's cells are whole:
        // a sturdy block is sturdy on every side and a partial one on none, so the side found
        // cannot change the answer and only the block's flag is read.
        if !hit.block.sturdy {
            v *= config.non_full_block_occlusion_factor;
        }
        occ += f64::from(v);
        if occ > config.max_occlusion {
            break;
        }
    }
    occ
}

/// The occlusion of a sound (`calculateOcclusion`): strict = the straight path only; otherwise the
/// minimum over the straight path and the 8 paths with both ends offset by (±v, ±v, ±v),
/// `v = occlusion_variation` (≥ 0.49 for block sounds). Capped at `max_occlusion`.
pub fn sound_occlusion<W: SprWorld + ?Sized>(
    world: &W,
    source: DVec3,
    listener: DVec3,
    block_sound: bool,
    config: &SprConfig,
    count: &mut CellCount,
) -> f64 {
    let straight = path_occlusion(world, source, listener, config, count);
    if config.strict_occlusion {
        return straight.min(config.max_occlusion);
    }
    let mut v = config.occlusion_variation;
    if block_sound {
        v = v.max(BLOCK_SOUND_VARIATION);
    }
    let mut occ = straight;
    if v != 0.0 {
        for sx in [-1.0, 1.0] {
            for sy in [-1.0, 1.0] {
                for sz in [-1.0, 1.0] {
                    let o = DVec3::new(sx * v, sy * v, sz * v);
                    let path = path_occlusion(world, source + o, listener + o, config, count);
                    occ = occ.min(path);
                }
            }
        }
    }
    occ.min(config.max_occlusion)
}

#[cfg(test)]
mod tests;
