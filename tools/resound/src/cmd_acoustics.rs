//! `resound acoustics`: evaluate a voxel acoustics scene file (spec `acoustics.md` §9), or two
//! points on the Asheron's Call terrain of a cell dat (§12) through the engine's terrain world.
//! The report is `resound_engine::advanced::acoustics::report`.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use resound_engine::Model;
use resound_engine::advanced::acoustics::airpath::direct_sound;
use resound_engine::advanced::acoustics::report::Evaluation;
use resound_engine::advanced::acoustics::scene::{Scene, parse_mode};
use resound_engine::advanced::acoustics::{
    AcousticModel, Budget, DecayModel, DirectSound, MaterialTable, Mode, OwnModel, Paths,
};
use resound_engine::terrain::parse_position;
use resound_studio::capped_read::read_text_capped;
use resound_studio::describe::evaluation_json;
use resound_studio::terrain_query::{TerrainQuery, evaluate_terrain_points};

/// Largest scene file accepted (a scene is a list of boxes; 64 MiB is far beyond any real one).
pub const MAX_SCENE_BYTES: u64 = 64 << 20;

/// Which acoustic model evaluates the scene.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelName {
    /// Resound's own model (MIT).
    Own,
    /// Sound Physics Remastered (GNU GPL v3; needs a build with `--features spr-gpl`).
    Spr,
}

impl ModelName {
    /// The engine's model.
    pub fn model(self) -> anyhow::Result<Model> {
        match self {
            Self::Own => Ok(Model::default()),
            #[cfg(feature = "spr-gpl")]
            Self::Spr => Ok(Model::Spr(
                resound_engine::advanced::spr::SprModel::default(),
            )),
            #[cfg(not(feature = "spr-gpl"))]
            Self::Spr => bail!(
                "the SPR model (Sound Physics Remastered) is licensed under the GNU GPL version 3 only and is not in this build; \
                 rebuild with `cargo build -p resound --features spr-gpl` (the binary then falls under the GNU GPL v3)"
            ),
        }
    }
}

/// Which formula gives the own model's room decay (`--decay-model`).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecayModelName {
    /// Eyring per band from the room rays' volume, surface and the material table, plus air
    /// (the own model's default).
    Physical,
    /// SPR's game heuristic from enclosure, size and reflectivity (SPR parity).
    Spr,
}

impl DecayModelName {
    /// The acoustics crate's decay model.
    pub fn decay_model(self) -> DecayModel {
        match self {
            Self::Physical => DecayModel::Physical,
            Self::Spr => DecayModel::Spr,
        }
    }
}

impl ModelName {
    /// The engine's model, the own model's room decay by `decay` (default: physical).
    pub fn model_with(self, decay: Option<DecayModelName>) -> anyhow::Result<Model> {
        match (self, decay) {
            (_, None) => self.model(),
            (Self::Own, Some(d)) => Ok(Model::Own(
                OwnModel::new(MaterialTable::standard()).with_decay_model(d.decay_model()),
            )),
            (Self::Spr, Some(_)) => bail!(
                "--decay-model applies to the own model (--model own); the SPR model derives its sends its own way"
            ),
        }
    }
}

/// Arguments of `resound acoustics`.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("world").required(true).args(["scene", "dat_dir"])))]
pub struct Args {
    /// Scene: a scene file (JSON), or the name of a built-in verification scene (G, R,
    /// W2, …; the files of `crates/acoustics-core/scenes/`).
    #[arg(long, value_name = "FILE|NAME")]
    pub scene: Option<String>,
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
    /// How the own model derives the room's decay (default: physical).
    #[arg(long, value_enum, value_name = "physical|spr")]
    pub decay_model: Option<DecayModelName>,
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

/// Runs `resound acoustics`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let mode = args
        .mode
        .as_deref()
        .map(|m| parse_mode(m).with_context(|| format!("unknown mode {m:?}")))
        .transpose()?;
    let (e, direct) = match (&args.dat_dir, &args.scene) {
        (Some(dir), _) => (terrain(&args, dir, mode.unwrap_or(Mode::Full))?, None),
        (None, Some(name)) => scene(&args, name, mode)?,
        (None, None) => {
            bail!(
                "give --scene FILE|NAME or --dat-dir DIR --listener CELL:X,Y,Z --source CELL:X,Y,Z"
            )
        }
    };
    let ac = e.header.ac.as_ref().and_then(|[s, l]| {
        let at = |t: &String| {
            parse_position(t).ok().map(|p| {
                let o = p.origin;
                (p.objcell_id.0, [o.x, o.y, o.z].map(f64::from))
            })
        };
        Some([at(s)?, at(l)?])
    });
    crate::report::emit_doc(args.json, &evaluation_json(&e, ac, direct.as_ref()), &e)
}

/// The text of a scene: the file at `arg`, or the built-in scene of that name when no such
/// file exists (`resound render` and `resound acoustics` take the same).
pub fn scene_text(arg: &str) -> anyhow::Result<String> {
    let path = Path::new(arg);
    match resound_studio::scene_render::builtin(arg) {
        Some(text) if std::fs::symlink_metadata(path).is_err() => Ok(text.to_owned()),
        _ => {
            let mut text = read_text_capped(path, MAX_SCENE_BYTES, "scene file")?;
            crate::scene_check::blank_unused(&mut text);
            Ok(text)
        }
    }
}

/// A scene's evaluation and, with the own model, its direct sound with the air path round
/// corners (acoustics §4a).
fn scene(
    args: &Args,
    name: &str,
    mode: Option<Mode>,
) -> anyhow::Result<(Evaluation, Option<DirectSound>)> {
    let materials = MaterialTable::standard();
    let text = scene_text(name)?;
    let shown = crate::report::quoted(name);
    let mut scene =
        Scene::from_json(&text, &materials).with_context(|| format!("scene {shown}"))?;
    crate::scene_check::check(&scene).with_context(|| format!("scene {shown}"))?;
    if let Some(p) = args.paths {
        scene.paths = p;
    }
    let spr = match (args.model, args.decay_model) {
        (ModelName::Own, None) => None,
        (m, d) => Some(m.model_with(d)?),
    };
    let model = spr.as_ref().map(|m| m as &dyn AcousticModel);
    let tick = args.tick.unwrap_or(0);
    let e = Evaluation::of_scene(&scene, &materials, model, mode, tick)?;
    // A scene with air paths off (the stage-1 walls) reports its through-wall result only.
    let direct = if spr.is_none() && scene.air_paths {
        let world = scene.build_world(&materials, tick)?;
        let request = scene.request()?;
        // The engine's offline cap of one search.
        let mut budget = Budget::new(resound_engine::Budgets::offline().air_job);
        direct_sound(&world, &request, &e.outcome.direct, &mut budget).ok()
    } else {
        None
    };
    Ok((e, direct))
}

fn terrain(args: &Args, dir: &Path, mode: Mode) -> anyhow::Result<Evaluation> {
    let dats = crate::dat_dir::DatDir::open(dir)?;
    let (Some(l), Some(s)) = (&args.listener, &args.source) else {
        bail!("--dat-dir needs --listener CELL:X,Y,Z and --source CELL:X,Y,Z");
    };
    let query = TerrainQuery {
        listener: parse_position(l).context("--listener")?,
        source: parse_position(s).context("--source")?,
        ground: args.ground,
        mode,
        paths: if args.paths == Some(1) {
            Paths::One
        } else {
            Paths::Nine
        },
        model: args.model.model_with(args.decay_model)?,
    };
    Ok(evaluate_terrain_points(dats.path(), query)?)
}
