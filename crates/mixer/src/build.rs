//! [`build`]: sizes everything once and splits the mixer into its two halves.

use crate::block::ParamBlock;
use crate::error::BuildError;
use crate::handle::MixerHandle;
use crate::renderer::MixerRenderer;
use crate::settings::MixerSettings;
use crate::status::MixerStatus;

/// Builds a mixer: every buffer, ring and voice is allocated here and never again.
///
/// # Errors
/// [`BuildError`] when a setting is out of range.
pub fn build(settings: MixerSettings) -> Result<(MixerHandle, MixerRenderer), BuildError> {
    settings.validate()?;
    let c = settings.capacities;
    let (cmd_tx, cmd_rx) = rtrb::RingBuffer::new(c.commands);
    // Each voice, sound and tap-set slot produces at most one return before the handle may
    // reuse it, so this ring cannot overflow; the renderer still keeps an overflow list.
    let return_capacity = c.voices + c.sounds + c.tap_sets + 8;
    let (ret_tx, ret_rx) = rtrb::RingBuffer::new(return_capacity);
    let block = ParamBlock::new(c.voices, c.tap_sets);
    let (params_in, params_out) = triple_buffer::triple_buffer(&block);
    let (status_in, status_out) = triple_buffer::triple_buffer(&MixerStatus::default());
    let renderer = MixerRenderer::new(
        cmd_rx,
        ret_tx,
        return_capacity,
        params_out,
        status_in,
        &settings,
    );
    let handle = MixerHandle::new(
        cmd_tx,
        ret_rx,
        params_in,
        status_out,
        block,
        c.sounds,
        settings.sample_rate,
    );
    Ok((handle, renderer))
}
