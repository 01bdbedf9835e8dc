//! Resound's game-facing engine.
//!
//! For now this crate joins the layers under one roof so that the command-line tool (and later
//! the device output, the offline renderer and the worker scheduler) depend on one crate, as
//! `ARCHITECTURE.md` draws it. The GPL model is reachable only through the `spr-gpl` feature.

pub mod terrain;

pub use resound_acoustics as acoustics;
pub use resound_ambient as ambient;
pub use resound_datformat as datformat;
pub use resound_dsp as dsp;
pub use resound_mixer as mixer;
/// The Sound Physics Remastered model (GNU GPL version 3 only; only with the `spr-gpl` feature).
#[cfg(feature = "spr-gpl")]
pub use resound_spr as spr;
pub use terrain::{TerrainError, TerrainWorld};
