//! The retail 16-voice pool of `SoundManager::PlaySoundInternal(buf, pan, att)` @ 0x0054FEC0
//! (spec `ambient-runtime.md` §4.5), as a pure model the engine can drive: it says which slot a
//! new one-shot takes, or that retail drops it.
//!
//! - 16 slots, scanned as a ring from the cursor; the cursor is left after the claimed slot
//!   and does not move when a sound is dropped.
//! - Pass 1 takes the first slot that is empty, has no DirectSound buffer, or has stopped
//!   playing.
//! - Pass 2 (all 16 playing) takes the first slot whose recorded priority is strictly lower
//!   than the new sound's. Retail records the `SoundBufRef`'s own priority, which only its
//!   constructor writes (0.0), for every voice and every new sound, so the strict test never
//!   passes: **the 17th simultaneous sound is always dropped**.
//!
//! A slot plays until a time the caller gives ([`VoicePool::play_sound_internal`]) or until the
//! caller reports its voice ended ([`VoicePool::play_until_ended`], [`VoicePool::voice_ended`]):
//! an engine whose mixer reports finished voices frees the slot when the buffer stops, as
//! retail's `DSBSTATUS_PLAYING` test sees it, and derives no length.

#[cfg(test)]
mod tests;

use serde::Serialize;

/// Number of voice slots.
pub const VOICE_SLOTS: usize = 16;

/// The priority retail records for every voice (`SoundBufRef::priority_`, written only by its
/// constructor).
pub const RECORDED_PRIORITY: f32 = 0.0;

/// One slot (`SoundPlayingData { SoundBuf buffer; float priority; double start_time }`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct VoiceSlot {
    /// `None` when the slot is empty, has no DirectSound buffer or its voice has ended;
    /// otherwise when the voice stops playing (seconds, the caller's clock; infinite until the
    /// caller reports the end).
    pub playing_until: Option<f64>,
    /// The recorded priority.
    pub priority: f32,
    /// When the voice started.
    pub start_time: f64,
}

/// The 16-slot pool.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct VoicePool {
    slots: [VoiceSlot; VOICE_SLOTS],
    cursor: usize,
}

impl VoicePool {
    /// An empty pool with the cursor at slot 0.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The slots.
    #[must_use]
    pub fn slots(&self) -> &[VoiceSlot; VOICE_SLOTS] {
        &self.slots
    }

    /// `curr_playing_buffer_`: where the next scan starts.
    #[must_use]
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// Marks a slot as having lost its DirectSound buffer (pass 1 then treats it as free).
    pub fn drop_buffer(&mut self, slot: usize) {
        if let Some(s) = self.slots.get_mut(slot) {
            s.playing_until = None;
        }
    }

    /// The voice in `slot` stopped playing (its buffer no longer reports `DSBSTATUS_PLAYING`):
    /// pass 1 takes the slot again.
    pub fn voice_ended(&mut self, slot: usize) {
        if let Some(s) = self.slots.get_mut(slot) {
            s.playing_until = None;
        }
    }

    /// Number of voices still playing at `now`.
    #[must_use]
    pub fn playing(&self, now: f64) -> usize {
        self.slots.iter().filter(|s| is_playing(s, now)).count()
    }

    /// `SoundManager::PlaySoundInternal` @ 0x0054FEC0 with retail's recorded priority: the slot a
    /// sound of `duration` seconds starting at `now` takes, or `None` when retail drops it.
    pub fn play_sound_internal(&mut self, now: f64, duration: f64) -> Option<usize> {
        self.claim(now, duration, RECORDED_PRIORITY)
    }

    /// `PlaySoundInternal` @ 0x0054FEC0 for a voice whose end the caller reports: the slot a
    /// sound starting at `now` takes, playing until [`VoicePool::voice_ended`], or `None` when
    /// retail drops it.
    pub fn play_until_ended(&mut self, now: f64) -> Option<usize> {
        self.claim_until(now, f64::INFINITY, RECORDED_PRIORITY)
    }

    /// The same with an explicit priority for the new sound (retail always passes
    /// [`RECORDED_PRIORITY`]; a port that wants working priority stealing passes the table
    /// row's priority — a divergence).
    pub fn claim(&mut self, now: f64, duration: f64, priority: f32) -> Option<usize> {
        let until = now
            + if duration.is_finite() && duration > 0.0 {
                duration
            } else {
                0.0
            };
        self.claim_until(now, until, priority)
    }

    /// Claims the first free slot (pass 1) or one of strictly lower priority (pass 2) for a
    /// voice playing until `until`.
    fn claim_until(&mut self, now: f64, until: f64, priority: f32) -> Option<usize> {
        let ring = (0..VOICE_SLOTS).map(|k| (self.cursor + k) % VOICE_SLOTS);
        let slot = ring
            .clone()
            .find(|&i| !is_playing(&self.slots[i], now))
            .or_else(|| ring.clone().find(|&i| self.slots[i].priority < priority))?;
        self.slots[slot] = VoiceSlot {
            playing_until: Some(until),
            priority,
            start_time: now,
        };
        self.cursor = (slot + 1) % VOICE_SLOTS;
        Some(slot)
    }
}

/// `DSBSTATUS_PLAYING`: a buffer exists and has not reached its end.
fn is_playing(s: &VoiceSlot, now: f64) -> bool {
    s.playing_until.is_some_and(|until| now < until)
}
