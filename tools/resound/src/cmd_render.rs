//! `resound render`: renders a verification scene (spec `acoustics.md` §9) offline through the
//! engine and prints the acoustic parameters it applied (gain, hf, taps with delays, sends,
//! predicted decay) and the engine's status. `--json` prints one object with stable keys.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use anyhow::Context;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use resound_engine::Model;
use resound_engine::acoustics::scene::{Scene, parse_mode};
use resound_studio::describe::RenderReport;
use resound_studio::scene_render::{self as scene, SceneOptions};
use resound_studio::test_signal::Signal;
use resound_studio::wav_write::{WavFormat, write_wav};

use crate::cmd_acoustics::{MAX_SCENE_BYTES, ModelName};

/// Renders at least this long (seconds) show a progress bar on a terminal.
const PROGRESS_SECONDS: f64 = 5.0;

/// The scene and signal arguments `resound render` and `resound play` share.
#[derive(clap::Args, Debug)]
pub struct SceneArgs {
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
    pub signal: String,
    /// Length in seconds.
    #[arg(long, default_value_t = 2.0)]
    pub seconds: f64,
    /// Run the master peak limiter (off by default: renders are for analysis).
    #[arg(long)]
    limiter: bool,
}

/// Arguments of `resound render`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    scene: SceneArgs,
    /// Output sample rate in Hz.
    #[arg(long, default_value_t = 48_000)]
    rate: u32,
    /// Output WAV file (interleaved stereo).
    #[arg(long)]
    out: PathBuf,
    /// WAV sample format.
    #[arg(long, value_parser = ["f32", "s16"], default_value = "f32")]
    format: String,
    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
}

fn load_scene(arg: &str, model: &Model) -> anyhow::Result<Scene> {
    let path = Path::new(arg);
    let text = match scene::builtin(arg) {
        Some(text) if !path.exists() => text.to_owned(),
        _ => resound_studio::capped_read::read_text_capped(path, MAX_SCENE_BYTES, "scene file")?,
    };
    scene::parse(&text, model).with_context(|| format!("scene {arg}"))
}

/// The scene and the render options of `args` at `rate` (a device engine plays at its own).
pub fn setup(args: &SceneArgs, rate: u32) -> anyhow::Result<(Scene, SceneOptions)> {
    let model = args.model.model()?;
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
    };
    Ok((scene, options))
}

/// Runs `resound render`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let (scene, options) = setup(&args.scene, args.rate)?;
    let mode = options.mode;
    let format = if args.format == "s16" {
        WavFormat::S16
    } else {
        WavFormat::F32
    };
    let seconds = args.scene.seconds;
    let show = !args.json && std::io::stdout().is_terminal() && seconds >= PROGRESS_SECONDS;
    let bar = ProgressBar::with_draw_target(
        Some((seconds * f64::from(args.rate)).max(0.0) as u64),
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
    let out = args.out.display().to_string();
    let report = RenderReport {
        scene: &scene,
        render: &render,
        mode,
        signal: &args.scene.signal,
        seconds,
        out: &out,
        format: &args.format,
    };
    crate::report::emit_doc(args.json, &report.to_json(), &report)
}
