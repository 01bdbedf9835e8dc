//! Binaural output (issue 33) on the audio thread: a pool of preallocated
//! [`BinauralRenderer`]s, the budget (loudest voices keep binaural, the rest pan), and the
//! per-block rendering of the voices that hold one.
//!
//! A voice that holds a renderer mixes its dry path (after shelf, controls and gain) at
//! `(dry, 0)` into its renderer's mono buffer instead of at `(pan_l, pan_r)` into the mix; after
//! the voices, every held (or draining) renderer convolves its buffer with the HRIRs of the
//! voice's direction and adds both ears to the mix. Its reverb sends are unchanged (the reverb
//! stays a stereo bus) and its echo taps are panned (see [`crate::Tap`]).
//!
//! **Latency.** A binaural voice is [`LATENCY_FRAMES`] (128) frames later than a panned one
//! (2.7 ms at 48 kHz). The renderer's 128-frame grid is its own (it buffers input), so the output
//! does not depend on how render calls are cut.
//!
//! **Budget.** At a voice's start it takes a free renderer if there is one. Whenever new
//! commands or parameters arrive, free renderers go to the loudest panned voices (dry gain:
//! volume × distance gain), and a panned voice at least twice (6 dB) as loud as the quietest
//! binaural one takes its renderer (hysteresis against flapping). A renderer a voice leaves (it
//! ended or was outranked) first rings out its tail (latency + filter length, fed silence) and is
//! free only then. A voice that changes between binaural and pan is not crossfaded across the
//! two paths (its gains glide over the pan smoothing time, the paths differ by the latency).

use std::sync::Arc;

use resound_dsp::hrtf::{BinauralRenderer, HrtfBank, LATENCY_FRAMES, PARTITION};

use crate::params::VoiceTargets;
use crate::voice::{Voice, VoiceState};

/// A voice in the budget ranking needs this factor over the quietest binaural voice to take
/// its renderer.
const OUTRANK: f32 = 2.0;

/// One renderer of the pool.
#[derive(Debug)]
struct Slot {
    renderer: BinauralRenderer,
    /// The voice slot rendering through it.
    owner: Option<usize>,
    /// Renderer frame until which its tail rings out after its voice left (free from then
    /// on when unowned). Counted from the exact frame the voice ended, so when a renderer is
    /// free does not depend on how render calls are cut.
    drain_until: u64,
    /// The owner's mono dry signal this block.
    buf: Vec<f32>,
}

/// The binaural pool of a mixer built with [`crate::Spatial::Binaural`].
#[derive(Debug)]
pub(crate) struct Binaural {
    slots: Vec<Slot>,
    /// Per voice slot: the index of its renderer.
    held: Vec<Option<usize>>,
    /// Per voice slot: the targets as the handle sent them (pan law applied).
    raw: Vec<VoiceTargets>,
    /// Where a binaural voice's (silent) right gain goes.
    discard: Vec<f32>,
    drain_frames: u64,
}

impl Binaural {
    /// `budget` renderers over `bank` for `voices` voice slots, blocks of up to `max_block`.
    pub(crate) fn new(
        bank: &Arc<HrtfBank>,
        budget: usize,
        voices: usize,
        max_block: usize,
    ) -> Self {
        Self {
            slots: (0..budget.min(voices))
                .map(|_| Slot {
                    renderer: BinauralRenderer::new(Arc::clone(bank)),
                    owner: None,
                    drain_until: 0,
                    buf: vec![0.0; max_block],
                })
                .collect(),
            held: vec![None; voices],
            raw: vec![VoiceTargets::default(); voices],
            discard: vec![0.0; max_block],
            // The last input sample waits up to a partition for its transform, then sits in the
            // delay line for `partitions + 1` more (its frame overlaps two partitions).
            drain_frames: (LATENCY_FRAMES + (bank.partitions() + 2) * PARTITION) as u64,
        }
    }

    /// The targets voice `i` renders with: the handle's, or for a binaural voice the dry gain
    /// on the left lane only (its renderer's input) and its renderer aimed at the direction.
    fn adjusted(&mut self, i: usize) -> VoiceTargets {
        let t = self.raw[i];
        match self.held[i] {
            Some(s) => {
                if let Some(slot) = self.slots.get_mut(s) {
                    slot.renderer.set_direction(t.direction);
                }
                VoiceTargets {
                    left: t.dry,
                    right: 0.0,
                    ..t
                }
            }
            None => t,
        }
    }

    /// A voice starts at slot `i` with targets `t` at renderer frame `now`: it takes a free
    /// renderer if it is positional and one is free. Returns the targets to start it at.
    pub(crate) fn start(&mut self, i: usize, t: VoiceTargets, now: u64) -> VoiceTargets {
        if i >= self.raw.len() {
            return t;
        }
        self.raw[i] = t;
        self.held[i] = None;
        if t.positional
            && let Some(s) = self.free_slot(now)
        {
            self.take(s, i, true);
        }
        self.adjusted(i)
    }

    /// New targets for voice `i` from the parameter block at renderer frame `now`; returns
    /// those to render with.
    pub(crate) fn retarget(&mut self, i: usize, t: &VoiceTargets, now: u64) -> VoiceTargets {
        if i >= self.raw.len() {
            return *t;
        }
        self.raw[i] = *t;
        if !t.positional && self.held[i].is_some() {
            self.leave(i, now);
        }
        self.adjusted(i)
    }

    fn free_slot(&self, now: u64) -> Option<usize> {
        self.slots
            .iter()
            .position(|s| s.owner.is_none() && now >= s.drain_until)
    }

    fn take(&mut self, s: usize, i: usize, immediate: bool) {
        let dir = self.raw[i].direction;
        let slot = &mut self.slots[s];
        slot.owner = Some(i);
        slot.renderer.reset();
        if immediate || dir != [0.0; 3] {
            slot.renderer.set_direction_immediate(dir);
        }
        self.held[i] = Some(s);
    }

    /// Voice `i` leaves its renderer at renderer frame `at`; the renderer rings out its tail.
    fn leave(&mut self, i: usize, at: u64) {
        if let Some(s) = self.held[i].take()
            && let Some(slot) = self.slots.get_mut(s)
        {
            slot.owner = None;
            slot.drain_until = at + self.drain_frames;
        }
    }

    /// Voice `i` ended at renderer frame `at` (its last rendered frame's end).
    pub(crate) fn ended(&mut self, i: usize, at: u64) {
        if i < self.held.len() {
            self.leave(i, at);
        }
    }

    /// The budget: free renderers to the loudest panned positional voices, then swaps where a
    /// panned voice is [`OUTRANK`] times louder than the quietest binaural one. Voices whose
    /// path changes are retargeted.
    pub(crate) fn rank(&mut self, voices: &mut [Voice], now: u64) {
        loop {
            let Some((i, loud)) = self.loudest_panned(voices) else {
                return;
            };
            if let Some(s) = self.free_slot(now) {
                self.take(s, i, false);
                let t = self.adjusted(i);
                voices[i].retarget(&t);
                continue;
            }
            let Some((q, quiet)) = self.quietest_binaural() else {
                return;
            };
            if loud < OUTRANK * quiet || loud == 0.0 {
                return;
            }
            self.leave(q, now);
            let t = self.adjusted(q);
            voices[q].retarget(&t);
            // The freed renderer drains first; `i` takes one once it is free.
            return;
        }
    }

    fn loudest_panned(&self, voices: &[Voice]) -> Option<(usize, f32)> {
        let mut best: Option<(usize, f32)> = None;
        for (i, v) in voices.iter().enumerate() {
            let t = &self.raw[i];
            if self.held[i].is_some()
                || !t.positional
                || !matches!(
                    v.state,
                    VoiceState::Playing | VoiceState::Scheduled | VoiceState::Paused
                )
                || v.generation != t.generation
            {
                continue;
            }
            if best.is_none_or(|(_, l)| t.dry > l) {
                best = Some((i, t.dry));
            }
        }
        best
    }

    fn quietest_binaural(&self) -> Option<(usize, f32)> {
        let mut worst: Option<(usize, f32)> = None;
        for s in &self.slots {
            if let Some(i) = s.owner {
                let d = self.raw[i].dry;
                if worst.is_none_or(|(_, l)| d < l) {
                    worst = Some((i, d));
                }
            }
        }
        worst
    }

    /// Clears every busy renderer's input for a block of `n` frames at renderer frame `now`.
    pub(crate) fn begin_block(&mut self, n: usize, now: u64) {
        for s in &mut self.slots {
            if s.owner.is_some() || now < s.drain_until {
                s.buf[..n].fill(0.0);
            }
        }
    }

    /// The buffers voice `i` mixes its dry path into (mono input, discarded right), if it
    /// holds a renderer.
    pub(crate) fn inputs(&mut self, i: usize) -> Option<(&mut [f32], &mut [f32])> {
        let s = (*self.held.get(i)?)?;
        let slot = self.slots.get_mut(s)?;
        Some((&mut slot.buf[..], &mut self.discard[..]))
    }

    /// Convolves every held or draining renderer's block of `n` frames (at renderer frame
    /// `now`) into the mix. A tail rung out adds exact zeros, so a renderer fed a few frames
    /// past its tail changes nothing.
    pub(crate) fn render(&mut self, n: usize, now: u64, left: &mut [f32], right: &mut [f32]) {
        for s in &mut self.slots {
            if s.owner.is_none() && now >= s.drain_until {
                continue;
            }
            s.renderer.mix(&s.buf[..n], &mut left[..n], &mut right[..n]);
        }
    }
}
