//! Resound's C ABI: the engine for C, C++, C# (P/Invoke), Python (`ctypes`) and every other
//! language with a C FFI. A thin layer over `resound-engine`'s public API; the header is
//! `include/resound.h`, generated from these sources with cbindgen (`tests/header.rs` fails
//! when the checked-in copy differs).
//!
//! # The rules at the boundary
//!
//! - Every function returns a [`ResoundResult`] (0 is success) and writes results through
//!   out-pointers; after a failure [`resound_last_error`] gives one line of text for the calling
//!   thread.
//! - No panic crosses the boundary: each entry runs inside `catch_unwind`; a caught panic is
//!   [`ResoundResult::Panic`], and an engine it went through refuses later calls but
//!   [`resound_engine_destroy`].
//! - Handles are 64-bit integers with a generation: zero, foreign, destroyed and stale ones are
//!   told apart and refused ([`handles`]). NULL pointers, non-finite or out-of-range values and
//!   non-UTF-8 strings are refused with their codes.
//! - Strings passed in are borrowed for the call; strings handed out are static or owned by the
//!   library (never freed by the caller).
//!
//! # Threads
//!
//! Every function may be called from any thread. Calls on one engine are taken one at a time
//! (the engine sits behind a lock), so a game may call from its main thread and a loader
//! thread alike; the audio device's callback never takes that lock. The last error is per
//! thread.
//!
//! | module | holds |
//! |---|---|
//! | [`result`] | [`ResoundResult`], [`resound_last_error`], the `catch_unwind` guard |
//! | [`handles`] | engine registry and the generation-checked sound and voice tables |
//! | [`args`] | strings, slices, [`ResoundVec3`], [`ResoundCell`] |
//! | `errors` | engine errors → codes and one line |
//! | [`engine`] | version, settings, create/destroy, listener, update, render, status, debug hook |
//! | [`sounds`] | load from a file, from memory PCM, from a DAT Wave id; unload |
//! | [`voices`] | play, voice volume/rate/position/pause/resume/stop, tracks |
//! | [`world`] | world edits, materials by name, terrain, ambient, listener cell, ambient events |
//! | [`devices`] | the output device list |

pub mod args;
pub mod devices;
pub mod engine;
mod errors;
pub mod handles;
pub mod result;
pub mod sounds;
pub mod voices;
pub mod world;

pub use args::{ResoundCell, ResoundVec3};
pub use devices::{ResoundDeviceInfo, resound_devices};
pub use engine::{
    RESOUND_ABI_VERSION, ResoundEngineStatus, ResoundMode, ResoundOutput, ResoundSettings,
    ResoundVoicePolicy, resound_abi_version, resound_debug_panic_next_call, resound_engine_create,
    resound_engine_destroy, resound_render, resound_set_listener, resound_settings_default,
    resound_status, resound_update, resound_version,
};
pub use handles::{ResoundEngine, ResoundSound, ResoundVoice};
pub use result::{ResoundResult, resound_last_error, resound_result_name};
pub use sounds::{
    resound_load_file, resound_load_pcm_f32, resound_load_pcm_i16, resound_load_wave,
    resound_unload_sound,
};
pub use voices::{
    ResoundSource, ResoundVoiceState, resound_add_track, resound_play, resound_set_track_volume,
    resound_source_default, resound_voice_pause, resound_voice_resume, resound_voice_set_position,
    resound_voice_set_rate, resound_voice_set_volume, resound_voice_set_volume_db,
    resound_voice_state, resound_voice_stop,
};
pub use world::{
    ResoundAmbientEvent, ResoundAmbientSettings, resound_ambient_events,
    resound_ambient_settings_default, resound_attach_ambient, resound_attach_terrain, resound_fill,
    resound_material_exists, resound_set_block, resound_set_listener_cell,
};
