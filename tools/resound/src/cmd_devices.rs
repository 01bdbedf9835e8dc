//! `resound devices [--json]`: the output devices and their default configurations.
//!
//! A device that cannot be opened is listed with the reason; when none can (a device that plays
//! nowhere, ALSA's `null`, does not count), one line says so. ALSA's own complaints are kept off
//! the terminal by the engine's device module.

use resound_engine::device::{DeviceInfo, list_devices};

/// Arguments of `resound devices`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
}

/// Lists the devices.
pub fn run(args: Args) -> anyhow::Result<()> {
    let devices = list_devices()?;
    // A device that plays nowhere (ALSA's `null`) opens, but is no output to speak of.
    let usable = devices
        .iter()
        .filter(|d| d.defaults.is_ok() && !d.discards)
        .count();
    if args.json {
        let list: Vec<serde_json::Value> = devices.iter().map(json).collect();
        let doc = serde_json::json!({ "devices": list, "usable": usable });
        println!("{}", serde_json::to_string_pretty(&doc)?);
        return Ok(());
    }
    if usable == 0 {
        let why = devices
            .iter()
            .find(|d| d.is_default)
            .or(devices.first())
            .and_then(|d| {
                d.defaults
                    .as_ref()
                    .err()
                    .map(|e| format!(" ({}: {}: {e})", d.host, d.id))
            })
            .unwrap_or_default();
        println!("no audio output device can be opened{why}");
        return Ok(());
    }
    for d in &devices {
        let mark = if d.is_default { " (default)" } else { "" };
        match &d.defaults {
            Ok(c) => {
                let buf = c
                    .buffer_frames
                    .map(|(lo, hi)| format!(", buffers {lo}..{hi} frames"))
                    .unwrap_or_default();
                println!(
                    "{}{mark}: {}, {} Hz, {} ch, {}{buf}",
                    d.id, d.name, c.sample_rate, c.channels, c.format
                );
            }
            Err(e) => println!("{}{mark}: {}: cannot be opened: {e}", d.id, d.name),
        }
    }
    Ok(())
}

fn json(d: &DeviceInfo) -> serde_json::Value {
    match &d.defaults {
        Ok(c) => serde_json::json!({
            "host": d.host,
            "id": d.id,
            "name": d.name,
            "default": d.is_default,
            "discards": d.discards,
            "sample_rate": c.sample_rate,
            "channels": c.channels,
            "format": c.format,
            "buffer_frames": c.buffer_frames.map(|(lo, hi)| [lo, hi]),
        }),
        Err(e) => serde_json::json!({
            "host": d.host,
            "id": d.id,
            "name": d.name,
            "default": d.is_default,
            "discards": d.discards,
            "error": e,
        }),
    }
}
