//! Text and JSON descriptions of what the engine did: the [`Status`] counters and a scene
//! render's applied acoustics (`resound render`), with stable JSON keys.

use std::fmt;

use resound_engine::advanced::acoustics::Mode;
use resound_engine::advanced::acoustics::scene::{Scene, mode_name};

use crate::scene_render::SceneRender;
use resound_engine::device::{DeviceInfo, DeviceListing, DeviceStatus};
use resound_engine::{AmbientStatus, Status};

/// A finished scene render with what it was asked for, for printing.
#[derive(Debug)]
pub struct RenderReport<'a> {
    /// The scene.
    pub scene: &'a Scene,
    /// The render.
    pub render: &'a SceneRender,
    /// The mode it ran in.
    pub mode: Mode,
    /// The signal's name.
    pub signal: &'a str,
    /// Seconds asked for.
    pub seconds: f64,
    /// The output file as given.
    pub out: &'a str,
    /// The WAV sample format's name.
    pub format: &'a str,
}

/// A position as `[x, y, z]`, each rounded to 6 decimals (no 17-digit float noise).
fn coords(p: [f64; 3]) -> String {
    let c = |v: f64| (v * 1e6).round() / 1e6;
    format!("[{}, {}, {}]", c(p[0]), c(p[1]), c(p[2]))
}

/// A scheduling class as a lowercase word (`full`, `direct`, `free`).
#[must_use]
pub fn class_word(c: resound_engine::Class) -> &'static str {
    match c {
        resound_engine::Class::Full => "full",
        resound_engine::Class::Direct => "direct",
        resound_engine::Class::Free => "free",
    }
}

/// The voice's scheduling class as a lowercase word (`full`, `direct`, `free`), or `none`.
fn class_name(a: &resound_engine::VoiceAcoustics) -> &'static str {
    a.class.map_or("none", class_word)
}

/// `id` as the CLI's JSON writes every id: `0x` and eight upper-case hex digits.
#[must_use]
pub fn hex_id(id: u32) -> String {
    format!("0x{id:08X}")
}

/// A unit vector (a direction) as `[x, y, z]`.
fn dir(v: resound_engine::glam::DVec3) -> [f64; 3] {
    [v.x, v.y, v.z]
}

/// The direct sound in the CLI's one shape (`docs/json.md`): the way it takes (`line`,
/// `around` round corners through the air, `through` the walls), the length of that path, its
/// bends and the unit vector (voxel axes) it seems to come from.
#[must_use]
pub fn direct_json(d: &resound_engine::advanced::acoustics::DirectSound) -> serde_json::Value {
    let c = |v: f64| (v * 1e6).round() / 1e6;
    serde_json::json!({
        "kind": d.kind.as_str(),
        "path_m": c(d.path_m),
        "bends": d.bends,
        "direction": [c(d.direction.x), c(d.direction.y), c(d.direction.z)],
    })
}

/// The render's direct sound: [`direct_json`] (its keys `null` where no direct sound was
/// worked out) with the voice's propagation delay at its start (`delay_ms`, 0 when off) and
/// its Doppler factor.
fn render_direct_json(a: &resound_engine::VoiceAcoustics) -> serde_json::Value {
    let mut d = a.direct.as_ref().map_or_else(
        || serde_json::json!({ "kind": null, "path_m": null, "bends": null, "direction": null }),
        direct_json,
    );
    d["delay_ms"] = serde_json::json!((a.start_delay_s * 1e9).round() / 1e6);
    d["doppler"] = serde_json::json!(a.doppler);
    d
}

/// One echo tap in the CLI's one shape (`docs/json.md`): what a command does not know is
/// `null` (`resound render` knows the pan it applied, `resound acoustics` the reflecting plane).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TapJson {
    /// Delay after the direct sound, seconds.
    pub delay_s: f64,
    /// Path length, metres.
    pub path_m: f64,
    /// Level (linear amplitude factor).
    pub level: f32,
    /// High-frequency factor, 0..=1.
    pub hf: f32,
    /// Low-pass cutoff, Hz.
    pub cutoff_hz: Option<f32>,
    /// Arrival direction (unit vector, voxel axes).
    pub direction: Option<[f64; 3]>,
    /// Stereo pan, -1 (left) ..= 1 (right).
    pub pan: Option<f32>,
    /// The reflecting plane: axis, coordinate (voxel cells) and normal sign.
    pub plane: Option<(&'static str, i32, i32)>,
}

impl TapJson {
    /// The JSON object.
    #[must_use]
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "delay_ms": self.delay_s * 1e3,
            "path_m": self.path_m,
            "level": self.level,
            "hf": self.hf,
            "cutoff_hz": self.cutoff_hz,
            "direction": self.direction,
            "pan": self.pan,
            "plane": self.plane.map(|(axis, coord, normal)| serde_json::json!({
                "axis": axis, "coord": coord, "normal": normal,
            })),
        })
    }
}

fn axis_name(axis: usize) -> &'static str {
    ["x", "y", "z"].get(axis).copied().unwrap_or("?")
}

/// An echo tap of the tracer in the one tap shape.
#[must_use]
pub fn traced_tap(t: &resound_engine::advanced::acoustics::Tap) -> TapJson {
    TapJson {
        delay_s: t.delay,
        path_m: t.path,
        level: t.level,
        hf: t.hf,
        cutoff_hz: Some(t.cutoff_hz),
        direction: Some(dir(t.direction)),
        pan: None,
        plane: Some((axis_name(t.plane.axis), t.plane.coord, t.plane.normal_sign)),
    }
}

/// The echo taps the engine applied to a voice, in the one tap shape: delay, path, level, hf
/// and pan as applied, and from the traced taps what the applied ones do not carry (cutoff,
/// direction, plane).
#[must_use]
pub fn applied_taps(a: &resound_engine::VoiceAcoustics) -> Vec<TapJson> {
    let traced = a
        .result
        .as_ref()
        .map(|x| x.taps.as_slice())
        .unwrap_or_default();
    a.applied
        .taps
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let from = traced.get(i).map(traced_tap).unwrap_or_default();
            TapJson {
                delay_s: f64::from(t.delay_s),
                path_m: f64::from(t.path),
                level: t.level,
                hf: t.hf,
                pan: Some(t.pan),
                ..from
            }
        })
        .collect()
}

/// A space (the room around one point) as JSON: `{enclosure, size_m, reflectivity}`.
fn space_json(s: &resound_engine::advanced::acoustics::Space) -> serde_json::Value {
    serde_json::json!({ "enclosure": s.enclosure, "size_m": s.size, "reflectivity": s.reflectivity })
}

/// The room in the CLI's one shape (`docs/json.md`), from the room stage's result.
#[must_use]
pub fn room_json(r: &resound_engine::advanced::acoustics::RoomResult) -> serde_json::Value {
    serde_json::json!({
        "enclosure": r.space.enclosure,
        "size_m": r.space.size,
        "reflectivity": r.space.reflectivity,
        "wet": r.wet,
        "decay_s": r.decay,
        "effective_decay_s": r.effective_decay,
        "decay_bands_s": r.decay_bands,
        "decay_clamped": r.space.decay_clamped,
        "sends": r.sends,
        "listener_space": space_json(&r.listener),
        "source_space": r.source.as_ref().map(space_json),
    })
}

/// The room of a joined result (what a render applied) in the one room shape; the spaces at
/// the listener and the source are not kept there (`null`).
fn applied_room_json(x: &resound_engine::advanced::acoustics::AcousticResult) -> serde_json::Value {
    serde_json::json!({
        "enclosure": x.space.enclosure,
        "size_m": x.space.size,
        "reflectivity": x.space.reflectivity,
        "wet": x.wet,
        "decay_s": x.decay,
        "effective_decay_s": x.effective_decay,
        "decay_bands_s": x.decay_bands,
        "decay_clamped": x.space.decay_clamped,
        "sends": x.sends,
        "listener_space": null,
        "source_space": null,
    })
}

/// A voxel position (metres, voxel axes: x east, y up, z south) rounded to 6 decimals.
fn voxel(p: [f64; 3]) -> [f64; 3] {
    let c = |v: f64| (v * 1e6).round() / 1e6;
    [c(p[0]), c(p[1]), c(p[2])]
}

/// `resound acoustics`' `--json` document (`docs/json.md`): `ac` is the two AC positions
/// on terrain (`null` for a scene file), each `(cell id, origin in metres)`; `direct` the
/// direct sound with its air path ([`direct_json`]; `null` when not searched).
#[must_use]
pub fn evaluation_json(
    e: &resound_engine::advanced::acoustics::report::Evaluation,
    ac: Option<[(u32, [f64; 3]); 2]>,
    direct: Option<&resound_engine::advanced::acoustics::DirectSound>,
) -> serde_json::Value {
    let (h, out, d, t) = (&e.header, &e.outcome, &e.outcome.direct, &e.outcome.total);
    let ac_json = |(cell, origin): (u32, [f64; 3])| serde_json::json!({ "cell_id": hex_id(cell), "origin_m": origin });
    serde_json::json!({
        "scene": h.name,
        "model": e.model,
        "mode": mode_name(e.mode),
        "source_m": voxel(h.source),
        "listener_m": voxel(h.listener),
        "ac_source": ac.map(|[s, _]| ac_json(s)),
        "ac_listener": ac.map(|[_, l]| ac_json(l)),
        "distance_m": h.distance(),
        "range_m": h.range,
        "occlusion": {
            "paths": e.paths, "occ": d.occ, "gain": d.gain, "hf": d.hf, "cutoff": d.cutoff,
            "air": d.air, "apparent_direction": dir(d.apparent_direction),
        },
        "direct": direct.map(direct_json),
        "taps": out.echo.as_ref().map(|echo| echo.taps.iter().map(|t| traced_tap(t).to_json()).collect::<Vec<_>>()),
        "room": out.room.as_ref().map(room_json),
        "joined": out.joined.as_ref().map(|j| serde_json::json!({
            "occ": j.occ, "gain": j.gain, "hf": j.hf, "sends": j.sends, "decay_s": j.decay,
            "effective_decay_s": j.effective_decay, "wet": j.wet,
            "apparent_direction": dir(j.apparent_direction), "cells": j.telemetry.cells,
        })),
        "telemetry": {
            "rays": t.rays, "cells": t.cells, "skipped_sections": t.skipped_sections,
            "unknown_steps": t.unknown_steps, "unknown_share": t.unknown_share(),
            "met_unknown": t.met_unknown, "budget_exhausted": t.budget_exhausted,
        },
    })
}

/// The engine's counters as one JSON object (stable keys).
#[must_use]
pub fn status_json(s: &Status) -> serde_json::Value {
    {
        serde_json::json!({
            "ticks": s.ticks,
            "rays": s.rays,
            "cells": s.cells,
            "inline_cells": s.inline_cells,
            "max_tick_occlusion_cells": s.max_tick_occlusion_cells,
            "max_tick_echo_cells": s.max_tick_echo_cells,
            "worker_ms": s.worker_time.as_secs_f64() * 1e3,
            "queue_len": s.queue_len,
            "cache_hits": s.cache_hits,
            "cache_misses": s.cache_misses,
            "discarded": s.discarded,
            "unknown_share": s.unknown_share,
            "results_applied": s.results_applied,
            "live_voices": s.live_voices,
            "limiter_engagements": s.limiter_engagements,
            "peak": s.peak,
            "dropped_voices": s.dropped_voices,
            "xruns": s.xruns,
            "frames_rendered": s.frames_rendered,
        })
    }
}

impl RenderReport<'_> {
    /// The `--json` document (stable keys).
    #[must_use]
    pub fn to_json(&self) -> serde_json::Value {
        let (scene, r, mode) = (self.scene, self.render, self.mode);
        let src = r.source.as_ref();
        let applied = src.map(|a| &a.applied);
        let result = src.and_then(|a| a.result.as_ref());
        // The room is measured in `full` only.
        let room = result.filter(|_| mode >= Mode::Full);
        let taps: Vec<serde_json::Value> = src
            .map(|a| applied_taps(a).iter().map(TapJson::to_json).collect())
            .unwrap_or_default();
        let format = if self.format == "s16" {
            "wav-s16"
        } else {
            "wav-f32"
        };
        serde_json::json!({
            "scene": scene.name,
            "model": r.model,
            "mode": mode_name(mode),
            "signal": self.signal,
            "duration_s": self.seconds,
            "rate_hz": r.rate,
            "written": [{ "path": self.out, "format": format }],
            "voices": r.voices,
            "distance_m": r.distance,
            "class": src.and_then(|a| a.class).map(class_word),
            "occ": result.map(|x| x.occ),
            "direct": src.map(render_direct_json),
            "gain": applied.map(|a| a.gain),
            "hf": applied.map(|a| a.hf),
            "pan": applied.map(|a| a.pan),
            "sends": applied.map(|a| a.sends.to_vec()),
            "taps": taps,
            "room": room.map(applied_room_json),
            "status": status_json(&r.status),
        })
    }
}

impl fmt::Display for RenderReport<'_> {
    fn fmt(&self, o: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (scene, r, mode) = (self.scene, self.render, self.mode);
        writeln!(
            o,
            "scene {}: {} voice(s), source {} -> listener {}, d = {:.2}, model {}, mode {}, signal {}, {} s at {} Hz -> {}",
            scene.name,
            r.voices,
            coords(scene.source),
            coords(scene.listener),
            r.distance,
            r.model,
            mode_name(mode),
            self.signal,
            self.seconds,
            r.rate,
            self.out
        )?;
        match &r.source {
            None => {
                writeln!(o, "source: no acoustics applied")?;
            }
            Some(a) => {
                let p = &a.applied;
                let occ = a.result.as_ref().map_or(0.0, |x| x.occ);
                writeln!(
                    o,
                    "applied: class {}  occ {occ:.3}  gain {:.4}  hf {:.6}  pan {:+.3}  sends [{:.4}, {:.4}, {:.4}, {:.4}]",
                    class_name(a),
                    p.gain,
                    p.hf,
                    p.pan,
                    p.sends[0],
                    p.sends[1],
                    p.sends[2],
                    p.sends[3]
                )?;
                if p.taps.is_empty() {
                    writeln!(o, "taps: none")?;
                }
                for (i, t) in p.taps.iter().enumerate() {
                    writeln!(
                        o,
                        "tap {i}: delay {:.1} ms  level {:.3}  path {:.2}  hf {:.3}  pan {:+.3}",
                        f64::from(t.delay_s) * 1e3,
                        t.level,
                        t.path,
                        t.hf,
                        t.pan
                    )?;
                }
                if mode < Mode::Full {
                    writeln!(o, "room: not measured in mode {}", mode_name(mode))?;
                } else if let Some(x) = &a.result {
                    writeln!(
                        o,
                        "room: enclosure {:.3}  size {:.1}  reflectivity {:.2}  wet {:.3}  decay {:.2} s (bands low/mid/high {:.2}/{:.2}/{:.2} s)  predicted (effective) decay {:.2} s",
                        x.space.enclosure,
                        x.space.size,
                        x.space.reflectivity,
                        x.wet,
                        x.decay,
                        x.decay_bands[0],
                        x.decay_bands[1],
                        x.decay_bands[2],
                        x.effective_decay
                    )?;
                }
            }
        }
        writeln!(o, "status: {}", r.status)
    }
}

/// The ambient runtime's counters as one JSON object (stable keys).
#[must_use]
pub fn ambient_json(a: &AmbientStatus) -> serde_json::Value {
    {
        let (c, d) = (&a.counters, &a.counters.dropped);
        serde_json::json!({
            "frames": c.frames, "rebuilds": c.rebuilds, "event_count": c.events, "played": c.played,
            "dropped": d.total(),
            "dropped_by_reason": {
                "no_sound_table": d.no_sound_table, "no_entry": d.no_entry,
                "silent_wave": d.silent_wave, "probability": d.probability,
                "inactive": d.inactive, "inaudible": d.inaudible, "pool_full": d.pool_full,
                "wave_missing": d.wave_missing, "decode_failed": d.decode_failed,
                "no_room": d.no_room,
            },
            "started": a.started, "not_started": a.not_started,
            "retail_voices": a.retail_voices, "refused_ticks": a.refused_ticks,
            "cache_hits": a.cache.hits, "cache_misses": a.cache.misses,
        })
    }
}

/// The device output's counters as JSON (stable keys).
#[must_use]
pub fn device_status_json(d: &DeviceStatus) -> serde_json::Value {
    serde_json::json!({
        "host": d.host, "device": d.device, "sample_rate_hz": d.sample_rate,
        "channels": d.channels, "format": d.format.name(),
        "buffer_frames": d.buffer_frames, "callbacks": d.callbacks,
        "frames": d.frames, "xruns": d.xruns, "device_xruns": d.device_xruns,
        "late": d.late, "max_callback_ms": d.max_callback_us as f64 / 1e3, "load": d.load,
        "lost": d.lost, "reopens": d.reopens, "reopen_attempts": d.reopen_attempts,
        "discarded_frames": d.discarded_frames, "last_error": d.last_error,
    })
}

/// The device list as one JSON document: `{ "devices": [...], "usable": n }` (stable keys).
#[must_use]
pub fn device_listing_json(listing: &DeviceListing) -> serde_json::Value {
    let list: Vec<serde_json::Value> = listing.0.iter().map(device_json).collect();
    serde_json::json!({ "devices": list, "usable": listing.usable() })
}

fn device_json(d: &DeviceInfo) -> serde_json::Value {
    let mut doc = serde_json::json!({
        "host": d.host,
        "selector": d.id,
        "name": d.name,
        "default": d.is_default,
        "discards": d.discards,
    });
    let extra = match &d.defaults {
        Ok(c) => serde_json::json!({
            "sample_rate_hz": c.sample_rate,
            "channels": c.channels,
            "format": c.format,
            "buffer_frames": c.buffer_frames.map(|(lo, hi)| [lo, hi]),
        }),
        Err(e) => serde_json::json!({ "reason": e }),
    };
    if let (Some(doc), serde_json::Value::Object(extra)) = (doc.as_object_mut(), extra) {
        doc.extend(extra);
    }
    doc
}
