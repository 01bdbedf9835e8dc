//! [`AudioSource`]: what the device callback renders.

use resound_mixer::MixerRenderer;

/// Something the audio callback renders: interleaved stereo `f32`, full scale ±1.
///
/// `render` runs on the audio thread: it must not allocate, lock, wait or log, and it must
/// fill all of `out` (whose length is even) whatever its size.
pub trait AudioSource: Send + 'static {
    /// Fills `out` (interleaved stereo frames) with the next samples.
    fn render(&mut self, out: &mut [f32]);
}

impl AudioSource for MixerRenderer {
    fn render(&mut self, out: &mut [f32]) {
        MixerRenderer::render(self, out);
    }
}
