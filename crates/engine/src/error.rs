//! Typed errors of the engine, one enum per kind of operation. Every message is one plain line.

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
    /// The mixer refused its settings.
    #[error("mixer settings: {0}")]
    Mixer(resound_mixer::BuildError),
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
    /// The mixer refused the samples (empty, too long, a non-finite or oversized sample, full).
    #[error("sound refused: {0}")]
    Mixer(resound_mixer::LoadSoundError),
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
    /// The mixer's command ring is full; try again after the next render.
    #[error("sound unload refused: {0}")]
    Mixer(resound_mixer::UnloadSoundError),
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
    /// The mixer refused the voice (capacity or command ring full).
    #[error("voice refused: {0}")]
    Mixer(resound_mixer::PlayError),
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
    /// The mixer refused the change (command ring full).
    #[error("voice change refused: {0}")]
    Mixer(resound_mixer::StopError),
}

impl From<InputError> for VoiceError {
    fn from(e: InputError) -> Self {
        Self::Input(e)
    }
}

/// An edit of the engine's world failed.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WorldError {
    /// The voxel store refused the edit.
    #[error("world edit refused: {0}")]
    Edit(EditError),
    /// Attached terrain is traced: sections cannot be loaded or unloaded (place boxes instead).
    #[error("the engine traces terrain: sections cannot be loaded or unloaded, only boxes placed")]
    Terrain,
    /// Too many boxes placed over the terrain.
    #[error("more than {0} boxes placed over the terrain")]
    TooManyBoxes(usize),
}

impl From<EditError> for WorldError {
    fn from(e: EditError) -> Self {
        Self::Edit(e)
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
