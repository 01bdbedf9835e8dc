//! `resound demo`: the built-in tour (`resound_engine::tour`) rendered to `OUT/demo.wav` and
//! drawn to `OUT/demo.png`, then played on the sound card when one works.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use resound_engine::acoustics::scene::parse_mode;
use resound_engine::device::{DeviceConfig, DeviceOutput, resolve};
use resound_engine::tour::{self, Playback, TourSettings};
use resound_engine::wav::{WavFormat, write_wav};

use crate::cmd_acoustics::ModelName;

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
    #[arg(long, default_value_t = 75.0)]
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
}

/// Runs `resound demo`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let model = match args.model {
        ModelName::Own => resound_engine::Model::default(),
        ModelName::Spr => crate::cmd_render::spr_model()?,
    };
    let mode = parse_mode(&args.mode).context("--mode")?;
    let settings = TourSettings { seconds: args.seconds, seed: args.seed, mode, model, retail: args.retail, ..TourSettings::default() };
    let temp = tempfile::tempdir().context("creating a temporary folder")?;
    let dats = match &args.dat_dir {
        Some(d) => d.clone(),
        None => {
            let world = resound_fixture::write_world();
            std::fs::write(temp.path().join("client_portal.dat"), &world.portal)?;
            std::fs::write(temp.path().join("client_cell_1.dat"), &world.cell)?;
            temp.path().to_path_buf()
        }
    };
    let show = std::io::stderr().is_terminal();
    let bar = ProgressBar::with_draw_target(Some((args.seconds / tour::TICK).round() as u64), if show { ProgressDrawTarget::stderr() } else { ProgressDrawTarget::hidden() });
    bar.set_style(ProgressStyle::with_template("rendering {bar:30} {pos}/{len} ticks {msg}").unwrap_or_else(|_| ProgressStyle::default_bar()));
    let started = std::time::Instant::now();
    let report = tour::run(&dats, &settings, &mut |s| {
        bar.inc(1);
        bar.set_message(format!("{:<16} {:>2} voices {:>6} cells", s.stage, s.voices, s.cells));
    })
    .context("demo tour")?;
    bar.finish_and_clear();
    let took = started.elapsed().as_secs_f64();
    std::fs::create_dir_all(&args.out).with_context(|| format!("creating {}", args.out.display()))?;
    let wav = args.out.join("demo.wav");
    let png = args.out.join("demo.png");
    write_wav(&wav, &report.samples, 2, report.rate, WavFormat::F32).with_context(|| format!("writing {}", wav.display()))?;
    tour::plot::draw(&png, &report).with_context(|| format!("writing {}", png.display()))?;
    let st = &report.status;
    let what = if args.retail { "retail (16 voices, no acoustics)".to_owned() } else { format!("modern, acoustics {}", args.mode) };
    if args.json {
        let doc = serde_json::json!({
            "output": if args.retail { "retail" } else { "modern" }, "mode": if args.retail { "off" } else { args.mode.as_str() },
            "seed": args.seed, "seconds": report.seconds(), "rate": report.rate, "render_seconds": took,
            "peak": st.peak, "limiter_engagements": st.limiter_engagements, "max_live_voices": report.max_voices,
            "ambient_events": report.ambient.len(), "ambient_plays": report.ambient_started, "ambient_dropped": report.ambient_dropped, "events_fired": report.fired.len(),
            "dropped_voices": st.dropped_voices, "cells": st.cells, "wav": wav.display().to_string(), "png": png.display().to_string(),
        });
        println!("{}", serde_json::to_string_pretty(&doc)?);
        return Ok(());
    }
    println!("demo tour: {what}, seed {}, {:.1} s rendered in {took:.1} s ({:.0}x real time)", args.seed, report.seconds(), report.seconds() / took.max(1e-9));
    println!("  peak {:.3} ({:.1} dBFS), limiter engaged {} times, live voices max {}", st.peak, 20.0 * st.peak.max(1e-9).log10(), st.limiter_engagements, report.max_voices);
    println!("  ambient plays {} (dropped {}), events fired {}, voices dropped {}, cells traced {}", report.ambient_started, report.ambient_dropped, report.fired.len(), st.dropped_voices, st.cells);
    println!("  wrote {}\n  wrote {}", wav.display(), png.display());
    if args.no_play {
        return Ok(());
    }
    let seconds = report.seconds();
    play(report.samples.into(), report.rate, seconds, show)
}

fn play(samples: Arc<[f32]>, rate: u32, seconds: f64, show: bool) -> anyhow::Result<()> {
    let config = DeviceConfig { sample_rate: Some(rate), ..DeviceConfig::default() };
    let device = match resolve(&config) {
        Ok(d) if d.sample_rate == rate => d,
        Ok(d) => { println!("no live playback: {} runs at {} Hz, not {rate} Hz (the files are written)", d.name, d.sample_rate); return Ok(()); }
        Err(e) => { println!("no live playback: {} (the files are written)", crate::report::one_line(&anyhow::Error::new(e))); return Ok(()); }
    };
    let (source, at) = Playback::new(samples);
    let name = device.name.clone();
    let mut output = DeviceOutput::open(device, source).context("opening the sound device")?;
    let total = (seconds * f64::from(rate)) as u64;
    let bar = ProgressBar::with_draw_target(Some(total), if show { ProgressDrawTarget::stderr() } else { ProgressDrawTarget::hidden() });
    bar.set_style(ProgressStyle::with_template("playing on {msg} {bar:30} {elapsed}").unwrap_or_else(|_| ProgressStyle::default_bar()));
    bar.set_message(name);
    while (Playback::position(&at) as u64) < total {
        output.poll(std::time::Instant::now());
        bar.set_position(Playback::position(&at) as u64);
        std::thread::sleep(Duration::from_millis(50));
    }
    bar.finish_and_clear();
    println!("played live: {}", output.status());
    Ok(())
}
