//! `resound ambient`.

/// Arguments of `resound ambient`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `resound ambient`.
pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("`resound ambient` is not built yet")
}
