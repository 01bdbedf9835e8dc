//! Typed errors of the engine, one enum per kind of operation. Every message is one plain line.

use glam::IVec3;
use resound_acoustics::EditError;

use crate::output::OutputError;

/// Which check an input value failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Problem {
    /// NaN or infinite.
    NotFinite,
    /// Negative where only zero or more is allowed (volume, power, dt).
    Negative,
    /// Zero or negative where only a positive value is allowed (range).
    NotPositive,
    /// Finite but beyond the supported magnitude (world limit, mixer limits).
    TooLarge,
    /// A direction vector of zero length or two parallel orientation vectors.
    Degenerate,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::NotFinite => "not finite",
            Self::Negative => "negative",
            Self::NotPositive => "not positive",
            Self::TooLarge => "too large",
            Self::Degenerate => "degenerate",
        })
    }
}

/// A value the host passed was refused; nothing changed and the mix goes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{field} is {problem}")]
pub struct InputError {
    /// The argument or field (`"position"`, `"volume"`, `"range"`, `"dt"` …).
    pub field: &'static str,
    /// What is wrong with it.
    pub problem: Problem,
}

impl InputError {
    pub(crate) fn new(field: &'static str, problem: Problem) -> Self {
        Self { field, problem }
    }
}

/// [`crate::EngineBuilder::build`] failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// The sample rate is outside 8 000..=384 000 Hz.
    #[error("sample rate {0} Hz is outside 8000..=384000")]
    SampleRate(u32),
    /// A capacity is zero or beyond the mixer's limit.
    #[error("capacity `{name}` = {value} is out of range")]
    Capacity {
        /// The field.
        name: &'static str,
        /// The rejected value.
        value: usize,
    },
    /// A budget is zero.
    #[error("budget `{0}` must be positive")]
    Budget(&'static str),
    /// The output cannot be opened.
    #[error(transparent)]
    Output(#[from] OutputError),
    /// The mixer refused its settings (a capacity or the block size beyond its limits).
    #[error("mixer settings refused: {0}")]
    Mixer(String),
    /// Binaural output was asked for with [`crate::VoicePolicy::Retail16`] (the retail
    /// output is panned, exactly as retail).
    #[error("binaural output is not available with the Retail16 voice policy")]
    Spatial,
    /// The HRIR set for binaural output cannot be loaded (the SOFA file, or no set at all).
    #[error("HRIR set: {0}")]
    Hrtf(String),
    /// The worker thread could not be started.
    #[error("cannot start the acoustic worker thread: {0}")]
    Worker(std::io::Error),
}

/// [`crate::Engine::load_mono`] failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// The sound's sample rate is 0 or above 384 kHz.
    #[error("sound sample rate {0} Hz is out of range")]
    SampleRate(u32),
    /// The sound has no samples.
    #[error("sound has no samples")]
    Empty,
    /// The sound is longer than 2³¹ frames.
    #[error("sound is too long")]
    TooLong,
    /// A sample is NaN or infinite.
    #[error("sample {0} is not finite")]
    NonFiniteSample(usize),
    /// A sample's magnitude is beyond 1024 (nominal full scale is 1).
    #[error("sample {0} is far beyond full scale")]
    SampleTooLarge(usize),
    /// A stereo sound's channels differ in length.
    #[error("stereo channels differ in length")]
    ChannelLengths,
    /// Every sound slot is in use ([`crate::Capacities::sounds`]); unload one first.
    #[error("sound capacity reached")]
    Full,
    /// The mixer's command ring is full; try again after the next update or render.
    #[error("command queue full; try again after the next update")]
    QueueFull,
}

impl From<resound_mixer::LoadSoundError> for LoadError {
    fn from(e: resound_mixer::LoadSoundError) -> Self {
        use resound_mixer::LoadSoundError as E;
        match e {
            E::Empty => Self::Empty,
            E::TooLong => Self::TooLong,
            E::SampleRate(r) => Self::SampleRate(r),
            E::NonFiniteSample { index } => Self::NonFiniteSample(index),
            E::SampleTooLarge { index } => Self::SampleTooLarge(index),
            E::ChannelLengths => Self::ChannelLengths,
            E::Full => Self::Full,
            _ => Self::QueueFull,
        }
    }
}

/// [`crate::Engine::unload`] failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum UnloadError {
    /// The handle names no loaded sound (never loaded, or unloaded already).
    #[error("sound is not loaded (unloaded or never loaded)")]
    UnknownSound,
    /// A voice still plays the sound; stop it first.
    #[error("sound is still playing")]
    Playing,
    /// The mixer's command ring is full; try again after the next update or render.
    #[error("command queue full; try again after the next update")]
    QueueFull,
}

/// [`crate::Engine::play`] failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PlayError {
    /// A field of the [`crate::Source`] was refused.
    #[error("bad source: {0}")]
    Input(InputError),
    /// The sound handle names no loaded sound (unloaded or never loaded).
    #[error("sound is not loaded (unloaded or never loaded)")]
    UnknownSound,
    /// [`crate::VoicePolicy::Retail16`]: all voices are busy; this one is dropped (counted).
    #[error("voice limit reached: the new voice was dropped")]
    VoiceLimit,
    /// Every mixer voice slot is busy (voices stolen but still fading hold theirs).
    #[error("voice capacity reached")]
    Full,
    /// The mixer's command ring is full; try again after the next update or render.
    #[error("command queue full; try again after the next update")]
    QueueFull,
    /// The track is not one of this engine's ([`crate::Engine::add_track`]).
    #[error("unknown track")]
    UnknownTrack,
}

impl From<resound_mixer::PlayError> for PlayError {
    fn from(e: resound_mixer::PlayError) -> Self {
        use resound_mixer::PlayError as E;
        match e {
            E::UnknownSound => Self::UnknownSound,
            E::Full => Self::Full,
            E::UnknownTrack => Self::UnknownTrack,
            E::Param(p) => Self::Input(InputError::new(p.field, param_problem(p.problem))),
            _ => Self::QueueFull,
        }
    }
}

/// The engine's name for a mixer parameter check.
fn param_problem(p: resound_mixer::ParamProblem) -> Problem {
    match p {
        resound_mixer::ParamProblem::NotFinite => Problem::NotFinite,
        _ => Problem::TooLarge,
    }
}

impl From<InputError> for PlayError {
    fn from(e: InputError) -> Self {
        Self::Input(e)
    }
}

/// An operation on a [`crate::VoiceHandle`] failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum VoiceError {
    /// A value was refused.
    #[error("bad value: {0}")]
    Input(InputError),
    /// The voice has ended (or was stopped, or never existed).
    #[error("voice has ended")]
    Ended,
    /// The mixer's command ring is full; try again after the next update or render.
    #[error("command queue full; try again after the next update")]
    QueueFull,
}

impl From<resound_mixer::StopError> for VoiceError {
    fn from(e: resound_mixer::StopError) -> Self {
        match e {
            resound_mixer::StopError::UnknownVoice => Self::Ended,
            _ => Self::QueueFull,
        }
    }
}

impl From<resound_mixer::UpdateError> for VoiceError {
    fn from(e: resound_mixer::UpdateError) -> Self {
        use resound_mixer::UpdateError as E;
        match e {
            E::UnknownVoice | E::UnknownTrack => Self::Ended,
            E::Param(p) => Self::Input(InputError::new(p.field, param_problem(p.problem))),
            _ => Self::QueueFull,
        }
    }
}

impl From<InputError> for VoiceError {
    fn from(e: InputError) -> Self {
        Self::Input(e)
    }
}

/// A track operation failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TrackError {
    /// A value was refused.
    #[error("bad value: {0}")]
    Input(InputError),
    /// The track is not one of this engine's.
    #[error("unknown track")]
    Unknown,
    /// Every track is taken.
    #[error("no free track (16 with the main one)")]
    Full,
    /// The name is empty or longer than 64 bytes.
    #[error("a track name must be 1 to 64 bytes")]
    Name,
    /// A track of that name exists.
    #[error("a track of that name exists")]
    Duplicate,
    /// The mixer's command ring is full; try again after the next update or render.
    #[error("command queue full; try again after the next update")]
    QueueFull,
}

/// An edit of the engine's world failed.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WorldError {
    /// A coordinate lies outside the supported world (±2²⁸ cells; section coordinates for
    /// sections).
    #[error("{0} is outside the supported world")]
    OutOfWorld(Cells),
    /// A box's minimum exceeds its maximum on some axis.
    #[error("inverted box {0}..{1}")]
    InvertedBox(Cells, Cells),
    /// A box covers more than 2²⁸ cells, or touches more than 65 536 partly covered sections.
    #[error("box is too large")]
    BoxTooLarge,
    /// The material is not in the engine's table range.
    #[error("material id {0} is out of range")]
    Material(u16),
    /// The game owns the world ([`crate::Engine::set_world`]): edit it there and report the
    /// change with [`crate::Engine::world_changed`].
    #[error("the game owns the world: edit it there and report the change")]
    GameOwned,
    /// A change to the game's world was reported, but the engine traces its own world.
    #[error("no game world is set: call set_world first")]
    NotGameOwned,
    /// Attached terrain is traced: sections cannot be loaded or unloaded (place boxes instead).
    #[error("the engine traces terrain: sections cannot be loaded or unloaded, only boxes placed")]
    Terrain,
    /// Too many boxes placed over the terrain.
    #[error("more than {0} boxes placed over the terrain")]
    TooManyBoxes(usize),
}

impl From<EditError> for WorldError {
    fn from(e: EditError) -> Self {
        match e {
            EditError::MaterialOutOfRange(m) => Self::Material(m),
            EditError::InvertedBox { min, max } => Self::InvertedBox(Cells(min), Cells(max)),
            EditError::OutOfWorld(c) => Self::OutOfWorld(Cells(c)),
            _ => Self::BoxTooLarge,
        }
    }
}

/// Cell (or section) coordinates in an error, printed `(x, y, z)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cells(pub IVec3);

impl std::fmt::Display for Cells {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({}, {}, {})", self.0.x, self.0.y, self.0.z)
    }
}

/// [`crate::Engine::update`] or [`crate::Engine::render`] failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TickError {
    /// `dt` was refused.
    #[error("bad value: {0}")]
    Input(InputError),
    /// `render` needs [`crate::Output::Offline`].
    #[error("render needs offline output (a device pulls audio itself)")]
    NotOffline,
    /// The buffer is not interleaved stereo (odd length).
    #[error("render buffer length {0} is not a whole number of stereo frames")]
    OddLength(usize),
    /// The acoustic worker thread has stopped (it panicked); acoustics are frozen, the mix
    /// goes on.
    #[error("the acoustic worker thread has stopped")]
    WorkerGone,
    /// The ambient runtime refused the tick (its clock ran backwards, or it refused the pose);
    /// the acoustics and the mix went on.
    #[error(
        "the ambient runtime refused the tick (its clock ran backwards or the pose is invalid)"
    )]
    Ambient,
    /// A landblock of the terrain ring could not be read (the previous ring stays resident).
    #[error("terrain LandBlock 0x{0:08X} could not be read")]
    Terrain(u32),
}

impl From<InputError> for TickError {
    fn from(e: InputError) -> Self {
        Self::Input(e)
    }
}
