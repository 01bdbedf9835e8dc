//! The engine's life: version, settings, create and destroy, the listener, `update`, the
//! offline render, the status, and the debug hook that proves panics stop at the boundary.

#![allow(
    unsafe_code,
    reason = "exported C entry points (`#[unsafe(no_mangle)]`)"
)]

use std::ffi::c_char;

use resound_engine::{Engine, Mode, Orientation, Output, VoicePolicy};

use crate::args::{ResoundVec3, read, slice_mut, text};
use crate::handles::{ResoundEngine, Session, register, unregister, with_session};
use crate::result::{Failure, Outcome, ResoundResult, call, write_out};

/// The ABI version: it changes whenever a function, struct or constant of `resound.h` changes
/// incompatibly. Compare it with [`RESOUND_ABI_VERSION`] from the header you compiled with.
pub const RESOUND_ABI_VERSION: u32 = 1;

/// The acoustics mode (`ResoundSettings::mode`).
#[repr(i32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResoundMode {
    /// No acoustics: distance and pan only.
    Off = 0,
    /// Occlusion along the direct paths.
    Direct = 1,
    /// Direct plus echoes.
    Reflect = 2,
    /// Direct, echoes and the room's reverb.
    Full = 3,
}

/// The voice policy (`ResoundSettings::voice_policy`).
#[repr(i32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResoundVoicePolicy {
    /// Up to `max_voices`; a new voice steals the quietest.
    Modern = 0,
    /// The retail client's 16-voice pool; the 17th voice is dropped.
    Retail16 = 1,
}

/// Where the mix goes (`ResoundSettings::output`).
#[repr(i32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResoundOutput {
    /// No device: the host pulls samples with `resound_render` (deterministic).
    Offline = 0,
    /// A sound card pulls them; call `resound_update` every frame.
    Device = 1,
}

/// How to build an engine. Fill it with `resound_settings_default`, then change fields.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct ResoundSettings {
    /// Sample rate in Hz, 8000..=384000 (0: 48000). A device output runs at the device's rate
    /// unless this is set.
    pub sample_rate: u32,
    /// A `ResoundMode` value.
    pub mode: i32,
    /// A `ResoundVoicePolicy` value.
    pub voice_policy: i32,
    /// A `ResoundOutput` value.
    pub output: i32,
    /// Device name or id as `resound_devices` lists it; NULL: the default device. Read during
    /// `resound_engine_create` only.
    pub device_name: *const c_char,
    /// Device buffer size in frames (0: the device's default).
    pub device_buffer_frames: u32,
    /// Most voices under the `Modern` policy (0: the engine's default).
    pub max_voices: u32,
}

/// Fills `out` with the defaults: 48 kHz, mode off, modern policy, offline.
///
/// Returns `RESOUND_RESULT_NULL_POINTER` for a NULL `out`.
#[unsafe(no_mangle)]
pub extern "C" fn resound_settings_default(out: *mut ResoundSettings) -> ResoundResult {
    call("resound_settings_default", || {
        write_out(
            out,
            "out",
            ResoundSettings {
                sample_rate: 48_000,
                mode: ResoundMode::Off as i32,
                voice_policy: ResoundVoicePolicy::Modern as i32,
                output: ResoundOutput::Offline as i32,
                device_name: std::ptr::null(),
                device_buffer_frames: 0,
                max_voices: 0,
            },
        )
    })
}

/// The library's version (`"0.1.0"`), static; never NULL, never freed.
#[unsafe(no_mangle)]
pub extern "C" fn resound_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}

/// The library's ABI version ([`RESOUND_ABI_VERSION`] of the header it was built with).
#[unsafe(no_mangle)]
pub extern "C" fn resound_abi_version() -> u32 {
    RESOUND_ABI_VERSION
}

fn mode(value: i32) -> Outcome<Mode> {
    Ok(match value {
        0 => Mode::Off,
        1 => Mode::Direct,
        2 => Mode::Reflect,
        3 => Mode::Full,
        _ => {
            return Err(Failure::argument(format!(
                "mode {value} is not a ResoundMode"
            )));
        }
    })
}

fn builder(s: &ResoundSettings) -> Outcome<resound_engine::EngineBuilder> {
    let mut b = Engine::builder().mode(mode(s.mode)?);
    b = b.voice_policy(match s.voice_policy {
        0 => VoicePolicy::Modern,
        1 => VoicePolicy::Retail16,
        v => {
            return Err(Failure::argument(format!(
                "voice_policy {v} is not a ResoundVoicePolicy"
            )));
        }
    });
    let rate = (s.sample_rate != 0).then_some(s.sample_rate);
    b = b.sample_rate(rate.unwrap_or(48_000));
    if s.max_voices != 0 {
        b = b.capacities(resound_engine::Capacities {
            voices: s.max_voices as usize,
            ..resound_engine::Capacities::default()
        });
    }
    match s.output {
        0 => {}
        1 => {
            let name = if s.device_name.is_null() {
                None
            } else {
                Some(text(s.device_name, "settings.device_name")?.to_owned())
            };
            b = b.output(Output::Device {
                name,
                sample_rate: rate,
                buffer_frames: (s.device_buffer_frames != 0).then_some(s.device_buffer_frames),
            });
        }
        v => {
            return Err(Failure::argument(format!(
                "output {v} is not a ResoundOutput"
            )));
        }
    }
    Ok(b)
}

/// Builds an engine from `settings` (NULL: the defaults) and writes its handle to `out`. A
/// device output opens and starts its stream here.
///
/// Errors: `RESOUND_RESULT_NULL_POINTER` (`out`), `RESOUND_RESULT_INVALID_ARGUMENT` (a bad
/// field), `RESOUND_RESULT_DEVICE` / `RESOUND_RESULT_NOT_FOUND` / `RESOUND_RESULT_UNSUPPORTED`
/// (the device), `RESOUND_RESULT_INVALID_UTF8` (`device_name`).
#[unsafe(no_mangle)]
pub extern "C" fn resound_engine_create(
    settings: *const ResoundSettings,
    out: *mut ResoundEngine,
) -> ResoundResult {
    call("resound_engine_create", || {
        if out.is_null() {
            return Err(Failure::null("out"));
        }
        let mut defaults = std::mem::MaybeUninit::uninit();
        let s = if settings.is_null() {
            resound_settings_default(defaults.as_mut_ptr());
            // SAFETY: resound_settings_default wrote it (the pointer is not NULL).
            unsafe { defaults.assume_init() }
        } else {
            read(settings, "settings")?
        };
        let engine = builder(&s)?.build()?;
        write_out(out, "out", register(Session::new(engine)))
    })
}

/// Destroys an engine: stops its voices, its device stream and its worker thread, and frees
/// it. Its handle, sounds and voices are stale from here on. Works on an engine a panic went
/// through.
///
/// Errors: `RESOUND_RESULT_INVALID_HANDLE` (0 or never given out), `RESOUND_RESULT_STALE_HANDLE`
/// (already destroyed).
#[unsafe(no_mangle)]
pub extern "C" fn resound_engine_destroy(engine: ResoundEngine) -> ResoundResult {
    call("resound_engine_destroy", || {
        let cell = unregister(engine)?;
        drop(cell);
        Ok(())
    })
}

/// Moves and turns the listener (the camera): `position` in metres, `forward` and `up`
/// non-zero and not parallel (the default pose looks down −Z with +Y up).
///
/// Errors: `RESOUND_RESULT_INVALID_ARGUMENT` (non-finite, outside the world, degenerate).
#[unsafe(no_mangle)]
pub extern "C" fn resound_set_listener(
    engine: ResoundEngine,
    position: ResoundVec3,
    forward: ResoundVec3,
    up: ResoundVec3,
) -> ResoundResult {
    call("resound_set_listener", || {
        with_session(engine, |s| {
            let orientation = Orientation {
                forward: forward.into(),
                up: up.into(),
            };
            Ok(s.engine.set_listener(position.into(), orientation)?)
        })
    })
}

/// The game tick: call it every frame with the seconds since the last (0..=60). Runs the
/// ambient runtime and the terrain ring, applies finished acoustics; live, keeps the device.
///
/// Errors: `RESOUND_RESULT_INVALID_ARGUMENT` (bad `dt`), `RESOUND_RESULT_WORKER_STOPPED`,
/// `RESOUND_RESULT_DAT` (a landblock or the ambient runtime failed; the mix goes on).
#[unsafe(no_mangle)]
pub extern "C" fn resound_update(engine: ResoundEngine, dt: f64) -> ResoundResult {
    call("resound_update", || {
        with_session(engine, |s| {
            let r = s.engine.update(dt);
            s.sweep_voices();
            Ok(r?)
        })
    })
}

/// Renders `len` floats of interleaved stereo (`len / 2` frames) into `out` (offline output
/// only). The same calls give the same samples, bit for bit.
///
/// Errors: `RESOUND_RESULT_NULL_POINTER` (`out` with `len > 0`),
/// `RESOUND_RESULT_INVALID_ARGUMENT` (odd `len`), `RESOUND_RESULT_NOT_OFFLINE`,
/// `RESOUND_RESULT_WORKER_STOPPED` (the buffer is still rendered).
#[unsafe(no_mangle)]
pub extern "C" fn resound_render(
    engine: ResoundEngine,
    out: *mut f32,
    len: usize,
) -> ResoundResult {
    call("resound_render", || {
        with_session(engine, |s| {
            let buffer = slice_mut(out, len, "out")?;
            let r = s.engine.render(buffer);
            s.sweep_voices();
            Ok(r?)
        })
    })
}

/// The engine's counters (`resound_status`), as of the last update or render.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ResoundEngineStatus {
    /// Frames rendered (offline) or played (device).
    pub frames_rendered: u64,
    /// Acoustic ticks run.
    pub ticks: u64,
    /// Voices playing (game and ambient).
    pub live_voices: u64,
    /// Voices with echoes.
    pub echo_voices: u64,
    /// Voices dropped or stolen at the voice limit.
    pub dropped_voices: u64,
    /// Device underruns.
    pub xruns: u64,
    /// Times the acoustic worker was restarted after a fault.
    pub worker_restarts: u64,
    /// Ambient ticks run.
    pub ambient_frames: u64,
    /// Ambient events the retail runtime emitted.
    pub ambient_events: u64,
    /// Ambient events handed on as plays.
    pub ambient_played: u64,
    /// Ambient plays that started a voice.
    pub ambient_started: u64,
    /// Ambient plays that did not (voice limit, cache, decode).
    pub ambient_not_started: u64,
    /// Voices of the retail pool held by ambient plays.
    pub ambient_retail_voices: u64,
    /// The engine's clock: seconds of audio rendered.
    pub clock_seconds: f64,
    /// The output's peak level since the last status.
    pub peak: f32,
    /// 1 when an ambient runtime is attached.
    pub ambient_attached: u32,
}

/// Writes the engine's counters to `out`.
///
/// Errors: `RESOUND_RESULT_NULL_POINTER`, a bad engine handle.
#[unsafe(no_mangle)]
pub extern "C" fn resound_status(
    engine: ResoundEngine,
    out: *mut ResoundEngineStatus,
) -> ResoundResult {
    call("resound_status", || {
        if out.is_null() {
            return Err(Failure::null("out"));
        }
        let status = with_session(engine, |s| {
            let st = s.engine.status();
            let a = st.ambient;
            Ok(ResoundEngineStatus {
                frames_rendered: st.frames_rendered,
                ticks: st.ticks,
                live_voices: st.live_voices as u64,
                echo_voices: st.echo_voices as u64,
                dropped_voices: st.dropped_voices,
                xruns: st.xruns,
                worker_restarts: st.worker_restarts,
                ambient_frames: a.counters.frames,
                ambient_events: a.counters.events,
                ambient_played: a.counters.played,
                ambient_started: a.started,
                ambient_not_started: a.not_started,
                ambient_retail_voices: a.retail_voices as u64,
                clock_seconds: s.engine.clock(),
                peak: st.peak,
                ambient_attached: u32::from(a.attached),
            })
        })?;
        write_out(out, "out", status)
    })
}

/// Debug hook (tests): the next call on `engine` panics inside the library. That call returns
/// `RESOUND_RESULT_PANIC`, the process goes on, and the engine refuses every later call with
/// `RESOUND_RESULT_PANIC` but `resound_engine_destroy`.
#[unsafe(no_mangle)]
pub extern "C" fn resound_debug_panic_next_call(engine: ResoundEngine) -> ResoundResult {
    call("resound_debug_panic_next_call", || {
        with_session(engine, |s| {
            s.panic_next = true;
            Ok(())
        })
    })
}
