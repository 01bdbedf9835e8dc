//! The lock-free real-time mixer: a game-thread handle and an audio-thread renderer.
//!
//! Spec: `docs/spec/acoustics.md` §4–§7, `docs/spec/ambient-runtime.md` §4.5 (the DirectSound
//! law; the retail voice policy itself is `resound-ambient`'s).
//!
//! [`build`] returns a [`MixerHandle`] (game thread, `Send + Sync`) and a [`MixerRenderer`]
//! (audio thread, `Send`). They share nothing but wait-free `rtrb` rings (commands one way,
//! retired voices and sample buffers the other) and `triple_buffer`s (the parameter block one
//! way, [`MixerStatus`] the other). Capacities are fixed at build; a full one is a typed error.
//!
//! Voice chain (acoustics §7): resample (at the sound's rate times the voice's playback rate;
//! [`Resampler`]: linear, `resound_dsp::interpolate`, or the Modern read of a sound raised at
//! load, `resound_dsp::oversample` + `resound_dsp::cubic`; behind the direct path's propagation
//! delay, [`DirectDelay`]) → the game's controls (gain, pause fade,
//! track gain: tweens on the renderer clock) → occlusion shelf → reverb sends → volume ·
//! distance gain → pan (stereo voices: each channel to its side, no shelf); voices summed in slot order, then echo taps, then the reverb
//! bus; master peak limiter. Under [`Spatial::Binaural`] a positional voice within the budget
//! replaces the pan by its HRTF renderer (`resound_dsp::hrtf`, 128 frames of latency), whose
//! output is added after the panned voices.
//!
//! Architecture invariants: the renderer never allocates, locks, waits or frees after
//! [`build`] (`tests/no_alloc.rs` proves it with an allocation-forbidding global allocator);
//! invalid numbers are refused by the handle with a typed error, so they never reach it; offline
//! renders are bit-identical across runs and do not depend on the render-call size.
//!
//! | module | holds |
//! |---|---|
//! | `build` | [`build`], [`build_with_hrtf`]: sizes everything, splits into the two halves |
//! | `settings` | [`MixerSettings`], [`Capacities`], [`Spatial`] (pan or binaural output), [`Resampler`] |
//! | `binaural` | binaural output: the pool of HRTF renderers, the budget (loudest keep binaural) |
//! | `handle` | [`MixerHandle`] (game thread), [`PlaySettings`], [`VoiceId`] |
//! | `renderer` | [`MixerRenderer`] (audio thread): `render(&mut [f32])` |
//! | `params` | [`VoiceParams`], [`Pan`], [`Tap`], [`distance_gain`], validation |
//! | `control` | [`Tween`], [`Easing`], [`TRACKS`]: the game's gain, rate, pause and track gains |
//! | `command`, `block` | ring messages both ways; the triple-buffered parameter block |
//! | `voice`, `tap`, `master` | renderer voices, echo-tap sets, reverb bus + limiter |
//! | `travel` | [`DirectDelay`]: the direct path's propagation delay (glides: Doppler; cuts: teleports) |
//! | [`pan`] | equal-power and retail (DirectSound) pan laws, the retail dB limits |
//! | `sound`, `status`, `error` | [`SoundData`]/[`SoundId`], [`MixerStatus`], one error enum per operation |
//!
//! ```
//! use std::sync::Arc;
//! use resound_mixer::{build, MixerSettings, PlaySettings, SoundData};
//!
//! let (mut handle, mut renderer) = build(MixerSettings::default()).unwrap();
//! let samples: Arc<[f32]> = (0..22_050).map(|i| (i as f32 * 0.05).sin()).collect();
//! let sound = handle.load_sound(SoundData::mono(samples, 22_050)).unwrap();
//! let voice = handle.play(sound, PlaySettings::default()).unwrap();
//! let mut out = vec![0.0f32; 2 * 512];
//! renderer.render(&mut out); // on the audio thread (or offline)
//! assert!(out.iter().any(|s| *s != 0.0));
//! handle.stop(voice).unwrap();
//! ```

mod binaural;
mod block;
mod build;
mod command;
mod control;
mod error;
mod handle;
mod master;
pub mod pan;
mod params;
mod renderer;
mod settings;
mod sound;
mod status;
mod tap;
mod travel;
mod voice;

pub use build::{build, build_with_hrtf};
pub use control::{Easing, MAX_EASING_POWER, MAX_RATE, MAX_TWEEN_S, TRACKS, Tween};
pub use error::{
    BuildError, LoadSoundError, ParamError, ParamProblem, PlayError, StopError, UnloadSoundError,
    UpdateError,
};
pub use handle::{
    MAX_SAMPLE_MAGNITUDE, MAX_SOUND_FRAMES, MAX_SOUND_RATE, MixerHandle, PlaySettings,
    VoiceControl, VoiceId,
};
pub use params::{
    AHEAD, MAX_DISTANCE, MAX_GAIN, MAX_REVERB_DECAY, MAX_SHELF_GAIN, MAX_TAP_DELAY, MAX_TAPS,
    MIN_REVERB_DECAY, Pan, REVERB_DECAY_BANDS, SENDS, Tap, VoiceParams, distance_gain,
};
pub use renderer::MixerRenderer;
pub use settings::{
    CAPACITY_LIMIT, Capacities, DEFAULT_BINAURAL_VOICES, MAX_BLOCK_LIMIT, MixerSettings, Resampler,
    Spatial,
};
pub use sound::{SoundData, SoundId};
pub use status::MixerStatus;
pub use travel::{CUT_FRAMES, DirectDelay, MAX_DELAY_S};

#[cfg(test)]
mod tests;
