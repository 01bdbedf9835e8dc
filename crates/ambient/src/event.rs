//! What the runtime tells the engine: one [`AmbientEvent`] per sound the `SoundManager` is
//! asked to play — either a voice to start (wave, whole-dB level, integer pan, world position
//! or "from centre") or the reason retail would drop it.

use resound_datformat::id::{SoundTableId, WaveId};
use serde::Serialize;

use crate::geometry::Position;
use crate::instance::SoundKind;

/// One `Ambient::PlaySound` (`PlaySoundA`, acclient.c:383847) call and its outcome.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct AmbientEvent {
    /// `Timer::cur_time` when it happened, in seconds.
    pub time: f64,
    /// The instance's index in [`crate::Ambient::sounds`].
    pub sound: usize,
    /// The STB descriptor's index in the region.
    pub desc: usize,
    /// The descriptor's SoundTable id.
    pub stb_id: SoundTableId,
    /// The instance's index in the descriptor's `ambient_sounds`.
    pub ambient_sound_id: usize,
    /// Which subclass played.
    pub kind: SoundKind,
    /// The `SoundType` looked up in the table (raw value).
    pub s_type: u32,
    /// `GetVolume()`: the intermittent sound's authored volume or the constant sound's
    /// `current_volume`, before the ambient slider.
    pub volume: f32,
    /// What the `SoundManager` did.
    pub outcome: Outcome,
}

/// The result of `PlayAmbientSound` / `PlayAmbientSoundFromCenter`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "outcome")]
pub enum Outcome {
    /// Start a one-shot voice.
    Play(Voice),
    /// Retail drops the sound.
    Drop(DropReason),
}

/// A voice to start, with the retail-computed level and pan.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Voice {
    /// The Wave id (`0x0A…`) of the chosen row.
    pub wave_id: WaveId,
    /// The row's index in the table's `stype` list.
    pub row: usize,
    /// The row's authored priority (retail's voice pool records 0.0 for every voice anyway).
    pub priority: f32,
    /// The linear gain before rounding: `min(25·v/d², 1)·A` with `v = A·volume`, where `A` is
    /// the ambient slider (applied twice).
    pub gain: f64,
    /// The level in whole dB (`ceil(log2(gain)·6.0206)`, `−50..=0`).
    pub db: i32,
    /// The pan in dB, `−14..=14` (positive attenuates the left channel).
    pub pan: i32,
    /// Distance from the listener used for the level and pan (0 from the centre).
    pub distance: f32,
    /// The sound's world position (listener's cell id, origin possibly outside 0..192), or
    /// `None` for a sound played "from centre" (a `ConstantSound`).
    pub position: Option<Position>,
}

/// Why retail drops a sound it was asked to play.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "reason")]
pub enum DropReason {
    /// The descriptor has no loaded table (`GetSound` fails, no draw).
    NoSoundTable,
    /// The table has no rows for the sound type (`GetSound` fails, no draw).
    NoEntry,
    /// The chosen row's wave id is 0 (no sound; no probability draw).
    SilentWave {
        /// The chosen row.
        row: usize,
    },
    /// The CRT `rand()` gate failed the row's probability.
    Probability {
        /// The chosen row.
        row: usize,
    },
    /// The window is inactive and `PlaySoundOnlyWhenActive` is set.
    Inactive {
        /// The chosen row.
        row: usize,
    },
    /// Attenuated to nothing (`gain <= 0` or below −50 dB).
    Inaudible {
        /// The chosen row.
        row: usize,
        /// Distance from the listener.
        distance: f32,
    },
}
