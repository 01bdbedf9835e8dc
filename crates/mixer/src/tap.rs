//! A voice's echo-tap set on the audio thread: ownership and fades around `resound_dsp::EchoTaps`.
//!
//! The set belongs to one voice (slot + generation) as the parameter block says. Whenever the
//! block's taps differ from those last applied they are handed to `EchoTaps::set_taps`, which
//! matches taps within 3 ms (level change only), fades new ones in and missing ones out
//! over 50 ms. A cleared set reports itself released once its fades are done.

use resound_dsp::tap::{EchoTaps, TapParams};

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
        let rate = rates.rate(v.sound);
        let tail = f64::from(self.taps.max_delay_s()) * f64::from(rate);
        v.tail = v.tail.max(frames_to_fixed(tail));
    }

    fn clear_state(&mut self) {
        self.taps.reset();
        self.owner = None;
        self.applied = TapSetTargets::default().taps;
        self.applied_count = 0;
        self.release_pending = false;
        self.stopping = false;
    }

    /// Adds the taps of `voice` (reading `data`) for this block into the mix.
    pub(crate) fn render(
        &mut self,
        voice: &Voice,
        data: &SoundData,
        mix_l: &mut [f32],
        mix_r: &mut [f32],
    ) {
        if !self.taps.is_active() {
            return;
        }
        let n = voice.active_frames.min(mix_l.len());
        let lead = voice.lead().min(n);
        let (l, r) = (&mut mix_l[lead..n], &mut mix_r[lead..n]);
        let taps = &mut self.taps;
        // Run by run of one read step: the taps read behind the direct read position (its
        // propagation delay included), so echo spacing follows the direct arrival.
        voice.runs(lead).walk(n - lead, |o, m, pos, step| {
            taps.mix(
                &data.samples,
                pos as f64 * FIXED_SCALE,
                step as f64 * FIXED_SCALE,
                &mut l[o..o + m],
                &mut r[o..o + m],
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
