//! The plugin in a headless Bevy app, offline: the same bytes as the engine driven directly,
//! and each rule of the frame (despawn, removal, listeners, world edits).

#![allow(
    clippy::unwrap_used,
    reason = "tests: a failed unwrap is a failed test"
)]

mod common;
mod lifecycle;
mod listener;
mod scene;
mod world;
