//! The demo tour, one copy for `resound demo` (the studio crate's renders, plot and
//! measurement) and the browser package (`renderTour`, the live `Player`): a listener walks a
//! scripted path over the dats' terrain with the gorge, tunnel and hall placed, the retail
//! ambient plays, and scripted claps, shots and a driving engine fire where the acoustics
//! matter. Driven through the engine's public API only.
//!
//! | module | holds |
//! |---|---|
//! | [`script`] | the walk, stages, structures and events (the fixture crate's) |
//! | [`signals`] | the clap, the shot and the engine's loop (the fixture crate's test signals) |
//! | [`clap`] | the tour's own hand clap (short band-passed bursts) |
//! | [`world`] | [`TourWorld`]: the area's terrain for heights and the structures as boxes |
//! | [`sounds`] | [`EventSounds`]: each event's voice: the tour's sound design |
//! | [`mix`] | [`mix::Mixing`]: the events on their own track, the beds ducked around them and levelled between them |
//! | [`driver`] | [`Tour`]: the tour stepped on an engine frame by frame; [`Dats`], [`probe_path`] |
//! | [`error`] | [`Error`] |

pub mod clap;
pub mod driver;
pub mod error;
pub mod mix;
pub mod sounds;
pub mod world;

/// The clap, the shot and the engine's loop.
pub use resound_fixture::test_signal as signals;
/// The tour's script: the path, stages, structures and events.
pub use resound_fixture::tour_script as script;

pub use driver::{Dats, PathReadout, Tour, pose, probe_path};
pub use error::Error;
pub use sounds::EventSounds;
pub use world::TourWorld;

/// Seconds per tour tick: the ambient frame and the offline render's step (event times are
/// rounded to ticks).
pub const TICK: f64 = 0.05;
