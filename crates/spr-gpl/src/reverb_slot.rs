// SPDX-License-Identifier: GPL-3.0-only
//! SPR's four fixed EAX reverb slots.
//!
//! Follows SPR `config/ReverbParams.java` (the four presets) and `SoundPhysics.java`
//! `setReverbParams` at `ca0f8fe`; spec `spr.md` §1.8–§1.9.

use crate::SprConfig;

/// The EFX default reflections delay, which applies because SPR never sets it (spec §1.8).
pub const APPLIED_REFLECTIONS_DELAY: f32 = 0.007;
/// SPR's fixed gain scale of every slot before `reverb_gain` (0.7 · 0.85).
pub const SLOT_GAIN_SCALE: f32 = 0.7 * 0.85;

/// One auxiliary slot's EAX reverb parameters as SPR sends them to OpenAL.
///
/// The fields SPR never sets keep their EFX defaults (GAINLF 1, DECAY_LFRATIO 1, echo 0.25/0,
/// modulation 0.25/0, HF reference 5000 Hz, LF reference 250 Hz, DECAY_HFLIMIT on, pans 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReverbSlot {
    /// `AL_EAXREVERB_DECAY_TIME`, seconds.
    pub decay_time: f32,
    /// `AL_EAXREVERB_DENSITY`.
    pub density: f32,
    /// `AL_EAXREVERB_DIFFUSION`.
    pub diffusion: f32,
    /// `AL_EAXREVERB_GAIN` as applied (preset gain × 0.7 × `reverb_gain` × 0.85).
    pub gain: f32,
    /// `AL_EAXREVERB_GAINHF`.
    pub gain_hf: f32,
    /// `AL_EAXREVERB_DECAY_HFRATIO` as applied (preset × `reverb_brightness`).
    pub decay_hf_ratio: f32,
    /// `AL_EAXREVERB_REFLECTIONS_GAIN`.
    pub reflections_gain: f32,
    /// The preset's reflections delay, seconds. SPR never sends it; see
    /// [`ReverbSlot::applied_reflections_delay`].
    pub preset_reflections_delay: f32,
    /// `AL_EAXREVERB_LATE_REVERB_GAIN`.
    pub late_reverb_gain: f32,
    /// `AL_EAXREVERB_LATE_REVERB_DELAY`, seconds.
    pub late_reverb_delay: f32,
    /// `AL_EAXREVERB_AIR_ABSORPTION_GAINHF`.
    pub air_absorption_gain_hf: f32,
    /// `AL_EAXREVERB_ROOM_ROLLOFF_FACTOR` as applied (preset × `attenuation_factor`).
    pub room_rolloff_factor: f32,
}

impl ReverbSlot {
    /// The reflections delay OpenAL actually uses: the EFX default, 0.007 s.
    #[must_use]
    pub const fn applied_reflections_delay(&self) -> f32 {
        APPLIED_REFLECTIONS_DELAY
    }
}

/// The four presets as (decay, density, gain, gainHF, decayHFratio, reflections gain,
/// reflections delay, late delay, room rolloff), spec `spr.md` §1.9.
const PRESETS: [[f32; 9]; 4] = [
    [0.15, 0.0, 0.2, 0.99, 0.6, 2.5, 0.001, 0.011, 0.16],
    [0.55, 0.0, 0.3, 0.99, 0.7, 0.2, 0.015, 0.011, 0.15],
    [1.68, 0.1, 0.5, 0.99, 0.7, 0.0, 0.021, 0.021, 0.13],
    [4.142, 0.5, 0.4, 0.89, 0.7, 0.0, 0.025, 0.021, 0.11],
];

/// SPR's four reverb slots (slot 0 shortest … slot 3 longest) for the given configuration.
///
/// Slot `k` is wired to source send index `3 − k` (see [`al_send_index`]). The dsp reverb bus can
/// be configured from these values; only the send levels depend on the place.
#[must_use]
pub fn reverb_slots(config: &SprConfig) -> [ReverbSlot; 4] {
    PRESETS.map(|p| ReverbSlot {
        decay_time: p[0],
        density: p[1],
        diffusion: 1.0,
        gain: p[2] * 0.7 * config.reverb_gain * 0.85,
        gain_hf: p[3],
        decay_hf_ratio: p[4] * config.reverb_brightness,
        reflections_gain: p[5],
        preset_reflections_delay: p[6],
        late_reverb_gain: 1.26,
        late_reverb_delay: p[7],
        air_absorption_gain_hf: 0.994,
        room_rolloff_factor: p[8] * config.attenuation_factor,
    })
}

/// The OpenAL source send index slot `slot` is wired to: `3 − slot` (spec `spr.md` §1.8).
///
/// Returns `None` for a slot index above 3.
#[must_use]
pub const fn al_send_index(slot: usize) -> Option<usize> {
    if slot < 4 { Some(3 - slot) } else { None }
}

#[cfg(test)]
mod tests;
