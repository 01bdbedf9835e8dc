// SPDX-License-Identifier: GPL-3.0-only
//! SPR's configuration values that change the numbers, with SPR's defaults.
//!
//! Follows SPR `config/SoundPhysicsConfig.java` (the defaults) and the hard-coded constants of
//! `SoundPhysics.java` at `ca0f8fe`; spec `spr.md` §1.10.

/// The SPR configuration values that change the computed filters and sends.
///
/// `Default` gives SPR's shipped defaults (spec `spr.md` §1.10). Values out of SPR's ranges are
/// accepted; non-finite values give non-finite (never panicking) results.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct SprConfig {
    /// `attenuation_factor` (1.0; divides the processing distance and scales room rolloff).
    pub attenuation_factor: f32,
    /// `reverb_attenuation_distance` (0 = off): contributions on shorter paths are skipped.
    pub reverb_attenuation_distance: f32,
    /// `reverb_gain` (1.0): scales every slot's EAX gain.
    pub reverb_gain: f32,
    /// `reverb_brightness` (1.0): scales every slot's decay HF ratio.
    pub reverb_brightness: f32,
    /// `reverb_distance` (1.5): the send distance fade ends at `max_distance × reverb_distance`.
    pub reverb_distance: f32,
    /// `block_absorption` (1.0): `directCutoff = exp(−occ·3·block_absorption)`.
    pub block_absorption: f32,
    /// `underwater_filter` (0.9): direct cutoff ×(1 − this) under water.
    pub underwater_filter: f32,
    /// `non_full_block_occlusion_factor` (0.25): multiplies a hit on a non-sturdy face.
    pub non_full_block_occlusion_factor: f32,
    /// `occlusion_variation` (0.35): the offset of the 8 extra occlusion paths.
    pub occlusion_variation: f64,
    /// `max_occlusion_rays` (16): successive hits per occlusion path.
    pub max_occlusion_rays: u32,
    /// `max_occlusion` (64): an occlusion path stops once its sum exceeds this; also the cap.
    pub max_occlusion: f64,
    /// `strict_occlusion` (false): use only the straight path.
    pub strict_occlusion: bool,
    /// `environment_evaluation_ray_count` (32).
    pub ray_count: u32,
    /// `environment_evaluation_ray_bounces` (4).
    pub ray_bounces: u32,
    /// `sound_direction_evaluation` (true): allow position redirection.
    pub sound_direction_evaluation: bool,
    /// `redirect_non_occluded_sounds` (true): when true, sounds with occ = 0 are NOT redirected.
    pub redirect_non_occluded_sounds: bool,
    /// `max_sound_processing_distance` (512): farther sounds are skipped; also bounds
    /// shared-airspace path lengths (divided by `attenuation_factor`).
    pub max_sound_processing_distance: f64,
    /// Minecraft's `VoxelShape.clip` inside quirk (spec `spr.md` §1.1): a segment whose point at
    /// 0.001 of its length lies inside a block hits there, with the opposite of the travel
    /// direction as face. On (true) as in SPR; off gives true entry faces (for comparison only).
    pub inside_quirk: bool,
}

impl Default for SprConfig {
    fn default() -> Self {
        SprConfig {
            attenuation_factor: 1.0,
            reverb_attenuation_distance: 0.0,
            reverb_gain: 1.0,
            reverb_brightness: 1.0,
            reverb_distance: 1.5,
            block_absorption: 1.0,
            underwater_filter: 0.9,
            non_full_block_occlusion_factor: 0.25,
            occlusion_variation: 0.35,
            max_occlusion_rays: 16,
            max_occlusion: 64.0,
            strict_occlusion: false,
            ray_count: 32,
            ray_bounces: 4,
            sound_direction_evaluation: true,
            redirect_non_occluded_sounds: true,
            max_sound_processing_distance: 512.0,
            inside_quirk: true,
        }
    }
}

/// Length of every environment ray and bounce ray (SP:287).
pub const MAX_RAY_DISTANCE: f64 = 256.0;
/// Floor of the occlusion variation for block sounds (SP:505).
pub const BLOCK_SOUND_VARIATION: f64 = 0.49;
/// Offset of the shared-airspace test start along the hit normal (SP:596).
pub const AIRSPACE_START_OFFSET: f64 = 0.001;
/// Scale of the reflection delay index (SP:376).
pub const DELAY_SCALE: f32 = 0.12;
/// Slot weights of one contribution (SP:383-386).
pub const SLOT_WEIGHTS: [f32; 4] = [6.4, 12.8, 12.8, 12.8];
/// Shared-airspace scale (SP:408).
pub const AIRSPACE_SCALE: f32 = 64.0;
/// Shared-airspace divisors per slot (SP:412-415).
pub const AIRSPACE_DIVISORS: [f32; 4] = [20.0, 15.0, 10.0, 10.0];
/// The exponent taking a cutoff to a gain (SP:265, 425, 441-444).
pub const GAIN_EXPONENT: f64 = 0.1;
/// Send cutoff factor under water (SP:460-463).
pub const UNDERWATER_SEND_CUTOFF: f32 = 0.4;
/// Default attenuation distance of a vanilla sound (`SoundEvent` range), in blocks.
pub const DEFAULT_ATTENUATION_DISTANCE: f32 = 16.0;
