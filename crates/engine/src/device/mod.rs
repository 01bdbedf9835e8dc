//! Live output through the sound card: an [`AudioSource`] (the mixer renderer) driven by a cpal
//! stream's callback.
//!
//! The order of use (the engine builds its mixer at the device's rate):
//!
//! 1. [`resolve`] a [`DeviceConfig`] to a [`ResolvedDevice`] (device, rate, channels, format,
//!    buffer size): cpal's default host and device unless named, the device's preferred rate
//!    and format unless requested;
//! 2. build the source at [`ResolvedDevice::sample_rate`];
//! 3. [`DeviceOutput::open`] it: the stream starts and the callback renders the source (or
//!    [`DeviceOutput::open_paused_with`], set the source up, then [`DeviceOutput::play`]: no
//!    callback runs before, so the device's first frame is the source's first);
//! 4. call [`DeviceOutput::poll`] from the game loop: it notices device loss, keeps the source
//!    (rendering it into nothing at the device rate while no stream runs) and reopens the
//!    device at most once a second; [`DeviceOutput::status`] reports it all.
//!
//! ```no_run
//! use std::time::Instant;
//! use resound_engine::device::{DeviceConfig, DeviceOutput, resolve};
//! use resound_engine::advanced::mixer::{MixerSettings, build};
//!
//! let device = resolve(&DeviceConfig::default())?; // cpal's default device, its own rate
//! let settings = MixerSettings { sample_rate: device.sample_rate, ..MixerSettings::default() };
//! let (handle, renderer) = build(settings).expect("valid settings");
//! let mut output = DeviceOutput::open(device, renderer)?;
//! loop {
//!     output.poll(Instant::now()); // once per game update
//!     println!("{}", output.status());
//!     # break;
//! }
//! # drop(handle);
//! # Ok::<(), resound_engine::device::DeviceError>(())
//! ```
//!
//! An error is one line naming the host, the device and why (ALSA's own first complaint
//! included); [`DeviceError::play_line`] adds the `use resound render to write a WAV` hint.
//!
//! The callback ([`Callback::fill`]) never allocates, locks or waits: it renders into a scratch
//! buffer sized at open (longer device buffers are rendered in chunks), converts to the device
//! format (f32, i16, u16) and channel count (mono downmix; more than two channels get the pair
//! in the first two and silence in the rest), and counts its timing in atomics.
//!
//! | module | holds |
//! |---|---|
//! | `config` | [`DeviceConfig`], [`ResolvedDevice`], [`SampleFormat`], [`DeviceInfo`] |
//! | `source` | [`AudioSource`], the render trait (implemented for the mixer renderer) |
//! | `callback` | [`Callback`], the callback body; [`OutBuffer`]; the shared counters |
//! | `convert` | f32 → device format and channel layout |
//! | `backend` | [`Backend`], [`StreamEvents`], [`LossKind`]: what a sound API must offer |
//! | `cpal_backend` | (feature `device`) [`CpalBackend`], the real one; [`resolve`], [`list_devices`] |
//! | `listing` | [`DeviceListing`]: the device list as text (`resound devices`) and JSON |
//! | `test_backend` | [`TestBackend`]: a stream a test drives and breaks by hand |
//! | `output` | [`DeviceOutput`]: open, poll, reopen, hand the source back |
//! | `status` | [`DeviceStatus`] |
//! | `error` | [`DeviceError`] |
//! | `quiet` | (feature `device`) keeps ALSA's error printing off the terminal during opens |
//!
//! Without the default feature `device` (no cpal, no ALSA headers needed to build) the module
//! keeps the [`Backend`] trait, [`TestBackend`] and [`DeviceOutput::open_with`]; a device output
//! with no backend injected fails with [`DeviceError::NoSupport`].

mod backend;
mod callback;
mod config;
mod convert;
#[cfg(feature = "device")]
mod cpal_backend;
mod error;
mod listing;
mod output;
#[cfg(feature = "device")]
mod quiet;
mod source;
mod status;
mod test_backend;

pub use backend::{Backend, BackendStream, LossKind, RenderFn, StreamEvents};
pub use callback::{Callback, OutBuffer};
pub use config::{DeviceConfig, DeviceDefaults, DeviceInfo, ResolvedDevice, SampleFormat};
pub use convert::{f32_to_i16, f32_to_u16};
#[cfg(feature = "device")]
pub use cpal_backend::{CpalBackend, list_devices, resolve};
pub use error::DeviceError;
pub use listing::DeviceListing;
pub use output::{DeviceOutput, REOPEN_INTERVAL};
pub use source::AudioSource;
pub use status::DeviceStatus;
pub use test_backend::{TestBackend, TestControl};

#[cfg(test)]
mod tests;
