//! Messages on the two rings: game → audio commands, audio → game returns.
//!
//! Both rings are `rtrb` SPSC rings with capacities fixed at build. Everything a command
//! carries that owns heap memory (a sound's `Arc`) comes back on the return ring, so the audio
//! thread never frees memory.

use std::sync::Arc;

use crate::control::{Control, Easing};
use crate::params::VoiceTargets;
use crate::sound::SoundData;

/// A game → audio command.
#[derive(Debug)]
pub(crate) enum Command {
    /// Put a sound into renderer slot `slot`.
    LoadSound { slot: u32, sound: Arc<SoundData> },
    /// Stop every voice playing `slot` (with the stop fade) and return the sound.
    UnloadSound { slot: u32 },
    /// Start a voice (at renderer frame `start`, or at once if it has passed).
    Play {
        slot: u32,
        generation: u32,
        sound: u32,
        looping: bool,
        targets: VoiceTargets,
        start: u64,
        controls: StartControls,
    },
    /// Tween one of a voice's controls toward `target` over `frames` along `easing`.
    Tween {
        slot: u32,
        generation: u32,
        control: Control,
        target: f32,
        frames: u64,
        easing: Easing,
    },
    /// Fade a voice to silence over `frames` and hold it (`pause`), or fade it back in; with
    /// `end`, the voice ends where it falls silent (a stop with a chosen fade).
    Pause {
        slot: u32,
        generation: u32,
        pause: bool,
        frames: u64,
        end: bool,
    },
    /// Tween a track's gain.
    TrackGain {
        track: u8,
        target: f32,
        frames: u64,
        easing: Easing,
    },
    /// Fade a voice out and end it.
    Stop { slot: u32, generation: u32 },
    /// Fade every voice out and end it; the reverb bus is reset once they are gone.
    StopAll,
}

/// An audio → game message.
#[derive(Debug)]
pub(crate) enum Returned {
    /// The voice finished (sample end + tail, or stop); its slot may be reused.
    VoiceEnded { slot: u32, generation: u32 },
    /// The sound was unloaded and no voice uses it; drop the `Arc` here, on the game thread.
    SoundReleased { slot: u32, sound: Arc<SoundData> },
    /// A cleared tap set has faded out; its slot may be reused.
    TapSetReleased { slot: u32 },
}

/// A voice's game controls at its start.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct StartControls {
    /// Game gain (amplitude).
    pub gain: f32,
    /// Playback rate.
    pub rate: f32,
    /// Sub-mix track.
    pub track: u8,
    /// Play a stereo sound's two channels (a mono sound plays mono).
    pub stereo: bool,
}
