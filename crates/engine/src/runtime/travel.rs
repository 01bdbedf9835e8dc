//! Sound that travels: the direct path's propagation delay of each voice (issue 31).
//!
//! A positional voice in modes `reflect` and `full` is heard `L / 343` s after it starts, `L`
//! the direct path's length (the straight line, or the air path round corners: its extra delay
//! added). The delay is the **retarded** one: the sound heard now left the source when it was
//! where it was then (`physics-reference.md`), so a moving source's pitch comes out as
//! `f·c/(c − v_s·u)`; the listener's motion counts through the distance at each update. The
//! engine hands the mixer the delay at every update as a glide over the time since the previous
//! one (Doppler falls out of the changing read rate, scaled by [`Source::doppler`]); a jump
//! larger than motion explains (a teleport) or propagation switched on or off is a cut (a short
//! fade out and in, no glide). Never for a relative source, nor under `Retail16`.

use glam::DVec3;
use resound_acoustics::Mode;
use resound_acoustics::airpath::DirectSound;
use resound_mixer::{DirectDelay, MAX_DELAY_S};

use super::shared::Shared;
use crate::builder::VoicePolicy;
use crate::source::{Listener, Source};

/// The speed of sound in m/s (`physics-reference.md`): a block is a metre.
pub const SPEED_OF_SOUND: f64 = 343.0;
/// A change of the source–listener distance beyond this plus [`GLIDE_SPEED`] times the time
/// since the previous update is a teleport: the delay is cut, not glided (metres).
pub const TELEPORT_M: f64 = 2.0;
/// The fastest change of distance the delay glides through (m/s): the mixer's glide moves the
/// read by at most a quarter of its step, 0.25 · 343 m/s.
pub const GLIDE_SPEED: f64 = 0.25 * SPEED_OF_SOUND;
/// Glide times are clamped to this range (s): the interval between updates.
const GLIDE_RANGE_S: (f64, f64) = (0.005, 0.5);

/// The straight-line propagation delay in seconds, `distance / 343` (capped at the mixer's
/// [`MAX_DELAY_S`]).
#[must_use]
pub fn propagation_delay(source: DVec3, listener: DVec3) -> f64 {
    finite_delay((source - listener).length() / SPEED_OF_SOUND, 0.0)
}

/// The retarded propagation delay in seconds of a source now at `source` moving at `velocity`
/// (m/s), heard at `listener`: the sound heard now left the source `d` ago, where it was, so
/// `|source − velocity·d − listener| = 343·d`. A still source gives [`propagation_delay`]; so
/// does a supersonic one (no single solution).
#[must_use]
pub fn retarded_delay(source: DVec3, listener: DVec3, velocity: DVec3) -> f64 {
    let plain = propagation_delay(source, listener);
    if velocity == DVec3::ZERO || !velocity.is_finite() {
        return plain;
    }
    let r = source - listener;
    let c = SPEED_OF_SOUND;
    let a = c * c - velocity.length_squared();
    if a <= 0.0 {
        return plain;
    }
    let b = r.dot(velocity);
    let d = (-b + (b * b + a * r.length_squared()).sqrt()) / a;
    finite_delay(d, plain)
}

/// `d` clamped to 0..=[`MAX_DELAY_S`], or `otherwise` when not finite.
fn finite_delay(d: f64, otherwise: f64) -> f64 {
    if d.is_finite() {
        d.clamp(0.0, f64::from(MAX_DELAY_S))
    } else {
        otherwise
    }
}

/// True when a voice's direct sound travels: its switch, a positional source, mode `reflect`
/// or `full`, and not the retail voice policy.
pub(crate) fn propagates(shared: &Shared, source: &Source) -> bool {
    source.propagation
        && !source.relative
        && shared.mode >= Mode::Reflect
        && shared.policy != VoicePolicy::Retail16
}

/// The extra delay of the direct sound's path round corners (0 on the straight line).
fn extra_delay(direct: Option<&DirectSound>) -> f64 {
    direct.map_or(0.0, |d| d.extra_delay_s.max(0.0))
}

/// The propagation delay a voice starts with (s; 0 when it does not travel).
pub(crate) fn start_delay(
    shared: &Shared,
    source: &Source,
    listener: &Listener,
    direct: Option<&DirectSound>,
) -> f64 {
    if !propagates(shared, source) {
        return 0.0;
    }
    let d = propagation_delay(source.position, listener.position) + extra_delay(direct);
    finite_delay(d, 0.0)
}

/// The direct path's propagation delay of one voice as last handed to the mixer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Travel {
    /// Propagation was on.
    on: bool,
    /// The delay the voice started with or was cut to: motion moves the delay from it by the
    /// Doppler factor.
    base: f64,
    /// The delay last sent (s).
    sent: f64,
    /// The delay at the start (s; 0 when off): what reports show.
    pub(crate) start: f64,
    /// The engine time of the latest update and the interval before it (the glide time).
    at: f64,
    interval: f64,
    /// The source–listener distance before the latest update's instant, and at it.
    distance_before: f64,
    distance: f64,
    /// The source's position before the latest update's instant, at it, and the time between
    /// them: its velocity (for the retarded delay).
    position_before: DVec3,
    position: DVec3,
    dt: f64,
}

impl Travel {
    /// A voice started at engine time `now` with delay `delay` (`on`: it travels).
    pub(crate) fn new(on: bool, delay: f64, now: f64, source: DVec3, listener: DVec3) -> Self {
        let distance = (source - listener).length();
        Self {
            on,
            base: delay,
            sent: delay,
            start: delay,
            at: now,
            interval: 0.0,
            distance_before: distance,
            distance,
            position_before: source,
            position: source,
            dt: 0.0,
        }
    }

    /// The delay change to hand the mixer after the source, the listener or the switch
    /// changed (at engine time `now`): a glide over the interval between updates (a steadily
    /// moving source keeps one pitch), a cut on a teleport or when propagation switches on or
    /// off; `None` when nothing changed.
    pub(crate) fn update(
        &mut self,
        on: bool,
        now: f64,
        source: &Source,
        listener: &Listener,
        direct: Option<&DirectSound>,
    ) -> Option<DirectDelay> {
        let distance = (source.position - listener.position).length();
        if now > self.at {
            self.dt = now - self.at;
            self.interval = self.dt.clamp(GLIDE_RANGE_S.0, GLIDE_RANGE_S.1);
            self.at = now;
            self.distance_before = self.distance;
            self.position_before = self.position;
        }
        self.distance = distance;
        self.position = source.position;
        let motion = TELEPORT_M + GLIDE_SPEED * self.interval;
        let jump = (distance - self.distance_before).abs() > motion;
        let cut = on != self.on || (on && jump);
        if cut {
            // The next update measures its jump and the source's velocity from here.
            self.distance_before = distance;
            self.position_before = source.position;
        }
        let velocity = if self.dt > 0.0 {
            (source.position - self.position_before) / self.dt
        } else {
            DVec3::ZERO
        };
        let true_delay = if on {
            let d = retarded_delay(source.position, listener.position, velocity);
            finite_delay(d + extra_delay(direct), 0.0)
        } else {
            0.0
        };
        if cut {
            self.base = true_delay;
        }
        let target = if on {
            self.base + f64::from(source.doppler) * (true_delay - self.base)
        } else {
            0.0
        };
        if !cut && target == self.sent {
            return None;
        }
        self.sent = target;
        self.on = on;
        Some(DirectDelay {
            seconds: target as f32,
            glide: self.interval.max(GLIDE_RANGE_S.0) as f32,
            cut,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_retarded_delay_solves_the_light_cone() {
        let s = DVec3::new(343.0, 0.0, 0.0);
        assert!((propagation_delay(s, DVec3::ZERO) - 1.0).abs() < 1e-12);
        // Approaching at 34.3 m/s: the sound heard now left 343 + 34.3·d away: d = 1/0.9 s.
        let d = retarded_delay(s, DVec3::ZERO, DVec3::new(-34.3, 0.0, 0.0));
        assert!((d - 1.0 / 0.9).abs() < 1e-9, "{d}");
        // Receding: it left from nearer, d = 1/1.1 s.
        let d = retarded_delay(s, DVec3::ZERO, DVec3::new(34.3, 0.0, 0.0));
        assert!((d - 1.0 / 1.1).abs() < 1e-9, "{d}");
        // A supersonic source: the plain delay.
        let fast = retarded_delay(s, DVec3::ZERO, DVec3::new(-400.0, 0.0, 0.0));
        assert!((fast - 1.0).abs() < 1e-12);
        // Far beyond the mixer's limit: capped.
        let far = propagation_delay(DVec3::new(1.0e6, 0.0, 0.0), DVec3::ZERO);
        assert_eq!(far, f64::from(MAX_DELAY_S));
    }

    #[test]
    fn motion_glides_a_teleport_cuts_and_doppler_scales() {
        let listener = Listener::default();
        let mut source = Source {
            position: DVec3::new(100.0, 0.0, 0.0),
            ..Source::default()
        };
        let d0 = propagation_delay(source.position, listener.position);
        let mut t = Travel::new(true, d0, 0.0, source.position, listener.position);
        // 1 m in 0.05 s (20 m/s, receding): a glide over 0.05 s to the retarded delay.
        source.position.x = 101.0;
        let c = t.update(true, 0.05, &source, &listener, None).unwrap();
        assert!(!c.cut);
        assert!((c.glide - 0.05).abs() < 1e-6);
        let want = retarded_delay(
            source.position,
            listener.position,
            DVec3::new(20.0, 0.0, 0.0),
        );
        assert!((f64::from(c.seconds) - want).abs() < 1e-6, "{c:?} {want}");
        // Nothing moved: nothing to send.
        assert_eq!(t.update(true, 0.05, &source, &listener, None), None);
        // 50 m in 0.05 s: a teleport.
        source.position.x = 151.0;
        let c = t.update(true, 0.1, &source, &listener, None).unwrap();
        assert!(c.cut);
        assert!((f64::from(c.seconds) - 151.0 / 343.0).abs() < 1e-6);
        // Switched off: a cut to 0.
        let c = t.update(false, 0.15, &source, &listener, None).unwrap();
        assert!(c.cut && c.seconds == 0.0);
        // Doppler 0: the delay stays where it started while the source moves.
        source.doppler = 0.0;
        source.position.x = 100.0;
        let mut t = Travel::new(true, d0, 0.0, source.position, listener.position);
        source.position.x = 101.0;
        assert_eq!(t.update(true, 0.05, &source, &listener, None), None);
    }
}
