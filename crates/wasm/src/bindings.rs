//! The JavaScript surface (wasm-bindgen): byte arrays in, `Float32Array`s out, errors as
//! `Error`s with one plain line. Names are camelCase on the JavaScript side.

use wasm_bindgen::prelude::*;

use crate::dats::Dats;
use crate::error::WebError;
use crate::hearing::Hearing;
use crate::live::Live;
use crate::offline;

fn js(e: WebError) -> JsError {
    JsError::new(&e.to_string())
}

fn dats(portal: &[u8], cell: &[u8]) -> Dats {
    Dats {
        portal: portal.to_vec(),
        cell: cell.to_vec(),
    }
}

/// The fixture world's dats written in memory: `new FixtureWorld()` has `portal` and `cell`
/// (`Uint8Array`s).
#[wasm_bindgen]
pub struct FixtureWorld {
    dats: Dats,
}

#[wasm_bindgen]
impl FixtureWorld {
    /// Writes the fixture world (the same bytes as `resound fixture write`).
    #[wasm_bindgen(constructor)]
    #[must_use]
    pub fn new() -> Self {
        Self {
            dats: Dats::fixture(),
        }
    }

    /// `client_portal.dat`'s bytes.
    #[wasm_bindgen(getter)]
    #[must_use]
    pub fn portal(&self) -> Vec<u8> {
        self.dats.portal.clone()
    }

    /// `client_cell_1.dat`'s bytes.
    #[wasm_bindgen(getter)]
    #[must_use]
    pub fn cell(&self) -> Vec<u8> {
        self.dats.cell.clone()
    }
}

impl Default for FixtureWorld {
    fn default() -> Self {
        Self::new()
    }
}

/// The fixture map: 41 × 41 terrain vertices (24 m apart, row by row from the south-west
/// corner, east first), two values each: the height in metres and the feature (0 lake, 1
/// river, 2 shore, 3 valley, 4 flat, 5 ridge, 6 sand, 7 plain; `resound_fixture::terrain`).
#[wasm_bindgen(js_name = fixtureMap)]
#[must_use]
pub fn fixture_map() -> Vec<f32> {
    crate::map::fixture_map()
}

/// The position `0xXXYYCCCC:X,Y,Z` of a point of the fixture map (metres east and north of its
/// south-west corner), 2 m above the ground.
#[wasm_bindgen(js_name = fixturePosition)]
#[must_use]
pub fn fixture_position(east: f64, north: f64) -> String {
    Live::fixture_position(east, north)
}

/// The example walk's JSON (`crates/ambient/examples-data/walk.json`).
#[wasm_bindgen(js_name = exampleWalk)]
#[must_use]
pub fn example_walk() -> String {
    offline::EXAMPLE_WALK.to_owned()
}

/// Renders `seconds` of the ambient heard standing at `at` (`"0xA9B40025:96,96,70"`) over the
/// dats; `hearing` is `"retail"` or a mode (`off`, `direct`, `reflect`, `full`). Interleaved
/// stereo at 48 kHz.
///
/// # Errors
/// An `Error` naming what is wrong.
#[wasm_bindgen(js_name = renderAmbientAt)]
pub fn render_ambient_at(
    portal: &[u8],
    cell: &[u8],
    at: &str,
    seconds: f64,
    hearing: &str,
) -> Result<Vec<f32>, JsError> {
    let hearing = Hearing::parse(hearing).map_err(js)?;
    offline::render_ambient_at(&dats(portal, cell), at, seconds, hearing).map_err(js)
}

/// Renders `seconds` of a walk (its JSON document) over the dats. Interleaved stereo, 48 kHz.
///
/// # Errors
/// An `Error` naming what is wrong.
#[wasm_bindgen(js_name = renderWalk)]
pub fn render_walk(
    portal: &[u8],
    cell: &[u8],
    walk: &str,
    seconds: f64,
    hearing: &str,
) -> Result<Vec<f32>, JsError> {
    let hearing = Hearing::parse(hearing).map_err(js)?;
    let walk = offline::parse_walk(walk).map_err(js)?;
    offline::render_walk(&dats(portal, cell), &walk, seconds, hearing).map_err(js)
}

/// Renders `seconds` of a scene (a built-in name such as `"G"`, or a scene file's JSON) in
/// `mode`, its source playing a click. Interleaved stereo, 48 kHz.
///
/// # Errors
/// An `Error` naming what is wrong.
#[wasm_bindgen(js_name = renderScene)]
pub fn render_scene(scene: &str, mode: &str, seconds: f64) -> Result<Vec<f32>, JsError> {
    let mode = crate::hearing::parse_mode(mode).map_err(js)?;
    offline::render_scene(scene, mode, seconds).map_err(js)
}

/// A live engine for a page: the ambient over dats, the listener placed or walking, the mix
/// pulled block by block.
#[wasm_bindgen]
pub struct Player {
    live: Live,
}

#[wasm_bindgen]
impl Player {
    /// An engine over the dats hearing `hearing` (`"retail"` or a mode), the listener at `at`.
    ///
    /// # Errors
    /// An `Error` naming what is wrong.
    #[wasm_bindgen(constructor)]
    pub fn new(portal: &[u8], cell: &[u8], hearing: &str, at: &str) -> Result<Player, JsError> {
        let hearing = Hearing::parse(hearing).map_err(js)?;
        let live = Live::new(dats(portal, cell), hearing, at).map_err(js)?;
        Ok(Self { live })
    }

    /// Switches the hearing (`"retail"`, `off`, `direct`, `reflect`, `full`).
    ///
    /// # Errors
    /// An `Error` naming what is wrong.
    #[wasm_bindgen(js_name = setHearing)]
    pub fn set_hearing(&mut self, hearing: &str) -> Result<(), JsError> {
        let hearing = Hearing::parse(hearing).map_err(js)?;
        self.live.set_hearing(hearing).map_err(js)
    }

    /// Teleports the listener to `at` (`0xXXYYCCCC:X,Y,Z`); a walk stops.
    ///
    /// # Errors
    /// An `Error` naming what is wrong.
    pub fn place(&mut self, at: &str) -> Result<(), JsError> {
        self.live.place(at).map_err(js)
    }

    /// Starts walking a walk (its JSON document) from its first waypoint.
    ///
    /// # Errors
    /// An `Error` if the document is not a walk.
    #[wasm_bindgen(js_name = startWalk)]
    pub fn start_walk(&mut self, walk: &str) -> Result<(), JsError> {
        let walk = offline::parse_walk(walk).map_err(js)?;
        self.live.start_walk(walk).map_err(js)
    }

    /// Renders the next `frames` stereo frames (the engine's update by their time first):
    /// interleaved stereo, `2 × frames` values.
    ///
    /// # Errors
    /// An `Error` naming what failed.
    pub fn step(&mut self, frames: u32) -> Result<Vec<f32>, JsError> {
        let mut out = vec![0.0; 2 * frames as usize];
        self.live.step(&mut out).map_err(js)?;
        Ok(out)
    }

    /// The readout as one line of JSON (place, voices, ambient plays, peak, ticks, rays).
    #[must_use]
    pub fn readout(&self) -> String {
        self.live.readout()
    }

    /// The sample rate (48 000 Hz).
    #[wasm_bindgen(getter, js_name = sampleRate)]
    #[must_use]
    pub fn sample_rate(&self) -> u32 {
        self.live.engine().sample_rate()
    }
}
