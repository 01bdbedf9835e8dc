// SPDX-License-Identifier: GPL-3.0-only
//! Integration tests of `resound-spr` through acoustics-core's worlds and scene files
//! (SPR `SoundPhysics.java` at `ca0f8fe`; spec `spr.md`, scenes of `acoustics.md` §9).

// Test helpers outside `#[test]` functions unwrap too: a failing unwrap is a failing test. Index
// loops over the 4 slots compare two arrays side by side.
#![allow(clippy::unwrap_used, clippy::needless_range_loop)]

mod echo;
mod model;
mod scene;
