//! Parameter smoothing: exponential approach in linear segments ([`Smoothed`]) and
//! fixed-duration linear ramps ([`LinearRamp`]).
//!
//! Targets are set per buffer by the caller. Inside a buffer the value moves linearly.
//! Both types advance on a fixed sample grid that does not depend on how the caller
//! splits the signal into blocks, so processing a signal in one block, in random
//! blocks or sample by sample gives bit-identical results (STYLE.md §2 item 8).

use crate::sanitize;

mod set;

pub use set::{RampSet, SmoothedSet};

/// Length in frames of one linear segment of a [`Smoothed`] value.
///
/// Every 64 frames (1.33 ms at 48 kHz) the smoother computes where the exponential
/// approach is at the end of the segment and ramps linearly to it. A target set in
/// the middle of a segment takes effect at the next segment boundary.
pub const RAMP_SEGMENT: usize = 64;

/// Time constant of the occlusion shelf's `gain` and `hf` (acoustics.md §4): 80 ms.
pub const SHELF_SMOOTHING_S: f32 = 0.08;
/// Time constant of the reverb sends (acoustics.md §6): 0.3 s.
pub const SEND_SMOOTHING_S: f32 = 0.3;
/// Duration of an echo tap's fade in, fade out or level change (acoustics.md §5): 50 ms.
pub const TAP_FADE_S: f32 = 0.05;
/// Time constant of pan and plain gain changes: 50 ms (not fixed by the spec).
pub const PAN_SMOOTHING_S: f32 = 0.05;

/// A smoothed value is considered to have arrived when a segment would end this close
/// to the target (or when `f32` rounding stops it moving); it then snaps to the target
/// exactly (this gives the shelf's exact unity bypass). 1e-6 is -120 dB re full scale,
/// far below a click.
pub const SETTLE_EPSILON: f32 = 1e-6;

/// Sample rate used before `prepare` is called.
pub(crate) const DEFAULT_SAMPLE_RATE: f32 = 48_000.0;

/// One linear piece of a parameter trajectory: the value at frame `i` of the chunk
/// is `start + step * (offset + i)`.
///
/// `start` is the value where the linear piece began and `offset` how many of its frames
/// were consumed before this chunk. Computing from the piece's origin (rather than from
/// the chunk's first value) keeps results bit-identical however the piece is split.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ramp {
    /// Value at the origin of the linear piece.
    pub start: f32,
    /// Increment per frame.
    pub step: f32,
    /// Frames of the piece consumed before the chunk's first frame.
    pub offset: usize,
}

/// `FRAMES[t] = t as f32` over one segment (exact: every integer below 2²⁴ is).
pub(crate) static FRAMES: [f32; RAMP_SEGMENT] = {
    let mut t = [0.0f32; RAMP_SEGMENT];
    let mut i = 0;
    while i < RAMP_SEGMENT {
        t[i] = i as f32;
        i += 1;
    }
    t
};

impl Ramp {
    /// A constant ramp.
    #[must_use]
    pub const fn constant(value: f32) -> Self {
        Self {
            start: value,
            step: 0.0,
            offset: 0,
        }
    }

    /// Value at frame `i` of the chunk.
    #[inline(always)]
    #[must_use]
    pub fn at(&self, i: usize) -> f32 {
        // Through i32: converts in one (vectorisable) instruction; offsets stay far below
        // 2^24, where every integer is exact in f32.
        self.start + self.step * ((self.offset + i) as i32) as f32
    }

    /// The frame indices `offset..offset + n` of a chunk as `Ramp::at` converts them (`None`
    /// if the chunk runs past one segment): loops read `start + step·t[i]` from this table
    /// instead of converting every index, with the same exact values.
    #[inline(always)]
    #[must_use]
    pub fn frames(&self, n: usize) -> Option<&'static [f32]> {
        FRAMES.get(self.offset..self.offset.checked_add(n)?)
    }

    /// True if the ramp does not move.
    #[inline]
    #[must_use]
    pub fn is_constant(&self) -> bool {
        self.step == 0.0
    }

    /// True if the ramp is exactly `value` for the whole chunk.
    #[inline]
    #[must_use]
    pub fn is_exactly(&self, value: f32) -> bool {
        self.step == 0.0 && self.start == value
    }
}

/// How far one segment moves a smoothed value towards its target: the remaining distance is
/// multiplied by this (0 for a zero time constant: a jump at the next segment).
fn segment_decay(time_constant_s: f32, sample_rate: f32) -> f32 {
    let frames = time_constant_s * crate::sanitize_sample_rate(sample_rate);
    if frames > 0.0 {
        (-(RAMP_SEGMENT as f32) / frames).exp()
    } else {
        0.0
    }
}

/// A parameter that approaches its target exponentially with a time constant,
/// as a chain of [`RAMP_SEGMENT`]-frame linear segments.
///
/// Use: call [`Smoothed::set_target`] once per buffer; in the processing loop ask
/// [`Smoothed::segment_left`] how far the current segment goes, then
/// [`Smoothed::advance`] by at most that many frames to get the [`Ramp`] for the chunk.
/// Never allocates.
#[derive(Clone, Debug)]
pub struct Smoothed {
    initial: f32,
    min: f32,
    max: f32,
    time_constant_s: f32,
    decay: f32,
    target: f32,
    /// Value at the start of the current segment.
    seg_start: f32,
    /// Per-frame increment of the current segment.
    seg_step: f32,
    /// Value at the end of the current segment.
    seg_end: f32,
    /// Frames of the current segment already consumed (0 = at a boundary).
    pos: usize,
}

impl Smoothed {
    /// A smoothed value starting (and settled) at `initial`, clamped to `min..=max`,
    /// approaching targets with `time_constant_s` seconds (0 = jump at the next segment).
    /// Non-finite arguments are replaced by safe values (`min` 0, `max` 1, time constant 0).
    #[must_use]
    pub fn new(initial: f32, time_constant_s: f32, min: f32, max: f32) -> Self {
        let min = if min.is_finite() { min } else { 0.0 };
        let max = if max.is_finite() && max >= min {
            max
        } else {
            min.max(1.0)
        };
        let initial = sanitize(initial, min, max, min);
        let time_constant_s = sanitize(time_constant_s, 0.0, 3600.0, 0.0);
        let mut s = Self {
            initial,
            min,
            max,
            time_constant_s,
            decay: 0.0,
            target: initial,
            seg_start: initial,
            seg_step: 0.0,
            seg_end: initial,
            pos: 0,
        };
        s.prepare(DEFAULT_SAMPLE_RATE);
        s
    }

    /// Computes the per-segment decay for `sample_rate` (Hz). Keeps the current value.
    pub fn prepare(&mut self, sample_rate: f32) {
        self.decay = segment_decay(self.time_constant_s, sample_rate);
    }

    /// Sets the value to approach. NaN is ignored; infinities and out-of-range values
    /// are clamped to `min..=max`.
    pub fn set_target(&mut self, target: f32) {
        if !target.is_nan() {
            self.target = target.clamp(self.min, self.max);
        }
    }

    /// Jumps to `value` now (no ramp) and makes it the target. NaN is ignored.
    pub fn set_immediate(&mut self, value: f32) {
        if value.is_nan() {
            return;
        }
        let v = value.clamp(self.min, self.max);
        self.target = v;
        self.seg_start = v;
        self.seg_step = 0.0;
        self.seg_end = v;
    }

    /// The current target.
    #[must_use]
    pub fn target(&self) -> f32 {
        self.target
    }

    /// The value at the next frame to be processed.
    #[must_use]
    pub fn current(&self) -> f32 {
        if self.pos == 0 {
            self.seg_end
        } else {
            self.seg_start + self.seg_step * self.pos as f32
        }
    }

    /// True when the value equals the target exactly and will not move.
    #[must_use]
    pub fn is_settled(&self) -> bool {
        self.seg_step == 0.0 && self.seg_end == self.target && self.seg_start == self.target
    }

    /// True when the rest of the segment in progress holds exactly `value` (the next
    /// [`Smoothed::advance`] inside it returns a ramp that [is exactly](Ramp::is_exactly) it).
    /// At a segment boundary this is false: the next segment starts from the target's side.
    #[must_use]
    pub fn segment_is_exactly(&self, value: f32) -> bool {
        self.pos != 0 && self.seg_step == 0.0 && self.seg_start == value
    }

    /// Frames left in the current segment (1..=[`RAMP_SEGMENT`]).
    #[inline]
    #[must_use]
    pub fn segment_left(&self) -> usize {
        RAMP_SEGMENT - self.pos
    }

    /// True when the next frame starts a new segment.
    #[inline]
    #[must_use]
    pub fn at_segment_boundary(&self) -> bool {
        self.pos == 0
    }

    /// Consumes `frames` frames (at most [`Smoothed::segment_left`]; more is cut to
    /// that) and returns the ramp that covers them.
    #[inline]
    pub fn advance(&mut self, frames: usize) -> Ramp {
        if self.pos == 0 {
            self.begin_segment();
        }
        let frames = frames.min(self.segment_left());
        let ramp = Ramp {
            start: self.seg_start,
            step: self.seg_step,
            offset: self.pos,
        };
        self.pos += frames;
        if self.pos >= RAMP_SEGMENT {
            self.pos = 0;
            self.seg_start = self.seg_end;
            self.seg_step = 0.0;
        }
        ramp
    }

    /// [`Smoothed::advance`] of each of `values` by the same `frames`. When they are all at a
    /// segment boundary (a voice's gains on one grid, the usual case) the new segments are
    /// worked out side by side, lane by lane with the operations of a segment start, so
    /// the ramps and states are exactly those of advancing each in turn.
    #[inline]
    pub fn advance_all<const N: usize>(mut values: [&mut Smoothed; N], frames: usize) -> [Ramp; N] {
        if values.iter().any(|v| v.pos != 0) {
            return values.map(|v| v.advance(frames));
        }
        let from = values.each_ref().map(|v| v.seg_end);
        let target = values.each_ref().map(|v| v.target);
        let decay = values.each_ref().map(|v| v.decay);
        let mut end = [0.0f32; N];
        let mut step = [0.0f32; N];
        for k in 0..N {
            let e = target[k] + (from[k] - target[k]) * decay[k];
            // The snap of `begin_segment`, as a select.
            let snap = (e - target[k]).abs() <= SETTLE_EPSILON || e == from[k];
            end[k] = if snap { target[k] } else { e };
            step[k] = (end[k] - from[k]) / RAMP_SEGMENT as f32;
        }
        let frames = frames.min(RAMP_SEGMENT);
        let mut ramps = [Ramp::constant(0.0); N];
        for (k, v) in values.iter_mut().enumerate() {
            ramps[k] = Ramp {
                start: from[k],
                step: step[k],
                offset: 0,
            };
            v.seg_end = end[k];
            if frames >= RAMP_SEGMENT {
                v.pos = 0;
                v.seg_start = end[k];
                v.seg_step = 0.0;
            } else {
                v.pos = frames;
                v.seg_start = from[k];
                v.seg_step = step[k];
            }
        }
        ramps
    }

    fn begin_segment(&mut self) {
        let from = self.seg_end;
        let mut end = self.target + (from - self.target) * self.decay;
        // Snap when close, or when f32 rounding stops the approach (the remaining
        // distance times `1 − decay` is below half an ulp).
        if (end - self.target).abs() <= SETTLE_EPSILON || end == from {
            end = self.target;
        }
        self.seg_start = from;
        self.seg_end = end;
        self.seg_step = (end - from) / RAMP_SEGMENT as f32;
    }

    /// Returns to the state after construction (value and target = initial).
    pub fn reset(&mut self) {
        self.target = self.initial;
        self.seg_start = self.initial;
        self.seg_step = 0.0;
        self.seg_end = self.initial;
        self.pos = 0;
    }
}

/// A value that moves linearly to each new target in a fixed time (used for echo-tap
/// fades: [`TAP_FADE_S`]).
///
/// Use: [`LinearRamp::set_target`] starts a ramp of the fixed duration from the current
/// value; in the processing loop chunk by [`LinearRamp::frames_left`] and call
/// [`LinearRamp::advance`]. Never allocates.
#[derive(Clone, Debug)]
pub struct LinearRamp {
    initial: f32,
    duration_s: f32,
    length: usize,
    start: f32,
    step: f32,
    done: usize,
    target: f32,
}

impl LinearRamp {
    /// A ramp settled at `initial`; later targets are reached in `duration_s` seconds
    /// (clamped to `0..=40`, so frame counts stay exact in `f32`). Non-finite arguments become 0.
    #[must_use]
    pub fn new(initial: f32, duration_s: f32) -> Self {
        let initial = sanitize(initial, f32::MIN, f32::MAX, 0.0);
        let duration_s = sanitize(duration_s, 0.0, 40.0, 0.0);
        let mut r = Self {
            initial,
            duration_s,
            length: 1,
            start: initial,
            step: 0.0,
            done: 1,
            target: initial,
        };
        r.prepare(DEFAULT_SAMPLE_RATE);
        r
    }

    /// Sets the ramp length in frames for `sample_rate`. A ramp in progress keeps its slope.
    pub fn prepare(&mut self, sample_rate: f32) {
        let fs = crate::sanitize_sample_rate(sample_rate);
        self.length = ((self.duration_s * fs).round() as usize).max(1);
    }

    /// Starts a linear ramp from the current value to `target`. NaN is ignored,
    /// infinities are clamped to ±`f32::MAX`. Setting the current target again does nothing.
    pub fn set_target(&mut self, target: f32) {
        if target.is_nan() || target == self.target {
            return;
        }
        let target = target.clamp(f32::MIN, f32::MAX);
        let from = self.current();
        self.start = from;
        self.target = target;
        self.done = 0;
        self.step = (target - from) / self.length as f32;
        if !self.step.is_finite() {
            self.set_immediate(target);
        }
    }

    /// Jumps to `value` now. NaN is ignored.
    pub fn set_immediate(&mut self, value: f32) {
        if value.is_nan() {
            return;
        }
        let v = value.clamp(f32::MIN, f32::MAX);
        self.start = v;
        self.target = v;
        self.step = 0.0;
        self.done = self.length;
    }

    /// The current target.
    #[must_use]
    pub fn target(&self) -> f32 {
        self.target
    }

    /// The value at the next frame to be processed.
    #[must_use]
    pub fn current(&self) -> f32 {
        if self.done >= self.length {
            self.target
        } else {
            self.start + self.step * self.done as f32
        }
    }

    /// True when the ramp has reached its target.
    #[must_use]
    pub fn is_settled(&self) -> bool {
        self.done >= self.length
    }

    /// Frames until the ramp ends (`usize::MAX` when settled).
    #[inline]
    #[must_use]
    pub fn frames_left(&self) -> usize {
        if self.done >= self.length {
            usize::MAX
        } else {
            self.length - self.done
        }
    }

    /// Consumes `frames` frames (at most [`LinearRamp::frames_left`]; more is cut to that)
    /// and returns the ramp covering them.
    #[inline]
    pub fn advance(&mut self, frames: usize) -> Ramp {
        if self.done >= self.length {
            return Ramp::constant(self.target);
        }
        let frames = frames.min(self.length - self.done);
        let ramp = Ramp {
            start: self.start,
            step: self.step,
            offset: self.done,
        };
        self.done += frames;
        ramp
    }

    /// Returns to the state after construction.
    pub fn reset(&mut self) {
        self.start = self.initial;
        self.target = self.initial;
        self.step = 0.0;
        self.done = self.length;
    }
}
