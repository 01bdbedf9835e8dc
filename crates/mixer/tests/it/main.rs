//! Integration tests of the mixer: handle ↔ renderer behaviour through the public API.

// Test helpers outside #[test] fns unwrap too (clippy.toml only covers #[test] bodies).
#![allow(clippy::unwrap_used)]

mod binaural;
mod binaural_taps;
mod bus;
mod click;
mod common;
mod controls;
mod determinism;
mod hrir;
mod lifecycle;
mod resampler;
mod retail_law;
mod sync_send;
mod taps;
mod travel;
