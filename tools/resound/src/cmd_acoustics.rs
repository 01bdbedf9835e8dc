//! `resound acoustics`: evaluate a voxel acoustics scene file (spec `acoustics.md` §9).

use std::path::PathBuf;

use anyhow::{Context, bail};
use resound_engine::acoustics::scene::{Scene, parse_mode};
use resound_engine::acoustics::{
    AcousticModel, AcousticResult, Budget, DirectResult, EchoResult, MaterialTable, Mode, OwnModel,
    Paths, RoomResult, Telemetry,
};

/// Offline occlusion budget per evaluation (cells, spec §3.3).
const DIRECT_BUDGET: u64 = 600_000;
/// Offline echo budget per evaluation (cells, spec §3.3).
const ECHO_BUDGET: u64 = 480_000;
/// Room measurement budget (offline: synchronous, cell-counted).
const ROOM_BUDGET: u64 = 480_000;

/// Largest scene file accepted (a scene is a list of boxes; 64 MiB is far beyond any real one).
const MAX_SCENE_BYTES: u64 = 64 << 20;

/// Which acoustic model evaluates the scene.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelName {
    /// Resound's own model (MIT).
    Own,
    /// Sound Physics Remastered (GNU GPL v3; needs a build with `--features spr-gpl`).
    Spr,
}

/// Arguments of `resound acoustics`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Scene file (JSON; see `crates/acoustics-core/scenes/`).
    #[arg(long)]
    scene: PathBuf,
    /// Stages to run (default: the scene's `mode`).
    #[arg(long, value_parser = ["direct", "reflect", "full"])]
    mode: Option<String>,
    /// Acoustic model.
    #[arg(long, value_enum, default_value = "own")]
    model: ModelName,
    /// Direct paths, 1 or 9 (default: the scene's `paths`).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=9))]
    paths: Option<u32>,
    /// Evaluate the world as it is at this tick (boxes with `until_tick` ≤ tick are gone).
    #[arg(long, default_value_t = 0)]
    tick: u64,
    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
}

#[cfg(not(feature = "spr-gpl"))]
fn spr_model() -> anyhow::Result<Box<dyn AcousticModel>> {
    bail!(
        "the SPR model (Sound Physics Remastered) is licensed under the GNU GPL version 3 only and is not in this build; \
         rebuild with `cargo build -p resound --features spr-gpl` (the binary then falls under the GNU GPL v3)"
    )
}

#[cfg(feature = "spr-gpl")]
fn spr_model() -> anyhow::Result<Box<dyn AcousticModel>> {
    Ok(Box::new(resound_engine::spr::SprModel::default()))
}

struct Outcome {
    direct: DirectResult,
    echo: Option<EchoResult>,
    room: Option<RoomResult>,
    /// In `full` mode: the model's own joined evaluation (`AcousticModel::evaluate`). For SPR
    /// this is the one pass that applies the shared-airspace floor and the redirection, which
    /// the separate stages above do not.
    joined: Option<AcousticResult>,
    total: Telemetry,
}

struct Evaluation {
    scene: Scene,
    model: &'static str,
    mode: Mode,
    paths: u32,
    outcome: Outcome,
}

/// Runs `resound acoustics`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let e = evaluate(&args)?;
    if args.json {
        let doc = to_json(&e.scene, e.model, e.mode, e.paths, &e.outcome);
        println!("{}", serde_json::to_string_pretty(&doc)?);
    } else {
        print_text(&e.scene, e.model, e.mode, e.paths, &e.outcome);
    }
    Ok(())
}

fn evaluate(args: &Args) -> anyhow::Result<Evaluation> {
    let materials = MaterialTable::standard();
    let text = crate::input::read_text_capped(&args.scene, MAX_SCENE_BYTES, "scene file")?;
    let mut scene = Scene::from_json(&text, &materials)
        .with_context(|| format!("scene {}", args.scene.display()))?;
    if let Some(p) = args.paths {
        if p != 1 && p != 9 {
            bail!("--paths must be 1 or 9");
        }
        scene.paths = p;
    }
    let mode = match &args.mode {
        Some(m) => parse_mode(m).with_context(|| format!("unknown mode {m:?}"))?,
        None => scene.mode_value()?,
    };
    let world = scene.build_world(&materials, args.tick)?;
    let request = scene.request()?;
    let model: Box<dyn AcousticModel> = match args.model {
        ModelName::Own => {
            let mut own = OwnModel::new(materials);
            own.extra_planes = scene.planes()?;
            Box::new(own)
        }
        ModelName::Spr => spr_model()?,
    };

    let mut total = Telemetry::default();
    let direct = model.direct(&world, &request, &mut Budget::new(DIRECT_BUDGET))?;
    total.merge(&direct.telemetry);
    let echo = if mode >= Mode::Reflect {
        let e = model.reflections(&world, &request, &mut Budget::new(ECHO_BUDGET))?;
        total.merge(&e.telemetry);
        Some(e)
    } else {
        None
    };
    let room = if mode >= Mode::Full {
        let r = model.room(&world, &request, &mut Budget::new(ROOM_BUDGET))?;
        total.merge(&r.telemetry);
        Some(r)
    } else {
        None
    };
    let joined = if mode >= Mode::Full {
        Some(model.evaluate(
            &world,
            &request,
            Mode::Full,
            &mut Budget::new(DIRECT_BUDGET + ECHO_BUDGET + ROOM_BUDGET),
        )?)
    } else {
        None
    };
    let paths = if request.paths == Paths::Nine { 9 } else { 1 };
    Ok(Evaluation {
        scene,
        model: model.name(),
        mode,
        paths,
        outcome: Outcome {
            direct,
            echo,
            room,
            joined,
            total,
        },
    })
}

fn mode_name(mode: Mode) -> &'static str {
    match mode {
        Mode::Off => "off",
        Mode::Direct => "direct",
        Mode::Reflect => "reflect",
        Mode::Full => "full",
    }
}

fn axis_name(axis: usize) -> &'static str {
    ["x", "y", "z"].get(axis).copied().unwrap_or("?")
}

fn distance(scene: &Scene) -> f64 {
    let d: f64 = (0..3)
        .map(|i| (scene.source[i] - scene.listener[i]).powi(2))
        .sum();
    d.sqrt()
}

fn print_text(scene: &Scene, model: &str, mode: Mode, paths: u32, out: &Outcome) {
    println!(
        "scene {}: source {:?} -> listener {:?}, d = {:.2}, range {}, model {model}, mode {}",
        scene.name,
        scene.source,
        scene.listener,
        distance(scene),
        scene.range,
        mode_name(mode)
    );
    let d = &out.direct;
    println!(
        "occlusion: occ {:.3}  gain {:.4}  hf {:.6}  (cutoff {:.6}, air {:.4}; {paths} path{})",
        d.occ,
        d.gain,
        d.hf,
        d.cutoff,
        d.air,
        if paths == 1 { "" } else { "s" }
    );
    if let Some(e) = &out.echo {
        println!("taps: {}", e.taps.len());
        for t in &e.taps {
            println!(
                "  {:7.1} ms  path {:7.2} m  level {:.3}  hf {:.3} (fc {:.0} Hz)  plane {}={} ({:+})  dir ({:+.2}, {:+.2}, {:+.2})",
                t.delay * 1000.0,
                t.path,
                t.level,
                t.hf,
                t.cutoff_hz,
                axis_name(t.plane.axis),
                t.plane.coord,
                t.plane.normal_sign,
                t.direction.x,
                t.direction.y,
                t.direction.z
            );
        }
    }
    if let Some(r) = &out.room {
        println!(
            "room: enclosure {:.3}  size {:.2}  reflectivity {:.2}  decay {:.2} s (slot mix {:.2} s)  wet {:.3}",
            r.space.enclosure,
            r.space.size,
            r.space.reflectivity,
            r.decay,
            r.effective_decay,
            r.wet
        );
        println!(
            "  listener: enclosure {:.3} size {:.2}{}",
            r.listener.enclosure,
            r.listener.size,
            r.source.map_or(String::new(), |s| format!(
                "; source: enclosure {:.3} size {:.2}",
                s.enclosure, s.size
            ))
        );
        println!(
            "  sends: [{:.3}, {:.3}, {:.3}, {:.3}]",
            r.sends[0], r.sends[1], r.sends[2], r.sends[3]
        );
    }
    if let Some(j) = &out.joined {
        println!(
            "joined result: gain {:.4}  hf {:.6}  sends [{:.3}, {:.3}, {:.3}, {:.3}]  direction ({:+.2}, {:+.2}, {:+.2})",
            j.gain,
            j.hf,
            j.sends[0],
            j.sends[1],
            j.sends[2],
            j.sends[3],
            j.apparent_direction.x,
            j.apparent_direction.y,
            j.apparent_direction.z
        );
    }
    if !scene.voices.is_empty() {
        println!(
            "voices: {} further voices in the scene (scene C: evaluated by the tick queue, not here)",
            scene.voices.len()
        );
    }
    let t = &out.total;
    println!(
        "cells visited: {} (rays {}, skipped sections {}, unknown share {:.1} %){}{}",
        t.cells,
        t.rays,
        t.skipped_sections,
        100.0 * t.unknown_share(),
        if t.met_unknown {
            ", met unknown (counted as air; re-trace once resident)"
        } else {
            ""
        },
        if t.budget_exhausted {
            ", BUDGET EXHAUSTED (incomplete)"
        } else {
            ""
        }
    );
}

fn telemetry_json(t: &Telemetry) -> serde_json::Value {
    serde_json::json!({
        "rays": t.rays,
        "cells": t.cells,
        "skipped_sections": t.skipped_sections,
        "unknown_steps": t.unknown_steps,
        "unknown_share": t.unknown_share(),
        "met_unknown": t.met_unknown,
        "budget_exhausted": t.budget_exhausted,
    })
}

fn to_json(scene: &Scene, model: &str, mode: Mode, paths: u32, out: &Outcome) -> serde_json::Value {
    let d = &out.direct;
    let mut v = serde_json::json!({
        "scene": scene.name,
        "model": model,
        "mode": mode_name(mode),
        "source": scene.source,
        "listener": scene.listener,
        "distance": distance(scene),
        "range": scene.range,
        "occlusion": {
            "paths": paths,
            "occ": d.occ,
            "gain": d.gain,
            "hf": d.hf,
            "cutoff": d.cutoff,
            "air": d.air,
            "apparent_direction": [d.apparent_direction.x, d.apparent_direction.y, d.apparent_direction.z],
        },
        "cells_visited": out.total.cells,
        "telemetry": telemetry_json(&out.total),
    });
    if let Some(e) = &out.echo {
        v["taps"] = e
            .taps
            .iter()
            .map(|t| {
                serde_json::json!({
                    "delay_ms": t.delay * 1000.0,
                    "path_m": t.path,
                    "level": t.level,
                    "hf": t.hf,
                    "cutoff_hz": t.cutoff_hz,
                    "plane": { "axis": axis_name(t.plane.axis), "coord": t.plane.coord, "normal": t.plane.normal_sign },
                    "direction": [t.direction.x, t.direction.y, t.direction.z],
                })
            })
            .collect();
    }
    if let Some(r) = &out.room {
        let space = |s: &resound_engine::acoustics::Space| serde_json::json!({ "enclosure": s.enclosure, "size": s.size, "reflectivity": s.reflectivity });
        v["room"] = serde_json::json!({
            "enclosure": r.space.enclosure,
            "size": r.space.size,
            "reflectivity": r.space.reflectivity,
            "decay": r.decay,
            "effective_decay": r.effective_decay,
            "wet": r.wet,
            "sends": r.sends,
            "listener": space(&r.listener),
            "source": r.source.as_ref().map(space),
        });
    }
    if let Some(j) = &out.joined {
        v["joined"] = serde_json::json!({
            "occ": j.occ,
            "gain": j.gain,
            "hf": j.hf,
            "sends": j.sends,
            "decay": j.decay,
            "effective_decay": j.effective_decay,
            "wet": j.wet,
            "apparent_direction": [j.apparent_direction.x, j.apparent_direction.y, j.apparent_direction.z],
            "cells": j.telemetry.cells,
        });
    }
    v
}

#[cfg(test)]
#[path = "acoustics_tests.rs"]
mod tests;
