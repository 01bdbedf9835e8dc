//! `resound demo`: the built-in tour (`resound_studio::tour`) rendered to `OUT/demo.wav` and
//! drawn to `OUT/demo.png`, then run again live on the sound card when one works (the engine
//! on the device, `update(dt)` per frame, a one-line status).

use std::io::IsTerminal;
use std::path::PathBuf;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use resound_engine::advanced::acoustics::scene::parse_mode;
use resound_studio::tour::{self, TourSettings};
use resound_studio::wav_write::{WavFormat, WavStream};

use crate::out_file::OutFile;

use crate::cmd_acoustics::ModelName;
use crate::report::emit;

/// Arguments of `resound demo`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Client dats to tour (default: the fixture world, written to a temporary folder).
    #[arg(long)]
    dat_dir: Option<PathBuf>,
    /// Faithful retail output: the 16-voice pool, no acoustics.
    #[arg(long, conflicts_with = "mode")]
    retail: bool,
    /// Acoustics mode.
    #[arg(long, value_parser = ["off", "direct", "reflect", "full"], default_value = "full")]
    mode: String,
    /// Acoustic model.
    #[arg(long, value_enum, default_value = "own")]
    model: ModelName,
    /// Length of the tour in seconds (the walk stretches to fit).
    #[arg(long, default_value_t = 90.0)]
    seconds: f64,
    /// Seed of the ambient runtime.
    #[arg(long, default_value_t = 1)]
    seed: u32,
    /// Output folder for demo.wav and demo.png.
    #[arg(long, default_value = "out/demo")]
    out: PathBuf,
    /// Only write the files; do not play.
    #[arg(long)]
    no_play: bool,
    /// Print one JSON summary instead of text (and do not play).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    spatial: crate::cmd_render::SpatialArgs,
}

fn bar(len: u64, template: &str) -> ProgressBar {
    let show = std::io::stderr().is_terminal();
    let target = if show {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(len), target);
    bar.set_style(
        ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// Runs `resound demo`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let model = args.model.model()?;
    let mode = parse_mode(&args.mode).context("--mode")?;
    let settings = TourSettings {
        seconds: args.seconds,
        seed: args.seed,
        mode,
        model,
        retail: args.retail,
        spatial: args.spatial.spatial()?,
        sofa: args.spatial.sofa(),
        ..TourSettings::default()
    };
    if let Ok(meta) = std::fs::metadata(&args.out)
        && !meta.is_dir()
    {
        anyhow::bail!(
            "--out {} is not a folder (demo writes demo.wav and demo.png into a folder)",
            args.out.display()
        );
    }
    let temp = tempfile::tempdir().context("creating a temporary folder")?;
    // opened once and checked on the handles; the tour opens the links to them
    let opened = args
        .dat_dir
        .as_deref()
        .map(crate::dat_dir::DatDir::open)
        .transpose()?;
    let dats = match &opened {
        Some(d) => d.path().to_path_buf(),
        None => {
            let written = resound_fixture::write_world().write_to(temp.path());
            written.map_err(|(path, e)| anyhow::anyhow!("writing {}: {e}", path.display()))?;
            temp.path().to_path_buf()
        }
    };
    let rendering = bar(
        (args.seconds / tour::TICK).round() as u64,
        "rendering {bar:30} {pos}/{len} ticks {msg}",
    );
    if !tour::SECONDS.contains(&args.seconds) {
        return Err(tour::TourError::Seconds(args.seconds)).context("demo tour");
    }
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("creating {}", args.out.display()))?;
    let (wav, png) = (args.out.join("demo.wav"), args.out.join("demo.png"));
    // Streamed tick by tick into the WAV (renamed into place when complete): memory does not
    // grow with --seconds.
    let mut file = OutFile::create(&wav)?;
    let shown = wav.display().to_string();
    let mut stream = WavStream::new(
        file.writer(),
        2,
        settings.rate,
        WavFormat::F32,
        tour::frames(&settings),
    )
    .with_context(|| format!("writing {shown}"))?;
    let mut meter = tour::measure::Meter::new(&settings).context("demo tour")?;
    let started = std::time::Instant::now();
    let report = tour::run(
        &dats,
        &settings,
        &mut |s| {
            rendering.inc(1);
            rendering.set_message(s.status_line());
        },
        &mut |block| {
            meter.push(block);
            stream.write(block).map_err(std::io::Error::other)
        },
    )
    .context("demo tour")?;
    rendering.finish_and_clear();
    let took = started.elapsed().as_secs_f64();
    let measured = meter.finish(&report);
    stream
        .finish()
        .with_context(|| format!("writing {shown}"))?;
    file.commit()?;
    // The plot is drawn beside its path and renamed into place, as the WAV is.
    let temp = tempfile::Builder::new()
        .prefix(".resound-")
        .suffix(".png")
        .tempfile_in(&args.out)
        .with_context(|| format!("writing {}", png.display()))?;
    tour::plot::draw(temp.path(), &report).with_context(|| format!("writing {}", png.display()))?;
    temp.persist(&png)
        .map_err(|e| anyhow::anyhow!("writing {}: {}", png.display(), e.error))?;
    if args.json {
        let mut doc = report.summary_json(took, &measured);
        doc["written"] = serde_json::json!([
            crate::json_out::written(&wav, "wav-f32"),
            crate::json_out::written(&png, "png"),
        ]);
        return emit(&crate::report::json_text(&doc)?);
    }
    emit(&format!(
        "{}\n  wrote {}\n  wrote {}\n",
        report.summary(took, &measured),
        wav.display(),
        png.display()
    ))?;
    if args.no_play {
        return Ok(());
    }
    // The tour again, live: the engine on the sound card, `update(dt)` once per frame.
    let output = resound_engine::Output::Device {
        name: None,
        sample_rate: None,
        buffer_frames: None,
    };
    let mut live = match tour::live::start(&dats, &settings, output) {
        Ok(live) => live,
        Err(tour::TourError::Build(e)) if device_failed(&e) => {
            // One line on stderr, as `resound play` says it; the files are written: exit 0.
            eprintln!("no live playback: {e} (the files are written)");
            return Ok(());
        }
        Err(e) => return Err(e).context("live tour"),
    };
    let playing = bar(
        (args.seconds * 1000.0).round() as u64,
        "live {bar:30} {elapsed} {msg}",
    );
    // Ctrl-C ends the live run (the files are written already).
    crate::interrupt::catch();
    let started = std::time::Instant::now();
    let mut due = 0.0;
    let summary = tour::live::drive(
        &mut live,
        FRAME_S,
        &mut |_, dt| {
            // The next frame's deadline on the wall clock (the device pulls the samples).
            due += dt;
            let wait = due - started.elapsed().as_secs_f64();
            if wait > 0.0 {
                std::thread::sleep(std::time::Duration::from_secs_f64(wait));
            }
            Ok(!crate::interrupt::interrupted())
        },
        &mut |s| {
            playing.set_position((s.time * 1000.0).round() as u64);
            playing.set_message(s.line());
        },
    )
    .context("live tour")?;
    playing.finish_and_clear();
    let status = live.engine.status();
    emit(&format!(
        "played live: {} frames, {} events, xruns {}\n",
        summary.frames,
        summary.fired.len(),
        status.xruns
    ))
}

/// The game side's frame, seconds (60 frames a second).
const FRAME_S: f64 = 1.0 / 60.0;

/// Whether building the engine failed on its output device (no sound card, say).
fn device_failed(e: &resound_engine::BuildError) -> bool {
    matches!(e, resound_engine::BuildError::Output(_))
}
