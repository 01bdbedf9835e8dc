//! Resound in the browser: WebAssembly bindings (wasm-bindgen) over the engine's public API.
//!
//! DAT files arrive as byte arrays (a user's `client_portal.dat` and `client_cell_1.dat`, or
//! the fixture world written in memory); renders leave as interleaved stereo `f32` at 48 kHz
//! (`Float32Array` in JavaScript). There are no threads on `wasm32`: the engine runs its
//! acoustic worker inline there (its default on that target), under the same cell budgets, so
//! a render is the same bytes as natively. `cargo xtask web` builds the npm-style package
//! (`pkg/`) and the demo page (`web/`).
//!
//! | topic | items |
//! |---|---|
//! | dats | [`Dats`] (shared bytes, [`Dats::fixture`], [`Dats::attach`], [`Dats::start_position`]) |
//! | offline renders | [`render_ambient_at`], [`render_walk`] ([`parse_walk`], [`standing_walk`], [`EXAMPLE_WALK`]), [`render_tour`], [`render_scene`] ([`builtin_scene`]); [`Hearing`], [`parse_mode`] |
//! | the demo tour | [`tour`]: its script, event sounds and world, [`tour::Tour`] stepping it on an engine |
//! | live | [`Live`]: place the listener, walk, tour, play event sounds; `update(dt)` per animation frame, `render` per audio block; a readout |
//! | the maps | [`fixture_map`], [`fixture_position`], [`tour_script`] |
//! | errors | [`WebError`] |
//! | JavaScript | [`bindings`]: `FixtureWorld`, `fixtureMap`, `fixturePosition`, `tourScript`, `startPosition`, `exampleWalk`, `renderAmbientAt`, `renderWalk`, `renderTour`, `renderScene`, `Player` |

pub mod bindings;
mod dats;
mod error;
mod hearing;
mod live;
mod map;
mod offline;
/// The demo tour: its script, event sounds and world, [`tour::Tour`] stepping it on an engine
/// (the shared crate `resound-tour`, the one `resound demo` walks).
pub use resound_tour as tour;

pub use dats::Dats;
pub use error::WebError;
pub use hearing::{Hearing, parse_mode};
pub use live::{Live, MAX_UPDATE, parse_sound};
pub use map::{fixture_map, fixture_position, tour_script};
pub use offline::{
    EXAMPLE_WALK, MAX_SECONDS, builtin_scene, parse_walk, render_ambient_at, render_scene,
    render_tour, render_walk, standing_walk,
};
