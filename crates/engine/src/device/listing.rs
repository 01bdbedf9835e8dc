//! The device list as people and machines read it (`resound devices`).
//!
//! A device that cannot be opened is listed with the reason; when none can (a device that plays
//! nowhere, ALSA's `null`, does not count), the text is one line saying so.

use std::fmt;

use super::DeviceInfo;

/// What `list_devices` found, with a text form (its JSON form is the tools' business).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceListing(pub Vec<DeviceInfo>);

impl DeviceListing {
    /// How many devices open and play somewhere (ALSA's `null` opens but plays nowhere).
    #[must_use]
    pub fn usable(&self) -> usize {
        self.0
            .iter()
            .filter(|d| d.defaults.is_ok() && !d.discards)
            .count()
    }
}

impl fmt::Display for DeviceListing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.usable() == 0 {
            let why = self
                .0
                .iter()
                .find(|d| d.is_default)
                .or(self.0.first())
                .and_then(|d| {
                    d.defaults
                        .as_ref()
                        .err()
                        .map(|e| format!(" ({}: {}: {e})", d.host, d.id))
                })
                .unwrap_or_default();
            return writeln!(f, "no audio output device can be opened{why}");
        }
        for d in &self.0 {
            let mark = if d.is_default { " (default)" } else { "" };
            match &d.defaults {
                Ok(c) => {
                    let buf = c
                        .buffer_frames
                        .map(|(lo, hi)| format!(", buffers {lo}..{hi} frames"))
                        .unwrap_or_default();
                    writeln!(
                        f,
                        "{}{mark}: {}, {} Hz, {} ch, {}{buf}",
                        d.id, d.name, c.sample_rate, c.channels, c.format
                    )?;
                }
                Err(e) => writeln!(f, "{}{mark}: {}: cannot be opened: {e}", d.id, d.name)?,
            }
        }
        Ok(())
    }
}
