//! Build-time settings: sample rate, block size and the fixed capacities.

use resound_dsp::ReverbBusSettings;

use crate::error::BuildError;

/// How many of each resource the mixer can hold; fixed when it is built.
///
/// Nothing grows later: a full capacity makes the handle return a typed error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Capacities {
    /// Voices that can play (or fade out) at the same time.
    pub voices: usize,
    /// Sample buffers that can be loaded at the same time.
    pub sounds: usize,
    /// Voices that can carry an echo tap set at the same time (each set holds up to
    /// [`MAX_TAPS`](crate::MAX_TAPS) taps plus the fading-out taps of the previous set).
    pub tap_sets: usize,
    /// Slots of the game → audio command ring.
    pub commands: usize,
}

impl Default for Capacities {
    fn default() -> Self {
        Self {
            voices: 256,
            sounds: 1024,
            tap_sets: 16,
            commands: 4096,
        }
    }
}

/// How positional voices reach the two output channels.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Spatial {
    /// The equal-power pan between two speakers (the default; what the mixer always did).
    #[default]
    Pan,
    /// Headphones: each positional voice's dry path through head-related impulse responses
    /// for its [`direction`](crate::VoiceParams::direction) (needs an HRIR bank:
    /// [`build_with_hrtf`](crate::build_with_hrtf)). Stereo, relative and retail voices, the
    /// echo taps and the reverb bus stay panned/stereo. Binaural voices are
    /// [`LATENCY_FRAMES`](resound_dsp::hrtf::LATENCY_FRAMES) (128) frames late.
    Binaural,
}

/// How voices and echo taps read (resample) their sounds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Resampler {
    /// Linear interpolation of the sound as loaded (`resound_dsp::interpolate`): the retail
    /// read (`Retail16`), and the default.
    #[default]
    Linear,
    /// The Modern read: each sound is raised once when loaded, on the game thread, to at least
    /// 44.1 kHz (`resound_dsp::oversample`: ×4 for 11.025 kHz, ×2 for 22.05 kHz, as many times
    /// the memory), then read with the 4-point Lagrange kernel (`resound_dsp::cubic`): images of
    /// partials up to 4 kHz of an 11.025 kHz sound ≥ 60 dB down at 48 kHz, rate moving or not.
    Oversampled,
}

/// Default [`MixerSettings::binaural_voices`].
pub const DEFAULT_BINAURAL_VOICES: usize = 64;

/// Everything needed to build a mixer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MixerSettings {
    /// Output sample rate in Hz.
    pub sample_rate: u32,
    /// Largest block (in frames) processed in one piece; longer `render` calls are split.
    pub max_block: usize,
    /// Fixed resource limits.
    pub capacities: Capacities,
    /// Length of the fade applied when a voice is stopped, in seconds (0 = hard stop).
    pub stop_fade_seconds: f32,
    /// The reverb bus (slot decays, gains, pre-delays; [`Default`] = the spec's table).
    pub reverb: ReverbBusSettings,
    /// Run the master peak limiter (on by default; off only for analysis renders).
    pub limiter: bool,
    /// Pan or binaural output.
    pub spatial: Spatial,
    /// Under [`Spatial::Binaural`]: how many voices and echo taps are rendered binaurally at
    /// once (one preallocated renderer each, at most `capacities.voices` plus 12 per tap set);
    /// voices and taps with a direction share them, the loudest keep binaural, the rest are
    /// panned. 0..=[`CAPACITY_LIMIT`].
    pub binaural_voices: usize,
    /// How voices and taps read their sounds (linear by default).
    pub resampler: Resampler,
}

impl Default for MixerSettings {
    fn default() -> Self {
        Self {
            sample_rate: 48_000,
            max_block: 512,
            capacities: Capacities::default(),
            stop_fade_seconds: 0.01,
            reverb: ReverbBusSettings::default(),
            limiter: true,
            spatial: Spatial::Pan,
            binaural_voices: DEFAULT_BINAURAL_VOICES,
            resampler: Resampler::Linear,
        }
    }
}

/// Largest accepted `max_block` (frames).
pub const MAX_BLOCK_LIMIT: usize = 16_384;
/// Largest accepted capacity of any kind.
pub const CAPACITY_LIMIT: usize = 1 << 16;

impl MixerSettings {
    /// Checks every field; the mixer is only built from settings that pass.
    ///
    /// # Errors
    /// A [`BuildError`] naming the first field out of range.
    pub fn validate(&self) -> Result<(), BuildError> {
        if !(8_000..=384_000).contains(&self.sample_rate) {
            return Err(BuildError::SampleRate(self.sample_rate));
        }
        if self.max_block == 0 || self.max_block > MAX_BLOCK_LIMIT {
            return Err(BuildError::MaxBlock(self.max_block));
        }
        let c = &self.capacities;
        for (name, v) in [
            ("voices", c.voices),
            ("sounds", c.sounds),
            ("tap_sets", c.tap_sets),
            ("commands", c.commands),
        ] {
            // A mixer without tap sets is valid (no echoes); every other capacity needs one slot.
            if (v == 0 && name != "tap_sets") || v > CAPACITY_LIMIT {
                return Err(BuildError::Capacity { name, value: v });
            }
        }
        if self.binaural_voices > CAPACITY_LIMIT {
            return Err(BuildError::Capacity {
                name: "binaural_voices",
                value: self.binaural_voices,
            });
        }
        if !self.stop_fade_seconds.is_finite() || !(0.0..=1.0).contains(&self.stop_fade_seconds) {
            return Err(BuildError::StopFade);
        }
        Ok(())
    }
}
