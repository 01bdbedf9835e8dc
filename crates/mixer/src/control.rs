//! What the game controls on a voice or a track beside its acoustics: a gain, a playback rate
//! and pause, each changed with a [`Tween`] (a duration and an [`Easing`]).
//!
//! Tweens are evaluated on the renderer's frame clock (frames rendered since build), at the
//! 64-frame grid points every smoother in the mixer shares, and interpolated linearly between
//! them: a tween's value at a frame depends only on that frame, never on how the render calls
//! are cut, so offline renders stay bit-identical.

use crate::error::{ParamError, ParamProblem};

/// Sub-mix tracks a voice can be routed to (track 0 is the main track every voice starts on).
pub const TRACKS: usize = 16;
/// Longest accepted tween, in seconds.
pub const MAX_TWEEN_S: f32 = 3600.0;
/// Largest accepted playback rate (0 is a valid rate: the voice holds its position).
pub const MAX_RATE: f32 = 16.0;
/// Largest exponent of the power easings.
pub const MAX_EASING_POWER: i32 = 16;

/// The shape of a tween from its start value (`t = 0`) to its target (`t = 1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Easing {
    /// Straight line.
    #[default]
    Linear,
    /// `t^n`: slow start, fast end.
    InPowi(i32),
    /// `1 − (1 − t)^n`: fast start, slow end.
    OutPowi(i32),
    /// `InPowi` for the first half, `OutPowi` for the second.
    InOutPowi(i32),
}

impl Easing {
    /// The eased position of `t` (0..=1).
    #[must_use]
    pub fn apply(self, t: f32) -> f32 {
        let t = t.clamp(0.0, 1.0);
        match self {
            Self::Linear => t,
            Self::InPowi(n) => t.powi(n),
            Self::OutPowi(n) => 1.0 - (1.0 - t).powi(n),
            Self::InOutPowi(n) => {
                if t < 0.5 {
                    0.5 * (2.0 * t).powi(n)
                } else {
                    1.0 - 0.5 * (2.0 - 2.0 * t).powi(n)
                }
            }
        }
    }

    fn power(self) -> Option<i32> {
        match self {
            Self::Linear => None,
            Self::InPowi(n) | Self::OutPowi(n) | Self::InOutPowi(n) => Some(n),
        }
    }
}

/// How a change reaches its target: over `duration` seconds along `easing`. A zero duration
/// changes the value at once (at the next 64-frame grid point).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Tween {
    /// Seconds, 0..=[`MAX_TWEEN_S`].
    pub duration: f32,
    /// The curve.
    pub easing: Easing,
}

impl Tween {
    /// An immediate change.
    pub const IMMEDIATE: Self = Self {
        duration: 0.0,
        easing: Easing::Linear,
    };

    /// A linear tween of `seconds`.
    #[must_use]
    pub fn linear(seconds: f32) -> Self {
        Self {
            duration: seconds,
            easing: Easing::Linear,
        }
    }

    /// Checks the duration and the easing's power.
    ///
    /// # Errors
    /// [`ParamError`] on field `tween.duration` or `tween.easing`.
    pub fn validate(&self) -> Result<(), ParamError> {
        if !self.duration.is_finite() {
            return Err(ParamError {
                field: "tween.duration",
                problem: ParamProblem::NotFinite,
            });
        }
        if !(0.0..=MAX_TWEEN_S).contains(&self.duration) {
            return Err(ParamError {
                field: "tween.duration",
                problem: ParamProblem::OutOfRange,
            });
        }
        if let Some(n) = self.easing.power()
            && !(1..=MAX_EASING_POWER).contains(&n)
        {
            return Err(ParamError {
                field: "tween.easing",
                problem: ParamProblem::OutOfRange,
            });
        }
        Ok(())
    }

    /// The duration in frames at `sample_rate`.
    pub(crate) fn frames(&self, sample_rate: u32) -> u64 {
        (f64::from(self.duration) * f64::from(sample_rate)).round() as u64
    }
}

/// Which of a voice's controls a tween moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Control {
    /// The game's gain (amplitude), multiplied with the acoustics' gains.
    Gain,
    /// The playback rate (1 = the sound's own pitch and speed).
    Rate,
}

/// A value moving from `from` to `to` between frames `start` and `start + frames` of the
/// renderer's clock (a constant once there).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Tweened {
    from: f32,
    to: f32,
    start: u64,
    frames: u64,
    easing: Easing,
}

impl Tweened {
    /// A constant.
    pub(crate) const fn constant(v: f32) -> Self {
        Self {
            from: v,
            to: v,
            start: 0,
            frames: 0,
            easing: Easing::Linear,
        }
    }

    /// The exact (curve) value at frame `f`.
    fn exact(&self, f: u64) -> f32 {
        if f >= self.start.saturating_add(self.frames) {
            return self.to;
        }
        if f <= self.start {
            return self.from;
        }
        let t = (f - self.start) as f64 / self.frames as f64;
        let e = self.easing.apply(t as f32);
        self.from + (self.to - self.from) * e
    }

    /// The value at frame `f`: the curve at the 64-frame grid points around `f` (and at the
    /// tween's start, inside the segment it starts in), linear between them.
    pub(crate) fn value(&self, f: u64) -> f32 {
        if self.settled_at(f) {
            return self.to;
        }
        let (s0, a, d) = self.segment(f - f % GRID);
        a + (f.saturating_sub(s0)) as f32 * d
    }

    /// The line the value follows over the grid segment starting at `s`: from frame `s0`
    /// (the segment's start, or the tween's start inside it) at `a`, rising `d` per frame.
    /// Before `s0` the value is `a` (the tween has not begun).
    fn segment(&self, s: u64) -> (u64, f32, f32) {
        let s0 = s.max(self.start);
        let end = s + GRID;
        if s0 >= end {
            return (s0, self.from, 0.0);
        }
        let (a, b) = (self.exact(s0), self.exact(end));
        (s0, a, (b - a) / (end - s0) as f32)
    }

    /// True when the value is its target from frame `f` on: the first grid point at or after
    /// the end of the tween has passed (between grid points the value is interpolated).
    pub(crate) fn settled_at(&self, f: u64) -> bool {
        self.from == self.to || f >= self.end().div_ceil(GRID).saturating_mul(GRID)
    }

    /// The value it settles at.
    pub(crate) fn target(&self) -> f32 {
        self.to
    }

    /// The first frame from which the value is its target.
    pub(crate) fn end(&self) -> u64 {
        self.start.saturating_add(self.frames)
    }

    /// Moves toward `to` from the value at `now`, over `frames`.
    pub(crate) fn retarget(&mut self, now: u64, to: f32, frames: u64, easing: Easing) {
        let from = self.value(now);
        *self = Self {
            from,
            to,
            start: now,
            frames,
            easing,
        };
    }
}

/// The grid (frames) tweens are evaluated on; the mixer's smoothing segment.
const GRID: u64 = resound_dsp::RAMP_SEGMENT as u64;

/// Multiplies `x` (frames starting at clock frame `f0`) by the product of `parts` frame by
/// frame, each part's [`Tweened::value`]. Split-invariant: frame `f`'s factor depends only on
/// `f`.
pub(crate) fn apply_product(x: &mut [f32], f0: u64, parts: &[Tweened; 3]) {
    let mut done = 0usize;
    while done < x.len() {
        let f = f0 + done as u64;
        let s = f - f % GRID;
        let m = ((s + GRID - f) as usize).min(x.len() - done);
        // Each part as a line over this segment (a settled part: a constant).
        let lines = parts.map(|p| {
            if p.settled_at(s) {
                (s, p.to, 0.0)
            } else {
                p.segment(s)
            }
        });
        for (k, v) in x[done..done + m].iter_mut().enumerate() {
            let g = f + k as u64;
            let mut factor = 1.0f32;
            for (s0, a, d) in lines {
                factor *= a + g.saturating_sub(s0) as f32 * d;
            }
            *v *= factor;
        }
        done += m;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn easings_start_at_0_and_end_at_1() {
        for e in [
            Easing::Linear,
            Easing::InPowi(2),
            Easing::OutPowi(3),
            Easing::InOutPowi(2),
        ] {
            assert_eq!(e.apply(0.0), 0.0, "{e:?}");
            assert_eq!(e.apply(1.0), 1.0, "{e:?}");
            assert!(e.apply(0.5) > 0.0 && e.apply(0.5) < 1.0, "{e:?}");
        }
        assert!(Easing::InPowi(2).apply(0.25) < 0.25);
        assert!(Easing::OutPowi(2).apply(0.25) > 0.25);
    }

    #[test]
    fn a_tween_value_depends_on_the_frame_only() {
        let mut t = Tweened::constant(1.0);
        t.retarget(100, 0.0, 1000, Easing::InPowi(2));
        let one = Tweened::constant(1.0);
        let mut whole = vec![1.0f32; 1200];
        apply_product(&mut whole, 50, &[t, one, one]);
        let mut parts = vec![1.0f32; 1200];
        let (a, b) = parts.split_at_mut(333);
        apply_product(a, 50, &[t, one, one]);
        apply_product(b, 383, &[t, one, one]);
        assert_eq!(whole, parts);
        assert_eq!(whole[0], 1.0);
        assert_eq!(*whole.last().unwrap(), 0.0);
        assert!(whole.windows(2).all(|w| w[1] <= w[0]));
    }

    #[test]
    fn bad_tweens_are_refused() {
        assert!(Tween::linear(f32::NAN).validate().is_err());
        assert!(Tween::linear(-1.0).validate().is_err());
        let t = Tween {
            duration: 1.0,
            easing: Easing::InPowi(0),
        };
        assert!(t.validate().is_err());
        assert!(Tween::linear(2.0).validate().is_ok());
    }
}
