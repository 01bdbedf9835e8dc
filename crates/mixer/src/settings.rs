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
        if !self.stop_fade_seconds.is_finite() || !(0.0..=1.0).contains(&self.stop_fade_seconds) {
            return Err(BuildError::StopFade);
        }
        Ok(())
    }
}
