//! A voice's echo-tap set on the audio thread: ownership and fades around `resound_dsp::EchoTaps`.
//!
//! The set belongs to one voice (slot + generation) as the parameter block says. Whenever the
//! block's taps differ from those last applied they are handed to `EchoTaps::set_taps`, which
//! matches taps within 3 ms (level change only), fades new ones in and missing ones out
//! over 50 ms. A cleared set reports itself released once its fades are done.
//!
//! Under binaural output the set also keeps each tap's head direction; the pool
//! (`crate::binaural`) reads the sounding taps ([`TapSetState::sounding`]), routes the ones that
//! hold a renderer ([`TapSetState::set_routed`]) and hands their renderers' inputs to
//! [`TapSetState::render`] as feeds.

use resound_dsp::tap::{EchoTaps, Feeds, SoundingTap, TapParams};

use crate::params::{MAX_TAPS, TapSetTargets};
use crate::sound::SoundData;
use crate::sound::SoundRates;
use crate::voice::{Voice, VoiceState};
use resound_dsp::interpolate::{FRAC_BITS, frames_to_fixed};

const FIXED_SCALE: f64 = 1.0 / (1u64 << FRAC_BITS) as f64;

#[derive(Debug, Clone)]
pub(crate) struct TapSetState {
    taps: EchoTaps,
    /// `(voice slot, generation)` the taps belong to; `None` when unowned.
    owner: Option<(u32, u32)>,
    applied: [TapParams; MAX_TAPS],
    applied_count: u8,
    /// Each applied tap's head direction (binaural output).
    directions: [[f32; 3]; MAX_TAPS],
    /// The handle cleared the set and has not yet been told it is silent.
    release_pending: bool,
    release_ready: Option<u32>,
    slot: u32,
    /// The owner voice is stopping; the taps have been told to fade out.
    stopping: bool,
}

impl TapSetState {
    pub(crate) fn new(slot: u32, sample_rate: f32, max_block: usize, cubic: bool) -> Self {
        let mut taps = EchoTaps::new();
        taps.prepare(sample_rate, max_block);
        taps.set_cubic(cubic);
        Self {
            taps,
            owner: None,
            applied: TapSetTargets::default().taps,
            applied_count: 0,
            directions: [[0.0; 3]; MAX_TAPS],
            release_pending: false,
            release_ready: None,
            slot,
            stopping: false,
        }
    }

    /// The voice slot whose taps these are, while that voice plays.
    pub(crate) fn owner(&self) -> Option<u32> {
        self.owner.map(|(s, _)| s)
    }

    /// Applies the block's entry for this set.
    pub(crate) fn apply(&mut self, t: &TapSetTargets, voices: &mut [Voice], rates: SoundRates<'_>) {
        if t.voice_generation == 0 {
            // Free in the block: nothing may sound (the owner ended or the set was released).
            if self.owner.is_some() {
                self.clear_state();
            }
            return;
        }
        let Some(v) = voices.get_mut(t.voice_slot as usize) else {
            return;
        };
        if v.state == VoiceState::Idle || v.generation != t.voice_generation {
            // The voice has not started yet (its play command is behind) or has ended.
            return;
        }
        if self.owner != Some((t.voice_slot, t.voice_generation)) {
            self.clear_state();
            self.owner = Some((t.voice_slot, t.voice_generation));
        }
        if v.state == VoiceState::Stopping {
            // The voice fades out: so do its taps (50 ms), and later updates are ignored.
            if !self.stopping {
                self.stopping = true;
                self.taps.clear();
            }
        } else if t.count != self.applied_count || t.taps != self.applied {
            let n = usize::from(t.count).min(MAX_TAPS);
            self.taps.set_taps(&t.taps[..n]);
            self.applied = t.taps;
            self.applied_count = t.count;
            self.release_pending = n == 0;
        }
        if !self.stopping {
            self.directions = t.directions;
        }
        let rate = rates.rate(v.sound);
        let tail = f64::from(self.taps.max_delay_s()) * f64::from(rate);
        v.tail = v.tail.max(frames_to_fixed(tail));
    }

    fn clear_state(&mut self) {
        self.taps.reset();
        self.owner = None;
        self.applied = TapSetTargets::default().taps;
        self.applied_count = 0;
        self.directions = [[0.0; 3]; MAX_TAPS];
        self.release_pending = false;
        self.stopping = false;
    }

    /// The tap sounding in `slot` (of [`resound_dsp::tap::TAP_SLOTS`]) with its head direction, if it has one
    /// (a tap without a direction is not a binaural candidate).
    pub(crate) fn sounding(&self, slot: usize) -> Option<(SoundingTap, [f32; 3])> {
        let t = self.taps.sounding(slot)?;
        let d = *self.directions.get(t.tap)?;
        (d != [0.0; 3]).then_some((t, d))
    }

    /// True if activation `epoch` of `slot` sounds but has no direction (any more).
    pub(crate) fn undirected(&self, slot: usize, epoch: u32) -> bool {
        self.taps
            .sounding(slot)
            .is_some_and(|t| t.epoch == epoch && self.sounding(slot).is_none())
    }

    /// True while activation `epoch` of `slot` is active (sounding or fading out): the
    /// renderer it holds is still fed.
    pub(crate) fn feeds(&self, slot: usize, epoch: u32) -> bool {
        self.taps.feeds(slot, epoch)
    }

    /// Routes the tap in `slot` into its renderer (`true`) or back to the pan (50 ms fade).
    pub(crate) fn set_routed(&mut self, slot: usize, routed: bool) {
        self.taps.set_routed(slot, routed);
    }

    /// Adds the taps of `voice` (reading `data`) for this block into the mix, each routed tap
    /// into its feed (`feeds[slot]`, the block's frames from 0).
    pub(crate) fn render(
        &mut self,
        voice: &Voice,
        data: &SoundData,
        mix_l: &mut [f32],
        mix_r: &mut [f32],
        feeds: &mut Feeds<'_>,
    ) {
        if !self.taps.is_active() {
            return;
        }
        let n = voice.active_frames.min(mix_l.len());
        let lead = voice.lead().min(n);
        let taps = &mut self.taps;
        // Run by run of one read step: the taps read behind the direct read position (its
        // propagation delay included), so echo spacing follows the direct arrival.
        voice.runs(lead).walk(n - lead, |o, m, pos, step| {
            let (a, b) = (lead + o, lead + o + m);
            let mut sub: Feeds<'_> = feeds
                .each_mut()
                .map(|f| f.as_deref_mut().and_then(|x| x.get_mut(a..b)));
            taps.mix_routed(
                &data.samples,
                pos as f64 * FIXED_SCALE,
                step as f64 * FIXED_SCALE,
                &mut mix_l[a..b],
                &mut mix_r[a..b],
                &mut sub,
            );
            None
        });
    }

    /// Called after the taps ran: a cleared set that has gone silent is reported once.
    pub(crate) fn check_release(&mut self) {
        if self.release_pending && !self.taps.is_active() {
            self.release_pending = false;
            self.release_ready = Some(self.slot);
        }
    }

    /// Takes a pending release report.
    pub(crate) fn take_release(&mut self) -> Option<u32> {
        self.release_ready.take()
    }

    /// The owner voice ended: the set goes quiet (the handle frees it when it hears of the end).
    pub(crate) fn voice_ended(&mut self, slot: u32, generation: u32) {
        if self.owner == Some((slot, generation)) {
            self.clear_state();
            self.release_ready = None;
        }
    }
}
