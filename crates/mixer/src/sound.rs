//! Loaded sample buffers and their ids.

use std::sync::Arc;

/// A sample buffer at its own sample rate; shared (`Arc`) between the game and audio threads.
///
/// Every sound has a mono signal (`samples`): a mono sound's samples, or a stereo sound's
/// downmix `(L + R) / 2`, which positional voices read. A stereo sound also keeps its two
/// channels (`stereo`), which voices started with [`PlaySettings::stereo`](crate::PlaySettings)
/// play as stereo.
#[derive(Debug, Clone, PartialEq)]
pub struct SoundData {
    /// The mono signal, −1..1 nominal; every sample finite.
    pub samples: Arc<[f32]>,
    /// Sample rate of the buffers in Hz (any rate; the voice resamples).
    pub sample_rate: u32,
    /// Left and right channels of a stereo sound, each as long as `samples`; `None` for mono.
    pub stereo: Option<[Arc<[f32]>; 2]>,
}

impl SoundData {
    /// A mono sound.
    #[must_use]
    pub fn mono(samples: Arc<[f32]>, sample_rate: u32) -> Self {
        Self {
            samples,
            sample_rate,
            stereo: None,
        }
    }

    /// A stereo sound from its two channels (of equal length; the mono signal is their
    /// mean). Unequal lengths are refused when the sound is loaded.
    #[must_use]
    pub fn stereo(left: Arc<[f32]>, right: Arc<[f32]>, sample_rate: u32) -> Self {
        let samples: Arc<[f32]> = left
            .iter()
            .zip(right.iter())
            .map(|(l, r)| 0.5 * (l + r))
            .collect();
        Self {
            samples,
            sample_rate,
            stereo: Some([left, right]),
        }
    }

    /// Frames in the sound.
    #[must_use]
    pub fn frames(&self) -> usize {
        self.samples.len()
    }
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

/// The audio thread's record of one sound slot: the samples and who still reads them.
#[derive(Debug, Default)]
pub(crate) struct RenderSound {
    /// The samples, `None` for an empty slot.
    pub(crate) data: Option<Arc<SoundData>>,
    /// Voices reading the sound.
    pub(crate) users: u32,
    /// An unload is pending until the last user ends.
    pub(crate) unloading: bool,
}

/// Read access to the sounds' sample rates for tap-set updates.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SoundRates<'a>(pub(crate) &'a [RenderSound]);

impl SoundRates<'_> {
    /// Sample rate of sound `slot` (0 if none).
    pub(crate) fn rate(&self, slot: u32) -> u32 {
        self.0
            .get(slot as usize)
            .and_then(|s| s.data.as_ref())
            .map_or(0, |d| d.sample_rate)
    }
}
