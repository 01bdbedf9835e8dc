//! Two points on Asheron's Call terrain evaluated through a fresh engine's terrain world
//! ([`evaluate_terrain_points`]): what `resound acoustics --dat-dir` prints, in the same
//! [`Evaluation`] shape as a scene file.

use std::path::Path;

use resound_engine::advanced::acoustics::report::{Evaluation, Header};
use resound_engine::advanced::acoustics::{Mode, Paths, RequestError, SoundRequest};
use resound_engine::advanced::ambient::Position;

use resound_engine::terrain::{EAR_HEIGHT, ac_to_voxel, show_position};
use resound_engine::{AttachTerrainError, Engine};
use resound_engine::{BuildError, InputError};
use resound_engine::{Model, Orientation};

/// What to evaluate on the terrain.
#[derive(Debug, Clone)]
pub struct TerrainQuery {
    /// The listener, landblock-local AC position.
    pub listener: Position,
    /// The source, landblock-local AC position.
    pub source: Position,
    /// Put both points [`EAR_HEIGHT`] above the terrain (their heights are ignored).
    pub ground: bool,
    /// Stages to run.
    pub mode: Mode,
    /// Direct paths.
    pub paths: Paths,
    /// The acoustic model.
    pub model: Model,
}

/// Why the points could not be evaluated.
#[derive(Debug, thiserror::Error)]
pub enum TerrainQueryError {
    /// The engine could not be built.
    #[error(transparent)]
    Build(#[from] BuildError),
    /// The listener is not a usable position.
    #[error(transparent)]
    Input(#[from] InputError),
    /// The terrain could not be attached.
    #[error(transparent)]
    Terrain(#[from] AttachTerrainError),
    /// `ground` asked for, but no terrain lies under a point.
    #[error(
        "no terrain under the {0} (its landblock is absent or beyond the 5 × 5 ring around the listener)"
    )]
    NoGround(&'static str),
    /// The model refused the request.
    #[error(transparent)]
    Request(#[from] RequestError),
}

/// Evaluates `query` on the terrain of the dats in `dat_dir`.
///
/// # Errors
/// [`TerrainQueryError`].
pub fn evaluate_terrain_points(
    dat_dir: &Path,
    query: TerrainQuery,
) -> Result<Evaluation, TerrainQueryError> {
    let TerrainQuery {
        mut listener,
        mut source,
        mode,
        ..
    } = query;
    let mut engine = Engine::builder().mode(mode).model(query.model).build()?;
    engine.set_listener(ac_to_voxel(&listener), Orientation::default())?;
    engine.attach_terrain(dat_dir)?;
    if query.ground
        && let Some(t) = engine.terrain()
    {
        for (what, p) in [("listener", &mut listener), ("source", &mut source)] {
            *p = t
                .on_ground(p, EAR_HEIGHT)
                .ok_or(TerrainQueryError::NoGround(what))?;
        }
    }
    let mut request = SoundRequest::new(ac_to_voxel(&source), ac_to_voxel(&listener));
    request.paths = query.paths;
    let outcome = engine.evaluate(&request, mode)?;
    let header = Header {
        name: format!("terrain 0x{:04X}", listener.objcell_id.get() >> 16),
        source: request.source.to_array(),
        listener: request.listener.to_array(),
        range: request.range,
        ac: Some([show_position(&source), show_position(&listener)]),
        voices: 0,
    };
    Ok(Evaluation {
        header,
        model: engine.model_name(),
        mode,
        paths: if request.paths == Paths::Nine { 9 } else { 1 },
        outcome,
    })
}
