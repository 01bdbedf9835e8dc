// SPDX-License-Identifier: GPL-3.0-only
//! SPR's closed-form formulas: direct filter, reflection energy, delay index and slot cross-fade,
//! shared-airspace weights, direct floor, send post-processing and the distance fade.
//!
//! Follows SPR `SoundPhysics.java` `evaluateEnvironment` (SP:249-283, 365-394, 396-466) at
//! `ca0f8fe`; spec `spr.md` §1.3–§1.6 and §4.2. Arithmetic is float32 where SPR's is (Java
//! `float`), and double where SPR's is.

use crate::config::{AIRSPACE_DIVISORS, AIRSPACE_SCALE, DELAY_SCALE, GAIN_EXPONENT, SLOT_WEIGHTS};

/// The absorption coefficient `k = (float)(block_absorption · 3)` (SP:249).
#[must_use]
pub fn absorption_coefficient(block_absorption: f32) -> f32 {
    // SPR computes this in double and casts; the product of two floats is exact enough.
    (f64::from(block_absorption) * 3.0) as f32
}

/// `directCutoff = (float) exp(−occ·k)` (SP:264).
#[must_use]
pub fn direct_cutoff(occlusion: f64, k: f32) -> f32 {
    (-occlusion * f64::from(k)).exp() as f32
}

/// `gain = (float) cutoff^0.1`, used for the direct gain and the send multipliers (SP:265, 425).
#[must_use]
pub fn cutoff_gain(cutoff: f32) -> f32 {
    f64::from(cutoff).powf(GAIN_EXPONENT) as f32
}

/// `energyTowardsPlayer = 0.25·(0.75·r + 0.25)` (SP:366).
#[must_use]
pub fn energy_towards_player(reflectivity: f32) -> f32 {
    0.25 * (reflectivity * 0.75 + 0.25)
}

/// The reflection delay index `(float)max(total,0)·0.12·r` (SP:376). Not a time: a slot index.
#[must_use]
pub fn reflection_delay(total_distance: f32, reflectivity: f32) -> f32 {
    total_distance.max(0.0) * DELAY_SCALE * reflectivity
}

fn clamp01(x: f32) -> f32 {
    // NaN stays NaN (as Java's Mth.clamp would give the lower bound; either way no panic).
    x.clamp(0.0, 1.0)
}

/// The 4-slot cross-fade weights of a delay index (SP:378-381); they always sum to 1.
#[must_use]
pub fn slot_cross_fade(delay: f32) -> [f32; 4] {
    [
        1.0 - clamp01(delay.abs()),
        1.0 - clamp01((delay - 1.0).abs()),
        1.0 - clamp01((delay - 2.0).abs()),
        clamp01(delay - 2.0),
    ]
}

/// One contribution to the four send pre-sums: `c_k · energy · W_k · rcp` (SP:383-386).
///
/// `rcp` is `1/(rays·bounces)`.
#[must_use]
pub fn slot_contribution(delay: f32, energy: f32, rcp: f32) -> [f32; 4] {
    let c = slot_cross_fade(delay);
    [0, 1, 2, 3].map(|k| c[k] * energy * SLOT_WEIGHTS[k] * rcp)
}

/// The shared-airspace measure `sa = count · 64 · rcp` (SP:408).
#[must_use]
pub fn shared_airspace(count: u32, rcp: f32) -> f32 {
    count as f32 * AIRSPACE_SCALE * rcp
}

/// The shared-airspace weights `w_k = clamp(sa / {20,15,10,10}, 0, 1)` (SP:412-415).
#[must_use]
pub fn airspace_weights(sa: f32) -> [f32; 4] {
    AIRSPACE_DIVISORS.map(|d| clamp01(sa / d))
}

/// The send cutoffs `e·(1 − w_k) + w_k` with `e = exp(−occ·k)` (SP:418-421).
#[must_use]
pub fn send_cutoffs(occlusion: f64, k: f32, weights: [f32; 4]) -> [f32; 4] {
    let e = direct_cutoff(occlusion, k);
    weights.map(|w| e * (1.0 - w) + w)
}

/// The direct-cutoff floor `max(0.2·sqrt(avg w), cutoff)` (SP:423-424).
#[must_use]
pub fn floored_direct_cutoff(direct_cutoff: f32, weights: [f32; 4]) -> f32 {
    let avg = (weights[0] + weights[1] + weights[2] + weights[3]) * 0.25;
    let floor = (f64::from(avg).sqrt() as f32) * 0.2;
    if floor > direct_cutoff {
        floor
    } else {
        direct_cutoff
    }
}

/// Send post-processing steps 5–7 of spec §1.6: ratio powers, clamps, `×1.05 − 0.05` on the late
/// slots and `×sendCutoff^0.1` (SP:427-444).
///
/// `ratios` holds the mean reflectivity per bounce index (`ratio[j]/N`); missing indices leave the
/// slot unscaled, as in SPR with fewer than 4 bounces.
#[must_use]
pub fn finish_sends(pre: [f32; 4], ratios: &[f32], send_cutoffs: [f32; 4]) -> [f32; 4] {
    let mut s = pre;
    if let Some(&r1) = ratios.get(1) {
        s[1] *= r1;
    }
    if let Some(&r2) = ratios.get(2) {
        s[2] *= f64::from(r2).powi(3) as f32;
    }
    if let Some(&r3) = ratios.get(3) {
        s[3] *= f64::from(r3).powi(4) as f32;
    }
    s[0] = clamp01(s[0]);
    s[1] = clamp01(s[1]);
    s[2] = clamp01(s[2] * 1.05 - 0.05);
    s[3] = clamp01(s[3] * 1.05 - 0.05);
    [0, 1, 2, 3].map(|k| s[k] * cutoff_gain(send_cutoffs[k]))
}

/// The send distance fade `1 − min(D / (M·reverb_distance), 1)` (SP:447-455).
///
/// `max_distance` is the source's `AL_MAX_DISTANCE`; `None` (a non-attenuated sound whose pooled
/// source is fresh, i.e. `FLT_MAX`) gives no fade.
#[must_use]
pub fn distance_fade(distance: f32, max_distance: Option<f32>, reverb_distance: f32) -> f32 {
    match max_distance {
        None => 1.0,
        Some(m) => 1.0 - (distance / (m * reverb_distance)).min(1.0),
    }
}

/// `AL_MAX_DISTANCE` SPR sets for an attenuated sound: `max(volume,1)·range/attenuation_factor`
/// (SM:42-52; `range` is 16 for vanilla sounds).
#[must_use]
pub fn al_max_distance(volume: f32, range: f32, attenuation_factor: f32) -> f32 {
    volume.max(1.0) * range / attenuation_factor
}

#[cfg(test)]
mod tests;
