//! The sound devices a `RESOUND_OUTPUT_DEVICE` engine can open, listed into the caller's
//! array of fixed-size records (no strings to free).

#![allow(
    unsafe_code,
    reason = "exported C entry points (`#[unsafe(no_mangle)]`)"
)]

use std::ffi::c_char;

use crate::args::slice_mut;
use crate::result::{Failure, ResoundResult, call, write_out};

/// One output device (`resound_devices`). Strings are NUL-terminated UTF-8, cut at a
/// character boundary when longer than their field.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct ResoundDeviceInfo {
    /// The sound API (`"ALSA"`, …).
    pub host: [c_char; 32],
    /// The device's name, for people.
    pub name: [c_char; 256],
    /// The id to pass as `ResoundSettings::device_name`.
    pub id: [c_char; 256],
    /// 1 for the host's default output device.
    pub is_default: u32,
    /// 1 when its default configuration could be read (it can likely be opened).
    pub usable: u32,
    /// Its default sample rate in Hz (0 when not usable).
    pub sample_rate: u32,
    /// Its default channel count (0 when not usable).
    pub channels: u32,
}

/// Copies `text` into `field`, NUL-terminated, cut at a character boundary.
#[cfg_attr(
    not(feature = "device"),
    allow(dead_code, reason = "used by the device list only")
)]
fn fill<const N: usize>(field: &mut [c_char; N], text: &str) {
    let mut end = text.len().min(N - 1);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    for (dst, src) in field.iter_mut().zip(&text.as_bytes()[..end]) {
        *dst = *src as c_char;
    }
    field[end] = 0;
}

#[cfg(feature = "device")]
fn list() -> Result<Vec<ResoundDeviceInfo>, Failure> {
    let devices = resound_engine::device::list_devices()?;
    Ok(devices
        .iter()
        .map(|d| {
            let mut info = ResoundDeviceInfo {
                host: [0; 32],
                name: [0; 256],
                id: [0; 256],
                is_default: u32::from(d.is_default),
                usable: u32::from(d.defaults.is_ok()),
                sample_rate: 0,
                channels: 0,
            };
            fill(&mut info.host, &d.host);
            fill(&mut info.name, &d.name);
            fill(&mut info.id, &d.id);
            if let Ok(defaults) = &d.defaults {
                info.sample_rate = defaults.sample_rate;
                info.channels = u32::from(defaults.channels);
            }
            info
        })
        .collect())
}

#[cfg(not(feature = "device"))]
fn list() -> Result<Vec<ResoundDeviceInfo>, Failure> {
    Err(Failure::new(
        ResoundResult::Unsupported,
        "this build has no sound card support (the `device` feature is off)",
    ))
}

/// Lists the output devices into `out` (room for `capacity`) and writes how many there are to
/// `count` (also when more than `capacity`: only `capacity` are copied, and the call fails
/// with `RESOUND_RESULT_BUFFER_TOO_SMALL`). With `out` NULL and `capacity` 0 it only counts.
/// A machine without sound cards lists none (or ALSA's `null` device).
///
/// Errors: `RESOUND_RESULT_NULL_POINTER`, `RESOUND_RESULT_DEVICE` (the host cannot list),
/// `RESOUND_RESULT_UNSUPPORTED`, `RESOUND_RESULT_BUFFER_TOO_SMALL`.
#[unsafe(no_mangle)]
pub extern "C" fn resound_devices(
    out: *mut ResoundDeviceInfo,
    capacity: usize,
    count: *mut usize,
) -> ResoundResult {
    call("resound_devices", || {
        if count.is_null() {
            return Err(Failure::null("count"));
        }
        let buffer = slice_mut(out, capacity, "out")?;
        let devices = list()?;
        for (slot, d) in buffer.iter_mut().zip(&devices) {
            *slot = *d;
        }
        write_out(count, "count", devices.len())?;
        if devices.len() > capacity && !out.is_null() {
            return Err(Failure::new(
                ResoundResult::BufferTooSmall,
                format!("{} devices; room for {capacity}", devices.len()),
            ));
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::fill;

    #[test]
    fn a_long_name_is_cut_at_a_character_boundary() {
        let mut f = [1 as std::ffi::c_char; 4];
        fill(&mut f, "aé€");
        // 3 bytes of room: "a" + "é" (2 bytes), then the NUL.
        assert_eq!(f.map(|c| c as u8), [b'a', 0xC3, 0xA9, 0]);
        fill(&mut f, "ab");
        assert_eq!(f.map(|c| c as u8)[..3], [b'a', b'b', 0]);
    }
}
