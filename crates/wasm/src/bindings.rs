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
    Dats::new(portal, cell)
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
        self.dats.portal.to_vec()
    }

    /// `client_cell_1.dat`'s bytes.
    #[wasm_bindgen(getter)]
    #[must_use]
    pub fn cell(&self) -> Vec<u8> {
        self.dats.cell.to_vec()
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
    crate::map::fixture_position(east, north)
}

/// The demo tour's script for the map, as JSON: `seconds`, `path` (`[t, east, north]`),
/// `stages` (`[t, name]`), `structures` (`[west, south, east, north]`, metres), `events`
/// (`{t, sound, east, north, to, until, label}`).
#[wasm_bindgen(js_name = tourScript)]
#[must_use]
pub fn tour_script() -> String {
    crate::map::tour_script()
}

/// A place to stand on these dats (`0xXXYYCCCC:X,Y,Z`): the middle of landblock 0xA9B4 when
/// the cell dat has terrain there, else of the first landblock that has; the ear 1.75 m above
/// the ground.
///
/// # Errors
/// An `Error` naming what is wrong (not dats, no terrain).
#[wasm_bindgen(js_name = startPosition)]
pub fn start_position(portal: &[u8], cell: &[u8]) -> Result<String, JsError> {
    dats(portal, cell).start_position().map_err(js)
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

/// Renders the demo tour `seconds` long (its script stretched to fit, as `resound demo
/// --seconds`) over the dats: the listener walks the path with the gorge, tunnel and hall
/// placed, the ambient plays and the claps, shots and the driving engine fire. Interleaved
/// stereo, 48 kHz.
///
/// # Errors
/// An `Error` naming what is wrong (no terrain under the tour, a bad length).
#[wasm_bindgen(js_name = renderTour)]
pub fn render_tour(
    portal: &[u8],
    cell: &[u8],
    seconds: f64,
    hearing: &str,
) -> Result<Vec<f32>, JsError> {
    let hearing = Hearing::parse(hearing).map_err(js)?;
    offline::render_tour(&dats(portal, cell), seconds, hearing).map_err(js)
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

    /// Teleports the listener to a point of the tour's area (metres east and north of
    /// landblock 0xA7B2's south-west corner; the page's map), 1.75 m above the dats' ground.
    ///
    /// # Errors
    /// An `Error` when the dats have no terrain there.
    #[wasm_bindgen(js_name = placeArea)]
    pub fn place_area(&mut self, east: f64, north: f64) -> Result<(), JsError> {
        self.live.place_area(east, north).map_err(js)
    }

    /// Starts the demo tour (90 s): the structures placed, the listener walking the path, the
    /// scripted claps, shots and engine firing as `update` moves the tour time on.
    ///
    /// # Errors
    /// An `Error` when the dats have no terrain under the tour.
    #[wasm_bindgen(js_name = startTour)]
    pub fn start_tour(&mut self) -> Result<(), JsError> {
        self.live.start_tour().map_err(js)
    }

    /// Plays an event sound (`"clap"`, `"shot"`, `"engine"`) at a point of the tour's area,
    /// `above` metres over the ground, `delay` seconds from now on the engine's clock, with
    /// the acoustics of the hearing (occlusion, echoes, reverb).
    ///
    /// # Errors
    /// An `Error` for an unknown sound, no terrain there, a voice refused.
    #[wasm_bindgen(js_name = playSound)]
    pub fn play_sound(
        &mut self,
        sound: &str,
        east: f64,
        north: f64,
        above: f64,
        delay: f64,
    ) -> Result<(), JsError> {
        let kind = crate::live::parse_sound(sound).map_err(js)?;
        self.live
            .play_event(kind, east, north, above, delay)
            .map_err(js)
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

    /// The game side, once per animation frame: `dt` seconds pass (clamped to 0..=0.25):
    /// the walk's or tour's pose, the tour's events due, the engine's update.
    ///
    /// # Errors
    /// An `Error` naming what failed.
    pub fn update(&mut self, dt: f64) -> Result<(), JsError> {
        self.live.update(dt).map_err(js)
    }

    /// The audio side's pull (an AudioWorklet asking for more): the next `frames` stereo
    /// frames of the mix, interleaved, `2 × frames` values; nothing else moves.
    ///
    /// # Errors
    /// An `Error` naming what failed.
    pub fn render(&mut self, frames: u32) -> Result<Vec<f32>, JsError> {
        let mut out = vec![0.0; 2 * frames as usize];
        self.live.render(&mut out).map_err(js)?;
        Ok(out)
    }

    /// Offline stepping: `update` by the frames' time, then `render` them (deterministic:
    /// a walk stepped in whole walk frames renders what `renderWalk` does).
    ///
    /// # Errors
    /// An `Error` naming what failed.
    pub fn step(&mut self, frames: u32) -> Result<Vec<f32>, JsError> {
        let mut out = vec![0.0; 2 * frames as usize];
        self.live.step(&mut out).map_err(js)?;
        Ok(out)
    }

    /// The readout as one line of JSON: place, hearing, listener (voxel, `area` metres),
    /// clock, voices, ambient plays, peak, ticks, rays; `path` (the reference path's
    /// `hf_db`, `taps`, the listener's `enclosure` and space `decay` in s), `sound` (the newest
    /// event voice's applied `hf_db` and `decay`), `tour` (`time`, `stage`, `newest` event).
    pub fn readout(&mut self) -> String {
        self.live.readout()
    }

    /// The sample rate (48 000 Hz).
    #[wasm_bindgen(getter, js_name = sampleRate)]
    #[must_use]
    pub fn sample_rate(&self) -> u32 {
        self.live.engine().sample_rate()
    }
}
