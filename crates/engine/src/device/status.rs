//! [`DeviceStatus`]: what the output reports to the game.

use std::fmt;

use super::config::SampleFormat;

/// A snapshot of the device output (see [`DeviceOutput::status`](super::DeviceOutput::status)).
#[derive(Clone, Debug, PartialEq)]
pub struct DeviceStatus {
    /// The backend's name (`ALSA`, …).
    pub host: String,
    /// The device playing (or last played).
    pub device: String,
    /// Sample rate in Hz (the source's rate; it does not change on reopen).
    pub sample_rate: u32,
    /// Device channels.
    pub channels: u16,
    /// Device sample format.
    pub format: SampleFormat,
    /// Frames per device buffer (as the backend reports it, else as requested), if known.
    pub buffer_frames: Option<u32>,
    /// Whether a stream is running now.
    pub running: bool,
    /// Callbacks run, over all streams.
    pub callbacks: u64,
    /// Frames delivered to the device, over all streams.
    pub frames: u64,
    /// Callbacks that ran longer than their buffer lasts.
    pub xruns: u64,
    /// Callbacks that started more than 1.5 buffers after the previous one.
    pub late: u64,
    /// Underruns reported by the backend.
    pub device_xruns: u64,
    /// Longest callback, microseconds.
    pub max_callback_us: u64,
    /// Share of the delivered audio's duration spent in callbacks (0 to 1, more when late).
    pub load: f64,
    /// Streams lost.
    pub lost: u64,
    /// Reopen attempts after a loss.
    pub reopen_attempts: u64,
    /// Successful reopens.
    pub reopens: u64,
    /// Frames rendered into nothing while no stream ran.
    pub discarded_frames: u64,
    /// The last problem, one line.
    pub last_error: Option<String>,
}

impl fmt::Display for DeviceStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} Hz {} ch {}{}: {} callbacks, {} frames, {} xruns, {} late, load {:.1}%",
            self.host,
            self.device,
            self.sample_rate,
            self.channels,
            self.format,
            if self.running { "" } else { " (stopped)" },
            self.callbacks,
            self.frames,
            self.xruns + self.device_xruns,
            self.late,
            100.0 * self.load,
        )?;
        if self.lost > 0 {
            write!(
                f,
                ", lost {} time(s), {} reopen(s) of {} attempt(s)",
                self.lost, self.reopens, self.reopen_attempts
            )?;
        }
        if let Some(e) = &self.last_error {
            write!(f, "; {e}")?;
        }
        Ok(())
    }
}
