//! `resound render`: renders a verification scene (spec `acoustics.md` §9) offline through the
//! engine and prints the acoustic parameters it applied (gain, hf, taps with delays, sends,
//! predicted decay) and the engine's status. `--json` prints one object with stable keys.

use std::io::IsTerminal;
use std::path::PathBuf;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use resound_engine::advanced::acoustics::scene::{Scene, parse_mode};
use resound_engine::{Engine, EngineBuilder, Model, Spatial};
use resound_studio::describe::RenderReport;
use resound_studio::scene_render::{self as scene, SceneOptions};
use resound_studio::test_signal::Signal;
use resound_studio::wav_write::{WavFormat, WavStream};

use crate::cmd_acoustics::{DecayModelName, ModelName};
use crate::out_file::OutFile;

/// Renders at least this long (seconds) show a progress bar on a terminal.
const PROGRESS_SECONDS: f64 = 5.0;

/// The scene and signal arguments `resound render` and `resound play` share.
#[derive(clap::Args, Debug)]
pub struct SceneArgs {
    /// Scene: a scene file (JSON), or the name of a built-in verification scene (G, R, W2, …;
    /// the files of `crates/acoustics-core/scenes/`).
    #[arg(value_name = "FILE|NAME")]
    scene: String,
    /// Acoustics mode (default: the scene's).
    #[arg(long, value_parser = ["off", "direct", "reflect", "full"])]
    mode: Option<String>,
    /// Acoustic model.
    #[arg(long, value_enum, default_value = "own")]
    model: ModelName,
    /// How the own model derives the room's decay (default: physical).
    #[arg(long, value_enum, value_name = "physical|spr")]
    decay_model: Option<DecayModelName>,
    /// What the scene's source plays.
    #[arg(long, value_parser = ["click", "shot", "noise", "loop", "tone"], default_value = "click")]
    pub signal: String,
    /// Length in seconds (more than 0, at most 3600).
    #[arg(long, default_value_t = 2.0, value_parser = parse_seconds, allow_negative_numbers = true)]
    pub seconds: f64,
    /// Run the master peak limiter (off by default: renders are for analysis).
    #[arg(long)]
    limiter: bool,
    #[command(flatten)]
    pub spatial: SpatialArgs,
}

/// `--spatial` and `--sofa`, shared by `render`, `play` and `demo`.
#[derive(clap::Args, Debug)]
pub struct SpatialArgs {
    /// Output for speakers (`pan`, equal-power) or headphones (`binaural`: HRTF, the built-in
    /// IRCAM LISTEN IRC_1040 set or `--sofa`).
    #[arg(long, value_parser = ["pan", "binaural"], default_value = "pan")]
    spatial: String,
    /// An AES69 SOFA file (SimpleFreeFieldHRIR) for `--spatial binaural`.
    #[arg(long, value_name = "FILE")]
    sofa: Option<PathBuf>,
}

impl SpatialArgs {
    /// The engine's spatialisation mode.
    pub fn spatial(&self) -> anyhow::Result<Spatial> {
        match self.spatial.as_str() {
            "binaural" => Ok(Spatial::Binaural),
            "pan" if self.sofa.is_some() => {
                anyhow::bail!("--sofa needs --spatial binaural")
            }
            _ => Ok(Spatial::Pan),
        }
    }

    /// `builder` with these settings.
    pub fn apply(&self, builder: EngineBuilder) -> anyhow::Result<EngineBuilder> {
        let b = builder.spatial(self.spatial()?);
        Ok(match &self.sofa {
            Some(path) => b.sofa(path),
            None => b,
        })
    }

    /// The SOFA file, if any.
    pub fn sofa(&self) -> Option<PathBuf> {
        self.sofa.clone()
    }
}

/// Arguments of `resound render`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    scene: SceneArgs,
    /// Output sample rate in Hz (8000 to 384000).
    #[arg(long, default_value_t = 48_000, value_parser = parse_rate)]
    rate: u32,
    /// Output WAV file (interleaved stereo); `-` or `/dev/stdout` for standard output (the
    /// report then goes to stderr). A file is written beside the path and renamed into place
    /// when complete.
    #[arg(long)]
    out: PathBuf,
    /// WAV sample format.
    #[arg(long, value_parser = ["f32", "s16"], default_value = "f32")]
    format: String,
    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
    /// Hear blocked sources through the walls only: no air paths round corners and through
    /// doorways (acoustics §4a; on by default).
    #[arg(long)]
    no_air_paths: bool,
}

/// Longest render (`resound_studio::scene_render` refuses longer).
pub const MAX_SECONDS: f64 = 3600.0;

/// `--seconds`: finite, above 0, at most [`MAX_SECONDS`].
fn parse_seconds(text: &str) -> anyhow::Result<f64> {
    match text.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= MAX_SECONDS => Ok(s),
        _ => anyhow::bail!(
            "render length {} is not a number of seconds above 0 and at most {MAX_SECONDS}",
            crate::report::quoted(text)
        ),
    }
}

/// `--rate`: what the engine takes, 8000 to 384000 Hz.
fn parse_rate(text: &str) -> anyhow::Result<u32> {
    match text.trim().parse::<u32>() {
        Ok(r) if (8_000..=384_000).contains(&r) => Ok(r),
        _ => anyhow::bail!(
            "sample rate {} is not a whole number of Hz from 8000 to 384000",
            crate::report::quoted(text)
        ),
    }
}

fn load_scene(arg: &str, model: &Model) -> anyhow::Result<Scene> {
    let text = crate::cmd_acoustics::scene_text(arg)?;
    let scene = scene::parse(&text, model)
        .with_context(|| format!("scene {}", crate::report::quoted(arg)))?;
    crate::scene_check::check(&scene)
        .with_context(|| format!("scene {}", crate::report::quoted(arg)))?;
    Ok(scene)
}

/// The scene and the render options of `args` at `rate` (a device engine plays at its own).
pub fn setup(args: &SceneArgs, rate: u32) -> anyhow::Result<(Scene, SceneOptions)> {
    let model = args.model.model_with(args.decay_model)?;
    let scene = load_scene(&args.scene, &model)?;
    let mode = match &args.mode {
        Some(m) => parse_mode(m).with_context(|| format!("unknown mode {m:?}"))?,
        None => scene.mode_value()?,
    };
    let signal =
        Signal::parse(&args.signal).with_context(|| format!("unknown signal {:?}", args.signal))?;
    let options = SceneOptions {
        mode,
        model,
        signal,
        seconds: args.seconds,
        rate,
        limiter: args.limiter,
        air_paths: true,
    };
    Ok((scene, options))
}

/// Runs `resound render`: the WAV is streamed block by block (memory does not grow with
/// `--seconds` or `--rate`) into [`OutFile`], which renames it into place when complete.
pub fn run(args: Args) -> anyhow::Result<()> {
    let (scene, mut options) = setup(&args.scene, args.rate)?;
    options.air_paths = !args.no_air_paths;
    let mode = options.mode;
    let format = if args.format == "s16" {
        WavFormat::S16
    } else {
        WavFormat::F32
    };
    let seconds = args.scene.seconds;
    let frames = scene::frame_count(&options).context("render")?;
    if frames == 0 {
        anyhow::bail!(
            "--seconds {} at {} Hz is shorter than one frame",
            crate::report::num(seconds),
            args.rate
        );
    }
    let out = &args.out;
    let shown = out.display().to_string();
    let mut file = OutFile::create(out)?;
    let to_stdout = file.is_stdout();
    let mut wav = WavStream::new(file.writer(), 2, args.rate, format, frames)
        .with_context(|| format!("output {shown}"))?;
    let show = !args.json && std::io::stderr().is_terminal() && seconds >= PROGRESS_SECONDS;
    let bar = ProgressBar::with_draw_target(
        Some(frames),
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
    crate::interrupt::catch();
    let builder = args.scene.spatial.apply(Engine::builder())?;
    let render = scene::render_to_from(
        &scene,
        &options,
        builder,
        &mut |done, _| bar.set_position(done),
        &mut |block| {
            if crate::interrupt::interrupted() {
                return Err(crate::interrupt::Interrupted(shown.clone()).into());
            }
            wav.write(block).with_context(|| format!("output {shown}"))
        },
    );
    // an interruption is reported as itself, not as a render failure
    let render = match render {
        Err(e) if e.is::<crate::interrupt::Interrupted>() => return Err(e),
        r => r.context("render")?,
    };
    bar.finish_and_clear();
    wav.finish().with_context(|| format!("output {shown}"))?;
    file.commit()?;
    let report = RenderReport {
        scene: &scene,
        render: &render,
        mode,
        signal: &args.scene.signal,
        seconds,
        out: &shown,
        format: &args.format,
    };
    if to_stdout {
        // standard output holds the WAV: the report goes to stderr
        return crate::report::emit_doc_to_stderr(args.json, &report.to_json(), &report);
    }
    crate::report::emit_doc(args.json, &report.to_json(), &report)
}
