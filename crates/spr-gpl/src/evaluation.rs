// SPDX-License-Identifier: GPL-3.0-only
//! One complete SPR evaluation of a sound: occlusion, environment rays, shared airspace,
//! position redirection and the filter/send values SPR hands to OpenAL.
//!
//! Follows SPR `SoundPhysics.java` `processSound` / `evaluateEnvironment` (SP:211-466) and the
//! direction code of `ReflectedAudio.java` (`evaluateSharedAirspace`, `getReflectedPosition`;
//! SP:594-615) at `ca0f8fe`; spec `spr.md` §1.0–§1.7.

use glam::{DVec3, IVec3};

use crate::config::{AIRSPACE_START_OFFSET, MAX_RAY_DISTANCE, UNDERWATER_SEND_CUTOFF};
use crate::formula::{
    absorption_coefficient, airspace_weights, cutoff_gain, direct_cutoff, distance_fade,
    energy_towards_player, finish_sends, floored_direct_cutoff, reflection_delay, send_cutoffs,
    shared_airspace, slot_contribution,
};
use crate::occlusion::sound_occlusion;
use crate::ray::{CellCount, cast_with, cell_of};
use crate::sphere::ray_direction;
use crate::{SprBlock, SprConfig, SprWorld};

/// One sound as SPR sees it when it starts playing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprSound {
    /// Source position `S`.
    pub source: DVec3,
    /// Listener (camera) position `P`.
    pub listener: DVec3,
    /// Category BLOCKS or an id matching `.*block..*`: the occlusion variation is at least 0.49.
    pub block_sound: bool,
    /// The source's `AL_MAX_DISTANCE` (`max(volume,1)·16/attenuation_factor` for an attenuated
    /// vanilla sound); `None` for a non-attenuated sound on a fresh source (no send fade).
    pub max_distance: Option<f32>,
    /// The player or the source is under water (direct cutoff ×0.1, send cutoffs ×0.4).
    pub underwater: bool,
}

impl SprSound {
    /// An attenuated sound of volume ≤ 1 and the vanilla 16-block range (`AL_MAX_DISTANCE` 16).
    #[must_use]
    pub fn new(source: DVec3, listener: DVec3) -> SprSound {
        SprSound {
            source,
            listener,
            block_sound: false,
            max_distance: Some(crate::config::DEFAULT_ATTENUATION_DISTANCE),
            underwater: false,
        }
    }
}

/// Everything one SPR evaluation produces.
///
/// Slots are indexed 0 (shortest reverb) … 3 (longest); slot `k` goes to OpenAL send `3 − k`.
#[derive(Clone, Debug, PartialEq)]
pub struct SprEvaluation {
    /// Whether the sound was skipped (§1.0); then the default environment applies: sends 0, send
    /// cutoffs 1, direct cutoff 1, direct gain 1.
    pub skipped: bool,
    /// Occlusion sum (minimum over the paths, capped at `max_occlusion`).
    pub occlusion: f64,
    /// `exp(−occ·k)` before the underwater factor and the shared-airspace floor.
    pub occluded_cutoff: f32,
    /// Direct filter GAINHF after the shared-airspace floor.
    pub direct_cutoff: f32,
    /// Direct filter GAIN, `direct_cutoff^0.1` (recomputed after the floor).
    pub direct_gain: f32,
    /// Send pre-sums per slot, before ratios, clamps, cutoff gains and fade.
    pub send_pre: [f32; 4],
    /// Final send gains per slot (LOWPASS_GAIN of each send filter).
    pub send_gain: [f32; 4],
    /// Send cutoffs per slot (LOWPASS_GAINHF of each send filter).
    pub send_cutoff: [f32; 4],
    /// Mean reflectivity per bounce index (`ratio[j] / N`), one entry per bounce.
    pub bounce_ratio: Vec<f32>,
    /// Shared-airspace count `C` (clear rays to the listener from bounce points).
    pub shared_airspace_count: u32,
    /// Send distance fade factor.
    pub distance_fade: f32,
    /// The redirected AL position, when SPR moves the source (§1.7).
    pub redirected_position: Option<DVec3>,
    /// Voxel cells visited by all casts (telemetry; the counter's total when one was passed).
    pub cells_visited: u64,
    /// Number of casts made (telemetry).
    pub casts: u64,
}

impl SprEvaluation {
    /// The default environment SPR applies to a skipped sound (SP:621-623).
    #[must_use]
    pub fn default_environment(bounces: usize) -> SprEvaluation {
        SprEvaluation {
            skipped: true,
            occlusion: 0.0,
            occluded_cutoff: 1.0,
            direct_cutoff: 1.0,
            direct_gain: 1.0,
            send_pre: [0.0; 4],
            send_gain: [0.0; 4],
            send_cutoff: [1.0; 4],
            bounce_ratio: vec![0.0; bounces],
            shared_airspace_count: 0,
            distance_fade: 1.0,
            redirected_position: None,
            cells_visited: 0,
            casts: 0,
        }
    }

    /// The send gains in OpenAL send order (send `i` carries slot `3 − i`).
    #[must_use]
    pub fn send_gain_by_al_index(&self) -> [f32; 4] {
        let s = self.send_gain;
        [s[3], s[2], s[1], s[0]]
    }
}

struct Walk<'a, W: ?Sized> {
    world: &'a W,
    listener: DVec3,
    max_len: f64,
    direction_active: bool,
    shared: u32,
    pairs: Vec<(DVec3, f64)>,
    count: CellCount,
    casts: u64,
    quirk: bool,
}

impl<W: SprWorld + ?Sized> Walk<'_, W> {
    fn cast(&mut self, from: DVec3, to: DVec3, ignore: Option<IVec3>) -> Option<crate::RayHit> {
        self.casts += 1;
        cast_with(self.world, from, to, ignore, self.quirk, &mut self.count)
    }

    /// The shared-airspace test at a hit (`evaluateSharedAirspace`).
    fn airspace(&mut self, hit: DVec3, normal: DVec3, total: f32) {
        let start = hit + normal * AIRSPACE_START_OFFSET;
        if self.cast(start, self.listener, None).is_none() {
            let vector = start - self.listener;
            let len = f64::from(total) + vector.length();
            if len > 0.0 && len <= self.max_len {
                self.shared += 1;
                if self.direction_active {
                    self.pairs.push((vector, len));
                }
            }
        }
    }
}

/// `Vec3.normalize`: zero below length 1e-5.
fn normalize(v: DVec3) -> DVec3 {
    let l = v.length();
    if l < 1.0e-5 { DVec3::ZERO } else { v / l }
}

/// Evaluates one sound exactly as SPR does when it starts playing (spec `spr.md` §1).
///
/// Never panics: non-finite positions give the skipped default environment.
pub fn evaluate<W: SprWorld + ?Sized>(
    world: &W,
    sound: &SprSound,
    config: &SprConfig,
) -> SprEvaluation {
    evaluate_counted(world, sound, config, &mut CellCount::unlimited())
}

/// [`evaluate`] with a cell counter (and limit); the cells used are added to `count`.
pub fn evaluate_counted<W: SprWorld + ?Sized>(
    world: &W,
    sound: &SprSound,
    config: &SprConfig,
    count: &mut CellCount,
) -> SprEvaluation {
    let bounces = config.ray_bounces as usize;
    let (s, p) = (sound.source, sound.listener);
    let too_far = s.distance(p) > config.max_sound_processing_distance;
    if !s.is_finite() || !p.is_finite() || s == DVec3::ZERO || too_far {
        return SprEvaluation::default_environment(bounces);
    }
    let k = absorption_coefficient(config.block_absorption);
    let occ = sound_occlusion(world, s, p, sound.block_sound, config, count);
    let occluded_cutoff = direct_cutoff(occ, k);
    let mut direct = occluded_cutoff;
    if sound.underwater {
        direct *= 1.0 - config.underwater_filter;
    }

    let n = config.ray_count;
    let b = config.ray_bounces;
    let total_rays = u64::from(n) * u64::from(b);
    let rcp = if total_rays == 0 {
        0.0
    } else {
        1.0 / total_rays as f32
    };
    let mut walk = Walk {
        world,
        listener: p,
        max_len: config.max_sound_processing_distance / f64::from(config.attenuation_factor),
        direction_active: config.sound_direction_evaluation
            && (occ > 0.0 || !config.redirect_non_occluded_sounds),
        shared: 0,
        pairs: Vec::new(),
        count: *count,
        casts: 0,
        quirk: config.inside_quirk,
    };
    // Direct airspace: a clear line stores the direct vector (weight 1 in the redirect sum).
    let direct_vector = walk.cast(s, p, None).is_none().then_some(s - p);

    let mut pre = [0.0_f32; 4];
    let mut ratio = vec![0.0_f32; bounces];
    let source_cell = cell_of(s);
    for i in 0..n {
        let dir = ray_direction(i, n);
        let Some(h0) = walk.cast(s, s + dir * MAX_RAY_DISTANCE, source_cell) else {
            continue;
        };
        let mut total = (h0.location - s).length() as f32;
        let mut last_cell = h0.cell;
        let mut last_block: SprBlock = h0.block;
        let mut last_pos = h0.location;
        let mut normal = h0.face.normal();
        let mut d = dir;
        walk.airspace(last_pos, normal, total);
        for r_slot in ratio.iter_mut() {
            let d2 = d - 2.0 * d.dot(normal) * normal;
            let h = walk.cast(last_pos, last_pos + d2 * MAX_RAY_DISTANCE, Some(last_cell));
            let r = last_block.reflectivity;
            let energy = energy_towards_player(r);
            let missed = h.is_none();
            match h {
                None => total += (last_pos - p).length() as f32,
                Some(h) => {
                    *r_slot += r;
                    total += (last_pos - h.location).length() as f32;
                    last_pos = h.location;
                    normal = h.face.normal();
                    d = d2;
                    last_cell = h.cell;
                    last_block = h.block;
                    walk.airspace(last_pos, normal, total);
                }
            }
            if total < config.reverb_attenuation_distance {
                continue;
            }
            let delay = reflection_delay(total, r);
            let add = slot_contribution(delay, energy, rcp);
            for (acc, a) in pre.iter_mut().zip(add) {
                *acc += a;
            }
            if missed {
                break;
            }
        }
    }

    // Position redirection (ReflectedAudio).
    let mut redirected = None;
    if walk.direction_active && !walk.pairs.is_empty() {
        let mut sum = direct_vector.map_or(DVec3::ZERO, normalize);
        for &(v, len) in &walk.pairs {
            sum += normalize(v) / (len * len);
        }
        let u = normalize(sum);
        if u.length() >= 0.5 {
            redirected = Some(p + u * s.distance(p));
        }
    }

    let sa = shared_airspace(walk.shared, rcp);
    let w = airspace_weights(sa);
    let mut send_cutoff = send_cutoffs(occ, k, w);
    let direct = floored_direct_cutoff(direct, w);
    let direct_gain = cutoff_gain(direct);
    let nf = n as f32;
    for r in &mut ratio {
        *r = if n == 0 { 0.0 } else { *r / nf };
    }
    let mut send_gain = finish_sends(pre, &ratio, send_cutoff);
    let distance = redirected.unwrap_or(s).distance(p) as f32;
    let fade = distance_fade(distance, sound.max_distance, config.reverb_distance);
    for g in &mut send_gain {
        *g *= fade;
    }
    if sound.underwater {
        for c in &mut send_cutoff {
            *c *= UNDERWATER_SEND_CUTOFF;
        }
    }
    let out = SprEvaluation {
        skipped: false,
        occlusion: occ,
        occluded_cutoff,
        direct_cutoff: direct,
        direct_gain,
        send_pre: pre,
        send_gain,
        send_cutoff,
        bounce_ratio: ratio,
        shared_airspace_count: walk.shared,
        distance_fade: fade,
        redirected_position: redirected,
        cells_visited: walk.count.cells,
        casts: walk.casts,
    };
    *count = walk.count;
    out
}

#[cfg(test)]
mod tests;
