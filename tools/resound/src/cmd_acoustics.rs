//! `resound acoustics`: evaluate a voxel acoustics scene file (spec `acoustics.md` §9), or two
//! points on the Asheron's Call terrain of a cell dat (§12).

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use resound_engine::acoustics::scene::{Scene, parse_mode};
use resound_engine::acoustics::{
    AcousticModel, Budgets, MaterialTable, Mode, OwnModel, Paths, SoundRequest, Space, Stages,
    WorldProbe, run_stages,
};
use resound_engine::ambient::DatSource;
use resound_engine::datformat::container::DatReader;
use resound_engine::datformat::record::Region;
use resound_engine::terrain::{
    EAR_HEIGHT, TerrainWorld, ac_to_voxel, parse_position, show_position,
};

/// Largest scene file accepted (a scene is a list of boxes; 64 MiB is far beyond any real one).
const MAX_SCENE_BYTES: u64 = 64 << 20;
/// The Region whose height table shapes the terrain.
const REGION_ID: u32 = 0x1300_0000;

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
#[command(group(clap::ArgGroup::new("world").required(true).args(["scene", "dat_dir"])))]
pub struct Args {
    /// Scene file (JSON; see `crates/acoustics-core/scenes/`).
    #[arg(long)]
    pub scene: Option<PathBuf>,
    /// Folder holding client_portal.dat and client_cell_1.dat: trace the terrain instead.
    #[arg(long, requires_all = ["listener", "source"])]
    pub dat_dir: Option<PathBuf>,
    /// With --dat-dir: the listener, CELL:X,Y,Z (cell id in hex, landblock-relative metres).
    #[arg(long, requires = "dat_dir", value_name = "CELL:X,Y,Z")]
    pub listener: Option<String>,
    /// With --dat-dir: the source, CELL:X,Y,Z.
    #[arg(long, requires = "dat_dir", value_name = "CELL:X,Y,Z")]
    pub source: Option<String>,
    /// With --dat-dir: put both points 1.75 m above the terrain (Z is ignored).
    #[arg(long, requires = "dat_dir")]
    pub ground: bool,
    /// Stages to run (default: the scene's `mode`; `full` on terrain).
    #[arg(long, value_parser = ["direct", "reflect", "full"])]
    pub mode: Option<String>,
    /// Acoustic model.
    #[arg(long, value_enum, default_value = "own")]
    pub model: ModelName,
    /// Direct paths, 1 or 9 (default: the scene's `paths`; 9 on terrain).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=9))]
    pub paths: Option<u32>,
    /// With --scene: the world as it is at this tick (boxes with `until_tick` ≤ tick are gone).
    #[arg(long, conflicts_with = "dat_dir")]
    pub tick: Option<u64>,
    /// Print one JSON document instead of text.
    #[arg(long)]
    pub json: bool,
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

/// What was evaluated, for the report's first lines.
pub struct Header {
    /// Scene name, or `terrain`.
    pub name: String,
    /// Source and listener in voxel blocks.
    pub source: [f64; 3],
    /// Listener in voxel blocks.
    pub listener: [f64; 3],
    /// Voice range.
    pub range: f64,
    /// On terrain: the AC positions (source, listener) as `CELL:X,Y,Z`.
    pub ac: Option<[String; 2]>,
    /// Further voices of the scene (not evaluated here).
    pub voices: usize,
}

/// One evaluation.
pub struct Evaluation {
    /// What.
    pub header: Header,
    /// Model name.
    pub model: &'static str,
    /// Stages run.
    pub mode: Mode,
    /// Direct paths.
    pub paths: u32,
    /// Results.
    pub outcome: Stages,
}

/// Runs `resound acoustics`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let e = evaluate(&args)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&to_json(&e))?);
    } else {
        print_text(&e);
    }
    Ok(())
}

fn model_of(
    args: &Args,
    materials: &MaterialTable,
    scene: Option<&Scene>,
) -> anyhow::Result<Box<dyn AcousticModel>> {
    Ok(match args.model {
        ModelName::Own => {
            let mut own = OwnModel::new(materials.clone());
            if let Some(s) = scene {
                own.extra_planes = s.planes()?;
            }
            Box::new(own)
        }
        ModelName::Spr => spr_model()?,
    })
}

/// Evaluates the scene or terrain the arguments name.
///
/// # Errors
/// Unreadable files, bad scenes or positions, absent terrain.
pub fn evaluate(args: &Args) -> anyhow::Result<Evaluation> {
    let materials = MaterialTable::standard();
    let mode = args
        .mode
        .as_deref()
        .map(|m| parse_mode(m).with_context(|| format!("unknown mode {m:?}")))
        .transpose()?;
    if let Some(dir) = &args.dat_dir {
        return evaluate_terrain(args, dir, &materials, mode.unwrap_or(Mode::Full));
    }
    let Some(path) = &args.scene else {
        bail!("give --scene FILE or --dat-dir DIR --listener CELL:X,Y,Z --source CELL:X,Y,Z");
    };
    let text = crate::input::read_text_capped(path, MAX_SCENE_BYTES, "scene file")?;
    let mut scene =
        Scene::from_json(&text, &materials).with_context(|| format!("scene {}", path.display()))?;
    if let Some(p) = args.paths {
        scene.paths = p;
    }
    let mode = match mode {
        Some(m) => m,
        None => scene.mode_value()?,
    };
    let world = scene.build_world(&materials, args.tick.unwrap_or(0))?;
    let request = scene.request()?;
    let model = model_of(args, &materials, Some(&scene))?;
    let header = Header {
        name: scene.name.clone(),
        source: scene.source,
        listener: scene.listener,
        range: scene.range,
        ac: None,
        voices: scene.voices.len(),
    };
    stages(header, model.as_ref(), &world, &request, mode)
}

fn evaluate_terrain(
    args: &Args,
    dir: &Path,
    materials: &MaterialTable,
    mode: Mode,
) -> anyhow::Result<Evaluation> {
    let (Some(l), Some(s)) = (&args.listener, &args.source) else {
        bail!("--dat-dir needs --listener CELL:X,Y,Z and --source CELL:X,Y,Z");
    };
    let (mut listener, mut source) = (
        parse_position(l).context("--listener")?,
        parse_position(s).context("--source")?,
    );
    let mut portal = open(&dir.join("client_portal.dat"))?;
    let mut cell = open(&dir.join("client_cell_1.dat"))?;
    let region: Region = portal
        .load_record(REGION_ID)
        .with_context(|| format!("reading Region 0x{REGION_ID:08X}"))?
        .with_context(|| format!("the portal dat has no Region 0x{REGION_ID:08X}"))?;
    let mut terrain = TerrainWorld::new(&region, materials)?;
    terrain.update_listener(&listener, &mut cell)?;
    if args.ground {
        for (what, p) in [("listener", &mut listener), ("source", &mut source)] {
            *p = terrain.on_ground(p, EAR_HEIGHT).with_context(|| {
                format!("--ground: no terrain under the {what} (its landblock is absent or beyond the 5 × 5 ring around the listener)")
            })?;
        }
    }
    let mut request = SoundRequest::new(ac_to_voxel(&source), ac_to_voxel(&listener));
    request.paths = if args.paths == Some(1) {
        Paths::One
    } else {
        Paths::Nine
    };
    let model = model_of(args, materials, None)?;
    let header = Header {
        name: format!("terrain 0x{:04X}", listener.objcell_id.get() >> 16),
        source: request.source.to_array(),
        listener: request.listener.to_array(),
        range: request.range,
        ac: Some([show_position(&source), show_position(&listener)]),
        voices: 0,
    };
    stages(header, model.as_ref(), terrain.probe(), &request, mode)
}

fn stages(
    header: Header,
    model: &dyn AcousticModel,
    world: &dyn WorldProbe,
    request: &SoundRequest,
    mode: Mode,
) -> anyhow::Result<Evaluation> {
    let outcome = run_stages(model, world, request, mode, Budgets::offline())?;
    let paths = if request.paths == Paths::Nine { 9 } else { 1 };
    Ok(Evaluation {
        header,
        model: model.name(),
        mode,
        paths,
        outcome,
    })
}

fn open(path: &Path) -> anyhow::Result<DatSource<BufReader<File>>> {
    let file = File::open(path).with_context(|| format!("opening {}", path.display()))?;
    let reader = DatReader::new(BufReader::new(file))
        .with_context(|| format!("reading {}", path.display()))?;
    Ok(DatSource::new(reader))
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

fn distance(h: &Header) -> f64 {
    (0..3)
        .map(|i| (h.source[i] - h.listener[i]).powi(2))
        .sum::<f64>()
        .sqrt()
}

fn print_text(e: &Evaluation) {
    let (h, out) = (&e.header, &e.outcome);
    println!(
        "scene {}: source {:?} -> listener {:?}, d = {:.2}, range {}, model {}, mode {}",
        h.name,
        h.source,
        h.listener,
        distance(h),
        h.range,
        e.model,
        mode_name(e.mode)
    );
    if let Some([s, l]) = &h.ac {
        println!("  AC positions: source {s}, listener {l} (voxel x east, y up, z south)");
    }
    let d = &out.direct;
    println!(
        "occlusion: occ {:.3}  gain {:.4}  hf {:.6}  (cutoff {:.6}, air {:.4}; {} path{})",
        d.occ,
        d.gain,
        d.hf,
        d.cutoff,
        d.air,
        e.paths,
        if e.paths == 1 { "" } else { "s" }
    );
    if let Some(echo) = &out.echo {
        println!("taps: {}", echo.taps.len());
        for t in &echo.taps {
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
        let s = &r.space;
        println!(
            "room: enclosure {:.3}  size {:.2}  reflectivity {:.2}  decay {:.2} s (slot mix {:.2} s)  wet {:.3}",
            s.enclosure, s.size, s.reflectivity, r.decay, r.effective_decay, r.wet
        );
        let src = r.source.map_or(String::new(), |s| {
            format!("; source: enclosure {:.3} size {:.2}", s.enclosure, s.size)
        });
        println!(
            "  listener: enclosure {:.3} size {:.2}{src}",
            r.listener.enclosure, r.listener.size
        );
        println!(
            "  sends: [{:.3}, {:.3}, {:.3}, {:.3}]",
            r.sends[0], r.sends[1], r.sends[2], r.sends[3]
        );
    }
    if let Some(j) = &out.joined {
        let a = j.apparent_direction;
        println!(
            "joined result: gain {:.4}  hf {:.6}  sends [{:.3}, {:.3}, {:.3}, {:.3}]  direction ({:+.2}, {:+.2}, {:+.2})",
            j.gain, j.hf, j.sends[0], j.sends[1], j.sends[2], j.sends[3], a.x, a.y, a.z
        );
    }
    if h.voices > 0 {
        println!(
            "voices: {} further voices in the scene (scene C: evaluated by the tick queue, not here)",
            h.voices
        );
    }
    let t = &out.total;
    let unknown = if t.met_unknown {
        ", met unknown (counted as air; re-trace once resident)"
    } else {
        ""
    };
    let exhausted = if t.budget_exhausted {
        ", BUDGET EXHAUSTED (incomplete)"
    } else {
        ""
    };
    println!(
        "cells visited: {} (rays {}, skipped sections {}, unknown share {:.1} %){unknown}{exhausted}",
        t.cells,
        t.rays,
        t.skipped_sections,
        100.0 * t.unknown_share()
    );
}

/// The `--json` document.
#[must_use]
pub fn to_json(e: &Evaluation) -> serde_json::Value {
    let (h, out, d, t) = (&e.header, &e.outcome, &e.outcome.direct, &e.outcome.total);
    let dir = |v: resound_engine::ambient::glam::DVec3| [v.x, v.y, v.z];
    let mut v = serde_json::json!({
        "scene": h.name, "model": e.model, "mode": mode_name(e.mode),
        "source": h.source, "listener": h.listener, "distance": distance(h), "range": h.range,
        "occlusion": {
            "paths": e.paths, "occ": d.occ, "gain": d.gain, "hf": d.hf, "cutoff": d.cutoff,
            "air": d.air, "apparent_direction": dir(d.apparent_direction),
        },
        "cells_visited": t.cells,
        "telemetry": {
            "rays": t.rays, "cells": t.cells, "skipped_sections": t.skipped_sections,
            "unknown_steps": t.unknown_steps, "unknown_share": t.unknown_share(),
            "met_unknown": t.met_unknown, "budget_exhausted": t.budget_exhausted,
        },
    });
    if let Some([s, l]) = &h.ac {
        v["ac"] = serde_json::json!({ "source": s, "listener": l });
    }
    if let Some(echo) = &out.echo {
        v["taps"] = echo.taps.iter().map(|t| serde_json::json!({
            "delay_ms": t.delay * 1000.0, "path_m": t.path, "level": t.level, "hf": t.hf,
            "cutoff_hz": t.cutoff_hz, "direction": dir(t.direction),
            "plane": { "axis": axis_name(t.plane.axis), "coord": t.plane.coord, "normal": t.plane.normal_sign },
        })).collect();
    }
    if let Some(r) = &out.room {
        let space = |s: &Space| serde_json::json!({ "enclosure": s.enclosure, "size": s.size, "reflectivity": s.reflectivity });
        v["room"] = serde_json::json!({
            "enclosure": r.space.enclosure, "size": r.space.size, "reflectivity": r.space.reflectivity,
            "decay": r.decay, "effective_decay": r.effective_decay, "wet": r.wet, "sends": r.sends,
            "listener": space(&r.listener), "source": r.source.as_ref().map(space),
        });
    }
    if let Some(j) = &out.joined {
        v["joined"] = serde_json::json!({
            "occ": j.occ, "gain": j.gain, "hf": j.hf, "sends": j.sends, "decay": j.decay,
            "effective_decay": j.effective_decay, "wet": j.wet,
            "apparent_direction": dir(j.apparent_direction), "cells": j.telemetry.cells,
        });
    }
    v
}
