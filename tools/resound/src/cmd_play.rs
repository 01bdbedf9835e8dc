//! `resound play`: the scene and signal of `resound render`, played live through the engine
//! on an output device, with a one-line status (voices, acoustic cost, xruns). Stops once the
//! device has taken the signal's frames (bounded by frames, not wall time). No device: exit
//! code 3 and one line on stderr ([`NoDevice`]).

use std::io::{IsTerminal, Write as _};
use std::time::{Duration, Instant};

use anyhow::Context;
use resound_engine::device::DeviceError;
use resound_engine::{Engine, Output};
use resound_studio::describe;
use resound_studio::scene_render as scene;

use crate::cmd_render::{SceneArgs, setup};
use resound_engine::advanced::acoustics::scene::mode_name;

/// Arguments of `resound play`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    scene: SceneArgs,
    /// Output device (name or id as `resound devices` lists it; default: the default device).
    #[arg(long)]
    device: Option<String>,
    /// Sample rate in Hz (default: the device's preferred rate).
    #[arg(long)]
    rate: Option<u32>,
    /// Print one JSON document at the end instead of status lines.
    #[arg(long)]
    json: bool,
}

/// No device could be opened: `main` prints [`DeviceError::play_line`] and exits with 3.
#[derive(Debug, thiserror::Error)]
#[error("{}", .0.play_line())]
pub struct NoDevice(DeviceError);

/// Runs `resound play`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let (scene, options) = setup(&args.scene, args.rate.unwrap_or(48_000))?;
    let output = Output::Device {
        name: args.device.clone(),
        sample_rate: args.rate,
        buffer_frames: None,
    };
    let builder = args.scene.spatial.apply(Engine::builder().output(output))?;
    let mut p = scene::start_live(&scene, &options, builder).map_err(|e| match e.device() {
        Some(d) => anyhow::Error::new(NoDevice(d.clone())),
        None => anyhow::Error::new(e).context("play"),
    })?;
    let rate = p.engine.sample_rate();
    let total = (args.scene.seconds * f64::from(rate)).round() as u64;
    let terminal = !args.json && std::io::stdout().is_terminal();
    let mut out = std::io::stdout().lock();
    let (mut next_line, mut last) = (0u64, Instant::now());
    let status = loop {
        std::thread::sleep(Duration::from_millis(5));
        let now = Instant::now();
        let dt = now.duration_since(last).as_secs_f64();
        last = now;
        p.engine.update(dt).context("update")?;
        let tick = p.engine.tick(); // the scene's timed boxes, at the tick reached
        p.advance_world(&scene, tick).context("world")?;
        let s = p.engine.status();
        // Frames the device took, plus any rendered into nothing while it was lost.
        let done = s
            .device
            .as_ref()
            .map_or(total, |d| d.frames + d.discarded_frames);
        if done >= total {
            break s;
        }
        if terminal {
            let _ = write!(out, "\r\x1b[2K{}", s.live_line(done, rate));
            let _ = out.flush();
        } else if !args.json && done >= next_line {
            let _ = writeln!(out, "{}", s.live_line(done, rate));
            next_line = done + u64::from(rate);
        }
    };
    drop(p);
    let text = if args.json {
        let doc = serde_json::json!({
            "scene": scene.name, "mode": mode_name(options.mode), "signal": args.scene.signal,
            "duration_s": args.scene.seconds, "rate_hz": rate, "frames": total,
            "device": status.device.as_ref().map(describe::device_status_json), "status": describe::status_json(&status),
        });
        crate::report::json_text(&doc)?
    } else {
        let clear = if terminal { "\r\x1b[2K" } else { "" };
        format!("{clear}{}\n", status.live_line(total, rate))
    };
    drop(out);
    crate::report::emit(&text)
}
