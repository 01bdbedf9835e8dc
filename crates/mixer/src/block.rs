//! The parameter block: every voice's and tap set's targets, handed over as a whole through a
//! triple buffer (latest value wins; the renderer never waits for it).

use crate::params::{TapSetTargets, VoiceTargets};

/// All continuously changing targets. Sized once at build; `clone_from` never reallocates.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct ParamBlock {
    /// Indexed by voice slot.
    pub voices: Vec<VoiceTargets>,
    /// Indexed by tap-set slot.
    pub tap_sets: Vec<TapSetTargets>,
}

impl ParamBlock {
    pub(crate) fn new(voices: usize, tap_sets: usize) -> Self {
        Self {
            voices: vec![VoiceTargets::default(); voices],
            tap_sets: vec![TapSetTargets::default(); tap_sets],
        }
    }

    /// Copies `src` into `self` without allocating (both have the same sizes).
    pub(crate) fn copy_from(&mut self, src: &Self) {
        self.voices.copy_from_slice(&src.voices);
        self.tap_sets.copy_from_slice(&src.tap_sets);
    }
}
