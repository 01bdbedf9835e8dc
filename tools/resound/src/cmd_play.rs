//! `resound play`: the scene and signal of `resound render`, played live through the engine
//! on an output device, with a one-line status (voices, acoustic cost, xruns). Stops once the
//! device has taken the signal's frames (bounded by frames, not wall time). No device: exit
//! code 3 and one line on stderr.

use std::io::{IsTerminal, Write as _};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context;
use resound_engine::scene::{self, Prepared};
use resound_engine::{Engine, Output, Status};

use crate::cmd_render::{SceneArgs, mode_name, setup, status_json};

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

/// Runs `resound play`; exit code 3 when no device can be opened.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (scene, options) = setup(&args.scene, args.rate.unwrap_or(48_000))?;
    let output = Output::Device {
        name: args.device.clone(),
        sample_rate: args.rate,
        buffer_frames: None,
    };
    let mut p = match scene::start_live(&scene, &options, Engine::builder().output(output)) {
        Ok(p) => p,
        Err(e) => match e.device() {
            Some(d) => {
                eprintln!("{}", d.play_line());
                return Ok(ExitCode::from(3));
            }
            None => return Err(e).context("play"),
        },
    };
    let rate = p.engine.sample_rate();
    let total = (args.scene.seconds * f64::from(rate)).round() as u64;
    let terminal = !args.json && std::io::stdout().is_terminal();
    let mut out = std::io::stdout().lock();
    let mut next_line = 0u64;
    let mut last = Instant::now();
    let status = loop {
        std::thread::sleep(Duration::from_millis(5));
        let now = Instant::now();
        p.engine
            .update(now.duration_since(last).as_secs_f64())
            .context("update")?;
        last = now;
        advance(&mut p, &scene)?;
        let s = p.engine.status();
        let done = s
            .device
            .as_ref()
            .map_or(total, |d| d.frames + d.discarded_frames);
        if done >= total {
            break s;
        }
        if terminal {
            // Redrawn in place on a terminal.
            let _ = write!(out, "\r\x1b[2K{}", line(&s, done, rate));
            let _ = out.flush();
        } else if !args.json && done >= next_line {
            let _ = writeln!(out, "{}", line(&s, done, rate));
            next_line = done + u64::from(rate);
        }
    };
    let text = if args.json {
        let doc = serde_json::json!({
            "scene": scene.name,
            "mode": mode_name(options.mode),
            "signal": args.scene.signal,
            "seconds": args.scene.seconds,
            "rate": rate,
            "frames": total,
            "voices": p.voices,
            "device": status.device.as_ref().map(device_json),
            "status": status_json(&status),
        });
        format!("{}\n", serde_json::to_string_pretty(&doc)?)
    } else {
        let end = if terminal { "\r\x1b[2K" } else { "" };
        format!("{end}{}\n", line(&status, total, rate))
    };
    drop(p);
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        r => r.context("stdout").map(|()| ExitCode::SUCCESS),
    }
}

/// Applies the scene's timed boxes at the ticks the engine has reached.
fn advance(
    p: &mut Prepared,
    scene: &resound_engine::acoustics::scene::Scene,
) -> anyhow::Result<()> {
    let tick = p.engine.tick();
    p.advance_world(scene, tick).context("world")
}

/// The one status line: time, voices, acoustic cost, device and xruns.
fn line(s: &Status, frames: u64, rate: u32) -> String {
    let dev = s.device.as_ref();
    format!(
        "{:6.2} s  voices {}  cells/tick {}  worker {:.2} ms  {}  xruns {}  late {}  load {:.1} %{}",
        frames as f64 / f64::from(rate),
        s.live_voices,
        s.last_tick_occlusion_cells + s.last_tick_echo_cells,
        s.last_tick_worker_time.as_secs_f64() * 1e3,
        dev.map_or_else(String::new, |d| format!(
            "{} {} Hz {}",
            d.device, d.sample_rate, d.format
        )),
        s.xruns,
        dev.map_or(0, |d| d.late),
        dev.map_or(0.0, |d| 100.0 * d.load),
        dev.and_then(|d| d.last_error.as_deref())
            .map_or_else(String::new, |e| format!("  ({e})")),
    )
}

fn device_json(d: &resound_engine::device::DeviceStatus) -> serde_json::Value {
    serde_json::json!({
        "host": d.host, "device": d.device, "sample_rate": d.sample_rate, "channels": d.channels,
        "format": d.format.name(), "buffer_frames": d.buffer_frames, "callbacks": d.callbacks,
        "frames": d.frames, "xruns": d.xruns, "device_xruns": d.device_xruns, "late": d.late,
        "max_callback_us": d.max_callback_us, "load": d.load, "lost": d.lost,
        "reopens": d.reopens, "reopen_attempts": d.reopen_attempts,
        "discarded_frames": d.discarded_frames, "last_error": d.last_error,
    })
}
