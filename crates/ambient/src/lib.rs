//! The retail Asheron's Call ambient sound runtime, exact to the 2013 client (build 11.4186).
//!
//! A pure, deterministic state machine: it reads parsed DAT records
//! ([`resound_datformat::record`]), is driven by the player's cell changes and a clock, and
//! emits [`AmbientEvent`]s (a wave to play, its whole-dB level and integer pan, and a world
//! position or "from centre"). It never touches audio or files: sound tables and landblocks
//! come through [`SoundTableSource`] and [`LandBlockSource`], which the engine implements over
//! the dats; the clock and both random seeds are injected.
//!
//! Specs: `docs/spec/ambient-data-path.md`, `docs/spec/ambient-runtime.md`. Every ported
//! function names its retail symbol and address; differences from retail are listed in
//! `docs/divergences.md`.
//!
//! # The order within a frame
//!
//! A host calls [`Ambient::frame`] once per frame and [`Ambient::teleport`] when the player
//! jumps; both apply the retail order (spec `ambient-runtime.md` §6.1), so a host cannot get it
//! wrong. Retail's `SmartBox::UseTime` @ 0x00455410 runs, at frame N with the clock at `t_N`:
//!
//! 1. `CellManager::ChangePosition` @ 0x004559B0 (the rebuild, when the cell changed) on the
//!    player's physics position **as frame N−1 left it** — physics moves the player only
//!    after it (`CPhysics::UseTime`);
//! 2. `Ambient::UseTime` @ 0x00551880 with the clock `t_N`; `Ambient::Play` @ 0x005517A0 places,
//!    attenuates and pans each sound from `SoundManager::player_position_`, the **camera of
//!    frame N−1**: only `SmartBox::Draw` → `update_viewer` → `set_viewer` →
//!    `SoundManager::SetPlayerPosition` @ 0x005503C0 sets it, after the tick.
//!
//! So both positions lag one frame; at the first frame both are the poses given. A teleport or
//! blip (`SmartBox::PlayerPositionUpdated` @ 0x00453870) calls `set_viewer` and then
//! `ChangePosition` at once: no lag. The raw steps ([`Ambient::change_position`],
//! [`Ambient::use_time`], [`Ambient::set_listener`]) stay public for hosts and benches that
//! drive a single step; they apply no lag.
//!
//! ```
//! use resound_ambient::{Ambient, Listener, Player, Position, Seeds, SoundSettings};
//! use resound_ambient::{MemoryLandBlocks, MemorySoundTables};
//! use resound_datformat::record::Region;
//!
//! let region: Region = resound_fixture::region(); // normally from the portal dat
//! let mut ambient = Ambient::new(&region, Seeds { ran2: 1, crt: 1 }, SoundSettings::default())?;
//! let (mut tables, mut blocks) = (MemorySoundTables::default(), MemoryLandBlocks::default());
//! let mut events = Vec::new();
//! for frame in 0..60 {
//!     let now = f64::from(frame) / 60.0;
//!     let feet = Position::new(0xA9B4_0001, glam::Vec3::new(12.0 + now as f32, 12.0, 0.0));
//!     let camera = Listener { position: feet, heading_deg: 0.0 };
//!     ambient.frame(now, Player::at(feet), camera, &mut tables, &mut blocks, &mut events)?;
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Modules:
//! - [`rng`] — `Random::rand` (ran2), `RollDice`, the CRT `rand()`.
//! - [`queue`] — the `PQueueArray` play queue with retail's tie order.
//! - [`geometry`] — positions, cell ids, block offsets, directions.
//! - [`weight`] — `CalcWeight`, `CalcDir` and the distance constants.
//! - [`sound_manager`] — row pick, probability gate, attenuation and pan.
//! - [`region`] — the resolved region and the shared STB descriptors.
//! - [`source`] — the data-source traits and in-memory sources.
//! - [`instance`] — `IntermitSound` and `ConstantSound`.
//! - [`ambient`] — the `Ambient` object: gather, lifecycle and tick.
//! - [`event`] — what the runtime emits.
//! - [`describe`] — text renderings of events, walk logs and rebuilds.
//! - [`voice_pool`] — the retail 16-voice pool (`PlaySoundInternal`), for engines that want it.
//! - [`walk`] — scripted paths (`PATH.json`) driven frame by frame.

pub mod ambient;
pub mod describe;
pub mod event;
pub mod geometry;
pub mod instance;
pub mod queue;
pub mod region;
pub mod rng;
pub mod sound_manager;
pub mod source;
pub mod voice_pool;
pub mod walk;
pub mod weight;

#[cfg(test)]
mod testkit;

pub use ambient::{
    Ambient, AmbientSnapshot, ChangePositionError, FrameError, Player, PositionChange, Rebuild,
    Seeds, SetListenerError, SoundSnapshot,
};
pub use describe::RebuildReport;
pub use event::{AmbientEvent, DropReason, Outcome, Voice};
pub use geometry::{Direction, Position};
/// The vector type of positions (re-exported so callers need not depend on glam).
pub use glam;
pub use instance::{AmbientSound, SoundKind};
pub use region::{AmbientRegion, ResolveRegionError, SourceFailure, SourceKind, StbDesc};
pub use resound_datformat::id::{CellId, SoundTableId, WaveId};
pub use sound_manager::{Listener, SoundSettings};
pub use source::{
    DEFAULT_RECORD_CAP, DatSource, DatSourceError, LandBlockSource, MemoryLandBlocks,
    MemorySoundTables, SoundTableSource,
};
