//! [`ResoundError`]: what went wrong in a frame, one plain line each. The plugin never panics
//! on a bad value from the game: it records the error in [`crate::ResoundStatus`] and goes
//! on with the rest of the frame.

use bevy::ecs::entity::Entity;
use resound_engine::{BuildError, PlayError, TickError, VoiceError, WorldError};

/// Something the plugin could not do this frame (kept in [`crate::ResoundStatus::last_error`]).
#[derive(Debug, thiserror::Error)]
pub enum ResoundError {
    /// The engine could not be built (a bad setting, or no sound device): the plugin inserted
    /// no [`crate::Resound`] resource and its systems do nothing.
    #[error("the audio engine could not be built: {0}")]
    Build(#[from] BuildError),
    /// More than one entity has a [`crate::Listener`]: the engine's listener stays where it
    /// was until exactly one is left.
    #[error("{0} entities have a Listener; exactly one may (the listener stays where it was)")]
    ManyListeners(usize),
    /// The listener's transform is not a usable pose (not finite, outside the world, or
    /// scaled to nothing).
    #[error("the listener's transform is not usable: {0}")]
    ListenerPose(resound_engine::InputError),
    /// An emitter could not start.
    #[error("emitter {entity} could not play: {error}")]
    Play {
        /// The emitter's entity.
        entity: Entity,
        /// Why.
        error: PlayError,
    },
    /// A playing emitter could not be changed (moved, its volume or range set, stopped).
    #[error("emitter {entity}: {error}")]
    Voice {
        /// The emitter's entity.
        entity: Entity,
        /// Why.
        error: VoiceError,
    },
    /// An edit of the [`crate::VoxelWorld`] was refused (out of the world, a bad material, or
    /// the game traces its own world through [`crate::GameWorldSource`]).
    #[error("world edit refused: {0}")]
    World(#[from] WorldError),
    /// No material has this name in the world's material table.
    #[error("no material is named {0:?}")]
    UnknownMaterial(String),
    /// The engine's tick or offline render failed (the mix goes on where it can).
    #[error("engine tick: {0}")]
    Tick(#[from] TickError),
}
