//! Several smoothed values on one 64-frame grid, stored side by side: [`SmoothedSet`].
//!
//! A voice's six gains (dry left and right, four reverb sends) always move on the voice's grid.
//! Kept as arrays (one array per field instead of one struct per value), a segment start is a
//! few vector operations over all of them instead of one scalar walk per value; the ramps come
//! out as arrays too ([`RampSet`]), ready for a mix kernel that reads them side by side.

use super::{RAMP_SEGMENT, Ramp, SETTLE_EPSILON, Smoothed, segment_decay};

/// The ramps of a [`SmoothedSet`] over one chunk, which all share one offset: value `k` at
/// frame `i` of the chunk is `start[k] + step[k]·(offset + i)` ([`Ramp::at`] of
/// [`RampSet::ramp`]`(k)`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RampSet<const N: usize> {
    /// Each value at the origin of its linear piece.
    pub start: [f32; N],
    /// Each value's increment per frame.
    pub step: [f32; N],
    /// Frames of the pieces consumed before the chunk's first frame.
    pub offset: usize,
}

impl<const N: usize> RampSet<N> {
    /// Constant ramps at `values`.
    #[must_use]
    pub const fn constant(values: [f32; N]) -> Self {
        Self {
            start: values,
            step: [0.0; N],
            offset: 0,
        }
    }

    /// The ramp of value `k` (panics if `k >= N`).
    #[inline]
    #[must_use]
    pub fn ramp(&self, k: usize) -> Ramp {
        Ramp {
            start: self.start[k],
            step: self.step[k],
            offset: self.offset,
        }
    }

    /// The ramps of the first `M` values (panics if `M > N`).
    #[inline]
    #[must_use]
    pub fn first<const M: usize>(&self) -> RampSet<M> {
        RampSet {
            start: std::array::from_fn(|k| self.start[k]),
            step: std::array::from_fn(|k| self.step[k]),
            offset: self.offset,
        }
    }

    /// All ramps as separate [`Ramp`]s.
    #[must_use]
    pub fn ramps(&self) -> [Ramp; N] {
        std::array::from_fn(|k| self.ramp(k))
    }
}

impl<const N: usize> Default for RampSet<N> {
    fn default() -> Self {
        Self::constant([0.0; N])
    }
}

/// `N` values that each approach their target exponentially like a [`Smoothed`], on one shared
/// 64-frame grid, stored as arrays.
///
/// Value `k` behaves exactly (bit for bit, ramps and state) like a
/// `Smoothed::new(initial[k], time_constants_s[k], min, max)` advanced by the same frames: the
/// set is that many smoothers moved together, with the segment start worked out for all of them
/// in one pass. Never allocates.
#[derive(Clone, Debug)]
pub struct SmoothedSet<const N: usize> {
    target: [f32; N],
    decay: [f32; N],
    /// Values at the start of the current segment.
    seg_start: [f32; N],
    /// Per-frame increments of the current segment.
    seg_step: [f32; N],
    /// Values at the end of the current segment.
    seg_end: [f32; N],
    /// Frames of the current segment already consumed (0 = at a boundary).
    pos: usize,
    initial: [f32; N],
    time_constant_s: [f32; N],
    min: f32,
    max: f32,
}

impl<const N: usize> SmoothedSet<N> {
    /// Values starting (and settled) at `initial`, clamped to `min..=max`, each approaching its
    /// targets with its time constant (sanitised as [`Smoothed::new`] does).
    #[must_use]
    pub fn new(initial: [f32; N], time_constants_s: [f32; N], min: f32, max: f32) -> Self {
        let lanes: [Smoothed; N] =
            std::array::from_fn(|k| Smoothed::new(initial[k], time_constants_s[k], min, max));
        let (min, max) = lanes.first().map_or((min, max), |s| (s.min, s.max));
        let initial = lanes.each_ref().map(|s| s.initial);
        Self {
            target: initial,
            decay: lanes.each_ref().map(|s| s.decay),
            seg_start: initial,
            seg_step: [0.0; N],
            seg_end: initial,
            pos: 0,
            initial,
            time_constant_s: lanes.each_ref().map(|s| s.time_constant_s),
            min,
            max,
        }
    }

    /// The values of `lanes` as a set, when they share a grid position and a range (`None`
    /// otherwise): moved together, they give each smoother's own ramps; [`SmoothedSet::store`]
    /// writes their state back.
    pub(crate) fn load(lanes: [&Smoothed; N]) -> Option<Self> {
        let first = lanes.first()?;
        let shared = lanes
            .iter()
            .all(|s| s.pos == first.pos && s.min == first.min && s.max == first.max);
        if !shared {
            return None;
        }
        Some(Self {
            target: lanes.map(|s| s.target),
            decay: lanes.map(|s| s.decay),
            seg_start: lanes.map(|s| s.seg_start),
            seg_step: lanes.map(|s| s.seg_step),
            seg_end: lanes.map(|s| s.seg_end),
            pos: first.pos,
            initial: lanes.map(|s| s.initial),
            time_constant_s: lanes.map(|s| s.time_constant_s),
            min: first.min,
            max: first.max,
        })
    }

    /// Writes the state of the first values back into `lanes` (the smoothers the set was
    /// [loaded](SmoothedSet::load) from, in order).
    pub(crate) fn store<'a>(&self, lanes: impl IntoIterator<Item = &'a mut Smoothed>) {
        for (k, s) in lanes.into_iter().take(N).enumerate() {
            s.target = self.target[k];
            s.seg_start = self.seg_start[k];
            s.seg_step = self.seg_step[k];
            s.seg_end = self.seg_end[k];
            s.pos = self.pos;
        }
    }

    /// True when the next frame starts a new segment.
    #[inline]
    #[must_use]
    pub fn at_segment_boundary(&self) -> bool {
        self.pos == 0
    }

    /// Computes the per-segment decays for `sample_rate` (Hz). Keeps the current values.
    pub fn prepare(&mut self, sample_rate: f32) {
        for (d, tc) in self.decay.iter_mut().zip(self.time_constant_s) {
            *d = segment_decay(tc, sample_rate);
        }
    }

    /// Sets value `k`'s target (as [`Smoothed::set_target`]; panics if `k >= N`).
    pub fn set_target(&mut self, k: usize, target: f32) {
        if !target.is_nan() {
            self.target[k] = target.clamp(self.min, self.max);
        }
    }

    /// Jumps value `k` to `value` now (as [`Smoothed::set_immediate`]; panics if `k >= N`).
    pub fn set_immediate(&mut self, k: usize, value: f32) {
        if value.is_nan() {
            return;
        }
        let v = value.clamp(self.min, self.max);
        self.target[k] = v;
        self.seg_start[k] = v;
        self.seg_step[k] = 0.0;
        self.seg_end[k] = v;
    }

    /// Value `k`'s target.
    #[must_use]
    pub fn target(&self, k: usize) -> f32 {
        self.target[k]
    }

    /// Value `k` at the next frame to be processed (as [`Smoothed::current`]).
    #[must_use]
    pub fn current(&self, k: usize) -> f32 {
        if self.pos == 0 {
            self.seg_end[k]
        } else {
            self.seg_start[k] + self.seg_step[k] * self.pos as f32
        }
    }

    /// True when value `k` equals its target exactly and will not move.
    #[must_use]
    pub fn is_settled(&self, k: usize) -> bool {
        self.seg_step[k] == 0.0
            && self.seg_end[k] == self.target[k]
            && self.seg_start[k] == self.target[k]
    }

    /// True when every value is [settled](SmoothedSet::is_settled).
    #[must_use]
    pub fn all_settled(&self) -> bool {
        (0..N).all(|k| self.is_settled(k))
    }

    /// True when value `k` is exactly 0 now and will stay 0.
    #[must_use]
    pub fn is_zero(&self, k: usize) -> bool {
        self.is_settled(k) && self.target[k] == 0.0
    }

    /// Frames left in the current segment (1..=[`RAMP_SEGMENT`]).
    #[inline]
    #[must_use]
    pub fn segment_left(&self) -> usize {
        RAMP_SEGMENT - self.pos
    }

    /// Consumes `frames` frames of every value (at most [`SmoothedSet::segment_left`]; more is
    /// cut to that) and returns the ramps that cover them (as [`Smoothed::advance`] of each).
    #[inline(always)]
    pub fn advance(&mut self, frames: usize) -> RampSet<N> {
        if self.pos == 0 {
            self.begin_segment();
        }
        let frames = frames.min(self.segment_left());
        let ramps = RampSet {
            start: self.seg_start,
            step: self.seg_step,
            offset: self.pos,
        };
        self.pos += frames;
        if self.pos >= RAMP_SEGMENT {
            self.pos = 0;
            self.seg_start = self.seg_end;
            self.seg_step = [0.0; N];
        }
        ramps
    }

    /// The next segment of every value, lane by lane with the operations of
    /// [`Smoothed`]'s segment start (its snap as a select), so the compiler can vectorise it.
    #[inline]
    #[allow(clippy::needless_range_loop)] // lane k of five arrays: indexing reads plainest
    fn begin_segment(&mut self) {
        let from = self.seg_end;
        for k in 0..N {
            let t = self.target[k];
            let e = t + (from[k] - t) * self.decay[k];
            let snap = (e - t).abs() <= SETTLE_EPSILON || e == from[k];
            let end = if snap { t } else { e };
            self.seg_end[k] = end;
            self.seg_step[k] = (end - from[k]) / RAMP_SEGMENT as f32;
        }
        self.seg_start = from;
    }

    /// Advances time by `frames` without producing output (keeps the segment grid).
    pub fn skip(&mut self, frames: usize) {
        if self.all_settled() {
            // Segments of settled values start and end at their targets: only the grid moves.
            self.pos = (self.pos + frames) % RAMP_SEGMENT;
            return;
        }
        let mut left = frames;
        while left > 0 {
            let n = left.min(self.segment_left());
            self.advance(n);
            left -= n;
        }
    }

    /// Returns to the state after construction (values and targets = initial).
    pub fn reset(&mut self) {
        self.target = self.initial;
        self.seg_start = self.initial;
        self.seg_step = [0.0; N];
        self.seg_end = self.initial;
        self.pos = 0;
    }
}
