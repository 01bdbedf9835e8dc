//! Offline renders into interleaved stereo `f32` at 48 kHz: the ambient heard standing at a
//! position or along a walk, the demo tour, and a verification scene. Each builds a fresh engine, so the
//! samples depend on the inputs alone: the same bytes natively and in WebAssembly.

use std::sync::Arc;

use resound_engine::advanced::acoustics::AcousticModel;
use resound_engine::advanced::acoustics::scene::Scene;
use resound_engine::advanced::ambient::walk::Walk;
use resound_engine::glam::DVec3;
use resound_engine::terrain::parse_position;
use resound_engine::{Engine, Mode, Model, Orientation, Source};

use crate::dats::Dats;
use crate::error::WebError;
use crate::hearing::Hearing;
use crate::tour::{TICK, Tour};

/// Longest render, in seconds.
pub const MAX_SECONDS: f64 = 600.0;

/// The ambient crate's example walk (`crates/ambient/examples-data/walk.json`): the
/// crossroads, down the valley to the river, north to the marsh, a pause facing west, back.
pub const EXAMPLE_WALK: &str = include_str!("../../ambient/examples-data/walk.json");

fn check_seconds(seconds: f64) -> Result<(), WebError> {
    if seconds.is_finite() && seconds > 0.0 && seconds <= MAX_SECONDS {
        Ok(())
    } else {
        Err(WebError::Seconds(seconds))
    }
}

/// Parses a walk document (the format of `resound_ambient::walk`).
///
/// # Errors
/// [`WebError::Walk`]: not JSON, not a walk, or a walk that does not validate.
pub fn parse_walk(json: &str) -> Result<Walk, WebError> {
    let walk: Walk = serde_json::from_str(json).map_err(|e| WebError::Walk(e.to_string()))?;
    walk.validate().map_err(|e| WebError::Walk(e.to_string()))?;
    Ok(walk)
}

/// A walk of one waypoint: standing at `at` (`0xXXYYCCCC:X,Y,Z`), as `resound ambient --at`.
///
/// # Errors
/// [`WebError::Position`].
pub fn standing_walk(at: &str) -> Result<Walk, WebError> {
    let pos = parse_position(at)?;
    let o = pos.origin;
    let json = format!(
        r#"{{"waypoints":[{{"t":0,"cell":{},"origin":[{},{},{}]}}]}}"#,
        pos.objcell_id.0, o.x, o.y, o.z
    );
    parse_walk(&json)
}

/// Renders `seconds` of `walk` over `dats` (`Engine::render_walk`).
///
/// # Errors
/// [`WebError`].
pub fn render_walk(
    dats: &Dats,
    walk: &Walk,
    seconds: f64,
    hearing: Hearing,
) -> Result<Vec<f32>, WebError> {
    check_seconds(seconds)?;
    let mut engine = hearing.engine()?;
    dats.attach(&mut engine, hearing)?;
    let mut out = Vec::new();
    engine.render_walk(walk, seconds, &mut |block| out.extend_from_slice(block))?;
    Ok(out)
}

/// Renders `seconds` of the ambient heard standing at `at` (`0xXXYYCCCC:X,Y,Z`).
///
/// # Errors
/// [`WebError`].
pub fn render_ambient_at(
    dats: &Dats,
    at: &str,
    seconds: f64,
    hearing: Hearing,
) -> Result<Vec<f32>, WebError> {
    render_walk(dats, &standing_walk(at)?, seconds, hearing)
}

/// The JSON text of a built-in verification scene (spec `acoustics.md` §9).
#[must_use]
pub fn builtin_scene(name: &str) -> Option<&'static str> {
    match name {
        "G" => Some(include_str!("../../acoustics-core/scenes/G.json")),
        "F" => Some(include_str!("../../acoustics-core/scenes/F.json")),
        "R" => Some(include_str!("../../acoustics-core/scenes/R.json")),
        "W2" => Some(include_str!("../../acoustics-core/scenes/W2.json")),
        _ => None,
    }
}

/// Renders `seconds` of a scene (a built-in scene's name or a scene file's JSON) in `mode`:
/// its world and listener, its source playing a click (0.5 at sample 0 of 0.25 s), own model,
/// limiter off: what `resound render SCENE --mode MODE --signal click` writes.
///
/// # Errors
/// [`WebError`].
pub fn render_scene(scene: &str, mode: Mode, seconds: f64) -> Result<Vec<f32>, WebError> {
    check_seconds(seconds)?;
    let text = match builtin_scene(scene) {
        Some(t) => t,
        None if scene.trim_start().starts_with('{') => scene,
        None => return Err(WebError::NoScene(scene.to_owned())),
    };
    let mut model = Model::default();
    let parsed = Scene::from_json(text, model.materials())?;
    model.set_extra_planes(parsed.planes()?);
    let world = parsed.build_world(model.materials(), 0)?;
    let rate = 48_000;
    let mut engine = Engine::builder()
        .sample_rate(rate)
        .mode(mode)
        .model(model)
        .limiter(false)
        .build()?;
    engine.world().replace(world);
    engine.set_listener(DVec3::from_array(parsed.listener), Orientation::default())?;
    let mut click = vec![0.0f32; (0.25 * f64::from(rate)).round() as usize];
    click[0] = 0.5;
    let sound = engine.load_mono(Arc::<[f32]>::from(click), rate)?;
    engine.play(
        sound,
        Source {
            position: DVec3::from_array(parsed.source),
            volume: 1.0,
            range: parsed.range as f32,
            impulsive: true,
            ..Source::default()
        },
    )?;
    let frames = (seconds * f64::from(rate)).round() as usize;
    let tick = engine.tick_frames() as usize;
    let mut out = vec![0.0f32; 2 * frames];
    for block in out.chunks_mut(2 * tick) {
        engine.render(block)?;
    }
    Ok(out)
}

/// Renders the demo tour `seconds` long (its script stretched to that length, as
/// `resound demo --seconds`) over `dats` hearing `hearing`: the listener walks the path over
/// the dats' terrain with the structures placed, the ambient plays and the scripted events
/// fire; in ticks of [`TICK`], the demo's, so the samples are the demo's.
///
/// # Errors
/// [`WebError`]; [`WebError::NoTerrain`] when the dats have no terrain under the tour.
pub fn render_tour(dats: &Dats, seconds: f64, hearing: Hearing) -> Result<Vec<f32>, WebError> {
    check_seconds(seconds)?;
    let world = dats.tour_world()?;
    let mut engine = hearing.engine()?;
    let mut tour = Tour::start(&mut engine, dats, &world, seconds)?;
    let ticks = (seconds / TICK).round() as usize;
    let tick_frames = (TICK * f64::from(engine.sample_rate())).round() as usize;
    let mut out = vec![0.0f32; 2 * tick_frames * ticks];
    for (i, block) in out.chunks_mut(2 * tick_frames).enumerate() {
        tour.now = i as f64 * TICK;
        tour.advance(&mut engine, &world, TICK)?;
        engine.render(block)?;
        tour.heard(&mut engine, block)?;
    }
    Ok(out)
}
