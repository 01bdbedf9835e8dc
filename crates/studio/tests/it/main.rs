//! resound-studio's integration tests (one binary).

#![allow(
    clippy::unwrap_used,
    reason = "tests: a failed unwrap is a failed test"
)]

mod tour_heard;
