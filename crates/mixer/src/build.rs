//! [`build`]: sizes everything once and splits the mixer into its two halves.

use std::sync::Arc;

use resound_dsp::hrtf::HrtfBank;

use crate::binaural::Binaural;
use crate::block::ParamBlock;
use crate::error::BuildError;
use crate::handle::MixerHandle;
use crate::renderer::MixerRenderer;
use crate::settings::{MixerSettings, Spatial};
use crate::status::MixerStatus;

/// Builds a mixer: every buffer, ring and voice is allocated here and never again.
///
/// # Errors
/// [`BuildError`] when a setting is out of range.
pub fn build(settings: MixerSettings) -> Result<(MixerHandle, MixerRenderer), BuildError> {
    if settings.spatial == Spatial::Binaural {
        return Err(BuildError::NoHrtf);
    }
    build_inner(settings, None)
}

/// [`build`] with an HRIR bank for [`Spatial::Binaural`] output (`settings.spatial`); the
/// bank must be at the mix rate. Under [`Spatial::Pan`] the bank is not used.
///
/// # Errors
/// [`BuildError`] when a setting is out of range or the bank's rate is not the mix rate.
pub fn build_with_hrtf(
    settings: MixerSettings,
    bank: Arc<HrtfBank>,
) -> Result<(MixerHandle, MixerRenderer), BuildError> {
    let rate = bank.set().sample_rate();
    if (rate - settings.sample_rate as f32).abs() > 0.5 {
        return Err(BuildError::HrtfRate {
            bank: rate,
            mix: settings.sample_rate,
        });
    }
    build_inner(settings, Some(bank))
}

fn build_inner(
    settings: MixerSettings,
    bank: Option<Arc<HrtfBank>>,
) -> Result<(MixerHandle, MixerRenderer), BuildError> {
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
    let mut renderer = renderer;
    if settings.spatial == Spatial::Binaural
        && let Some(bank) = bank
    {
        renderer.set_binaural(Binaural::new(
            &bank,
            settings.binaural_voices,
            (c.voices, c.tap_sets),
            settings.max_block,
        ));
    }
    let handle = MixerHandle::new(
        cmd_tx,
        ret_rx,
        params_in,
        status_out,
        block,
        c.sounds,
        settings.sample_rate,
        settings.resampler,
    );
    Ok((handle, renderer))
}
