// SPDX-License-Identifier: GPL-3.0-only
//! Sound Physics Remastered's model for Resound, behind the opt-in `spr-gpl` feature.
//!
//! An independent re-implementation of the occlusion, reflection and reverb-send computation of
//! Sound Physics Remastered (SPR, `henkelmax/sound-physics-remastered`, GPL-3.0), written from the
//! facts and formulas of `docs/spec/spr.md` (SPR read at HEAD `ca0f8fe`). This crate is
//! GPL-3.0-only; a binary that links it must ship under GPL-3.0. See `THIRD_PARTY_SPR.md`.
//!
//! ```
//! use resound_spr::{reverb_slots, SprConfig, energy_towards_player};
//! let slots = reverb_slots(&SprConfig::default());
//! assert!((slots[3].decay_time - 4.142).abs() < 1e-6);
//! assert!((energy_towards_player(1.5) - 0.34375).abs() < 1e-7);
//! ```
//!
//! Contents:
//! - [`SoundType`] and the default tables ([`SprBlock`], [`BlockId`]): 101 sound types.
//! - [`SprConfig`]: SPR's defaults; [`reverb_slots`]: the four EAX reverb slots.
//! - [`formula`]: the closed-form formulas; [`sphere`]: the ray directions.
//! - [`cast`]: SPR's ray primitive; [`path_occlusion`] / [`sound_occlusion`]; [`evaluate`].
//! - [`SprWorld`]: what the rays read; [`ProbeWorld`] reads an acoustics-core `WorldProbe`.
//! - [`SprModel`]: the `AcousticModel` (`SprModel::default()`; its echo taps are Resound's
//!   image-source stage 2 on SPR's spiral); [`slot_mix_decay`]: the decay its sends make on the
//!   slots; [`spr_material_table`] maps SPR's tables onto acoustics-core's material table.

mod config;
mod direction;
mod evaluation;
pub mod formula;
mod material_map;
mod model;
mod occlusion;
mod probe_world;
mod ray;
mod reverb_slot;
mod sound_type;
pub mod sphere;
mod table;
mod world;

pub use config::*;
pub use direction::Direction;
pub use evaluation::{SprEvaluation, SprSound, evaluate, evaluate_counted};
pub use formula::energy_towards_player;
pub use material_map::{SprSurface, spr_material_table, spr_surface, surface_of, surfaces};
pub use model::{AL_AIR_ABSORPTION, SprModel, air_absorption, slot_mix_decay};
pub use occlusion::{path_occlusion, sound_occlusion};
pub use probe_world::ProbeWorld;
pub use ray::{CellCount, RayHit, cast, cast_with, cell_of};
pub use reverb_slot::{
    APPLIED_REFLECTIONS_DELAY, ReverbSlot, SLOT_GAIN_SCALE, al_send_index, reverb_slots,
};
pub use sound_type::SoundType;
pub use table::{BlockId, DEFAULT_OCCLUSION, DEFAULT_REFLECTIVITY, SprBlock};
pub use world::SprWorld;

#[cfg(test)]
mod test_support;
