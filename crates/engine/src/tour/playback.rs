//! [`Playback`]: a rendered tour played on the sound card (an
//! [`AudioSource`](crate::device::AudioSource) that reads a finished buffer).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::device::AudioSource;

/// Plays interleaved stereo from the start, then silence; the frames played are readable from
/// any thread through [`Playback::position`].
pub struct Playback {
    samples: Arc<[f32]>,
    at: Arc<AtomicUsize>,
}

impl Playback {
    /// A source over `samples` and the counter of frames it has played.
    #[must_use]
    pub fn new(samples: Arc<[f32]>) -> (Self, Arc<AtomicUsize>) {
        let at = Arc::new(AtomicUsize::new(0));
        (
            Self {
                samples,
                at: Arc::clone(&at),
            },
            at,
        )
    }

    /// Frames played so far.
    #[must_use]
    pub fn position(counter: &AtomicUsize) -> usize {
        counter.load(Ordering::Relaxed)
    }
}

impl AudioSource for Playback {
    fn render(&mut self, out: &mut [f32]) {
        let frame = self.at.load(Ordering::Relaxed);
        let start = (2 * frame).min(self.samples.len());
        let n = out.len().min(self.samples.len() - start);
        out[..n].copy_from_slice(&self.samples[start..start + n]);
        out[n..].fill(0.0);
        self.at.store(frame + out.len() / 2, Ordering::Relaxed);
    }
}
