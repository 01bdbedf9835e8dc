//! [`DeviceError`]: why a device could not be resolved, opened or listed (one line each).

/// A device output error. Its text is one plain line naming the device and the reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DeviceError {
    /// The device exists (or is the default) but could not be opened.
    #[error("no audio output device could be opened ({host}: {device}: {reason})")]
    Open {
        /// The backend's name (`ALSA`, …).
        host: String,
        /// The device id (`default` for the default device).
        device: String,
        /// Why, in a few words (with ALSA's own first complaint, if any).
        reason: String,
    },
    /// No output device has the requested name.
    #[error("no audio output device named \"{name}\" ({host} has: {available})")]
    NotFound {
        /// The backend's name.
        host: String,
        /// The requested name.
        name: String,
        /// The ids of the devices there are, comma-separated.
        available: String,
    },
    /// The device does not support what was asked for.
    #[error("audio output device \"{device}\" does not support {what}")]
    Unsupported {
        /// The device id.
        device: String,
        /// What it does not support (`44100 Hz`, `i16 samples`, …).
        what: String,
    },
    /// This build has no sound-card support (`resound-engine` without its `device` feature).
    #[error("no audio output: this build has no sound card support (the `device` feature is off)")]
    NoSupport,
    /// The sound system itself is unusable.
    #[error("no audio output devices ({host}: {reason})")]
    Host {
        /// The backend's name.
        host: String,
        /// Why.
        reason: String,
    },
}

impl DeviceError {
    /// The line `resound play` prints when it cannot play (exit code 3): this error followed by
    /// `; use resound render to write a WAV`.
    pub fn play_line(&self) -> String {
        format!("{self}; use resound render to write a WAV")
    }
}
