//! [`Error`]: why the tour's world could not be read or the engine refused a step of the tour.

use resound_engine::{
    InputError, LoadError, PlayError, TerrainError, TickError, TrackError, VoiceError, WorldError,
};

/// Why the tour could not be set up or stepped.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The Region's materials or a landblock could not be read.
    #[error("tour terrain: {0}")]
    Terrain(#[from] TerrainError),
    /// The cell dat has no terrain under the tour's area.
    #[error("the cell dat has no terrain under the tour (landblocks 0xA7B2..0xABB6)")]
    NoTerrain,
    /// A structure could not be placed.
    #[error("world: {0}")]
    World(#[from] WorldError),
    /// An event sound could not be loaded.
    #[error("sound: {0}")]
    Load(#[from] LoadError),
    /// An event voice could not be started.
    #[error("play: {0}")]
    Play(#[from] PlayError),
    /// An event voice could not be moved or stopped.
    #[error("voice: {0}")]
    Voice(#[from] VoiceError),
    /// The engine's update failed.
    #[error("update: {0}")]
    Tick(#[from] TickError),
    /// A listener pose was rejected.
    #[error("listener: {0}")]
    Input(#[from] InputError),
    /// A sub-mix track could not be added or tweened.
    #[error("track: {0}")]
    Track(#[from] TrackError),
}
