//! Sounds: loaded from a file (WAV or MP3), from the caller's memory (PCM f32 or i16, any
//! rate, mono or stereo) or from a DAT Wave id, and unloaded.
//!
//! Memory PCM is wrapped in a WAV header and loaded as a WAV file's bytes would be, so a
//! sound from memory and the same sound from a file are the same samples.

#![allow(
    unsafe_code,
    reason = "exported C entry points (`#[unsafe(no_mangle)]`)"
)]

use std::ffi::c_char;
use std::path::Path;

use resound_engine::sound::{PORTAL_DAT, WaveSource, open_dat};

use crate::args::{slice, text};
use crate::handles::{ResoundEngine, ResoundSound, with_session};
use crate::result::{Failure, Outcome, ResoundResult, call, write_out};

/// Loads a sound file (WAV or MP3, told apart by its bytes) at `path` (UTF-8).
///
/// Errors: `RESOUND_RESULT_NULL_POINTER`, `RESOUND_RESULT_INVALID_UTF8`, `RESOUND_RESULT_LOAD`
/// (unreadable, unknown format, undecodable, refused).
#[unsafe(no_mangle)]
pub extern "C" fn resound_load_file(
    engine: ResoundEngine,
    path: *const c_char,
    out: *mut ResoundSound,
) -> ResoundResult {
    call("resound_load_file", || {
        let path = text(path, "path")?;
        if out.is_null() {
            return Err(Failure::null("out"));
        }
        let handle = with_session(engine, |s| {
            let sound = s.engine.load_file(path)?;
            Ok(s.sounds.insert(sound))
        })?;
        write_out(out, "out", handle)
    })
}

/// The WAV file of interleaved PCM: `format` 1 (16-bit integer) or 3 (32-bit float).
fn wav_bytes(channels: u32, rate: u32, format: u16, bits: u16, data: &[u8]) -> Outcome<Vec<u8>> {
    if channels != 1 && channels != 2 {
        return Err(Failure::argument(format!(
            "channels is {channels}; 1 (mono) or 2 (interleaved stereo)"
        )));
    }
    if rate == 0 {
        return Err(Failure::argument("sample_rate is 0"));
    }
    let data_len = u32::try_from(data.len())
        .ok()
        .filter(|n| *n <= u32::MAX - 64)
        .ok_or_else(|| Failure::argument("the sound is too long for one WAV"))?;
    let block = channels as u16 * bits / 8;
    let mut w = Vec::with_capacity(44 + data.len());
    w.extend_from_slice(b"RIFF");
    w.extend_from_slice(&(36 + data_len).to_le_bytes());
    w.extend_from_slice(b"WAVEfmt ");
    w.extend_from_slice(&16u32.to_le_bytes());
    w.extend_from_slice(&format.to_le_bytes());
    w.extend_from_slice(&(channels as u16).to_le_bytes());
    w.extend_from_slice(&rate.to_le_bytes());
    w.extend_from_slice(&(rate.saturating_mul(u32::from(block))).to_le_bytes());
    w.extend_from_slice(&block.to_le_bytes());
    w.extend_from_slice(&bits.to_le_bytes());
    w.extend_from_slice(b"data");
    w.extend_from_slice(&data_len.to_le_bytes());
    w.extend_from_slice(data);
    Ok(w)
}

fn load_wav_bytes(engine: ResoundEngine, bytes: &[u8], out: *mut ResoundSound) -> Outcome {
    if out.is_null() {
        return Err(Failure::null("out"));
    }
    let handle = with_session(engine, |s| {
        let sound = s.engine.load_wav(bytes)?;
        Ok(s.sounds.insert(sound))
    })?;
    write_out(out, "out", handle)
}

/// Loads `frames` frames of 32-bit float PCM (`channels` 1 or 2, interleaved) at
/// `sample_rate` Hz from the caller's memory (copied; the caller keeps its buffer).
///
/// Errors: `RESOUND_RESULT_NULL_POINTER`, `RESOUND_RESULT_INVALID_ARGUMENT` (channels, rate),
/// `RESOUND_RESULT_LOAD` (empty, too long, a non-finite sample, capacity).
#[unsafe(no_mangle)]
pub extern "C" fn resound_load_pcm_f32(
    engine: ResoundEngine,
    samples: *const f32,
    frames: usize,
    channels: u32,
    sample_rate: u32,
    out: *mut ResoundSound,
) -> ResoundResult {
    call("resound_load_pcm_f32", || {
        let n = frames.saturating_mul(channels as usize);
        let samples = slice(samples, n, "samples")?;
        let data: Vec<u8> = samples.iter().flat_map(|s| s.to_le_bytes()).collect();
        let wav = wav_bytes(channels, sample_rate, 3, 32, &data)?;
        load_wav_bytes(engine, &wav, out)
    })
}

/// Loads `frames` frames of 16-bit integer PCM (`channels` 1 or 2, interleaved) at
/// `sample_rate` Hz from the caller's memory (copied).
///
/// Errors: as `resound_load_pcm_f32`.
#[unsafe(no_mangle)]
pub extern "C" fn resound_load_pcm_i16(
    engine: ResoundEngine,
    samples: *const i16,
    frames: usize,
    channels: u32,
    sample_rate: u32,
    out: *mut ResoundSound,
) -> ResoundResult {
    call("resound_load_pcm_i16", || {
        let n = frames.saturating_mul(channels as usize);
        let samples = slice(samples, n, "samples")?;
        let data: Vec<u8> = samples.iter().flat_map(|s| s.to_le_bytes()).collect();
        let wav = wav_bytes(channels, sample_rate, 1, 16, &data)?;
        load_wav_bytes(engine, &wav, out)
    })
}

/// Loads the Wave `wave_id` (`0x0A......`) from `client_portal.dat` in the folder `dat_dir`.
///
/// Errors: `RESOUND_RESULT_NULL_POINTER`, `RESOUND_RESULT_INVALID_UTF8`, `RESOUND_RESULT_DAT`
/// (the dat cannot be opened or read), `RESOUND_RESULT_NOT_FOUND` (no such Wave),
/// `RESOUND_RESULT_LOAD` (undecodable).
#[unsafe(no_mangle)]
pub extern "C" fn resound_load_wave(
    engine: ResoundEngine,
    dat_dir: *const c_char,
    wave_id: u32,
    out: *mut ResoundSound,
) -> ResoundResult {
    call("resound_load_wave", || {
        let dir = text(dat_dir, "dat_dir")?;
        if out.is_null() {
            return Err(Failure::null("out"));
        }
        let mut portal = open_dat(Path::new(dir), PORTAL_DAT)?;
        let wave = portal
            .load_wave(wave_id)
            .map_err(|e| {
                Failure::new(
                    ResoundResult::Dat,
                    format!(
                        "Wave {wave_id:#010x} could not be read: {}",
                        crate::errors::one_line(&e)
                    ),
                )
            })?
            .ok_or_else(|| {
                Failure::new(
                    ResoundResult::NotFound,
                    format!("{PORTAL_DAT} has no Wave {wave_id:#010x}"),
                )
            })?;
        let handle = with_session(engine, |s| {
            let sound = s.engine.load_wave(&wave)?;
            Ok(s.sounds.insert(sound))
        })?;
        write_out(out, "out", handle)
    })
}

/// Unloads a sound no voice plays; its handle goes stale.
///
/// Errors: a bad or stale sound handle, `RESOUND_RESULT_INVALID_ARGUMENT` (still playing),
/// `RESOUND_RESULT_BUSY`.
#[unsafe(no_mangle)]
pub extern "C" fn resound_unload_sound(
    engine: ResoundEngine,
    sound: ResoundSound,
) -> ResoundResult {
    call("resound_unload_sound", || {
        with_session(engine, |s| {
            let h = s.sounds.get(sound)?;
            s.engine.unload(h).map_err(|e| {
                let code = match e {
                    resound_engine::UnloadError::QueueFull => ResoundResult::Busy,
                    resound_engine::UnloadError::UnknownSound => ResoundResult::StaleHandle,
                    _ => ResoundResult::InvalidArgument,
                };
                Failure::new(code, e.to_string())
            })?;
            s.sounds.remove(sound)?;
            Ok(())
        })
    })
}

#[cfg(test)]
mod tests {
    use super::wav_bytes;

    #[test]
    fn the_wav_header_describes_its_data() {
        let w = wav_bytes(2, 44_100, 1, 16, &[1, 2, 3, 4]).unwrap();
        assert_eq!(w.len(), 48);
        assert_eq!(&w[0..4], b"RIFF");
        assert_eq!(u32::from_le_bytes(w[4..8].try_into().unwrap()), 40);
        assert_eq!(u16::from_le_bytes(w[22..24].try_into().unwrap()), 2);
        assert_eq!(u32::from_le_bytes(w[24..28].try_into().unwrap()), 44_100);
        assert_eq!(
            u32::from_le_bytes(w[28..32].try_into().unwrap()),
            44_100 * 4
        );
        assert_eq!(&w[44..], &[1, 2, 3, 4]);
        assert!(wav_bytes(3, 44_100, 1, 16, &[]).is_err());
        assert!(wav_bytes(1, 0, 1, 16, &[]).is_err());
    }
}
