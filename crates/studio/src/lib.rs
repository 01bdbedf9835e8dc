//! Resound's tools floor: what the `resound` command line and `cargo xtask` run on top of the
//! engine, kept out of the runtime library so a game links none of it (no plotting, no FFT).
//!
//! | module | holds |
//! |---|---|
//! | [`verify`] | `resound verify`: the acoustics verification scenes rendered offline, measured and checked against the spec, with a report and PNG plots |
//! | [`soak`] | `resound soak`: the engine under churn for simulated minutes (memory flat, output finite and repeatable) |
//! | [`tour`] | `resound demo`: the scripted walk over the terrain with the retail ambient runtime, its render, picture and live playback |
//! | [`scene_render`] | a verification scene file (spec §9) rendered through the engine offline (`resound render`, `resound verify`) or played live (`resound play`) |
//! | [`test_signal`] | the §9 test signals: click, shot, loop, noise |
//! | [`describe`] | text and JSON of what the engine did: [`describe::RenderReport`], the JSON of the engine's and the device's status |
//! | [`capped_read`] | reading user files through a size cap ([`capped_read::read_capped`]) |
//! | [`wav_write`] | WAV writing (f32, s16), streamed block by block; RF64 over 4 GiB |
//! | [`walk_render`] | a scripted ambient walk rendered through a fresh engine, streamed (`resound ambient --walk --out`) |
//! | [`terrain_query`] | two points on Asheron's Call terrain evaluated through a fresh engine (`resound acoustics --dat-dir`) |
//! | [`font`] | the plots' embedded font (DejaVu Sans), so drawing needs no system font or fontconfig |

pub mod capped_read;
pub mod describe;
pub mod font;
pub mod scene_render;
pub mod soak;
pub mod terrain_query;
pub mod tour;
pub mod verify;
pub mod walk_render;
pub mod wav_write;

/// The acoustics §9 test signals (they live with the fixture world, so the browser package
/// plays the same bits).
pub use resound_fixture::test_signal;
