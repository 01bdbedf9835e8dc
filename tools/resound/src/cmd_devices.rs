//! `resound devices [--json]`: the output devices and their default configurations
//! (`resound_engine::device::DeviceListing` says how each is shown). ALSA's own complaints are
//! kept off the terminal by the engine's device module.

use resound_engine::device::{DeviceListing, list_devices};

/// Arguments of `resound devices`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
}

/// Lists the devices.
pub fn run(args: Args) -> anyhow::Result<()> {
    let listing = DeviceListing(list_devices()?);
    crate::report::emit_doc(
        args.json,
        &resound_studio::describe::device_listing_json(&listing),
        &listing,
    )
}
