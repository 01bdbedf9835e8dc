//! Plays a deterministic two-voice mix through the default output device for a fixed number
//! of frames (`tests/it/device_capture.rs` captures it with an ALSA `file` PCM and compares it
//! with an offline render).
//!
//! `device_capture FRAMES [--rate HZ] [--format f32|i16|u16] [--buffer FRAMES]`
//!
//! Prints `rate channels format` on the first stdout line once the device is resolved, the
//! final status on the second, `lost N reopens N attempts N` on the third. Stops once the callback has delivered FRAMES frames (bounded
//! by frames, not wall time; a 60-second safety limit exits 2). A device error prints the
//! `resound play` line on stderr and exits 3.

#![allow(clippy::unwrap_used)]

mod scene;

use std::process::ExitCode;
use std::time::{Duration, Instant};

use resound_engine::device::{DeviceConfig, DeviceOutput, SampleFormat, resolve};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(frames) = args.first().and_then(|a| a.parse::<u64>().ok()) else {
        eprintln!("usage: device_capture FRAMES [--rate HZ] [--format f32|i16|u16] [--buffer N]");
        return ExitCode::from(2);
    };
    let mut config = DeviceConfig::default();
    let mut it = args.iter().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().map(String::as_str).unwrap_or("");
        match flag.as_str() {
            "--rate" => config.sample_rate = value.parse().ok(),
            "--buffer" => config.buffer_frames = value.parse().ok(),
            "--format" => config.sample_format = SampleFormat::from_name(value),
            _ => {
                eprintln!("unknown flag {flag}");
                return ExitCode::from(2);
            }
        }
    }
    let device = match resolve(&config) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{}", e.play_line());
            return ExitCode::from(3);
        }
    };
    println!(
        "{} {} {}",
        device.sample_rate, device.channels, device.format
    );
    let (_handle, renderer) = match scene::mixer(device.sample_rate) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("mixer: {e}");
            return ExitCode::from(2);
        }
    };
    let mut out = match DeviceOutput::open(device, renderer) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{}", e.play_line());
            return ExitCode::from(3);
        }
    };
    let start = Instant::now();
    loop {
        out.poll(Instant::now());
        let status = out.status();
        if status.frames >= frames {
            break;
        }
        if start.elapsed() > Duration::from_secs(60) {
            eprintln!("timed out: {status}");
            return ExitCode::from(2);
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    let status = out.status();
    drop(out.close());
    println!("{status}");
    println!(
        "lost {} reopens {} attempts {}",
        status.lost, status.reopens, status.reopen_attempts
    );
    ExitCode::SUCCESS
}
