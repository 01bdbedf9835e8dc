//! Resound's game-facing engine: one API that joins the acoustic model, the worker scheduler,
//! the mixer and the output (`ARCHITECTURE.md`, "The game-facing API"; spec `acoustics.md` §3,
//! §7, §8).
//!
//! ```
//! use std::sync::Arc;
//! use resound_engine::{Engine, Mode, Orientation, Source, glam::DVec3};
//!
//! let mut engine = Engine::builder().mode(Mode::Direct).build()?;
//! let click: Arc<[f32]> = (0..4800).map(|i| if i == 0 { 1.0 } else { 0.0 }).collect();
//! let sound = engine.load_mono(click, 48_000)?;
//! engine.set_listener(DVec3::new(10.5, 1.5, 0.5), Orientation::default())?;
//! let voice = engine.play(sound, Source { position: DVec3::new(0.5, 1.5, 0.5), ..Source::default() })?;
//! let mut out = vec![0.0f32; 2 * 4800];
//! engine.render(&mut out)?; // offline: deterministic
//! assert!(out.iter().any(|s| *s != 0.0));
//! assert!(engine.status().ticks >= 1);
//! # let _ = voice;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! | module | holds |
//! |---|---|
//! | `builder` | [`EngineBuilder`]: rate, [`Output`], [`Mode`], [`Model`], [`Budgets`], [`Capacities`], [`VoicePolicy`], [`Pacing`] |
//! | `runtime` | [`Engine`], the facade over its parts (`runtime/`: voices, tick, sounds, ambient, retail pool, terrain, shared state): sounds, voices ([`SoundHandle`], [`VoiceHandle`]), listener, mode, `update`, `render`, `status`; sounds from WAV/Wave/MP3 ([`SoundError`]), terrain as the world ([`Engine::attach_terrain`], [`Engine::place_box`]), the ambient runtime ([`Engine::attach_ambient`], [`AmbientStatus`]) |
//! | `source` | [`Source`], [`Listener`], [`Orientation`] and their validation |
//! | `listener_cell` | [`ListenerCell`]: the listener's AC cell for the ambient runtime (outdoor, or a named EnvCell with its `seen_outside` flag, [`SeenOutside`]), [`ListenerCellError`] |
//! | `schedule` | classes (Full/Direct/Free) with hysteresis, re-trace timing, `deserves_echo` |
//! | `worker` | the acoustic worker thread (crossbeam channels, `queue::Evaluator`) |
//! | `convert` | the one conversion: acoustic result → mixer voice parameters and taps |
//! | `world` | [`WorldEdit`]: cells, boxes, sections, epoch, replacement; the traced world (store or terrain) and the worker's snapshot |
//! | `output` | [`Output`] (`Offline`, `Device`) and the one place that resolves and opens it; the engine's side of a device (poll per `update`, status, paused start) |
//! | [`device`] | live output: [`device::DeviceOutput`], the callback, the backends (cpal with the default feature `device`, test) |
//! | `status` | [`Status`] counters |
//! | `status_line` | the one-line texts of [`Status`] and [`AmbientStatus`] |
//! | `error` | typed errors, one enum per kind of operation |
//! | `model` | [`Model`]: own or (feature `spr-gpl`) SPR |
//! | [`sound`] | decoding (WAV, DAT `Wave`, MP3), the wave cache, the ambient bridge (runtime event → play request) |
//! | [`terrain`] | Asheron's Call landblocks as a voxel world; the one AC ↔ voxel axis mapping |
//!
//! The tools built on this API (verification scenes, the demo tour, test signals, WAV writing,
//! JSON reports, walk renders) live in `resound-studio`.
//!
//! # Where things connect
//!
//! - **Sounds**: [`Engine::load_wav`], [`Engine::load_wave`] and [`Engine::load_mp3`] decode
//!   through [`sound`] and load through [`Engine::load_mono`] (stereo downmixed).
//! - **Terrain and ambient**: the engine's positions are voxel-world coordinates
//!   (acoustics-core's axes, Y up); the one AC-position ↔ voxel mapping is
//!   [`terrain::axes`]. [`Engine::attach_terrain`] traces AC landblocks instead of the store
//!   (boxes placed over them with [`Engine::place_box`]); [`Engine::attach_ambient`] runs the
//!   retail ambient runtime on every `update` with the listener as its camera.
//! - **Mixer field names**: only `convert` names `VoiceParams`/`Tap` fields.

mod builder;
mod convert;
pub mod device;
mod error;
mod listener_cell;
mod model;
mod output;
mod runtime;
mod schedule;
pub mod sound;
mod source;
mod status;
mod status_line;
pub mod terrain;
mod worker;
mod world;

pub use builder::{AudioGuard, Budgets, Capacities, EngineBuilder, Pacing, VoicePolicy};
pub use error::{
    BuildError, InputError, LoadError, PlayError, Problem, TickError, UnloadError, VoiceError,
    WorldError,
};
pub use listener_cell::{ListenerCell, ListenerCellError, SeenOutside};
pub use model::Model;
pub use output::{Output, OutputError};
pub use resound_acoustics::Mode;
pub use runtime::{
    AMBIENT_RANGE, AttachTerrainError, Engine, MAX_DT, SoundError, SoundHandle, VoiceAcoustics,
    VoiceHandle, heading_orientation,
};
pub use schedule::Class;
pub use source::{Listener, MAX_COORDINATE, MAX_POWER, MAX_RANGE, MAX_VOLUME, Orientation, Source};
pub use status::{AmbientStatus, Status};
pub use world::WorldEdit;

pub use glam;
pub use resound_acoustics as acoustics;
pub use resound_ambient as ambient;
pub use resound_datformat as datformat;
pub use resound_dsp as dsp;
pub use resound_mixer as mixer;
/// The Sound Physics Remastered model (GNU GPL version 3 only; only with the `spr-gpl` feature).
#[cfg(feature = "spr-gpl")]
pub use resound_spr as spr;
pub use terrain::{TerrainError, TerrainWorld};
