//! Integration tests of the mixer: handle ↔ renderer behaviour through the public API.

mod bus;
mod click;
mod common;
mod determinism;
mod lifecycle;
mod retail;
mod sync_send;
mod taps;
