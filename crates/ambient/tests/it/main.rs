//! Integration tests of the ambient runtime on the fixture world
//! (`resound_fixture`) and on bad input.

#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a failed unwrap is a failed test"
)]

mod bad_input;
mod common;
mod dat_path;
mod fixture_world;
mod walk_order;
