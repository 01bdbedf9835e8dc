//! Where the mix goes: [`Output::Offline`] (the host pulls samples with
//! [`crate::Engine::render`]) or [`Output::Device`] (a sound card pulls them).
//!
//! This module is the one place that knows whether device output exists in this build: until
//! the device back end lands, [`open`] refuses `Device` with [`OutputError::DeviceUnavailable`].

/// The output of an engine.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Output {
    /// No device: the host calls [`crate::Engine::render`] (deterministic "film" render).
    #[default]
    Offline,
    /// A sound card (cpal). Each field left `None` takes the device's default.
    Device {
        /// Device name (`None`: the default device).
        name: Option<String>,
        /// Sample rate in Hz (`None`: the engine's rate).
        sample_rate: Option<u32>,
        /// Buffer size in frames (`None`: the device's default).
        buffer_frames: Option<u32>,
    },
}

/// Opening the output failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum OutputError {
    /// This build has no device back end.
    #[error("device output is not available in this build")]
    DeviceUnavailable,
}

/// What the engine does with the mixer's renderer for an output.
#[derive(Debug)]
pub(crate) enum Opened {
    /// The engine keeps the renderer and renders on request.
    Offline(resound_mixer::MixerRenderer),
}

/// Opens `output` with the mixer's renderer (moved to the device callback for `Device`).
///
/// # Errors
/// [`OutputError::DeviceUnavailable`] for `Device` in this build.
pub(crate) fn open(
    output: &Output,
    renderer: resound_mixer::MixerRenderer,
) -> Result<Opened, OutputError> {
    match output {
        Output::Offline => Ok(Opened::Offline(renderer)),
        Output::Device { .. } => Err(OutputError::DeviceUnavailable),
    }
}

/// Checks `output` before anything is built (so `build` fails before starting threads).
///
/// # Errors
/// [`OutputError::DeviceUnavailable`] for `Device` in this build.
pub(crate) fn check(output: &Output) -> Result<(), OutputError> {
    match output {
        Output::Offline => Ok(()),
        Output::Device { .. } => Err(OutputError::DeviceUnavailable),
    }
}
