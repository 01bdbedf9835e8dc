//! What the game asks for ([`DeviceConfig`]) and what it gets ([`ResolvedDevice`]).

use std::fmt;

/// The device output the game asks for; `None` fields take the device's preference.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DeviceConfig {
    /// Device name as [`list_devices`](super::list_devices) shows it (its name or id); `None`
    /// is the host's default output device.
    pub name: Option<String>,
    /// Sample rate in Hz; `None` is the device's preferred rate.
    pub sample_rate: Option<u32>,
    /// Frames per device buffer; `None` is the device's default.
    pub buffer_frames: Option<u32>,
    /// Sample format; `None` is the device's preferred one among f32, i16 and u16.
    pub sample_format: Option<SampleFormat>,
}

/// The device sample formats the callback converts to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SampleFormat {
    /// 32-bit float, full scale ±1.
    F32,
    /// Signed 16-bit integer.
    I16,
    /// Unsigned 16-bit integer, silence at 32 768.
    U16,
}

impl SampleFormat {
    /// All formats, in order of preference.
    pub const ALL: [SampleFormat; 3] = [SampleFormat::F32, SampleFormat::I16, SampleFormat::U16];

    /// Bytes per sample.
    pub fn bytes(self) -> usize {
        match self {
            SampleFormat::F32 => 4,
            SampleFormat::I16 | SampleFormat::U16 => 2,
        }
    }

    /// The lower-case name (`f32`, `i16`, `u16`).
    pub fn name(self) -> &'static str {
        match self {
            SampleFormat::F32 => "f32",
            SampleFormat::I16 => "i16",
            SampleFormat::U16 => "u16",
        }
    }

    /// Parses a name as [`SampleFormat::name`] prints it.
    pub fn from_name(name: &str) -> Option<SampleFormat> {
        SampleFormat::ALL.into_iter().find(|f| f.name() == name)
    }
}

impl fmt::Display for SampleFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A device and stream configuration the backend agreed to, before the stream exists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResolvedDevice {
    /// The backend's name (`ALSA`, `test`, …).
    pub host: String,
    /// The device's name (for humans).
    pub name: String,
    /// The backend's id for reopening it (for ALSA the PCM name, e.g. `default`).
    pub id: String,
    /// Whether this is the host's default output device.
    pub is_default: bool,
    /// Sample rate in Hz: build the source at this rate.
    pub sample_rate: u32,
    /// Channels the device plays (the source renders stereo; see the module docs).
    pub channels: u16,
    /// The device's sample format.
    pub format: SampleFormat,
    /// Requested frames per buffer, `None` for the device's default.
    pub buffer_frames: Option<u32>,
    /// Frames the callback's scratch buffer holds; longer device buffers are rendered in
    /// chunks of this size.
    pub chunk_frames: usize,
    /// What was asked for (a reopen asks again, at this rate).
    pub requested: DeviceConfig,
}

/// One output device as [`list_devices`](super::list_devices) sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceInfo {
    /// The backend's name (`ALSA`, …).
    pub host: String,
    /// The device's name (for humans).
    pub name: String,
    /// The backend's id (pass it as [`DeviceConfig::name`]).
    pub id: String,
    /// Whether this is the host's default output device.
    pub is_default: bool,
    /// Whether the device plays nowhere (ALSA's `null` PCM discards what it is given).
    pub discards: bool,
    /// Its default configuration, or why it cannot be opened (one line).
    pub defaults: Result<DeviceDefaults, String>,
}

/// A device's default output configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceDefaults {
    /// Sample rate in Hz.
    pub sample_rate: u32,
    /// Channels.
    pub channels: u16,
    /// The device's preferred format (any cpal format name, e.g. `f32`, `i32`).
    pub format: String,
    /// Supported buffer sizes in frames (`None` when the host does not say).
    pub buffer_frames: Option<(u32, u32)>,
}
