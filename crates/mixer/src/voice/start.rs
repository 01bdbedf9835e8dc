//! How a voice starts: [`StartAt`] (the frame and the game's controls) and the step at a
//! playback rate.

use crate::command::StartControls;

/// When a voice starts: renderer frame `frame` (now if it has passed), seen at frame `now`,
/// with its controls.
#[derive(Debug, Clone, Copy)]
pub(crate) struct StartAt {
    pub now: u64,
    pub frame: u64,
    pub controls: StartControls,
}

#[cfg(test)]
impl StartAt {
    /// At once, with the default controls.
    pub(crate) fn immediate() -> Self {
        Self {
            now: 0,
            frame: 0,
            controls: StartControls {
                gain: 1.0,
                rate: 1.0,
                track: 0,
                stereo: false,
            },
        }
    }
}

/// The fixed-point step at playback rate `rate`.
pub(super) fn scaled_step(base: u64, rate: f32) -> u64 {
    if rate == 1.0 {
        return base;
    }
    (base as f64 * f64::from(rate.max(0.0))).round() as u64
}

/// The read step of a grid segment: the step at `rate` less the delay's change per frame
/// (never negative).
pub(super) fn run_step(base: u64, rate: f32, delta: i64) -> u64 {
    let s = scaled_step(base, rate);
    if delta >= 0 {
        s.saturating_sub(delta as u64)
    } else {
        s.saturating_add(delta.unsigned_abs())
    }
}
