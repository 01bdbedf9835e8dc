//! [`Backend`]: what a sound API must offer the device output (cpal, or a test double).

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

use super::callback::{Counters, OutBuffer};
use super::config::{DeviceConfig, DeviceInfo, ResolvedDevice};
use super::error::DeviceError;

/// The callback a backend runs once per device buffer (see [`Callback::fill`](super::Callback::fill)).
pub type RenderFn = Box<dyn FnMut(OutBuffer<'_>) + Send + 'static>;

/// A sound API: resolves configurations, opens streams, lists devices.
///
/// Calls come from the game thread; a stream's callback runs wherever the backend runs it.
pub trait Backend: Send {
    /// The host's name for messages (`ALSA`, `test`, …).
    fn host(&self) -> String;

    /// Picks the device and stream configuration for `config` without starting anything.
    fn resolve(&mut self, config: &DeviceConfig) -> Result<ResolvedDevice, DeviceError>;

    /// Builds a stream on `device` that, once [`BackendStream::play`] is called, calls `render`
    /// once per buffer and reports trouble through `events` (the device is open from here on:
    /// an unopenable device fails here). Dropping the returned stream stops it and drops
    /// `render`.
    fn open(
        &mut self,
        device: &ResolvedDevice,
        render: RenderFn,
        events: StreamEvents,
    ) -> Result<Box<dyn BackendStream>, DeviceError>;

    /// Lists the output devices with their default configurations.
    fn list(&mut self) -> Result<Vec<DeviceInfo>, DeviceError>;
}

/// A running stream; dropping it stops the stream and drops its callback.
pub trait BackendStream: Send {
    /// Starts the callbacks (no callback runs before; idempotent).
    fn play(&mut self) -> Result<(), DeviceError>;

    /// Frames per device buffer as the backend reports it, when it does.
    fn buffer_frames(&self) -> Option<u32>;
}

/// Why a stream stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
#[non_exhaustive]
pub enum LossKind {
    /// The device went away (unplugged, or the sound server stopped).
    DeviceNotAvailable = 1,
    /// The stream's configuration is no longer valid.
    StreamInvalidated = 2,
    /// The backend reported an error it could not classify.
    Backend = 3,
}

impl LossKind {
    fn from_code(code: u8) -> Option<LossKind> {
        match code {
            1 => Some(LossKind::DeviceNotAvailable),
            2 => Some(LossKind::StreamInvalidated),
            3 => Some(LossKind::Backend),
            _ => None,
        }
    }

    /// A short phrase for status lines.
    pub fn phrase(self) -> &'static str {
        match self {
            LossKind::DeviceNotAvailable => "device not available",
            LossKind::StreamInvalidated => "stream invalidated",
            LossKind::Backend => "backend error",
        }
    }
}

/// The stream's error side: a backend's error callback reports through it (atomics only, so
/// it may be called from any thread, including the audio thread).
#[derive(Clone, Debug)]
pub struct StreamEvents {
    lost: Arc<AtomicU8>,
    counters: Arc<Counters>,
}

impl StreamEvents {
    pub(crate) fn new(counters: Arc<Counters>) -> Self {
        StreamEvents {
            lost: Arc::new(AtomicU8::new(0)),
            counters,
        }
    }

    /// The stream is dead: the output notices on its next `poll`. The first report wins.
    pub fn lost(&self, why: LossKind) {
        let _ = self
            .lost
            .compare_exchange(0, why as u8, Ordering::Release, Ordering::Relaxed);
    }

    /// The backend saw an underrun (the stream goes on).
    pub fn xrun(&self) {
        self.counters
            .device_xruns
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    /// Whether, and why, the stream was reported lost.
    pub(crate) fn lost_kind(&self) -> Option<LossKind> {
        LossKind::from_code(self.lost.load(Ordering::Acquire))
    }
}
