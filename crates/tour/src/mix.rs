//! The tour's mix: the scripted events on a track of their own, and the beds (the ambient
//! runtime's voices, on the main track) ridden by two hands:
//!
//! - a **duck** around each event: lowered a little before it fires, held down while it and
//!   its echoes or reverb ring, then brought back (the scripted times are known ahead, so the
//!   duck is in place before an event, as a mixer would ride it);
//! - a **leveller** between events: the rendered mix handed back ([`Mixing::heard`]) is
//!   measured each tick and the beds' level walks toward [`TARGET_DB`] (slowly up, quickly
//!   down, at once down on a peak), so a quiet seed and a loud one land at a similar loudness.
//!   Its arithmetic is IEEE basic operations on the samples in order, so its steps are the same
//!   on every platform. Without the mix handed back (live on a device) the beds stay at
//!   [`BEDS_DB`].

use resound_engine::{Easing, Engine, Track, Tween, Volume};

use crate::TICK;
use crate::error::Error;
use crate::script::{EVENTS, EventSound};

/// Name of the events' track.
pub const EVENTS_TRACK: &str = "tour events";
/// The beds' level at the start, dB (the main track's volume).
pub const BEDS_DB: f32 = 2.0;
/// How far the leveller may take the beds from [`BEDS_DB`], dB (either way).
pub const LEVEL_RANGE_DB: f32 = 14.0;
/// The leveller's step, dB.
pub const LEVEL_STEP_DB: f32 = 0.5;
/// The mix's smoothed RMS the leveller aims at between events, dBFS.
pub const TARGET_DB: f32 = -21.5;
/// A tick whose peak passes this takes the beds down at once by [`PEAK_CUT_DB`].
pub const PEAK_GUARD: f32 = 0.5;
/// How far a peak takes the beds down, dB.
pub const PEAK_CUT_DB: f32 = 3.0;
/// The leveller raises the beds only while the peaks it remembers, raised by a step, stay
/// under this (a loud bed heard once keeps the beds from coming up under the next one).
pub const PEAK_ROOM: f32 = 0.4;
/// How much of its remembered peak the leveller keeps per tick (it halves in about 9 s).
pub const PEAK_MEMORY: f32 = 0.996;
/// One leveller step as an amplitude ratio (10^(0.5/20)).
const STEP_RATIO: f32 = 1.059_254;
/// The beds under an event, dB below their level.
pub const DUCK_DEPTH_DB: f32 = -32.0;
/// Seconds before an event its duck starts.
pub const DUCK_LEAD_S: f64 = 1.2;
/// Seconds the beds take to go down.
pub const DUCK_DOWN_S: f32 = 0.3;
/// Seconds after an event the beds stay down (its echoes, its reverb ringing).
pub const DUCK_HOLD_S: f64 = 1.5;
/// Seconds the beds take to come back.
pub const DUCK_UP_S: f32 = 1.0;

/// `10^(db/10)` for the leveller's thresholds (a power ratio), by squaring `10^(db/20)`
/// computed once from exact decimal constants: no platform maths on the way.
const fn power(amplitude: f32) -> f32 {
    amplitude * amplitude
}

/// The target's mean square ([`TARGET_DB`] RMS: amplitude 10^(−21.5/20)).
const TARGET_MS: f32 = power(0.084_139_51);
/// The leveller's dead band: ±2 dB of power (10^0.2 = 1.584 893).
const BAND: f32 = 1.584_893;

/// A level in dB as an amplitude by `libm` (the engine's own dB conversion uses the
/// platform's `powf`, whose last bit may differ between native and wasm32 builds).
fn volume(db: f32) -> Volume {
    Volume::Amplitude(libm::powf(10.0, db / 20.0))
}

/// The beds' duck and leveller, stepped with the tour.
#[derive(Debug, Clone, Copy)]
pub struct Mixing {
    /// Whether the beds are down now.
    down: bool,
    /// The leveller's offset from [`BEDS_DB`], in steps of [`LEVEL_STEP_DB`].
    steps: i32,
    /// The smoothed mean square of the mix between events (`None`: nothing heard yet).
    power: Option<f32>,
    /// Ticks heard (the leveller goes up every fourth).
    ticks: u32,
    /// The level last asked of the main track, dB.
    applied: f32,
    /// The loudest peak heard between events, fading by [`PEAK_MEMORY`] per tick.
    remembered: f32,
}

impl Mixing {
    /// The beds at their level; the events' track added.
    ///
    /// # Errors
    /// [`Error::Track`].
    pub fn start(engine: &mut Engine) -> Result<(Self, Track), Error> {
        let track = engine.add_track(EVENTS_TRACK)?;
        engine.set_track_volume(Track::MAIN, volume(BEDS_DB), Tween::IMMEDIATE)?;
        Ok((
            Self {
                down: false,
                steps: 0,
                power: None,
                ticks: 0,
                applied: BEDS_DB,
                remembered: 0.0,
            },
            track,
        ))
    }

    /// Whether the beds should be down at tour time `now` of a tour `seconds` long.
    #[must_use]
    pub fn wanted(now: f64, seconds: f64) -> bool {
        EVENTS.iter().any(|e| {
            let at = (e.at * seconds / TICK).round() * TICK;
            // the driving engine: down while it drives
            let hold = if e.sound == EventSound::Engine {
                (e.until - e.at) * seconds
            } else {
                DUCK_HOLD_S
            };
            now + 1e-6 >= at - DUCK_LEAD_S && now < at + hold
        })
    }

    /// The beds' level the leveller holds, dB.
    #[must_use]
    pub fn level_db(&self) -> f32 {
        BEDS_DB + self.steps as f32 * LEVEL_STEP_DB
    }

    /// Rides the duck for tour time `now`.
    ///
    /// # Errors
    /// [`Error::Track`].
    pub fn step(&mut self, engine: &mut Engine, now: f64, seconds: f64) -> Result<(), Error> {
        let want = Self::wanted(now, seconds);
        if want == self.down {
            return Ok(());
        }
        self.down = want;
        let s = if want { DUCK_DOWN_S } else { DUCK_UP_S };
        self.apply(engine, s)
    }

    /// Hears one rendered block of the mix (interleaved): between events, the leveller's
    /// step.
    ///
    /// # Errors
    /// [`Error::Track`].
    pub fn heard(&mut self, engine: &mut Engine, block: &[f32]) -> Result<(), Error> {
        if self.down || block.is_empty() {
            return Ok(());
        }
        let mut sum = 0.0f32;
        let mut peak = 0.0f32;
        for v in block {
            sum += v * v;
            peak = peak.max(v.abs());
        }
        let ms = sum / block.len() as f32;
        let p = match self.power {
            Some(p) => p + 0.2 * (ms - p),
            None => ms,
        };
        self.power = Some(p);
        self.ticks = self.ticks.wrapping_add(1);
        self.remembered = (self.remembered * PEAK_MEMORY).max(peak);
        let most = (LEVEL_RANGE_DB / LEVEL_STEP_DB) as i32;
        let before = self.steps;
        if peak > PEAK_GUARD {
            self.steps -= (PEAK_CUT_DB / LEVEL_STEP_DB) as i32;
            self.remembered *= 0.707_945_8; // −3 dB, as the beds go
            // what was heard was louder than the beds will be now
            self.power = Some(p * 0.5);
        } else if p > TARGET_MS * BAND {
            self.steps -= 1;
        } else if p < TARGET_MS / BAND
            && self.ticks.is_multiple_of(4)
            && self.remembered * STEP_RATIO < PEAK_ROOM
        {
            self.steps += 1;
            self.remembered *= STEP_RATIO;
        }
        self.steps = self.steps.clamp(-most, most);
        if self.steps != before {
            self.apply(engine, TICK as f32)?;
        }
        Ok(())
    }

    /// Tweens the main track to the level and duck now wanted.
    fn apply(&mut self, engine: &mut Engine, seconds: f32) -> Result<(), Error> {
        let db = self.level_db() + if self.down { DUCK_DEPTH_DB } else { 0.0 };
        if db == self.applied {
            return Ok(());
        }
        self.applied = db;
        let tween = Tween {
            duration: seconds,
            easing: Easing::Linear,
        };
        engine.set_track_volume(Track::MAIN, volume(db), tween)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_beds_are_down_around_each_event_and_while_the_engine_drives() {
        // 90 s: the open field's clap at 2.7 s, its shot at 6.3 s; the engine 41.4..45.9 s.
        assert!(!Mixing::wanted(1.0, 90.0), "before the first lead");
        assert!(
            Mixing::wanted(2.7 - DUCK_LEAD_S + 0.05, 90.0),
            "the clap's lead"
        );
        assert!(
            Mixing::wanted(2.7 + DUCK_HOLD_S - 0.05, 90.0),
            "the clap's hold"
        );
        assert!(
            !Mixing::wanted(2.7 + DUCK_HOLD_S + 0.05, 90.0),
            "between clap and shot"
        );
        assert!(Mixing::wanted(44.0, 90.0), "the engine driving");
        assert!(!Mixing::wanted(88.0, 90.0), "the end of the tour");
    }
}
