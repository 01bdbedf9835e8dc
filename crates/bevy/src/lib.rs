//! Resound for Bevy: sounds muffled by walls, echoing off cliffs and ringing with the cave the
//! listener stands in, from a few components.
//!
//! ```no_run
//! use bevy::prelude::*;
//! use bevy_resound::{Emitter, Listener, Resound, ResoundPlugin, VoxelWorld};
//! use resound_engine::Material;
//!
//! fn setup(mut commands: Commands, mut resound: ResMut<Resound>, mut world: ResMut<VoxelWorld>) {
//!     world.fill(IVec3::new(-8, -1, -8), IVec3::new(8, -1, 8), Material::STONE);
//!     world.fill(IVec3::new(2, 0, -8), IVec3::new(2, 3, 8), Material::STONE); // a wall
//!     let drip = resound.engine_mut().load_file("drip.wav").expect("a sound");
//!     commands.spawn((Listener, Transform::from_xyz(0.5, 1.6, 0.5)));
//!     commands.spawn((Emitter::new(drip).looping(), Transform::from_xyz(5.5, 1.0, 0.5)));
//! }
//!
//! App::new()
//!     .add_plugins((MinimalPlugins, TransformPlugin, ResoundPlugin::default()))
//!     .add_systems(Startup, setup)
//!     .run();
//! ```
//!
//! # What is here
//!
//! | topic | items |
//! |---|---|
//! | the plugin | [`ResoundPlugin`] (device or [offline](ResoundPlugin::offline), engine settings, materials), [`ResoundSystems`] |
//! | the engine | [`Resound`]: the engine as a resource (`engine_mut` to load sounds), each emitter's voice, the offline audio |
//! | entities | [`Listener`] (exactly one), [`Emitter`] (sound, volume, range, looping, class hints, fades) |
//! | play and stop | adding/removing an `Emitter`, despawning its entity (a fade), the events [`PlayEmitter`], [`StopEmitter`] |
//! | the world | [`VoxelWorld`] (set a cell, fill a box, a whole section; materials by name), or the game's own chunk store: [`GameWorldSource`] |
//! | what went wrong | [`ResoundStatus`] ([`ListenerState`], the last [`ResoundError`]) |
//!
//! # The frame
//!
//! The plugin's systems run in `PostUpdate`, after Bevy propagates transforms, in one chain:
//! removed or despawned emitters stop with their `stop_fade`; the listener follows its
//! entity; the frame's world edits go to the engine; new emitters start, moved ones move,
//! changed ones take their volume and range; the engine ticks with Bevy's `Time` delta; offline,
//! the audio up to `Time::elapsed` is rendered. The same calls made on an
//! [`Engine`](resound_engine::Engine) directly render the same bytes (the crate's tests check it).
//!
//! # Threads
//!
//! The engine is `Send` and `Sync`, so it is an ordinary resource. Its acoustics run on a
//! worker thread it owns; the sound card's callback never waits for Bevy.

mod components;
mod error;
mod plugin;
mod resource;
mod systems;
mod voxel;

pub use components::{DEFAULT_STOP_FADE, Emitter, Listener, PlayEmitter, StopEmitter};
pub use error::ResoundError;
pub use plugin::{ResoundPlugin, ResoundSystems};
pub use resource::{ListenerState, Resound, ResoundStatus};
pub use voxel::{GameWorldSource, SECTION_SIZE, VoxelWorld};

pub use resound_engine;
