//! What the host describes: a [`Source`] to play and the [`Listener`], with their validation.
//!
//! Positions are voxel-world coordinates (acoustics-core's axes: 1 block = 1 m, **Y up**).
//! Asheron's Call positions are converted by the terrain module's one mapping, not here.

use crate::playback::{StartTime, Track, Tween, check_rate, check_tween};
use glam::DVec3;
use resound_acoustics::world::store::WORLD_LIMIT;

use crate::error::{InputError, Problem};

/// Largest accepted coordinate magnitude (the voxel world's limit less a margin for the
/// 9-path offsets and echo images).
pub const MAX_COORDINATE: f64 = WORLD_LIMIT as f64 - 1024.0;
/// Largest accepted volume (the mixer's gain limit).
pub const MAX_VOLUME: f32 = resound_mixer::MAX_GAIN;
/// Largest accepted range (the mixer's distance limit).
pub const MAX_RANGE: f32 = resound_mixer::MAX_DISTANCE;
/// Largest event power accepted (spec §3.3 only asks whether it is ≥ 2; a host passing more
/// than this has a unit or a bug, and is told so).
pub const MAX_POWER: f32 = 1.0e6;

/// One sound to play.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Source {
    /// Position (voxel world; for a `relative` source, an offset in the listener's frame:
    /// x right, y up, −z forward).
    pub position: DVec3,
    /// Linear volume, 0..=[`MAX_VOLUME`].
    pub volume: f32,
    /// Linear range in blocks, > 0: `distance_gain(d) = clamp(1 − d/range, 0, 1)`.
    pub range: f32,
    /// Loop until stopped.
    pub looping: bool,
    /// Placed relative to the listener (UI, music): no acoustics, no reverb.
    pub relative: bool,
    /// An impulsive event (shot, explosion): its work jumps the queue.
    pub impulsive: bool,
    /// Event power (≥ 0): impulsive events with power ≥ 2 within 400 blocks get the Full class.
    pub power: f32,
    /// Event id: voices with the same id are layers of one event and share one acoustic
    /// result (one echo set). `None`: the voice is its own event.
    pub event: Option<u64>,
    /// When the first sample sounds (to the frame, on [`crate::Engine::clock`]).
    pub start: StartTime,
    /// Playback rate: 2 = an octave up and twice as fast (0..=[`crate::MAX_RATE`]).
    pub rate: f64,
    /// The sub-mix track the voice follows.
    pub track: Track,
    /// Fade in from silence to `volume` over this tween ([`Tween::IMMEDIATE`]: none).
    pub fade_in: Tween,
    /// The direct sound arrives `path / 343` s after the voice starts and follows the source
    /// and the listener as they move (default on). Only in modes `reflect` and `full`; never
    /// for a `relative` source nor under [`crate::VoicePolicy::Retail16`].
    pub propagation: bool,
    /// How much the propagation delay follows motion, 0..=1: 1 (default) is physical (the
    /// pitch shifts as Doppler's); 0 keeps the delay the voice started with (no pitch change;
    /// a teleport still moves it).
    pub doppler: f32,
}

impl Default for Source {
    fn default() -> Self {
        Self {
            position: DVec3::ZERO,
            volume: 1.0,
            range: 256.0,
            looping: false,
            relative: false,
            impulsive: false,
            power: 0.0,
            event: None,
            start: StartTime::Now,
            rate: 1.0,
            track: Track::MAIN,
            fade_in: Tween::IMMEDIATE,
            propagation: true,
            doppler: 1.0,
        }
    }
}

/// A Doppler factor: finite, 0..=1.
pub(crate) fn check_doppler(doppler: f32) -> Result<(), InputError> {
    if !doppler.is_finite() {
        return Err(InputError::new("doppler", Problem::NotFinite));
    }
    if doppler < 0.0 {
        return Err(InputError::new("doppler", Problem::Negative));
    }
    if doppler > 1.0 {
        return Err(InputError::new("doppler", Problem::TooLarge));
    }
    Ok(())
}

pub(crate) fn check_position(field: &'static str, p: DVec3) -> Result<(), InputError> {
    if !p.is_finite() {
        return Err(InputError::new(field, Problem::NotFinite));
    }
    if p.abs().max_element() >= MAX_COORDINATE {
        return Err(InputError::new(field, Problem::TooLarge));
    }
    Ok(())
}

pub(crate) fn check_volume(v: f32) -> Result<(), InputError> {
    if !v.is_finite() {
        return Err(InputError::new("volume", Problem::NotFinite));
    }
    if v < 0.0 {
        return Err(InputError::new("volume", Problem::Negative));
    }
    if v > MAX_VOLUME {
        return Err(InputError::new("volume", Problem::TooLarge));
    }
    Ok(())
}

pub(crate) fn check_range(r: f32) -> Result<(), InputError> {
    if !r.is_finite() {
        return Err(InputError::new("range", Problem::NotFinite));
    }
    if r <= 0.0 {
        return Err(InputError::new("range", Problem::NotPositive));
    }
    if r > MAX_RANGE {
        return Err(InputError::new("range", Problem::TooLarge));
    }
    Ok(())
}

impl Source {
    /// Checks every field: positions finite and inside the world, volume finite and
    /// 0..=[`MAX_VOLUME`], range finite and positive, power finite and 0..=[`MAX_POWER`].
    ///
    /// # Errors
    /// The first offending field.
    pub fn validate(&self) -> Result<(), InputError> {
        check_position("position", self.position)?;
        check_volume(self.volume)?;
        check_range(self.range)?;
        if !self.power.is_finite() {
            return Err(InputError::new("power", Problem::NotFinite));
        }
        if self.power < 0.0 {
            return Err(InputError::new("power", Problem::Negative));
        }
        if self.power > MAX_POWER {
            return Err(InputError::new("power", Problem::TooLarge));
        }
        check_rate(self.rate)?;
        check_tween(self.fade_in)?;
        check_doppler(self.doppler)?;
        if let StartTime::At(t) = self.start
            && !t.is_finite()
        {
            return Err(InputError::new("start", Problem::NotFinite));
        }
        Ok(())
    }
}

/// The listener's orientation: unit `forward` and `up` (need not be exactly orthogonal).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Orientation {
    /// Where the listener looks.
    pub forward: DVec3,
    /// The listener's up.
    pub up: DVec3,
}

impl Default for Orientation {
    /// Looking down −z with y up (so +x is to the right).
    fn default() -> Self {
        Self {
            forward: DVec3::NEG_Z,
            up: DVec3::Y,
        }
    }
}

impl Orientation {
    /// Looking along `forward` (horizontal part used for yaw) with y up.
    #[must_use]
    pub fn looking(forward: DVec3) -> Self {
        Self {
            forward,
            up: DVec3::Y,
        }
    }

    /// The listener's right: `forward × up`, normalised.
    #[must_use]
    pub fn right(&self) -> DVec3 {
        self.forward.cross(self.up).normalize_or_zero()
    }

    /// Checks both vectors are finite, non-zero and not parallel.
    ///
    /// # Errors
    /// [`InputError`] naming `orientation`.
    pub fn validate(&self) -> Result<(), InputError> {
        if !self.forward.is_finite() || !self.up.is_finite() {
            return Err(InputError::new("orientation", Problem::NotFinite));
        }
        if self.forward.length_squared() < 1e-12
            || self.up.length_squared() < 1e-12
            || self.right() == DVec3::ZERO
        {
            return Err(InputError::new("orientation", Problem::Degenerate));
        }
        Ok(())
    }
}

/// The listener (the camera).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Listener {
    /// Position (voxel world).
    pub position: DVec3,
    /// Orientation.
    pub orientation: Orientation,
}
