//! Integration tests of `resound-engine` (one binary, STYLE.md §18).

#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a failed unwrap is a failed test"
)]

mod ambient_cells;
mod ambient_engine;
mod around_corners;
mod bad_input;
#[cfg(feature = "hrtf-default")]
mod binaural;
mod budgets;
mod common;
mod determinism;
mod device_capture;
mod device_loss;
mod engine_device;
mod faults;
mod free;
mod game_world;
mod licence;
mod live;
mod motion;
mod off_bypass;
mod playback;
mod policy;
mod proptest_handle;
mod sound_ambient;
mod sound_cache;
mod sound_decode;
#[cfg(feature = "spr-gpl")]
mod spr_reverb;
mod travel;
mod world_change;
