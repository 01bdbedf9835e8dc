//! `resound dat`.

/// Arguments of `resound dat`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `resound dat`.
pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("`resound dat` is not built yet")
}
