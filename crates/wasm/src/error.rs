//! The one error type of the bindings: every failure as one plain line (JavaScript sees it as
//! an `Error` with that message).

use resound_engine::advanced::acoustics::scene::SceneError;
use resound_engine::advanced::ambient::DatSourceError;
use resound_engine::advanced::datformat::container::OpenDatError;
use resound_engine::sound::AttachError;
use resound_engine::terrain::PositionError;
use resound_engine::{
    AttachTerrainError, BuildError, InputError, ListenerCellError, LoadError, PlayError,
    TerrainError, TickError, TrackError, VoiceError, WorldError,
};

/// Why a render or a live engine could not be made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WebError {
    /// A dat's bytes are not a dat (`client_portal.dat` or `client_cell_1.dat`).
    #[error("{dat}: {source}")]
    Dat {
        /// Which dat.
        dat: &'static str,
        /// What is wrong with it.
        source: OpenDatError,
    },
    /// The portal dat's Region record cannot be read.
    #[error("client_portal.dat: {0}")]
    Region(DatSourceError),
    /// The portal dat holds no Region 0x13000000.
    #[error("client_portal.dat holds no Region 0x{0:08x}")]
    NoRegion(u32),
    /// The ambient runtime refused the dats.
    #[error("ambient: {0}")]
    Attach(#[from] AttachError),
    /// The dats' terrain could not be attached.
    #[error("terrain: {0}")]
    Terrain(#[from] AttachTerrainError),
    /// A position is not `0xXXYYCCCC:X,Y,Z` inside its cell.
    #[error("position: {0}")]
    Position(#[from] PositionError),
    /// A walk is not a walk document (`resound_ambient::walk`).
    #[error("walk: {0}")]
    Walk(String),
    /// A scene is not a scene file, nor a built-in scene's name.
    #[error("scene: {0}")]
    Scene(#[from] SceneError),
    /// No built-in scene has this name.
    #[error("no built-in scene {0:?}")]
    NoScene(String),
    /// The mode is not `off`, `direct`, `reflect` or `full`.
    #[error("mode {0:?} is not off, direct, reflect or full")]
    Mode(String),
    /// A length is not finite, positive and at most [`crate::MAX_SECONDS`].
    #[error("a render lasts more than 0 and at most {max} s, not {0} s", max = crate::MAX_SECONDS)]
    Seconds(f64),
    /// The engine could not be built.
    #[error("engine: {0}")]
    Build(#[from] BuildError),
    /// A sound could not be loaded.
    #[error("sound: {0}")]
    Load(#[from] LoadError),
    /// A voice was refused.
    #[error("voice: {0}")]
    Play(#[from] PlayError),
    /// A tick or a render failed.
    #[error("render: {0}")]
    Tick(#[from] TickError),
    /// A position or a length was refused.
    #[error("input: {0}")]
    Input(#[from] InputError),
    /// The listener's cell was refused.
    #[error("cell: {0}")]
    Cell(#[from] ListenerCellError),
    /// The tour's terrain (the Region's materials, a landblock) could not be read.
    #[error("tour terrain: {0}")]
    TourTerrain(#[from] TerrainError),
    /// The cell dat has no terrain under the tour's area (landblocks 0xA7B2..0xABB6).
    #[error("the cell dat has no terrain under the tour (landblocks 0xA7B2..0xABB6)")]
    NoTerrain,
    /// The cell dat holds no landblock to stand on.
    #[error("client_cell_1.dat holds no landblock with terrain")]
    NoLand,
    /// A structure could not be placed.
    #[error("world: {0}")]
    World(#[from] WorldError),
    /// A voice could not be moved or stopped.
    #[error("voice: {0}")]
    Voice(#[from] VoiceError),
    /// No event sound has this name.
    #[error("sound {0:?} is not clap, shot or engine")]
    Sound(String),
    /// A sub-mix track could not be added or tweened.
    #[error("track: {0}")]
    Track(#[from] TrackError),
}

impl From<resound_tour::Error> for WebError {
    fn from(e: resound_tour::Error) -> Self {
        use resound_tour::Error as E;
        match e {
            E::Terrain(e) => Self::TourTerrain(e),
            E::NoTerrain => Self::NoTerrain,
            E::World(e) => Self::World(e),
            E::Load(e) => Self::Load(e),
            E::Play(e) => Self::Play(e),
            E::Voice(e) => Self::Voice(e),
            E::Tick(e) => Self::Tick(e),
            E::Input(e) => Self::Input(e),
            E::Track(e) => Self::Track(e),
        }
    }
}
