//! Integration tests: the spec §9 scene fixtures, caches, budgets, determinism, bad input.

#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a failed unwrap is a failed test"
)]

mod air_path;
mod air_terrain;
mod bad_input;
mod cache;
mod common;
mod direct;
mod echo;
mod queue;
mod room;
mod scene_json;
