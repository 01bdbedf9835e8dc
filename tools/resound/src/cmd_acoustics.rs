//! `resound acoustics`.

/// Arguments of `resound acoustics`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `resound acoustics`.
pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("`resound acoustics` is not built yet")
}
