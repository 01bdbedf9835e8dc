//! Sound that travels: the propagation delay of a voice's direct path ([`DirectDelay`], the
//! renderer's [`Travel`]).
//!
//! A voice reads its decoded buffer at `emission − delay`: the delay is a lag of the read
//! position (the echo taps' model: the buffer is the history, no delay line). A voice started
//! with a delay `d` is silent for `d` and then plays from its first sample, to the frame. When
//! the delay changes it **glides**: from the next 64-frame grid point it moves linearly to its new
//! value over the glide time given with it (at most a quarter of the read step per frame, so a
//! read never runs backwards), which shifts the pitch as a moving source's does (Doppler). A
//! **cut** (a teleport, or the delay switched on or off) does not glide: the voice fades out over
//! 128 frames, jumps to the new delay and fades back in over 128 frames.
//!
//! Everything here is a function of the renderer's frame (glides and cuts begin on grid points),
//! so a render cut into calls of any size gives the same bits.

use resound_dsp::RAMP_SEGMENT;

/// The tween grid in frames.
const GRID: u64 = RAMP_SEGMENT as u64;
/// Frames of each half of a cut (fade out, then in).
pub const CUT_FRAMES: u64 = 2 * GRID;
/// Longest accepted propagation delay in seconds (≈ 20 km at 343 m/s).
pub const MAX_DELAY_S: f32 = 60.0;

/// A change of a voice's direct-path propagation delay ([`crate::MixerHandle::set_delay`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DirectDelay {
    /// The delay in seconds, 0..=[`MAX_DELAY_S`].
    pub seconds: f32,
    /// Seconds over which the delay glides to it (the game's tick: a source moving steadily
    /// then keeps one pitch); 0 glides as fast as the read allows.
    pub glide: f32,
    /// Jump without a glide (a teleport, or propagation switched on or off): a 128-frame
    /// fade out, the jump, a 128-frame fade in.
    pub cut: bool,
}

/// A linear glide of the delay (fixed-point source frames): `start` at frame `from`, then
/// `delta` per frame for `frames` frames.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Glide {
    from: u64,
    frames: u64,
    start: i64,
    delta: i64,
}

impl Glide {
    fn constant(v: i64) -> Self {
        Self {
            start: v,
            ..Self::default()
        }
    }

    fn value(&self, f: u64) -> i64 {
        let k = f.saturating_sub(self.from).min(self.frames);
        self.start + self.delta * k as i64
    }

    /// The delay's change per frame in the grid segment starting at `seg`.
    fn delta_at(&self, seg: u64) -> i64 {
        if seg >= self.from && seg < self.from + self.frames {
            self.delta
        } else {
            0
        }
    }

    fn ends(&self) -> u64 {
        self.from + self.frames
    }
}

/// A voice's propagation delay on the audio thread: a glide, and possibly the glide that
/// follows it from a grid point on (a retarget, or a cut with its fades).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Travel {
    glide: Glide,
    /// From grid frame `.0` the delay follows glide `.1`; `.2`: it is a cut (a jump between
    /// two 128-frame fades) rather than a glide continuing from the same value.
    next: Option<(u64, Glide, bool)>,
}

/// The first grid point at or after `f`.
fn grid_ceil(f: u64) -> u64 {
    f.div_ceil(GRID) * GRID
}

impl Travel {
    /// A constant delay of `delay` fixed-point source frames.
    pub(crate) fn constant(delay: i64) -> Self {
        Self {
            glide: Glide::constant(delay),
            next: None,
        }
    }

    /// The delay at frame `f`.
    #[cfg(test)]
    pub(crate) fn delay_at(&self, f: u64) -> i64 {
        match self.next {
            Some((at, g, _)) if f >= at => g.value(f),
            _ => self.glide.value(f),
        }
    }

    /// The delay's change per frame over the grid segment starting at `seg`.
    pub(crate) fn delta_at(&self, seg: u64) -> i64 {
        match self.next {
            Some((at, g, _)) if seg >= at => g.delta_at(seg),
            _ => self.glide.delta_at(seg),
        }
    }

    /// The jump of the delay at frame `f` (non-zero only at a cut's grid point).
    pub(crate) fn jump_at(&self, f: u64) -> i64 {
        match self.next {
            Some((at, g, true)) if f == at => g.value(at) - self.glide.value(at),
            _ => 0,
        }
    }

    /// True when the read step stays the same and no cut sounds over frames
    /// `frame..frame + n`.
    pub(crate) fn quiet(&self, frame: u64, n: u64) -> bool {
        let end = frame + n;
        let still = |g: &Glide, from: u64, to: u64| {
            g.delta == 0 || g.ends() <= from || g.from >= to || (g.from <= from && g.ends() >= to)
        };
        match self.next {
            None => still(&self.glide, frame, end),
            Some((at, g, cut)) => {
                if cut && self.cutting(frame, n) {
                    return false;
                }
                if at <= frame {
                    still(&g, frame, end)
                } else if at >= end {
                    still(&self.glide, frame, end)
                } else {
                    false
                }
            }
        }
    }

    /// The cut's fade at frame `f`: 1 outside a cut, down to 0 at its grid point, back to 1.
    pub(crate) fn envelope(&self, f: u64) -> f32 {
        match self.next {
            Some((at, _, true)) if f + CUT_FRAMES > at && f < at => {
                (at - f) as f32 / CUT_FRAMES as f32
            }
            Some((at, _, true)) if f >= at && f < at + CUT_FRAMES => {
                (f - at) as f32 / CUT_FRAMES as f32
            }
            _ => 1.0,
        }
    }

    /// True while a cut's fade touches frames `frame..frame + n`.
    pub(crate) fn cutting(&self, frame: u64, n: u64) -> bool {
        matches!(self.next, Some((at, _, true)) if at < frame + n + CUT_FRAMES && at + CUT_FRAMES > frame)
    }

    /// Drops what has passed by frame `frame` (the glide that took over becomes the glide).
    pub(crate) fn settle(&mut self, frame: u64) {
        if let Some((at, g, cut)) = self.next {
            let done = if cut { at + CUT_FRAMES } else { at };
            if frame >= done {
                self.glide = g;
                self.next = None;
            }
        }
    }

    /// Aims the delay at `target` (fixed-point source frames) from renderer frame `now`: a
    /// glide from the next grid point over `glide_frames` (longer if it would move more than
    /// `max_delta` per frame), or a cut.
    pub(crate) fn retarget(
        &mut self,
        now: u64,
        target: i64,
        glide_frames: u64,
        max_delta: i64,
        cut: bool,
    ) {
        self.settle(now);
        let g0 = grid_ceil(now);
        let plan = |cur: i64| {
            let change = target - cur;
            if change == 0 {
                return Glide::constant(cur);
            }
            let need = change.unsigned_abs().div_ceil(max_delta.max(1) as u64);
            let frames = grid_ceil(glide_frames.max(need).max(1));
            Glide {
                from: g0,
                frames,
                start: cur,
                delta: change / frames as i64,
            }
        };
        match self.next {
            Some((at, _, true)) if at > now => {
                // A cut still ahead lands on the new delay.
                self.next = Some((at, Glide::constant(target), true));
            }
            Some((at, g, true)) => {
                // A cut fading in (its glide is constant): a glide continues from it; a new
                // cut waits for the fade to end.
                if cut {
                    self.glide = g;
                    let at = grid_ceil((at + CUT_FRAMES).max(g0)) + CUT_FRAMES;
                    self.next = Some((at, Glide::constant(target), true));
                } else {
                    self.next = Some((at, plan(g.start), true));
                }
            }
            Some((_, g, false)) => {
                // A glide switch ahead (a retarget earlier in this grid segment): replaced.
                let cur = self.glide.value(g0);
                let _ = g;
                self.next = if cut {
                    Some((g0 + CUT_FRAMES, Glide::constant(target), true))
                } else {
                    Some((g0, plan(cur), false))
                };
            }
            None => {
                let cur = self.glide.value(g0);
                self.next = if cut {
                    Some((g0 + CUT_FRAMES, Glide::constant(target), true))
                } else {
                    Some((g0, plan(cur), false))
                };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_glide_starts_on_the_grid_and_reaches_its_target() {
        let mut t = Travel::constant(1000 << 32);
        t.retarget(100, 3000 << 32, 4800, i64::MAX, false);
        // Nothing moves before the grid point at 128.
        assert_eq!(t.delay_at(127), 1000 << 32);
        assert_eq!(t.delta_at(64), 0);
        let end = 128 + 4800;
        let reached = t.delay_at(end);
        assert!((reached - (3000 << 32)).abs() < 4800, "{reached}");
        assert_eq!(t.delay_at(end + 10_000), reached);
        assert_eq!(t.delta_at(128), ((3000 - 1000) << 32) / 4800);
        // A glide never moves faster than `max_delta` per frame: it takes longer.
        let mut s = Travel::constant(0);
        s.retarget(0, 1000 << 32, 64, 1 << 30, false);
        assert!(s.delta_at(0) <= 1 << 30);
        assert!((s.delay_at(5000) - (1000 << 32)).abs() < 4000);
    }

    #[test]
    fn a_cut_fades_out_jumps_and_fades_in() {
        let mut t = Travel::constant(500 << 32);
        t.retarget(10, 0, 0, i64::MAX, true);
        let at = 64 + CUT_FRAMES;
        assert_eq!(t.envelope(63), 1.0);
        assert_eq!(t.envelope(64), 1.0);
        assert_eq!(t.envelope(at), 0.0);
        assert_eq!(t.envelope(at + CUT_FRAMES), 1.0);
        assert_eq!(t.jump_at(at), -(500 << 32));
        assert_eq!(t.jump_at(at + 64), 0);
        assert_eq!(t.delay_at(at - 1), 500 << 32);
        assert_eq!(t.delay_at(at), 0);
        assert!(!t.quiet(64, 64));
        assert!(t.quiet(at + CUT_FRAMES, 512));
        t.settle(at + CUT_FRAMES);
        assert_eq!(t, Travel::constant(0));
    }
}
