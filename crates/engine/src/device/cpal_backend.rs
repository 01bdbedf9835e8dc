//! [`CpalBackend`]: the sound card through cpal's default host; [`resolve`] and [`list_devices`].

use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};
use cpal::{BufferSize, ErrorKind, StreamConfig, SupportedBufferSize, SupportedStreamConfigRange};

use super::backend::{Backend, BackendStream, LossKind, RenderFn, StreamEvents};
use super::callback::OutBuffer;
use super::config::{DeviceConfig, DeviceDefaults, DeviceInfo, ResolvedDevice, SampleFormat};
use super::error::DeviceError;
use super::quiet::Quiet;

/// Scratch frames when the device does not bound its buffer size (longer buffers are chunked).
const DEFAULT_CHUNK: u32 = 1024;
/// Largest scratch buffer (frames); bigger device buffers are rendered in chunks of this.
const MAX_CHUNK: u32 = 8192;

/// Picks the device and configuration for `config` on cpal's default host (see
/// [`CpalBackend::resolve`](Backend::resolve)); build the source at the resolved rate, then
/// [`DeviceOutput::open`](super::DeviceOutput::open).
pub fn resolve(config: &DeviceConfig) -> Result<ResolvedDevice, DeviceError> {
    CpalBackend::new().resolve(config)
}

/// Lists cpal's default host's output devices with their default configurations.
///
/// A device that cannot be opened is listed with the reason; ALSA's own complaints are kept
/// off the terminal.
pub fn list_devices() -> Result<Vec<DeviceInfo>, DeviceError> {
    CpalBackend::new().list()
}

/// cpal's default host.
pub struct CpalBackend {
    host: cpal::Host,
}

impl std::fmt::Debug for CpalBackend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CpalBackend({})", self.host.id().name())
    }
}

impl Default for CpalBackend {
    fn default() -> Self {
        Self::new()
    }
}

impl CpalBackend {
    /// cpal's default host (ALSA on Linux).
    pub fn new() -> Self {
        let _quiet = Quiet::begin();
        CpalBackend {
            host: cpal::default_host(),
        }
    }

    fn host_name(&self) -> String {
        self.host.id().name().to_string()
    }

    fn open_error(&self, device: &str, err: &cpal::Error, quiet: &Quiet) -> DeviceError {
        let mut reason = phrase(err);
        if let Some(line) = quiet.first_line() {
            reason.push_str("; ");
            reason.push_str(&line);
        }
        DeviceError::Open {
            host: self.host_name(),
            device: device.to_string(),
            reason,
        }
    }

    /// The device with this id or name, or the default for `None`.
    fn find(&self, name: Option<&str>, quiet: &Quiet) -> Result<cpal::Device, DeviceError> {
        let Some(name) = name else {
            return self
                .host
                .default_output_device()
                .ok_or_else(|| DeviceError::Open {
                    host: self.host_name(),
                    device: "default".into(),
                    reason: "the host has no default output device".into(),
                });
        };
        let devices: Vec<cpal::Device> = match self.host.output_devices() {
            Ok(d) => d.collect(),
            Err(e) => return Err(self.open_error(name, &e, quiet)),
        };
        let mut ids = Vec::new();
        for d in devices {
            let id = device_id(&d);
            let desc = d.description().map(|x| x.name().to_string()).ok();
            if id == name || desc.as_deref() == Some(name) {
                return Ok(d);
            }
            ids.push(id);
        }
        if name == "default"
            && let Some(d) = self.host.default_output_device()
        {
            return Ok(d);
        }
        Err(DeviceError::NotFound {
            host: self.host_name(),
            name: name.to_string(),
            available: if ids.is_empty() {
                "none".into()
            } else {
                ids.join(", ")
            },
        })
    }
}

/// The backend's id of a device (ALSA: the PCM name).
fn device_id(d: &cpal::Device) -> String {
    match d.id() {
        Ok(id) => id.id().to_string(),
        Err(_) => d.to_string(),
    }
}

/// A few words for a cpal error.
fn phrase(err: &cpal::Error) -> String {
    let kind = match err.kind() {
        ErrorKind::DeviceNotAvailable => "device not available",
        ErrorKind::DeviceBusy => "device busy",
        ErrorKind::PermissionDenied => "permission denied",
        ErrorKind::HostUnavailable => "sound system not available",
        ErrorKind::UnsupportedConfig => "configuration not supported",
        ErrorKind::UnsupportedOperation => "not an output device",
        ErrorKind::ResourceExhausted => "out of resources",
        _ => "",
    };
    let msg: String = err
        .message()
        .unwrap_or("")
        .chars()
        .filter(|c| !c.is_control())
        .collect();
    match (kind.is_empty(), msg.is_empty()) {
        (false, true) => kind.to_string(),
        (false, false) => format!("{kind} ({msg})"),
        (true, false) => msg,
        (true, true) => err.kind().to_string(),
    }
}

fn ours(f: cpal::SampleFormat) -> Option<SampleFormat> {
    match f {
        cpal::SampleFormat::F32 => Some(SampleFormat::F32),
        cpal::SampleFormat::I16 => Some(SampleFormat::I16),
        cpal::SampleFormat::U16 => Some(SampleFormat::U16),
        _ => None,
    }
}

fn buffer_range(b: &SupportedBufferSize) -> Option<(u32, u32)> {
    match b {
        SupportedBufferSize::Range { min, max } => Some((*min, *max)),
        SupportedBufferSize::Unknown => None,
    }
}

impl Backend for CpalBackend {
    fn host(&self) -> String {
        self.host_name()
    }

    fn resolve(&mut self, config: &DeviceConfig) -> Result<ResolvedDevice, DeviceError> {
        let quiet = Quiet::begin();
        let device = self.find(config.name.as_deref(), &quiet)?;
        let id = device_id(&device);
        let default = device
            .default_output_config()
            .map_err(|e| self.open_error(&id, &e, &quiet))?;
        let ranges: Vec<SupportedStreamConfigRange> = device
            .supported_output_configs()
            .map_err(|e| self.open_error(&id, &e, &quiet))?
            .collect();
        let unsupported = |what: String| DeviceError::Unsupported {
            device: id.clone(),
            what,
        };
        let has = |f: SampleFormat| ranges.iter().any(|r| ours(r.sample_format()) == Some(f));
        let format = match config.sample_format {
            Some(f) if has(f) => f,
            Some(f) => return Err(unsupported(format!("{f} samples"))),
            None => match ours(default.sample_format()) {
                Some(f) => f,
                None => SampleFormat::ALL
                    .into_iter()
                    .find(|f| has(*f))
                    .ok_or_else(|| unsupported("f32, i16 or u16 samples".into()))?,
            },
        };
        let rate = config.sample_rate.unwrap_or(default.sample_rate());
        let fits = |r: &&SupportedStreamConfigRange| {
            ours(r.sample_format()) == Some(format) && r.contains_rate(rate)
        };
        // The default channel count if it fits, else stereo, else the first that does.
        let range = ranges
            .iter()
            .filter(fits)
            .find(|r| r.channels() == default.channels())
            .or_else(|| ranges.iter().filter(fits).find(|r| r.channels() == 2))
            .or_else(|| ranges.iter().find(fits))
            .ok_or_else(|| unsupported(format!("{rate} Hz with {format} samples")))?;
        let buffers = buffer_range(range.buffer_size());
        if let (Some(want), Some((lo, hi))) = (config.buffer_frames, buffers)
            && !(lo..=hi).contains(&want)
        {
            return Err(unsupported(format!(
                "{want}-frame buffers (it takes {lo} to {hi})"
            )));
        }
        let chunk = config
            .buffer_frames
            .or(buffers.map(|b| b.1))
            .unwrap_or(DEFAULT_CHUNK)
            .clamp(64, MAX_CHUNK);
        Ok(ResolvedDevice {
            host: self.host_name(),
            name: device
                .description()
                .map(|d| d.name().to_string())
                .unwrap_or_else(|_| id.clone()),
            is_default: config.name.is_none() || id == "default",
            id,
            sample_rate: rate,
            channels: range.channels(),
            format,
            buffer_frames: config.buffer_frames,
            chunk_frames: chunk as usize,
            requested: config.clone(),
        })
    }

    fn open(
        &mut self,
        device: &ResolvedDevice,
        mut render: RenderFn,
        events: StreamEvents,
    ) -> Result<Box<dyn BackendStream>, DeviceError> {
        let quiet = Quiet::begin();
        let name = if device.is_default && device.requested.name.is_none() {
            None
        } else {
            Some(device.id.as_str())
        };
        let dev = self.find(name, &quiet)?;
        let config = StreamConfig {
            channels: device.channels,
            sample_rate: device.sample_rate,
            buffer_size: device
                .buffer_frames
                .map_or(BufferSize::Default, BufferSize::Fixed),
        };
        let on_error = move |e: cpal::Error| match e.kind() {
            ErrorKind::Xrun => events.xrun(),
            ErrorKind::DeviceChanged | ErrorKind::RealtimeDenied => {}
            ErrorKind::DeviceNotAvailable => events.lost(LossKind::DeviceNotAvailable),
            ErrorKind::StreamInvalidated => events.lost(LossKind::StreamInvalidated),
            _ => events.lost(LossKind::Backend),
        };
        let built = match device.format {
            SampleFormat::F32 => dev.build_output_stream(
                config,
                move |d: &mut [f32], _: &cpal::OutputCallbackInfo| render(OutBuffer::F32(d)),
                on_error,
                None,
            ),
            SampleFormat::I16 => dev.build_output_stream(
                config,
                move |d: &mut [i16], _: &cpal::OutputCallbackInfo| render(OutBuffer::I16(d)),
                on_error,
                None,
            ),
            SampleFormat::U16 => dev.build_output_stream(
                config,
                move |d: &mut [u16], _: &cpal::OutputCallbackInfo| render(OutBuffer::U16(d)),
                on_error,
                None,
            ),
        };
        let stream = built.map_err(|e| self.open_error(&device.id, &e, &quiet))?;
        // cpal's ALSA worker waits for `play` before its first callback.
        Ok(Box::new(CpalStream {
            stream,
            host: self.host_name(),
            device: device.id.clone(),
        }))
    }

    fn list(&mut self) -> Result<Vec<DeviceInfo>, DeviceError> {
        let quiet = Quiet::begin();
        let devices: Vec<cpal::Device> = match self.host.output_devices() {
            Ok(d) => d.collect(),
            Err(e) => {
                return Err(DeviceError::Host {
                    host: self.host_name(),
                    reason: phrase(&e),
                });
            }
        };
        let mut out = Vec::new();
        let mut seen_default = false;
        let default = self.host.default_output_device();
        let all = default.into_iter().chain(devices);
        for d in all {
            let id = device_id(&d);
            if id == "default" {
                if seen_default {
                    continue;
                }
                seen_default = true;
            }
            let q = Quiet::begin();
            let defaults = d
                .default_output_config()
                .map(|c| DeviceDefaults {
                    sample_rate: c.sample_rate(),
                    channels: c.channels(),
                    format: c.sample_format().to_string(),
                    buffer_frames: buffer_range(c.buffer_size()),
                })
                .map_err(|e| match self.open_error(&id, &e, &q) {
                    DeviceError::Open { reason, .. } => reason,
                    other => other.to_string(),
                });
            out.push(DeviceInfo {
                host: self.host_name(),
                name: d
                    .description()
                    .map(|x| x.name().to_string())
                    .unwrap_or_else(|_| id.clone()),
                is_default: id == "default",
                discards: id == "null",
                id,
                defaults,
            });
        }
        drop(quiet);
        Ok(out)
    }
}

/// A cpal stream (its callbacks run once it plays).
struct CpalStream {
    stream: cpal::Stream,
    host: String,
    device: String,
}

impl BackendStream for CpalStream {
    fn play(&mut self) -> Result<(), DeviceError> {
        let quiet = Quiet::begin();
        self.stream.play().map_err(|e| {
            let mut reason = phrase(&e);
            if let Some(line) = quiet.first_line() {
                reason.push_str("; ");
                reason.push_str(&line);
            }
            DeviceError::Open {
                host: self.host.clone(),
                device: self.device.clone(),
                reason,
            }
        })
    }

    fn buffer_frames(&self) -> Option<u32> {
        self.stream.buffer_size().ok()
    }
}
