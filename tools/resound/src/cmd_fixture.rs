//! `resound fixture`: writes the synthetic fixture world.

use std::path::PathBuf;

use anyhow::Context;
use resound_fixture as fixture;

/// Arguments of `resound fixture`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand, Debug)]
enum Command {
    /// Write DIR/client_portal.dat and DIR/client_cell_1.dat (deterministic bytes).
    Write {
        /// Folder to write into (created if missing).
        dir: PathBuf,
        /// Print one JSON document instead of text.
        #[arg(long)]
        json: bool,
    },
}

/// Runs `resound fixture`.
pub fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        Command::Write { dir, json } => write(&dir, json),
    }
}

fn write(dir: &std::path::Path, json: bool) -> anyhow::Result<()> {
    let world = fixture::write_world_with(&fixture::FixtureOptions::default())
        .context("building the fixture world")?;
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut files = Vec::new();
    for (name, bytes) in [
        ("client_portal.dat", &world.portal),
        ("client_cell_1.dat", &world.cell),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, bytes).with_context(|| format!("writing {}", path.display()))?;
        files.push(serde_json::json!({
            "path": path.display().to_string(),
            "size": bytes.len(),
            "fingerprint": format!("{:016x}", fixture::fingerprint(bytes)),
        }));
        if !json {
            println!(
                "wrote {} ({} bytes, fingerprint {:016x})",
                path.display(),
                bytes.len(),
                fixture::fingerprint(bytes)
            );
        }
    }
    let places: Vec<serde_json::Value> = fixture::terrain::PLACES
        .iter()
        .map(|p| {
            let (cell, [x, y, z]) = p.position();
            if !json {
                println!(
                    "  {:<36} cell 0x{cell:08X} at ({x:.1}, {y:.1}, {z:.1})",
                    p.name
                );
            }
            serde_json::json!({ "name": p.name, "cell_id": cell, "x": x, "y": y, "z": z })
        })
        .collect();
    if json {
        let doc = serde_json::json!({
            "places": places,
            "files": files,
            "region_id": fixture::REGION_ID,
            "center_landblock": fixture::CENTER_LANDBLOCK,
            "missing_stb_id": fixture::MISSING_STB_ID,
        });
        println!("{}", serde_json::to_string_pretty(&doc)?);
    }
    Ok(())
}
