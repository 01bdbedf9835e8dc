//! Binaural output (issue 33) on the audio thread: a pool of preallocated
//! [`BinauralRenderer`]s, the budget (loudest voices keep binaural, the rest pan), and the
//! per-block rendering of the voices that hold one.
//!
//! A voice that holds a renderer mixes its dry path (after shelf, controls and gain) at
//! `(dry, 0)` into its renderer's mono buffer instead of at `(pan_l, pan_r)` into the mix; after
//! the voices, every held (or draining) renderer convolves its buffer with the HRIRs of the
//! voice's direction and adds both ears to the mix. Its reverb sends are unchanged (the reverb
//! stays a diffuse stereo bus).
//!
//! **Echo taps.** A tap with a direction ([`crate::Tap::direction`]) competes for the same
//! renderers, by its level (volume and distance gain applied, as a voice's dry gain): voices
//! and taps are ranked together, loudest first. A tap holding a renderer is routed out of the
//! pan into the renderer's buffer (`resound_dsp::tap::EchoTaps::set_routed`: its pan gains
//! ramp down and its feed up over the taps' 50 ms ramp, and back when it loses the renderer,
//! so the handover has no click); the renderer follows the tap's direction. A tap handed back
//! to pan keeps its renderer until the fade and the tail are over; a tap that ends (its set
//! dropped it, its voice stopped or ended) frees it once the tail has rung out.
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
//! free only then.
//!
//! **Handover.** A voice that changes between binaural and pan output while it plays (it took
//! or lost a renderer in the ranking, or stopped being positional) crossfades the two paths
//! linearly over [`HANDOVER_FRAMES`] (21 ms at 48 kHz): during the handover it stays routed into
//! its renderer's buffer, and the pool adds both the renderer's output and the buffer panned at
//! the voice's pan gains (undelayed, as the voice itself would), in complementary shares. The
//! voice's dry gains jump (no glide) as its routing changes, so the signal it feeds is the same
//! on both sides of the change: no click, though the two paths differ by the latency. A voice
//! handed to pan is routed back to the mix at the first block, after the fade, at which new
//! commands or parameters arrive (when the ranking runs), so the frame of that switch does not
//! depend on how render calls are cut; its renderer is free at once (its output was faded out).

use std::sync::Arc;

use resound_dsp::hrtf::{BinauralRenderer, HrtfBank, LATENCY_FRAMES, PARTITION};

use resound_dsp::smoothing::TAP_FADE_S;
use resound_dsp::tap::{Feeds, TAP_SLOTS};

use crate::params::VoiceTargets;
use crate::tap::TapSetState;
use crate::voice::{Voice, VoiceState};

/// A voice in the budget ranking needs this factor over the quietest binaural voice to take
/// its renderer.
const OUTRANK: f32 = 2.0;

/// Length of the crossfade between the binaural and the pan path when a playing voice changes
/// between them (frames).
pub(crate) const HANDOVER_FRAMES: usize = 1024;

/// A handover in progress on a renderer (see the module doc).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Handover {
    /// Towards binaural (the renderer's share rises) or towards pan.
    to_binaural: bool,
    /// Frames of the handover done (saturating once [`Handover::finished`]).
    done: usize,
}

impl Handover {
    /// The share of the voice's signal fed to the renderer at handover frame `at`.
    fn binaural_share(self, at: usize) -> f32 {
        let g = at.min(HANDOVER_FRAMES) as f32 / HANDOVER_FRAMES as f32;
        if self.to_binaural { g } else { 1.0 - g }
    }

    /// The pan path's share at handover frame `at`: the complement of the renderer's input
    /// share [`LATENCY_FRAMES`] earlier, so the two shares meet at the output.
    fn pan_share(self, at: usize) -> f32 {
        1.0 - self.binaural_share(at.saturating_sub(LATENCY_FRAMES))
    }

    /// True once both fades have ended.
    fn finished(self) -> bool {
        self.done >= HANDOVER_FRAMES + LATENCY_FRAMES
    }

    /// The same crossfade turned round at its current input share.
    fn reversed(self) -> Self {
        Self {
            to_binaural: !self.to_binaural,
            done: HANDOVER_FRAMES - self.done.min(HANDOVER_FRAMES),
        }
    }
}

/// An echo tap holding a renderer: tap set, slot in its `EchoTaps`, the slot's activation.
#[derive(Debug, Clone, Copy, PartialEq)]
struct TapKey {
    set: usize,
    slot: usize,
    epoch: u32,
}

/// What renders through a renderer.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Owner {
    /// A voice's dry path (voice slot).
    Voice(usize),
    /// An echo tap.
    Tap(TapKey),
}

/// A contender in the budget ranking: a panned positional voice or a panned tap.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Contender {
    Voice(usize),
    Tap(TapKey, [f32; 3]),
}

/// One renderer of the pool.
#[derive(Debug)]
struct Slot {
    renderer: BinauralRenderer,
    /// The voice or tap rendering through it.
    owner: Option<Owner>,
    /// A tap handed back to pan: the renderer frame from which the renderer is free (its
    /// feed faded out and its tail rung out).
    release_at: Option<u64>,
    /// Renderer frame until which its tail rings out after its voice left (free from then
    /// on when unowned). Counted from the exact frame the voice ended, so when a renderer is
    /// free does not depend on how render calls are cut.
    drain_until: u64,
    /// The owner's mono dry signal this block.
    buf: Vec<f32>,
    /// A crossfade between the binaural and the pan path, if one is running.
    handover: Option<Handover>,
    /// The owner's pan gains per unit of dry gain (the pan path of a handover).
    pan: (f32, f32),
}

/// The binaural pool of a mixer built with [`crate::Spatial::Binaural`].
#[derive(Debug)]
pub(crate) struct Binaural {
    slots: Vec<Slot>,
    /// Per voice slot: the index of its renderer.
    held: Vec<Option<usize>>,
    /// Per voice slot: the targets as the handle sent them (pan law applied).
    raw: Vec<VoiceTargets>,
    /// Per tap set: a bit per `EchoTaps` slot holding a renderer.
    held_taps: Vec<u16>,
    /// Where a binaural voice's (silent) right gain goes.
    discard: Vec<f32>,
    drain_frames: u64,
    /// Frames of a tap's routing fade ([`TAP_FADE_S`]).
    tap_fade_frames: u64,
}

impl Binaural {
    /// `budget` renderers over `bank` for `voices` voice slots and `tap_sets` tap sets, blocks
    /// of up to `max_block`.
    pub(crate) fn new(
        bank: &Arc<HrtfBank>,
        budget: usize,
        (voices, tap_sets): (usize, usize),
        max_block: usize,
    ) -> Self {
        let fs = bank.set().sample_rate();
        Self {
            slots: (0..budget.min(voices + tap_sets * TAP_SLOTS))
                .map(|_| Slot {
                    renderer: BinauralRenderer::new(Arc::clone(bank)),
                    owner: None,
                    release_at: None,
                    drain_until: 0,
                    buf: vec![0.0; max_block],
                    handover: None,
                    pan: (0.0, 0.0),
                })
                .collect(),
            held: vec![None; voices],
            raw: vec![VoiceTargets::default(); voices],
            held_taps: vec![0; tap_sets],
            discard: vec![0.0; max_block],
            // The last input sample waits up to a partition for its transform, then sits in the
            // delay line for `partitions + 1` more (its frame overlaps two partitions).
            drain_frames: (LATENCY_FRAMES + (bank.partitions() + 2) * PARTITION) as u64,
            // As `LinearRamp` counts its length.
            tap_fade_frames: ((TAP_FADE_S * fs).round() as u64).max(1),
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

    /// New targets for voice `i` from the parameter block; returns those to render with (a voice
    /// no longer positional starts its handover to pan).
    pub(crate) fn retarget(&mut self, i: usize, t: &VoiceTargets) -> VoiceTargets {
        if i >= self.raw.len() {
            return *t;
        }
        self.raw[i] = *t;
        if !t.positional && self.held[i].is_some() {
            self.hand_to_pan(i);
        }
        self.adjusted(i)
    }

    fn free_slot(&self, now: u64) -> Option<usize> {
        self.slots
            .iter()
            .position(|s| s.owner.is_none() && now >= s.drain_until)
    }

    /// Voice `i` takes renderer `s`: at its start (`immediate`: no handover) or while it
    /// plays (a handover from pan).
    fn take(&mut self, s: usize, i: usize, immediate: bool) {
        let dir = self.raw[i].direction;
        let slot = &mut self.slots[s];
        slot.owner = Some(Owner::Voice(i));
        slot.release_at = None;
        slot.renderer.reset();
        if immediate || dir != [0.0; 3] {
            slot.renderer.set_direction_immediate(dir);
        }
        slot.handover = (!immediate).then_some(Handover {
            to_binaural: true,
            done: 0,
        });
        self.held[i] = Some(s);
    }

    /// Voice `i` (holding a renderer, still playing) starts its handover to pan: it stays
    /// routed into the renderer until the fade is over (see the module doc).
    fn hand_to_pan(&mut self, i: usize) {
        let Some(slot) = self.held[i].and_then(|s| self.slots.get_mut(s)) else {
            return;
        };
        slot.handover = match slot.handover {
            Some(h) if !h.to_binaural => Some(h),
            Some(h) => Some(h.reversed()),
            None => Some(Handover {
                to_binaural: false,
                done: 0,
            }),
        };
    }

    /// True if voice `i` holds a renderer it is handing over to pan.
    fn leaving(&self, i: usize) -> bool {
        self.held[i]
            .and_then(|s| self.slots.get(s))
            .and_then(|s| s.handover)
            .is_some_and(|h| !h.to_binaural)
    }

    /// Ends the handovers whose fades are over: voices handed to pan go back to the mix at
    /// their pan gains (jumped, as the pool was producing them) and free their renderers.
    fn settle(&mut self, voices: &mut [Voice], now: u64) {
        for s in 0..self.slots.len() {
            let slot = &mut self.slots[s];
            let Some(h) = slot.handover else { continue };
            if !h.finished() {
                continue;
            }
            slot.handover = None;
            if h.to_binaural {
                continue;
            }
            // Its output was faded out: the renderer is free now (whether or not its voice
            // ended during the fade).
            slot.drain_until = now;
            if let Some(Owner::Voice(i)) = slot.owner.take() {
                self.held[i] = None;
                let t = self.raw[i];
                if let Some(v) = voices.get_mut(i) {
                    v.retarget_dry_immediate(&t);
                }
            }
        }
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

    /// Frees the renderers of taps whose fade back to pan and tail are over, and of taps that
    /// ended (once their tail has rung out); a tap that lost its direction goes back to pan.
    fn settle_taps(&mut self, taps: &mut [TapSetState], now: u64) {
        for s in 0..self.slots.len() {
            if let Some(Owner::Tap(k)) = self.slots[s].owner
                && self.slots[s].release_at.is_none()
                && taps
                    .get(k.set)
                    .is_some_and(|t| t.undirected(k.slot, k.epoch))
            {
                self.tap_to_pan(s, k, taps, now);
            }
        }
        for slot in &mut self.slots {
            let Some(Owner::Tap(k)) = slot.owner else {
                continue;
            };
            let fed = taps.get(k.set).is_some_and(|t| t.feeds(k.slot, k.epoch));
            let free_at = match slot.release_at {
                Some(at) if now >= at => now,
                _ if !fed => now + self.drain_frames,
                _ => continue,
            };
            slot.owner = None;
            slot.release_at = None;
            slot.drain_until = free_at;
            if let Some(bits) = self.held_taps.get_mut(k.set) {
                *bits &= !(1 << k.slot);
            }
        }
    }

    /// Tap `k` (sounding towards `dir`) takes renderer `s` and is routed into it.
    fn take_tap(&mut self, s: usize, k: TapKey, dir: [f32; 3], taps: &mut [TapSetState]) {
        let slot = &mut self.slots[s];
        slot.owner = Some(Owner::Tap(k));
        slot.release_at = None;
        slot.handover = None;
        slot.renderer.reset();
        slot.renderer.set_direction_immediate(dir);
        if let Some(bits) = self.held_taps.get_mut(k.set) {
            *bits |= 1 << k.slot;
        }
        if let Some(t) = taps.get_mut(k.set) {
            t.set_routed(k.slot, true);
        }
    }

    /// The tap on renderer `s` goes back to pan at renderer frame `now`: its feed fades out,
    /// then the renderer's tail rings out before it is free.
    fn tap_to_pan(&mut self, s: usize, k: TapKey, taps: &mut [TapSetState], now: u64) {
        if let Some(t) = taps.get_mut(k.set) {
            t.set_routed(k.slot, false);
        }
        if let Some(slot) = self.slots.get_mut(s) {
            slot.release_at = Some(now + self.tap_fade_frames + self.drain_frames);
        }
    }

    /// The budget: free renderers to the loudest panned positional voices and directed taps,
    /// then a swap where a panned one is [`OUTRANK`] times louder than the quietest binaural
    /// one. Voices whose path changes are retargeted; taps are routed.
    pub(crate) fn rank(&mut self, voices: &mut [Voice], taps: &mut [TapSetState], now: u64) {
        self.settle(voices, now);
        self.settle_taps(taps, now);
        loop {
            let Some((c, loud)) = self.loudest_panned(voices, taps) else {
                return;
            };
            if let Some(s) = self.free_slot(now) {
                match c {
                    Contender::Voice(i) => {
                        self.take(s, i, false);
                        let t = self.adjusted(i);
                        voices[i].retarget_dry_immediate(&t);
                    }
                    Contender::Tap(k, dir) => self.take_tap(s, k, dir, taps),
                }
                continue;
            }
            let Some((s, quiet)) = self.quietest_binaural(taps) else {
                return;
            };
            if loud < OUTRANK * quiet || loud == 0.0 {
                return;
            }
            match self.slots[s].owner {
                Some(Owner::Voice(q)) => self.hand_to_pan(q),
                Some(Owner::Tap(k)) => self.tap_to_pan(s, k, taps, now),
                None => {}
            }
            // The one handed to pan keeps its renderer until its fade is over; the louder one
            // takes one after that.
            return;
        }
    }

    fn loudest_panned(&self, voices: &[Voice], taps: &[TapSetState]) -> Option<(Contender, f32)> {
        let mut best = self
            .loudest_panned_voice(voices)
            .map(|(i, l)| (Contender::Voice(i), l));
        for (set, ts) in taps.iter().enumerate() {
            let held = self.held_taps.get(set).copied().unwrap_or(u16::MAX);
            for slot in 0..TAP_SLOTS {
                if held & (1 << slot) != 0 {
                    continue;
                }
                let Some((t, dir)) = ts.sounding(slot) else {
                    continue;
                };
                if best.is_none_or(|(_, l)| t.level > l) {
                    let k = TapKey {
                        set,
                        slot,
                        epoch: t.epoch,
                    };
                    best = Some((Contender::Tap(k, dir), t.level));
                }
            }
        }
        best
    }

    fn loudest_panned_voice(&self, voices: &[Voice]) -> Option<(usize, f32)> {
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

    /// The renderer of the quietest binaural voice or tap that could be handed to pan, and
    /// its level.
    fn quietest_binaural(&self, taps: &[TapSetState]) -> Option<(usize, f32)> {
        let mut worst: Option<(usize, f32)> = None;
        for (s, slot) in self.slots.iter().enumerate() {
            let level = match slot.owner {
                Some(Owner::Voice(i)) if !self.leaving(i) => self.raw[i].dry,
                Some(Owner::Tap(k)) if slot.release_at.is_none() => {
                    match taps.get(k.set).and_then(|t| t.sounding(k.slot)) {
                        Some((t, _)) if t.epoch == k.epoch => t.level,
                        _ => continue,
                    }
                }
                _ => continue,
            };
            if worst.is_none_or(|(_, l)| level < l) {
                worst = Some((s, level));
            }
        }
        worst
    }

    /// Clears every busy renderer's input for a block of `n` frames at renderer frame `now`;
    /// renderers of sounding taps aim at their taps' directions.
    pub(crate) fn begin_block(&mut self, n: usize, now: u64, taps: &[TapSetState]) {
        for s in &mut self.slots {
            if s.owner.is_some() || now < s.drain_until {
                s.buf[..n].fill(0.0);
            }
            match s.owner {
                Some(Owner::Voice(i)) => {
                    let t = &self.raw[i];
                    s.pan = if t.dry > 0.0 {
                        (t.left / t.dry, t.right / t.dry)
                    } else {
                        (0.0, 0.0)
                    };
                }
                Some(Owner::Tap(k)) => {
                    if let Some((t, dir)) = taps.get(k.set).and_then(|t| t.sounding(k.slot))
                        && t.epoch == k.epoch
                    {
                        s.renderer.set_direction(dir);
                    }
                }
                None => {}
            }
        }
    }

    /// The renderer inputs the taps of tap set `set` feed this block (`n` frames), by
    /// `EchoTaps` slot.
    pub(crate) fn tap_feeds(&mut self, set: usize, n: usize) -> Feeds<'_> {
        let mut feeds: Feeds<'_> = Default::default();
        if self.held_taps.get(set).is_none_or(|&b| b == 0) {
            return feeds;
        }
        for s in &mut self.slots {
            if let Some(Owner::Tap(k)) = s.owner
                && k.set == set
                && let Some(f) = feeds.get_mut(k.slot)
            {
                *f = Some(&mut s.buf[..n]);
            }
        }
        feeds
    }

    /// The buffers voice `i` mixes its dry path into (mono input, discarded right), if it
    /// holds a renderer.
    pub(crate) fn inputs(&mut self, i: usize) -> Option<(&mut [f32], &mut [f32])> {
        let s = (*self.held.get(i)?)?;
        let slot = self.slots.get_mut(s)?;
        Some((&mut slot.buf[..], &mut self.discard[..]))
    }

    /// Convolves every held or draining renderer's block of `n` frames (at renderer frame
    /// `now`) into the mix; a renderer in a handover adds its share and the pan path the rest.
    /// A tail rung out adds exact zeros, so a renderer fed a few frames past its tail changes
    /// nothing.
    pub(crate) fn render(&mut self, n: usize, now: u64, left: &mut [f32], right: &mut [f32]) {
        for s in &mut self.slots {
            if s.owner.is_none() && now >= s.drain_until {
                continue;
            }
            let Some(h) = s.handover else {
                s.renderer.mix(&s.buf[..n], &mut left[..n], &mut right[..n]);
                continue;
            };
            // The pan path at its share, then the renderer fed the voice at its share (a
            // renderer's input faded, not its output: its output has no onset step).
            let (pl, pr) = s.pan;
            for (f, ((l, r), x)) in left[..n]
                .iter_mut()
                .zip(right[..n].iter_mut())
                .zip(s.buf[..n].iter_mut())
                .enumerate()
            {
                let at = h.done + f + 1;
                let p = h.pan_share(at);
                *l += p * (pl * *x);
                *r += p * (pr * *x);
                *x *= h.binaural_share(at);
            }
            s.renderer.mix(&s.buf[..n], &mut left[..n], &mut right[..n]);
            s.handover = Some(Handover {
                done: (h.done + n).min(HANDOVER_FRAMES + LATENCY_FRAMES),
                ..h
            });
        }
    }
}
