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
    let written = world.write_to(dir).map_err(|(path, e)| {
        anyhow::Error::new(e).context(format!("writing {}", path.display()))
    })?;
    crate::report::emit_doc(json, &schema_doc(serde_json::to_value(&written)?), &written)
}

/// The fixture's report in the CLI's schema: each place's position is an AC position
/// (`{cell_id, origin_m}`), the dats are the files written (`written`).
fn schema_doc(mut doc: serde_json::Value) -> serde_json::Value {
    if let Some(places) = doc.get_mut("places").and_then(|p| p.as_array_mut()) {
        for place in places.iter_mut().filter_map(|p| p.as_object_mut()) {
            let cell = place.remove("cell_id");
            let xyz = ["x", "y", "z"].map(|k| place.remove(k).unwrap_or_default());
            place.insert(
                "position".to_owned(),
                serde_json::json!({ "cell_id": cell, "origin_m": xyz }),
            );
        }
    }
    if let Some(files) = doc.as_object_mut().and_then(|d| d.remove("files")) {
        let mut files = files;
        for file in files.as_array_mut().into_iter().flatten() {
            file["format"] = "dat".into();
        }
        doc["written"] = files;
    }
    doc
}
