//! Integration tests of `resound-engine` (one binary, STYLE.md §18).

#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a failed unwrap is a failed test"
)]

mod common;
mod licence;
mod off_bypass;
mod determinism;
mod world_change;
mod budgets;
mod bad_input;
mod policy;
mod schedule;
mod motion;
