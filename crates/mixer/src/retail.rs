//! The retail client's voice policy (`ambient-runtime.md` §4.4–§4.5): 16 one-shot voices, integer
//! dB gains and ±15 dB pans exactly as `SoundManager` produces them, the 17th sound dropped.

use crate::error::PlayError;
use crate::handle::{MixerHandle, PlaySettings, VoiceId};
use crate::pan::{RETAIL_PAN_LIMIT, db_to_amplitude};
use crate::params::{Pan, VoiceParams};
use crate::sound::SoundId;

/// Voice slots of the retail pool.
pub const RETAIL_VOICES: usize = 16;
/// Quietest level the client plays (`SoundBuf::Play` clamps to it; `GetAttenuation` drops below it).
pub const RETAIL_MIN_DB: i32 = -50;
/// Distance (m) inside which the retail gain ignores distance and the pan is centred.
pub const RETAIL_NEAR: f64 = 5.0;
/// The client's degrees-to-radians factor: the f32 constant 0.017453292 widened to f64.
pub const RETAIL_DEG_TO_RAD: f64 = 0.017_453_292_f32 as f64;
/// Priority every retail voice records (`SoundData::priority_` is only ever 0.0).
const RETAIL_PRIORITY: f32 = 0.0;

/// `GetAttenuation(dist, v, amb)` @ 0x00550020: the integer dB level of a sound, or `None` when the
/// client drops it.
///
/// `g = dist ≥ 5 ? 25·v/dist² : v`, `g = min(g, 1)`, `g *= slider` (the ambient slider for
/// ambient sounds, applied a second time; the effect slider otherwise); `g ≤ 0` drops;
/// `dB = ceil(log2(g)·6.0206)`; below −50 drops.
#[must_use]
pub fn attenuation_db(distance: f64, volume: f64, slider: f64) -> Option<i32> {
    if !distance.is_finite() || !volume.is_finite() || !slider.is_finite() {
        return None;
    }
    let mut g = if distance >= RETAIL_NEAR {
        25.0 * volume / (distance * distance)
    } else {
        volume
    };
    g = g.min(1.0) * slider;
    if g <= 0.0 {
        return None;
    }
    let db = (g.log2() * 6.0206).ceil();
    if db < f64::from(RETAIL_MIN_DB) {
        return None;
    }
    Some(db as i32)
}

/// The pan of `PlaySoundInternal` @ 0x00550170: 0 in mono or when `trunc(distance) < 5`; else
/// `a = fmod(bearing − listener_heading, 360)` (minus 360 above 180) and
/// `pan = trunc(sin(a·0.017453292f)·(−15))`, computed in f64 with the f32 constant, so a sound
/// due east of a north-facing listener pans +14, never 15.
///
/// `bearing_to_listener` is the compass heading from the sound to the listener, degrees.
#[must_use]
pub fn pan_db(distance: f64, bearing_to_listener: f64, listener_heading: f64, mono: bool) -> i32 {
    if mono || !distance.is_finite() || distance.trunc() < RETAIL_NEAR {
        return 0;
    }
    let mut a = (bearing_to_listener - listener_heading) % 360.0;
    if a > 180.0 {
        a -= 360.0;
    }
    let p = ((a * RETAIL_DEG_TO_RAD).sin() * -15.0).trunc();
    if p.is_finite() { p as i32 } else { 0 }
}

/// Voice parameters for `SoundBuf::Play(pan, dB)`: pan clamped to ±15 (DirectSound law, see
/// [`crate::pan::retail`]), level `max(dB, −50)` (and at most 0 dB), no acoustics.
#[must_use]
pub fn retail_params(db: i32, pan: i32) -> VoiceParams {
    let db = db.clamp(RETAIL_MIN_DB, 0);
    VoiceParams {
        volume: db_to_amplitude(db as f32),
        pan: Pan::Retail(pan.clamp(-RETAIL_PAN_LIMIT, RETAIL_PAN_LIMIT)),
        ..VoiceParams::default()
    }
}

/// What happened to a sound offered to the pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RetailPlay {
    /// It plays in pool slot `slot` as `voice`.
    Played {
        /// Pool slot (0..16).
        slot: usize,
        /// The mixer voice.
        voice: VoiceId,
    },
    /// All 16 slots were busy and none had a lower priority: the sound is dropped.
    Dropped,
}

/// The 16-slot retail voice pool (`PlaySoundInternal`, @ 0x0054FEC0).
///
/// Slots are scanned as a ring from a cursor. Pass 1 takes the first slot that is empty or whose
/// voice has finished (the Hex-Rays text labels the tested field `priority`, but at +4 of the
/// sound buffer it is the DirectSound buffer pointer: the test is "no buffer", not a priority); pass 2 would steal the first slot whose recorded priority is strictly
/// lower than the new sound's, but every retail voice records priority 0.0, so it never
/// succeeds and the 17th simultaneous sound is dropped. The cursor moves to `claimed + 1`; a
/// dropped sound leaves it. Voices play once, and volume and pan never change.
#[derive(Debug, Clone, Default)]
pub struct RetailVoicePool {
    slots: [Option<(VoiceId, f32)>; RETAIL_VOICES],
    cursor: usize,
}

impl RetailVoicePool {
    /// An empty pool with the cursor at slot 0.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The slot the next scan starts at.
    #[must_use]
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// Slots whose voice is still playing (as the handle knows).
    pub fn busy(&self, handle: &mut MixerHandle) -> usize {
        self.slots
            .iter()
            .flatten()
            .filter(|(v, _)| handle.is_playing(*v))
            .count()
    }

    /// Offers a sound at `db` (integer dB, e.g. from [`attenuation_db`]) and `pan` (±15, e.g.
    /// from [`pan_db`]).
    ///
    /// # Errors
    /// [`PlayError`] from the mixer (unknown sound, mixer capacity or ring full); the pool is
    /// unchanged then.
    pub fn play(
        &mut self,
        handle: &mut MixerHandle,
        sound: SoundId,
        db: i32,
        pan: i32,
    ) -> Result<RetailPlay, PlayError> {
        let claim = (0..RETAIL_VOICES)
            .map(|k| (self.cursor + k) % RETAIL_VOICES)
            .find(|&i| match self.slots[i] {
                None => true,
                Some((v, _)) => !handle.is_playing(v),
            })
            .or_else(|| {
                (0..RETAIL_VOICES)
                    .map(|k| (self.cursor + k) % RETAIL_VOICES)
                    .find(|&i| self.slots[i].is_some_and(|(_, p)| p < RETAIL_PRIORITY))
            });
        let Some(slot) = claim else {
            return Ok(RetailPlay::Dropped);
        };
        if let Some((old, _)) = self.slots[slot]
            && handle.is_playing(old)
        {
            // Pass 2 steal (unreachable with retail priorities, kept for the record).
            let _ = handle.stop(old);
        }
        let voice = handle.play(
            sound,
            PlaySettings {
                looping: false,
                params: retail_params(db, pan),
            },
        )?;
        self.slots[slot] = Some((voice, RETAIL_PRIORITY));
        self.cursor = (slot + 1) % RETAIL_VOICES;
        Ok(RetailPlay::Played { slot, voice })
    }
}
