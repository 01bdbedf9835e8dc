//! The world and Asheron's Call: voxel edits with materials by name, terrain and the retail
//! ambient runtime from a DAT folder, the listener's AC cell, and the last update's ambient
//! events.

#![allow(
    unsafe_code,
    reason = "exported C entry points (`#[unsafe(no_mangle)]`)"
)]

use std::ffi::c_char;
use std::path::Path;

use resound_engine::advanced::ambient::Outcome as AmbientOutcome;
use resound_engine::sound::AmbientSettings;
use resound_engine::{ListenerCell, Material, Materials};

use crate::args::{ResoundCell, read, slice_mut, text};
use crate::handles::{ResoundEngine, with_session};
use crate::result::{Failure, Outcome, ResoundResult, call, write_out};

/// The material named `name` in the standard table (`"stone"`, `"wood"`, `"glass"`, …), or
/// air for `"air"`.
fn material(name: &str) -> Outcome<Material> {
    if name == "air" {
        return Ok(Material::AIR);
    }
    Materials::standard().by_name(name).ok_or_else(|| {
        let names: Vec<&str> = Material::NAMED.iter().map(|(_, n)| *n).collect();
        Failure::new(
            ResoundResult::NotFound,
            format!("no material named \"{name}\" (air, {})", names.join(", ")),
        )
    })
}

/// Checks that `name` is a material `resound_set_block` and `resound_fill` accept: `"air"` or
/// a name of the standard table (`default`, `stone`, `metal`, `wood`, `gravel`, `grass`,
/// `dirt`, `sand`, `snow`, `wool`, `glass`, `water`, `leaves`, `plants`).
///
/// Errors: `RESOUND_RESULT_NULL_POINTER`, `RESOUND_RESULT_INVALID_UTF8`,
/// `RESOUND_RESULT_NOT_FOUND` (the text lists the names).
#[unsafe(no_mangle)]
pub extern "C" fn resound_material_exists(name: *const c_char) -> ResoundResult {
    call("resound_material_exists", || {
        material(text(name, "name")?).map(|_| ())
    })
}

/// The material named by `name`, and whether the block is partial.
fn block(name: *const c_char, partial: u8) -> Outcome<(Material, bool)> {
    Ok((material(text(name, "material")?)?, partial != 0))
}

/// Sets one cell to a block of the material named `material` (`"air"` clears it); non-zero
/// `partial`: a door, fence or slab (a quarter of a full block's occlusion). Voices are
/// re-traced.
///
/// Errors: `RESOUND_RESULT_NOT_FOUND` (material), `RESOUND_RESULT_WORLD` (outside the world).
#[unsafe(no_mangle)]
pub extern "C" fn resound_set_block(
    engine: ResoundEngine,
    cell: ResoundCell,
    material: *const c_char,
    partial: u8,
) -> ResoundResult {
    call("resound_set_block", || {
        let (m, partial) = block(material, partial)?;
        with_session(engine, |s| {
            let mut world = s.engine.world();
            Ok(if partial {
                world.set_block(cell.into(), m.partial())
            } else {
                world.set_block(cell.into(), m)
            }?)
        })
    })
}

/// Fills the inclusive box `min..=max` with the material named `material` (`"air"` carves).
///
/// Errors: `RESOUND_RESULT_NOT_FOUND` (material), `RESOUND_RESULT_WORLD` (inverted, oversized
/// or outside the world).
#[unsafe(no_mangle)]
pub extern "C" fn resound_fill(
    engine: ResoundEngine,
    min: ResoundCell,
    max: ResoundCell,
    material: *const c_char,
    partial: u8,
) -> ResoundResult {
    call("resound_fill", || {
        let (m, partial) = block(material, partial)?;
        with_session(engine, |s| {
            let mut world = s.engine.world();
            Ok(if partial {
                world.fill(min.into(), max.into(), m.partial())
            } else {
                world.fill(min.into(), max.into(), m)
            }?)
        })
    })
}

/// Traces Asheron's Call terrain from the DAT folder `dat_dir` (`client_portal.dat`,
/// `client_cell_1.dat`) instead of the voxel store; the ring of landblocks follows the
/// listener.
///
/// Errors: `RESOUND_RESULT_NULL_POINTER`, `RESOUND_RESULT_INVALID_UTF8`, `RESOUND_RESULT_DAT`.
#[unsafe(no_mangle)]
pub extern "C" fn resound_attach_terrain(
    engine: ResoundEngine,
    dat_dir: *const c_char,
) -> ResoundResult {
    call("resound_attach_terrain", || {
        let dir = text(dat_dir, "dat_dir")?;
        with_session(engine, |s| Ok(s.engine.attach_terrain(Path::new(dir))?))
    })
}

/// Settings of the retail ambient runtime (`resound_attach_ambient`). Fill it with
/// `resound_ambient_settings_default`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ResoundAmbientSettings {
    /// The retail `Random::Seed` (ran2 generator; 0 acts as 1).
    pub ran2_seed: i32,
    /// The retail `srand` seed (CRT generator).
    pub crt_seed: u32,
    /// The ambient slider, 0..=1 (applied twice, as retail).
    pub ambient_volume: f32,
    /// Non-zero: mono sound (every pan 0).
    pub mono: u32,
}

/// Fills `out` with the defaults: seeds 1 and 1, slider 1, stereo.
#[unsafe(no_mangle)]
pub extern "C" fn resound_ambient_settings_default(
    out: *mut ResoundAmbientSettings,
) -> ResoundResult {
    call("resound_ambient_settings_default", || {
        let d = AmbientSettings::default();
        write_out(
            out,
            "out",
            ResoundAmbientSettings {
                ran2_seed: d.seeds.ran2,
                crt_seed: d.seeds.crt,
                ambient_volume: d.sound.ambient_sound_volume,
                mono: u32::from(d.sound.mono),
            },
        )
    })
}

/// Attaches the retail ambient runtime to the DAT folder `dat_dir` with `settings` (NULL: the
/// defaults); every `resound_update` then ticks it with the listener as its camera.
///
/// Errors: `RESOUND_RESULT_NULL_POINTER`, `RESOUND_RESULT_INVALID_UTF8`,
/// `RESOUND_RESULT_INVALID_ARGUMENT` (slider outside 0..=1), `RESOUND_RESULT_DAT`.
#[unsafe(no_mangle)]
pub extern "C" fn resound_attach_ambient(
    engine: ResoundEngine,
    dat_dir: *const c_char,
    settings: *const ResoundAmbientSettings,
) -> ResoundResult {
    call("resound_attach_ambient", || {
        let dir = text(dat_dir, "dat_dir")?;
        let mut a = AmbientSettings::default();
        if !settings.is_null() {
            let c = read(settings, "settings")?;
            if !(0.0..=1.0).contains(&c.ambient_volume) {
                return Err(Failure::argument("ambient_volume must be within 0..=1"));
            }
            a.seeds.ran2 = c.ran2_seed;
            a.seeds.crt = c.crt_seed;
            a.sound.ambient_sound_volume = c.ambient_volume;
            a.sound.mono = c.mono != 0;
        }
        with_session(engine, |s| {
            Ok(s.engine.attach_ambient(Path::new(dir), a)?)
        })
    })
}

/// Names the listener's AC cell for the ambient runtime: 0 for the outdoor cell under the
/// listener (the default, followed as it moves), else a land cell (`0xXXYY0001..0040`) or an
/// EnvCell (`0xXXYY0100..FFFD`). `seen_outside`: −1 reads the EnvCell's flag from the cell
/// dat, 0 or 1 gives it. Takes effect at the next `resound_update`.
///
/// Errors: `RESOUND_RESULT_NOT_FOUND` (no runtime attached, no such EnvCell),
/// `RESOUND_RESULT_INVALID_ARGUMENT` (not a cell id, `seen_outside` not −1, 0 or 1),
/// `RESOUND_RESULT_DAT`.
#[unsafe(no_mangle)]
pub extern "C" fn resound_set_listener_cell(
    engine: ResoundEngine,
    cell_id: u32,
    seen_outside: i32,
) -> ResoundResult {
    call("resound_set_listener_cell", || {
        let cell = match (cell_id, seen_outside) {
            (0, _) => ListenerCell::Outdoor,
            (id, -1) => ListenerCell::env_cell(id),
            (id, 0 | 1) if (id & 0xFFFF) < 0x100 => ListenerCell::land_cell(id),
            (id, flag @ (0 | 1)) => ListenerCell::env_cell_seen_outside(id, flag == 1),
            (_, other) => {
                return Err(Failure::argument(format!(
                    "seen_outside is {other}; -1 (from the cell dat), 0 or 1"
                )));
            }
        };
        with_session(engine, |s| Ok(s.engine.set_listener_cell(cell)?))
    })
}

/// One event of the retail ambient runtime (`resound_ambient_events`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ResoundAmbientEvent {
    /// The runtime's clock when it happened, seconds.
    pub time: f64,
    /// The SoundTable id (`0x20......`).
    pub sound_table_id: u32,
    /// The SoundType looked up in the table.
    pub sound_type: u32,
    /// 1: a voice was asked for; 0: retail dropped the sound.
    pub played: u32,
    /// The Wave id (`0x0A......`) played, or 0.
    pub wave_id: u32,
    /// The level in whole dB (−50..=0) of a played sound.
    pub db: i32,
    /// The pan in dB (−14..=14; positive attenuates the left) of a played sound.
    pub pan: i32,
    /// The authored volume before the ambient slider.
    pub volume: f32,
    /// Distance from the listener of a played sound (0 from the centre).
    pub distance: f32,
}

/// Copies the events of the last `resound_update` into `out` (room for `capacity`) and
/// writes how many there were to `count` (also when more than `capacity`: only `capacity`
/// are copied, and the call fails with `RESOUND_RESULT_BUFFER_TOO_SMALL`; with `out` NULL and
/// `capacity` 0 it only counts). No runtime
/// attached: 0 events.
///
/// Errors: `RESOUND_RESULT_NULL_POINTER` (`count`; `out` with `capacity > 0`),
/// `RESOUND_RESULT_BUFFER_TOO_SMALL`.
#[unsafe(no_mangle)]
pub extern "C" fn resound_ambient_events(
    engine: ResoundEngine,
    out: *mut ResoundAmbientEvent,
    capacity: usize,
    count: *mut usize,
) -> ResoundResult {
    call("resound_ambient_events", || {
        if count.is_null() {
            return Err(Failure::null("count"));
        }
        let buffer = slice_mut(out, capacity, "out")?;
        let total = with_session(engine, |s| {
            let Some(bridge) = s.engine.ambient_bridge() else {
                return Ok(0);
            };
            let events = bridge.last_events();
            for (slot, ev) in buffer.iter_mut().zip(events) {
                let mut e = ResoundAmbientEvent {
                    time: ev.time,
                    sound_table_id: ev.stb_id.0,
                    sound_type: ev.s_type,
                    volume: ev.volume,
                    ..ResoundAmbientEvent::default()
                };
                if let AmbientOutcome::Play(v) = ev.outcome {
                    e.played = 1;
                    e.wave_id = v.wave_id.0;
                    e.db = v.db;
                    e.pan = v.pan;
                    e.distance = v.distance;
                }
                *slot = e;
            }
            Ok(events.len())
        })?;
        write_out(count, "count", total)?;
        if total > capacity && !out.is_null() {
            return Err(Failure::new(
                ResoundResult::BufferTooSmall,
                format!("{total} events; room for {capacity}"),
            ));
        }
        Ok(())
    })
}
