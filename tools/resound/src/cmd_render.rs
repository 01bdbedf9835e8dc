//! `resound render`: renders a verification scene (spec `acoustics.md` §9) offline through the
//! engine and prints the acoustic parameters it applied (gain, hf, taps with delays, sends,
//! predicted decay) and the engine's status. `--json` prints one object with stable keys.

use std::fmt::Write as _;
use std::io::{IsTerminal, Write as _};
use std::path::{Path, PathBuf};

use anyhow::Context;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use resound_engine::acoustics::scene::{Scene, parse_mode};
use resound_engine::scene::{self, SceneOptions, SceneRender};
use resound_engine::signal::Signal;
use resound_engine::wav::{WavFormat, write_wav};
use resound_engine::{Mode, Model, Status};

use crate::cmd_acoustics::ModelName;

/// Largest scene file accepted (as `resound acoustics`).
const MAX_SCENE_BYTES: u64 = 64 << 20;
/// Renders at least this long (seconds) show a progress bar on a terminal.
const PROGRESS_SECONDS: f64 = 5.0;

/// Arguments of `resound render`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Scene file (JSON), or a §9 scene name (`G`, `R`, `W2` …) from
    /// `crates/acoustics-core/scenes/`.
    scene: String,
    /// Acoustics mode (default: the scene's).
    #[arg(long, value_parser = ["off", "direct", "reflect", "full"])]
    mode: Option<String>,
    /// Acoustic model.
    #[arg(long, value_enum, default_value = "own")]
    model: ModelName,
    /// What the scene's source plays.
    #[arg(long, value_parser = ["click", "shot", "noise", "loop"], default_value = "click")]
    signal: String,
    /// Length in seconds.
    #[arg(long, default_value_t = 2.0)]
    seconds: f64,
    /// Output sample rate in Hz.
    #[arg(long, default_value_t = 48_000)]
    rate: u32,
    /// Output WAV file (interleaved stereo).
    #[arg(long)]
    out: PathBuf,
    /// WAV sample format.
    #[arg(long, value_parser = ["f32", "s16"], default_value = "f32")]
    format: String,
    /// Run the master peak limiter (off by default: renders are for analysis).
    #[arg(long)]
    limiter: bool,
    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
}

#[cfg(not(feature = "spr-gpl"))]
pub(crate) fn spr_model() -> anyhow::Result<Model> {
    anyhow::bail!(
        "the SPR model (Sound Physics Remastered) is licensed under the GNU GPL version 3 only and is not in this build; \
         rebuild with `cargo build -p resound --features spr-gpl` (the binary then falls under the GNU GPL v3)"
    )
}

#[cfg(feature = "spr-gpl")]
pub(crate) fn spr_model() -> anyhow::Result<Model> {
    Ok(Model::Spr(resound_engine::spr::SprModel::default()))
}

fn load_scene(arg: &str, model: &Model) -> anyhow::Result<Scene> {
    let path = Path::new(arg);
    let text = match scene::builtin(arg) {
        Some(text) if !path.exists() => text.to_owned(),
        _ => crate::input::read_text_capped(path, MAX_SCENE_BYTES, "scene file")?,
    };
    scene::parse(&text, model).with_context(|| format!("scene {arg}"))
}

/// Runs `resound render`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let model = match args.model {
        ModelName::Own => Model::default(),
        ModelName::Spr => spr_model()?,
    };
    let scene = load_scene(&args.scene, &model)?;
    let mode = match &args.mode {
        Some(m) => parse_mode(m).with_context(|| format!("unknown mode {m:?}"))?,
        None => scene.mode_value()?,
    };
    let signal =
        Signal::parse(&args.signal).with_context(|| format!("unknown signal {:?}", args.signal))?;
    let format = if args.format == "s16" {
        WavFormat::S16
    } else {
        WavFormat::F32
    };
    let options = SceneOptions {
        mode,
        model,
        signal,
        seconds: args.seconds,
        rate: args.rate,
        limiter: args.limiter,
    };
    let show = !args.json && std::io::stdout().is_terminal() && args.seconds >= PROGRESS_SECONDS;
    let bar = ProgressBar::with_draw_target(
        Some((args.seconds * f64::from(args.rate)).max(0.0) as u64),
        if show {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        },
    );
    if let Ok(style) = ProgressStyle::with_template("[{bar:40}] {percent}% {per_sec} frames {eta}")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    let render =
        scene::render(&scene, &options, &mut |done, _| bar.set_position(done)).context("render")?;
    bar.finish_and_clear();
    write_wav(&args.out, &render.samples, 2, render.rate, format)
        .with_context(|| format!("output {}", args.out.display()))?;
    let text = if args.json {
        let doc = to_json(&scene, &args, mode, &render);
        format!("{}\n", serde_json::to_string_pretty(&doc)?)
    } else {
        text(&scene, &args, mode, &render)
    };
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        // A closed pipe (`| head`) is the reader's choice, not a failure.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => r.context("stdout"),
    }
}

fn mode_name(mode: Mode) -> &'static str {
    match mode {
        Mode::Off => "off",
        Mode::Direct => "direct",
        Mode::Reflect => "reflect",
        Mode::Full => "full",
    }
}

fn status_json(s: &Status) -> serde_json::Value {
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

fn to_json(scene: &Scene, args: &Args, mode: Mode, r: &SceneRender) -> serde_json::Value {
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
        "signal": args.signal,
        "seconds": args.seconds,
        "rate": r.rate,
        "out": args.out.display().to_string(),
        "format": args.format,
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
        },
        "status": status_json(&r.status),
    })
}

fn text(scene: &Scene, args: &Args, mode: Mode, r: &SceneRender) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "scene {}: {} voice(s), source {:?} -> listener {:?}, d = {:.2}, model {}, mode {}, signal {}, {} s at {} Hz -> {}",
        scene.name,
        r.voices,
        scene.source,
        scene.listener,
        r.distance,
        r.model,
        mode_name(mode),
        args.signal,
        args.seconds,
        r.rate,
        args.out.display()
    );
    match &r.source {
        None => {
            let _ = writeln!(o, "source: no acoustics applied");
        }
        Some(a) => {
            let p = &a.applied;
            let occ = a.result.as_ref().map_or(0.0, |x| x.occ);
            let _ = writeln!(
                o,
                "applied: class {:?}  occ {occ:.3}  gain {:.4}  hf {:.6}  pan {:+.3}  sends [{:.4}, {:.4}, {:.4}, {:.4}]",
                a.class, p.gain, p.hf, p.pan, p.sends[0], p.sends[1], p.sends[2], p.sends[3]
            );
            if p.taps.is_empty() {
                let _ = writeln!(o, "taps: none");
            }
            for (i, t) in p.taps.iter().enumerate() {
                let _ = writeln!(
                    o,
                    "tap {i}: delay {:.1} ms  level {:.3}  path {:.2}  hf {:.3}  pan {:+.3}",
                    f64::from(t.delay_s) * 1e3,
                    t.level,
                    t.path,
                    t.hf,
                    t.pan
                );
            }
            if mode < Mode::Full {
                let _ = writeln!(o, "room: not measured in mode {}", mode_name(mode));
            } else if let Some(x) = &a.result {
                let _ = writeln!(
                    o,
                    "room: enclosure {:.3}  size {:.1}  reflectivity {:.2}  wet {:.3}  decay {:.2} s  predicted (effective) decay {:.2} s",
                    x.space.enclosure,
                    x.space.size,
                    x.space.reflectivity,
                    x.wet,
                    x.decay,
                    x.effective_decay
                );
            }
        }
    }
    let s = &r.status;
    let _ = writeln!(
        o,
        "status: {} ticks, {} rays, {} worker cells (max/tick occlusion {}, echo {}), {} inline cells, worker {:.2} ms, queue {}, cache {}/{} hit/miss, discarded {}, unknown {:.1} %, voices {}, limiter {}, peak {:.3}, dropped {}, xruns {}",
        s.ticks,
        s.rays,
        s.cells,
        s.max_tick_occlusion_cells,
        s.max_tick_echo_cells,
        s.inline_cells,
        s.worker_time.as_secs_f64() * 1e3,
        s.queue_len,
        s.cache_hits,
        s.cache_misses,
        s.discarded,
        s.unknown_share * 100.0,
        s.live_voices,
        s.limiter_engagements,
        s.peak,
        s.dropped_voices,
        s.xruns
    );
    o
}
