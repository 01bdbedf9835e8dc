//! `resound fixture`.

/// Arguments of `resound fixture`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `resound fixture`.
pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("`resound fixture` is not built yet")
}
