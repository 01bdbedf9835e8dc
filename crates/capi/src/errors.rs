//! The engine's error enums as [`Failure`]s: each kind of error its [`ResoundResult`] code,
//! its text the engine's one line (with the causes it names, joined on the same line).

use std::error::Error;

use resound_engine::device::DeviceError;
use resound_engine::sound::AttachError;
use resound_engine::{
    AttachTerrainError, BuildError, ListenerCellError, LoadError, OutputError, PlayError,
    SoundError, TickError, TrackError, VoiceError, WorldError,
};

use crate::result::{Failure, ResoundResult};

/// `error` and its sources on one line (`a: b: c`), each cause once.
pub(crate) fn one_line(error: &dyn Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let more = cause.to_string();
        if !text.contains(&more) {
            text.push_str(": ");
            text.push_str(&more);
        }
        source = cause.source();
    }
    text
}

fn failure(code: ResoundResult, error: &dyn Error) -> Failure {
    Failure::new(code, one_line(error))
}

impl From<BuildError> for Failure {
    fn from(e: BuildError) -> Self {
        let code = match &e {
            BuildError::Output(_) => ResoundResult::Device,
            BuildError::Worker(_) => ResoundResult::WorkerStopped,
            _ => ResoundResult::InvalidArgument,
        };
        failure(code, &e)
    }
}

impl From<OutputError> for Failure {
    fn from(e: OutputError) -> Self {
        failure(ResoundResult::Device, &e)
    }
}

impl From<DeviceError> for Failure {
    fn from(e: DeviceError) -> Self {
        let code = match &e {
            DeviceError::NoSupport => ResoundResult::Unsupported,
            DeviceError::NotFound { .. } => ResoundResult::NotFound,
            _ => ResoundResult::Device,
        };
        failure(code, &e)
    }
}

impl From<LoadError> for Failure {
    fn from(e: LoadError) -> Self {
        let code = match &e {
            LoadError::QueueFull => ResoundResult::Busy,
            _ => ResoundResult::Load,
        };
        failure(code, &e)
    }
}

impl From<SoundError> for Failure {
    fn from(e: SoundError) -> Self {
        match e {
            SoundError::Load(e) => e.into(),
            e => failure(ResoundResult::Load, &e),
        }
    }
}

impl From<PlayError> for Failure {
    fn from(e: PlayError) -> Self {
        let code = match &e {
            PlayError::Input(_) | PlayError::UnknownTrack => ResoundResult::InvalidArgument,
            PlayError::UnknownSound => ResoundResult::StaleHandle,
            PlayError::VoiceLimit | PlayError::Full => ResoundResult::VoiceLimit,
            PlayError::QueueFull => ResoundResult::Busy,
            _ => ResoundResult::InvalidArgument,
        };
        failure(code, &e)
    }
}

impl From<VoiceError> for Failure {
    fn from(e: VoiceError) -> Self {
        let code = match &e {
            VoiceError::Input(_) => ResoundResult::InvalidArgument,
            VoiceError::Ended => ResoundResult::VoiceEnded,
            VoiceError::QueueFull => ResoundResult::Busy,
            _ => ResoundResult::InvalidArgument,
        };
        failure(code, &e)
    }
}

impl From<TrackError> for Failure {
    fn from(e: TrackError) -> Self {
        let code = match &e {
            TrackError::QueueFull => ResoundResult::Busy,
            TrackError::Full => ResoundResult::VoiceLimit,
            _ => ResoundResult::InvalidArgument,
        };
        failure(code, &e)
    }
}

impl From<WorldError> for Failure {
    fn from(e: WorldError) -> Self {
        failure(ResoundResult::World, &e)
    }
}

impl From<TickError> for Failure {
    fn from(e: TickError) -> Self {
        let code = match &e {
            TickError::Input(_) | TickError::OddLength(_) => ResoundResult::InvalidArgument,
            TickError::NotOffline => ResoundResult::NotOffline,
            TickError::WorkerGone => ResoundResult::WorkerStopped,
            _ => ResoundResult::Dat,
        };
        failure(code, &e)
    }
}

impl From<AttachTerrainError> for Failure {
    fn from(e: AttachTerrainError) -> Self {
        failure(ResoundResult::Dat, &e)
    }
}

impl From<AttachError> for Failure {
    fn from(e: AttachError) -> Self {
        failure(ResoundResult::Dat, &e)
    }
}

impl From<ListenerCellError> for Failure {
    fn from(e: ListenerCellError) -> Self {
        let code = match &e {
            ListenerCellError::NotAttached => ResoundResult::NotFound,
            ListenerCellError::InvalidCell(_) => ResoundResult::InvalidArgument,
            ListenerCellError::NoEnvCell(_) => ResoundResult::NotFound,
            _ => ResoundResult::Dat,
        };
        failure(code, &e)
    }
}

impl From<resound_engine::InputError> for Failure {
    fn from(e: resound_engine::InputError) -> Self {
        failure(ResoundResult::InvalidArgument, &e)
    }
}
