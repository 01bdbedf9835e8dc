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

/// The voice's scheduling class as a lowercase word (`full`, `direct`, `free`), or `none`.
fn class_name(a: &resound_engine::VoiceAcoustics) -> String {
    a.class
        .map_or_else(|| "none".to_owned(), |c| format!("{c:?}").to_lowercase())
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
        let taps: Vec<serde_json::Value> = applied
            .map(|a| {
                a.taps
                    .iter()
                    .map(|t| {
                        serde_json::json!({
                            "delay_ms": f64::from(t.delay_s) * 1e3,
                            "level": t.level,
                            "path": t.path,
                            "hf": t.hf,
                            "pan": t.pan,
                        })
                    })
                    .collect()
            })
            .unwrap_or_default();
        serde_json::json!({
            "scene": scene.name,
            "model": r.model,
            "mode": mode_name(mode),
            "signal": self.signal,
            "seconds": self.seconds,
            "rate": r.rate,
            "out": self.out,
            "format": self.format,
            "voices": r.voices,
            "distance": r.distance,
            "class": src.and_then(|a| a.class).map(|c| format!("{c:?}").to_lowercase()),
            "occ": result.map(|x| x.occ),
            "gain": applied.map(|a| a.gain),
            "hf": applied.map(|a| a.hf),
            "pan": applied.map(|a| a.pan),
            "sends": applied.map(|a| a.sends.to_vec()),
            "taps": taps,
            "room": {
                "enclosure": room.map(|x| x.space.enclosure),
                "size": room.map(|x| x.space.size),
                "reflectivity": room.map(|x| x.space.reflectivity),
                "wet": room.map(|x| x.wet),
                "decay": room.map(|x| x.decay),
                "effective_decay": room.map(|x| x.effective_decay),
                // The decay the bus renders, per band (issue 30): mid, and low/mid/high.
                "decay_s": room.map(|x| x.decay),
                "decay_bands_s": room.map(|x| x.decay_bands.to_vec()),
            },
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
            "frames": c.frames, "rebuilds": c.rebuilds, "events": c.events, "played": c.played,
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
        "host": d.host, "device": d.device, "sample_rate": d.sample_rate,
        "channels": d.channels, "format": d.format.name(),
        "buffer_frames": d.buffer_frames, "callbacks": d.callbacks,
        "frames": d.frames, "xruns": d.xruns, "device_xruns": d.device_xruns,
        "late": d.late, "max_callback_us": d.max_callback_us, "load": d.load,
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
        "id": d.id,
        "name": d.name,
        "default": d.is_default,
        "discards": d.discards,
    });
    let extra = match &d.defaults {
        Ok(c) => serde_json::json!({
            "sample_rate": c.sample_rate,
            "channels": c.channels,
            "format": c.format,
            "buffer_frames": c.buffer_frames.map(|(lo, hi)| [lo, hi]),
        }),
        Err(e) => serde_json::json!({ "error": e }),
    };
    if let (Some(doc), serde_json::Value::Object(extra)) = (doc.as_object_mut(), extra) {
        doc.extend(extra);
    }
    doc
}
