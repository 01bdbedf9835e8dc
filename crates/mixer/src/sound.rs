//! Loaded sample buffers and their ids.

use std::sync::Arc;

/// A mono sample buffer at its own sample rate; shared (`Arc`) between the game and audio threads.
#[derive(Debug, Clone, PartialEq)]
pub struct SoundData {
    /// The samples, −1..1 nominal; every sample finite.
    pub samples: Arc<[f32]>,
    /// Sample rate of `samples` in Hz (any rate; the voice resamples linearly).
    pub sample_rate: u32,
}

/// Id of a loaded sound. A stale id (the sound was unloaded) is detected, never aliased.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SoundId {
    pub(crate) slot: u32,
    pub(crate) generation: u32,
}

impl SoundId {
    /// Slot index (0..`Capacities::sounds`).
    #[must_use]
    pub fn slot(self) -> u32 {
        self.slot
    }
}
