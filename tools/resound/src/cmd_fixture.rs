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
    crate::report::emit_doc(json, &written, &written)
}
