//! Where the mix goes: [`Output::Offline`] (the host pulls samples with
//! [`crate::Engine::render`]) or [`Output::Device`] (a sound card pulls them through
//! [`crate::device`]).
//!
//! This module is the one place that opens an output: [`resolve`] picks the device before
//! anything else is built (so `build` fails early, naming the device and why), [`open`] hands
//! the mixer's renderer to the offline engine or to the device's callback, and [`Live`] is
//! the engine's side of a device output (poll once per `update`, status, start).

use std::sync::{Arc, Mutex};
use std::time::Instant;

use resound_mixer::MixerRenderer;

use crate::device::{
    Backend, DeviceConfig, DeviceError, DeviceOutput, DeviceStatus, ResolvedDevice,
};

/// The output of an engine.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Output {
    /// No device: the host calls [`crate::Engine::render`] (deterministic "film" render).
    #[default]
    Offline,
    /// A sound card (cpal's default host). Each field left `None` takes the device's
    /// preference; the engine runs at the device's rate ([`crate::Engine::sample_rate`]),
    /// whatever [`crate::EngineBuilder::sample_rate`] says.
    Device {
        /// Device name or id as `resound devices` lists it (`None`: the default device).
        name: Option<String>,
        /// Sample rate in Hz (`None`: the device's preferred rate).
        sample_rate: Option<u32>,
        /// Buffer size in frames (`None`: the device's default).
        buffer_frames: Option<u32>,
    },
}

/// Opening the output failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum OutputError {
    /// The device could not be resolved, opened or started (the text names it and why).
    #[error(transparent)]
    Device(#[from] DeviceError),
}

impl OutputError {
    /// The device error, if this is one (for `resound play`'s one line).
    #[must_use]
    pub fn device(&self) -> Option<&DeviceError> {
        match self {
            Self::Device(e) => Some(e),
        }
    }
}

/// A backend a test injects into the builder (see `EngineBuilder::device_backend`); taken
/// by the first `build`.
#[derive(Clone, Default)]
pub(crate) struct InjectedBackend(Arc<Mutex<Option<Box<dyn Backend>>>>);

impl InjectedBackend {
    pub(crate) fn new(backend: Box<dyn Backend>) -> Self {
        Self(Arc::new(Mutex::new(Some(backend))))
    }

    fn take(&self) -> Option<Box<dyn Backend>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

impl std::fmt::Debug for InjectedBackend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("InjectedBackend")
    }
}

/// A resolved output, before the mixer exists.
pub(crate) enum Resolved {
    /// Offline at the builder's rate.
    Offline,
    /// A device and the backend that resolved it.
    Device(Box<dyn Backend>, ResolvedDevice),
}

impl Resolved {
    /// The rate the mixer must run at.
    pub(crate) fn sample_rate(&self, builder_rate: u32) -> u32 {
        match self {
            Self::Offline => builder_rate,
            Self::Device(_, d) => d.sample_rate,
        }
    }
}

/// Picks the device for `output` (cpal's default host unless a backend was injected); nothing
/// is built or started.
///
/// # Errors
/// [`OutputError::Device`]: no such device, it cannot be opened, or it does not support the
/// requested rate or buffer size.
pub(crate) fn resolve(
    output: &Output,
    injected: Option<&InjectedBackend>,
) -> Result<Resolved, OutputError> {
    let Output::Device {
        name,
        sample_rate,
        buffer_frames,
    } = output
    else {
        return Ok(Resolved::Offline);
    };
    let mut backend: Box<dyn Backend> = match injected.and_then(InjectedBackend::take) {
        Some(backend) => backend,
        None => default_backend()?,
    };
    let config = DeviceConfig {
        name: name.clone(),
        sample_rate: *sample_rate,
        buffer_frames: *buffer_frames,
        sample_format: None,
    };
    let device = backend.resolve(&config)?;
    Ok(Resolved::Device(backend, device))
}

/// The sound card's backend when none was injected: cpal's default host.
#[cfg(feature = "device")]
fn default_backend() -> Result<Box<dyn Backend>, DeviceError> {
    Ok(Box::new(crate::device::CpalBackend::new()))
}

/// Without the `device` feature there is no sound card backend to fall back on.
#[cfg(not(feature = "device"))]
fn default_backend() -> Result<Box<dyn Backend>, DeviceError> {
    Err(DeviceError::NoSupport)
}

/// What the engine does with the mixer's renderer for an output.
#[derive(Debug)]
#[allow(
    clippy::large_enum_variant,
    reason = "made once at build and unpacked at once"
)]
pub(crate) enum Opened {
    /// The engine keeps the renderer and renders on request.
    Offline(MixerRenderer),
    /// The renderer plays in the device's callback.
    Device(Live),
}

/// Opens the resolved output with the mixer's renderer (moved to the device callback for a
/// device). A device is opened paused when `paused`, else it starts at once.
///
/// # Errors
/// [`OutputError::Device`]: the device cannot be opened or started.
pub(crate) fn open(
    resolved: Resolved,
    renderer: MixerRenderer,
    paused: bool,
) -> Result<Opened, OutputError> {
    match resolved {
        Resolved::Offline => Ok(Opened::Offline(renderer)),
        Resolved::Device(backend, device) => {
            let mut out = DeviceOutput::open_paused_with(backend, device, renderer)?;
            if !paused {
                out.play()?;
            }
            Ok(Opened::Device(Live { out }))
        }
    }
}

/// The engine's device output: the mixer's renderer in the device callback.
#[derive(Debug)]
pub(crate) struct Live {
    out: DeviceOutput<MixerRenderer>,
}

impl Live {
    /// Once per `update`: notices a lost stream (reported in the status), renders into nothing
    /// meanwhile and reopens at most once a second. Never panics.
    pub(crate) fn poll(&mut self) {
        self.out.poll(Instant::now());
    }

    /// Whether the stream was started (an output opened paused has not been yet).
    pub(crate) fn started(&self) -> bool {
        !self.out.is_paused()
    }

    /// Starts a paused output.
    pub(crate) fn start(&mut self) -> Result<(), OutputError> {
        Ok(self.out.play()?)
    }

    /// The device's status.
    pub(crate) fn status(&self) -> DeviceStatus {
        self.out.status()
    }
}
