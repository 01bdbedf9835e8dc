//! Resound's tools floor: what the `resound` command line and `cargo xtask` run on top of the
//! engine, kept out of the runtime library so a game links none of it (no plotting, no FFT).
//!
//! | module | holds |
//! |---|---|
//! | [`verify`] | `resound verify`: the acoustics verification scenes rendered offline, measured and checked against the spec, with a report and PNG plots |
//! | [`soak`] | `resound soak`: the engine under churn for simulated minutes (memory flat, output finite and repeatable) |
//! | [`tour`] | `resound demo`: the scripted walk over the terrain with the retail ambient runtime, its render, picture and live playback |
//! | [`font`] | the plots' embedded font (DejaVu Sans), so drawing needs no system font or fontconfig |

pub mod font;
pub mod soak;
pub mod tour;
pub mod verify;
