//! The occlusion shelf (acoustics.md §4): `y = gain·(lp + hf·(x − lp))`, where `lp` is two
//! cascaded one-pole low-passes at 1 kHz. `gain` applies below 1 kHz, `gain·hf` above.

use crate::denormal::flush_small;
use crate::one_pole::lowpass_coefficient;
use crate::smoothing::{
    DEFAULT_SAMPLE_RATE, RAMP_SEGMENT, Ramp, RampSet, SHELF_SMOOTHING_S, Smoothed,
};
use crate::{Complex, sanitize_sample_rate};

mod bank;
#[cfg(target_arch = "x86_64")]
mod transpose;

/// Shelves [`OcclusionShelf::process_bufs`] filters side by side.
pub const BANK_LANES: usize = 8;

/// Crossover of the shelf's low-pass pair: 1 kHz.
pub const SHELF_CROSSOVER_HZ: f32 = 1000.0;

/// Largest accepted shelf `gain` (targets are clamped to `0..=MAX_SHELF_GAIN`).
pub const MAX_SHELF_GAIN: f32 = 4.0;

/// Shelves filtered side by side by [`OcclusionShelf::process_lanes`] (one SIMD lane each).
pub const SHELF_LANES: usize = 4;

/// State of the two cascaded one-poles, written two steps ahead:
/// `s[n] = a·x[n] + (1−a)·a·x[n−1] + (1−a)²·s[n−2]` (the same filter as
/// `s[n] = a·x[n] + (1−a)·s[n−1]`, but the recursion spans two samples, so two
/// chains run in parallel and the filter costs about half the latency per sample).
#[derive(Clone, Copy, Debug, Default)]
struct LowPassState {
    /// Input one sample back.
    x1: f32,
    /// First low-pass one and two samples back.
    s1_1: f32,
    s1_2: f32,
    /// Second low-pass one and two samples back.
    s2_1: f32,
    s2_2: f32,
}

impl LowPassState {
    fn flush(&mut self) {
        self.x1 = flush_small(self.x1);
        self.s1_1 = flush_small(self.s1_1);
        self.s1_2 = flush_small(self.s1_2);
        self.s2_1 = flush_small(self.s2_1);
        self.s2_2 = flush_small(self.s2_2);
    }
}

/// [`LowPassState`] of `L` shelves, one lane each ([`SHELF_LANES`] for the SSE filter,
/// [`BANK_LANES`] for the bank).
#[derive(Clone, Copy, Debug)]
pub(crate) struct LaneState<const L: usize = SHELF_LANES> {
    x1: [f32; L],
    s1_1: [f32; L],
    s1_2: [f32; L],
    s2_1: [f32; L],
    s2_2: [f32; L],
}

impl<const L: usize> Default for LaneState<L> {
    fn default() -> Self {
        Self {
            x1: [0.0; L],
            s1_1: [0.0; L],
            s1_2: [0.0; L],
            s2_1: [0.0; L],
            s2_2: [0.0; L],
        }
    }
}

impl<const L: usize> LaneState<L> {
    fn get(&self, k: usize) -> LowPassState {
        LowPassState {
            x1: self.x1[k],
            s1_1: self.s1_1[k],
            s1_2: self.s1_2[k],
            s2_1: self.s2_1[k],
            s2_2: self.s2_2[k],
        }
    }

    fn set(&mut self, k: usize, s: LowPassState) {
        self.x1[k] = s.x1;
        self.s1_1[k] = s.s1_1;
        self.s1_2[k] = s.s1_2;
        self.s2_1[k] = s.s2_1;
        self.s2_2[k] = s.s2_2;
    }

    /// [`LowPassState::flush`] of the lanes where `lanes[k]` is true, all lanes at once (a
    /// select per value, which the compiler vectorises).
    pub(crate) fn flush_lanes(&mut self, lanes: [bool; L]) {
        for v in [
            &mut self.x1,
            &mut self.s1_1,
            &mut self.s1_2,
            &mut self.s2_1,
            &mut self.s2_2,
        ] {
            for (x, &f) in v.iter_mut().zip(&lanes) {
                let flushed = flush_small(*x);
                *x = if f { flushed } else { *x };
            }
        }
    }
}

/// Per-lane gains of one chunk: lane `k`'s value at frame `i` is
/// `start[k] + step[k]·(offset[k] + i)`, exactly as [`Ramp::at`] computes it; a constant chunk
/// (the `RAMPED = false` filters) uses `start` as it is.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LaneRamps<const L: usize = SHELF_LANES> {
    start: [f32; L],
    step: [f32; L],
    /// `offset` as `f32` (exact: offsets stay below 64).
    offset: [f32; L],
}

impl<const L: usize> Default for LaneRamps<L> {
    fn default() -> Self {
        Self {
            start: [0.0; L],
            step: [0.0; L],
            offset: [0.0; L],
        }
    }
}

impl<const L: usize> LaneRamps<L> {
    /// Constant gains.
    pub(crate) fn constant(values: [f32; L]) -> Self {
        Self {
            start: values,
            ..Self::default()
        }
    }

    /// The ramps of a [`RampSet`], one per lane.
    pub(crate) fn from_set(r: RampSet<L>) -> Self {
        Self {
            start: r.start,
            step: r.step,
            offset: [(r.offset as i32) as f32; L],
        }
    }

    pub(crate) fn set(&mut self, k: usize, r: Ramp) {
        self.start[k] = r.start;
        self.step[k] = r.step;
        self.offset[k] = (r.offset as i32) as f32;
    }
}

/// The shelves' filter over interleaved frames of `L` lanes, in place (lane-wise arithmetic):
/// the same operations, in the same order, as `process_chunk`, with constant gains
/// (`RAMPED = false`: `g.start`, `h.start`) or ramped ones (each lane's value as [`Ramp::at`]
/// computes it). Whole-lane `[f32; L]` arithmetic the compiler vectorises: the bank's filter
/// (eight lanes, one AVX2 register), the 4-lane filter on targets without SSE, and the
/// reference of the SSE version's tests.
#[inline(always)]
pub(crate) fn filter_rows_portable<const RAMPED: bool, const L: usize>(
    st: &mut LaneState<L>,
    rows: &mut [[f32; L]],
    (av, cav, c2v): ([f32; L], [f32; L], [f32; L]),
    g: LaneRamps<L>,
    h: LaneRamps<L>,
) {
    // The state in locals (registers) for the loop, not behind the reference.
    let LaneState {
        mut x1,
        mut s1_1,
        mut s1_2,
        mut s2_1,
        mut s2_2,
    } = *st;
    let (mut tg, mut th) = (g.offset, h.offset);
    for r in rows.iter_mut() {
        let xs = *r;
        let s1 = add(add(mul(av, xs), mul(cav, x1)), mul(c2v, s1_2));
        let s2 = add(add(mul(av, s1), mul(cav, s1_1)), mul(c2v, s2_2));
        x1 = xs;
        s1_2 = s1_1;
        s1_1 = s1;
        s2_2 = s2_1;
        s2_1 = s2;
        let (gv, hv) = if RAMPED {
            (add(g.start, mul(g.step, tg)), add(h.start, mul(h.step, th)))
        } else {
            (g.start, h.start)
        };
        *r = mul(gv, add(s2, mul(hv, sub(xs, s2))));
        if RAMPED {
            tg = add(tg, [1.0; L]);
            th = add(th, [1.0; L]);
        }
    }
    *st = LaneState {
        x1,
        s1_1,
        s1_2,
        s2_1,
        s2_2,
    };
}

/// The shelves' filter over interleaved frames, in place (no SSE: the portable one).
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse")))]
#[inline(always)]
pub(crate) fn filter_rows<const RAMPED: bool>(
    st: &mut LaneState,
    rows: &mut [[f32; SHELF_LANES]],
    coef: ([f32; SHELF_LANES], [f32; SHELF_LANES], [f32; SHELF_LANES]),
    g: LaneRamps,
    h: LaneRamps,
) {
    filter_rows_portable::<RAMPED, SHELF_LANES>(st, rows, coef, g, h);
}

/// The shelves' filter over interleaved frames, in place: [`filter_rows_sse`].
#[cfg(all(target_arch = "x86_64", target_feature = "sse"))]
#[inline(always)]
#[allow(unsafe_code)]
pub(crate) fn filter_rows<const RAMPED: bool>(
    st: &mut LaneState,
    rows: &mut [[f32; SHELF_LANES]],
    coef: ([f32; SHELF_LANES], [f32; SHELF_LANES], [f32; SHELF_LANES]),
    g: LaneRamps,
    h: LaneRamps,
) {
    // SAFETY: the only requirement of calling a `#[target_feature(enable = "sse")]` function
    // is that the CPU has SSE; this item is compiled only when the build's target features
    // include SSE (`cfg(target_feature = "sse")`, part of the x86-64 baseline), so every CPU
    // the binary may run on has it. The function itself is safe code.
    unsafe { filter_rows_sse::<RAMPED>(st, rows, coef, g, h) }
}

/// The filter with SSE registers (x86-64 baseline, safe intrinsics): the state stays in
/// registers across frames. The same IEEE operations in the same order as the portable
/// version and as `process_chunk`, so the results are identical.
#[cfg(all(target_arch = "x86_64", target_feature = "sse"))]
#[target_feature(enable = "sse")]
#[inline]
fn filter_rows_sse<const RAMPED: bool>(
    st: &mut LaneState,
    rows: &mut [[f32; SHELF_LANES]],
    (av, cav, c2v): ([f32; SHELF_LANES], [f32; SHELF_LANES], [f32; SHELF_LANES]),
    g: LaneRamps,
    h: LaneRamps,
) {
    use core::arch::x86_64::{
        __m128, _mm_add_ps, _mm_cvtss_f32, _mm_mul_ps, _mm_set1_ps, _mm_setr_ps, _mm_shuffle_ps,
        _mm_sub_ps,
    };
    let load = |v: [f32; SHELF_LANES]| _mm_setr_ps(v[0], v[1], v[2], v[3]);
    let store = |v: __m128| -> [f32; SHELF_LANES] {
        [
            _mm_cvtss_f32(v),
            _mm_cvtss_f32(_mm_shuffle_ps::<0b01_01_01_01>(v, v)),
            _mm_cvtss_f32(_mm_shuffle_ps::<0b10_10_10_10>(v, v)),
            _mm_cvtss_f32(_mm_shuffle_ps::<0b11_11_11_11>(v, v)),
        ]
    };
    let (a, ca, c2) = (load(av), load(cav), load(c2v));
    let (g0, gs, h0, hs) = (load(g.start), load(g.step), load(h.start), load(h.step));
    let one = _mm_set1_ps(1.0);
    let mut tg = load(g.offset);
    let mut th = load(h.offset);
    let mut x1 = load(st.x1);
    let mut s1_1 = load(st.s1_1);
    let mut s1_2 = load(st.s1_2);
    let mut s2_1 = load(st.s2_1);
    let mut s2_2 = load(st.s2_2);
    for r in rows.iter_mut() {
        let xs = load(*r);
        let s1 = _mm_add_ps(
            _mm_add_ps(_mm_mul_ps(a, xs), _mm_mul_ps(ca, x1)),
            _mm_mul_ps(c2, s1_2),
        );
        let s2 = _mm_add_ps(
            _mm_add_ps(_mm_mul_ps(a, s1), _mm_mul_ps(ca, s1_1)),
            _mm_mul_ps(c2, s2_2),
        );
        x1 = xs;
        s1_2 = s1_1;
        s1_1 = s1;
        s2_2 = s2_1;
        s2_1 = s2;
        let (gv, hv) = if RAMPED {
            (
                _mm_add_ps(g0, _mm_mul_ps(gs, tg)),
                _mm_add_ps(h0, _mm_mul_ps(hs, th)),
            )
        } else {
            (g0, h0)
        };
        *r = store(_mm_mul_ps(
            gv,
            _mm_add_ps(s2, _mm_mul_ps(hv, _mm_sub_ps(xs, s2))),
        ));
        if RAMPED {
            tg = _mm_add_ps(tg, one);
            th = _mm_add_ps(th, one);
        }
    }
    *st = LaneState {
        x1: store(x1),
        s1_1: store(s1_1),
        s1_2: store(s1_2),
        s2_1: store(s2_1),
        s2_2: store(s2_2),
    };
}

/// Lane-wise `a + b` (one SIMD add).
#[inline(always)]
fn add<const L: usize>(a: [f32; L], b: [f32; L]) -> [f32; L] {
    std::array::from_fn(|k| a[k] + b[k])
}

/// Lane-wise `a − b`.
#[inline(always)]
fn sub<const L: usize>(a: [f32; L], b: [f32; L]) -> [f32; L] {
    std::array::from_fn(|k| a[k] - b[k])
}

/// Lane-wise `a · b`.
#[inline(always)]
fn mul<const L: usize>(a: [f32; L], b: [f32; L]) -> [f32; L] {
    std::array::from_fn(|k| a[k] * b[k])
}

/// The occlusion shelf with smoothed `gain` and `hf` (80 ms, [`SHELF_SMOOTHING_S`]).
///
/// - Exact bypass: while `gain` and `hf` are both exactly 1 (current and target), the
///   buffer is left untouched.
/// - While `hf` is exactly 1 only the gain ramp is applied (the low-passes are idle and
///   cleared; they restart from 0 when `hf` moves, which is inaudible because `1 − hf`
///   starts at 0).
/// - `gain` is clamped to `0..=4`, `hf` to `0..=1`; NaN targets are ignored.
#[derive(Clone, Debug)]
pub struct OcclusionShelf {
    gain: Smoothed,
    hf: Smoothed,
    a: f32,
    /// Recursion state, see [`LowPassState`].
    lp: LowPassState,
    sample_rate: f32,
}

impl Default for OcclusionShelf {
    fn default() -> Self {
        Self::new()
    }
}

impl OcclusionShelf {
    /// A shelf at unity (bypassed), prepared for 48 kHz.
    #[must_use]
    pub fn new() -> Self {
        let mut s = Self {
            gain: Smoothed::new(1.0, SHELF_SMOOTHING_S, 0.0, MAX_SHELF_GAIN),
            hf: Smoothed::new(1.0, SHELF_SMOOTHING_S, 0.0, 1.0),
            a: 0.0,
            lp: LowPassState::default(),
            sample_rate: DEFAULT_SAMPLE_RATE,
        };
        s.prepare(DEFAULT_SAMPLE_RATE, 0);
        s
    }

    /// Sets the sample rate (no buffers are needed; `max_block` is unused).
    pub fn prepare(&mut self, sample_rate: f32, _max_block: usize) {
        self.sample_rate = sanitize_sample_rate(sample_rate);
        self.a = lowpass_coefficient(SHELF_CROSSOVER_HZ, self.sample_rate);
        self.gain.prepare(self.sample_rate);
        self.hf.prepare(self.sample_rate);
    }

    /// Sets the targets approached with the 80 ms time constant.
    pub fn set_targets(&mut self, gain: f32, hf: f32) {
        self.gain.set_target(gain);
        self.hf.set_target(hf);
    }

    /// Jumps to `gain` and `hf` without a ramp (a new voice starts at its targets).
    pub fn set_immediate(&mut self, gain: f32, hf: f32) {
        self.gain.set_immediate(gain);
        self.hf.set_immediate(hf);
    }

    /// The smoothed `gain`.
    #[must_use]
    pub fn gain(&self) -> &Smoothed {
        &self.gain
    }

    /// The smoothed `hf`.
    #[must_use]
    pub fn hf(&self) -> &Smoothed {
        &self.hf
    }

    /// True while the shelf passes its input unchanged (all values and targets 1).
    #[must_use]
    pub fn is_bypassed(&self) -> bool {
        self.gain.is_settled()
            && self.hf.is_settled()
            && self.gain.target() == 1.0
            && self.hf.target() == 1.0
    }

    /// True when the shelf is filtering at fixed `gain` and `hf` (both settled, `hf ≠ 1`):
    /// the state in which [`OcclusionShelf::process_lanes`] filters it together with others.
    #[must_use]
    pub fn is_steady(&self) -> bool {
        self.gain.is_settled() && self.hf.is_settled() && self.hf.target() != 1.0
    }

    /// True when [`OcclusionShelf::process_bufs`] can filter the shelf together with others:
    /// it filters (not bypassed) and no chunk of the coming frames has `hf` exactly 1 (its
    /// target is not 1, and the segment in progress is not held at 1), whether `gain` and `hf`
    /// are settled or ramping.
    #[must_use]
    pub fn is_lane_ready(&self) -> bool {
        self.hf.target() != 1.0 && !self.hf.segment_is_exactly(1.0)
    }

    /// Filters each `bufs[k]` in place with `shelves[k]`; exactly the same result, bit for bit,
    /// as calling [`OcclusionShelf::process`] on each pair (pairs beyond the shorter slice are
    /// left alone). Never allocates.
    ///
    /// Up to [`SHELF_LANES`] shelves that are [steady](OcclusionShelf::is_steady), share a
    /// sample rate and get buffers of one length run in one loop, one shelf per SIMD lane
    /// (the low-pass recursion is serial within a shelf but independent across shelves);
    /// the others are processed one by one.
    pub fn process_lanes(shelves: &mut [&mut OcclusionShelf], bufs: &mut [&mut [f32]]) {
        for (sh, bu) in shelves
            .chunks_mut(SHELF_LANES)
            .zip(bufs.chunks_mut(SHELF_LANES))
        {
            let k = sh.len().min(bu.len());
            let (sh, bu) = (&mut sh[..k], &mut bu[..k]);
            let len = bu.first().map_or(0, |b| b.len());
            let a = sh.first().map_or(0.0, |s| s.a);
            let lanes_ok = k >= 2
                && sh
                    .iter()
                    .all(|s| s.is_steady() && s.a.to_bits() == a.to_bits())
                && bu.iter().all(|b| b.len() == len);
            if lanes_ok {
                Self::process_steady_lanes(sh, bu, len);
            } else {
                for (s, b) in sh.iter_mut().zip(bu.iter_mut()) {
                    s.process(b);
                }
            }
        }
    }

    /// [`OcclusionShelf::process_lanes`] for 2..=4 steady shelves with equal `a` and buffers
    /// of `len` frames. Mirrors `process` exactly: each lane is cut at its own 64-frame
    /// segment boundaries (where its state is flushed), which only splits the other lanes'
    /// constant-gain chunks (splitting those changes nothing).
    fn process_steady_lanes(
        shelves: &mut [&mut OcclusionShelf],
        bufs: &mut [&mut [f32]],
        len: usize,
    ) {
        const L: usize = SHELF_LANES;
        let a = shelves.first().map_or(0.0, |s| s.a);
        let c = 1.0 - a;
        let ca = c * a;
        let c2 = c * c;
        let (av, cav, c2v) = ([a; L], [ca; L], [c2; L]);
        // Lane state, unused lanes stay 0 and filter silence.
        let mut st = LaneState::default();
        for (k, s) in shelves.iter().enumerate() {
            st.set(k, s.lp);
        }
        let mut g = [0.0f32; L];
        let mut h = [0.0f32; L];
        // Unused lanes hold silence throughout (zero state, zero input: zero output).
        let mut rows = [[0.0f32; L]; RAMP_SEGMENT];
        let mut done = 0;
        while done < len {
            let m = shelves
                .iter()
                .map(|s| s.gain.segment_left())
                .fold(len - done, usize::min);
            for (k, s) in shelves.iter_mut().enumerate() {
                // Settled: constant ramps, `at(i)` is the same for every `i`.
                g[k] = s.gain.advance(m).at(0);
                h[k] = s.hf.advance(m).at(0);
            }
            // Interleave the chunk (frame-major, one lane per shelf), filter it with whole-lane
            // arithmetic (one SIMD register per state), and write it back.
            let rows = &mut rows[..m];
            let range = done..done + m;
            if let [b0, b1, b2, b3] = bufs {
                let (b0, b1) = (&b0[range.clone()], &b1[range.clone()]);
                let (b2, b3) = (&b2[range.clone()], &b3[range.clone()]);
                for (r, ((x0, x1), (x2, x3))) in rows
                    .iter_mut()
                    .zip(b0.iter().zip(b1).zip(b2.iter().zip(b3)))
                {
                    *r = [*x0, *x1, *x2, *x3];
                }
            } else {
                for (k, b) in bufs.iter().enumerate() {
                    for (r, x) in rows.iter_mut().zip(&b[range.clone()]) {
                        r[k] = *x;
                    }
                }
            }
            let (gc, hc) = (LaneRamps::constant(g), LaneRamps::constant(h));
            filter_rows::<false>(&mut st, rows, (av, cav, c2v), gc, hc);
            if let [b0, b1, b2, b3] = bufs {
                let (b0, b1) = (&mut b0[range.clone()], &mut b1[range.clone()]);
                let (b2, b3) = (&mut b2[range.clone()], &mut b3[range]);
                let outs = b0
                    .iter_mut()
                    .zip(b1.iter_mut())
                    .zip(b2.iter_mut().zip(b3.iter_mut()));
                for (r, ((y0, y1), (y2, y3))) in rows.iter().zip(outs) {
                    (*y0, *y1, *y2, *y3) = (r[0], r[1], r[2], r[3]);
                }
            } else {
                for (k, b) in bufs.iter_mut().enumerate() {
                    for (r, y) in rows.iter().zip(&mut b[range.clone()]) {
                        *y = r[k];
                    }
                }
            }
            for (k, s) in shelves.iter().enumerate() {
                if s.gain.at_segment_boundary() {
                    let mut lp = st.get(k);
                    lp.flush();
                    st.set(k, lp);
                }
            }
            done += m;
        }
        for (k, s) in shelves.iter_mut().enumerate() {
            s.lp = st.get(k);
        }
    }

    /// Processes one sample (same result as [`OcclusionShelf::process`] on a 1-frame block).
    pub fn process_sample(&mut self, x: f32) -> f32 {
        let mut b = [x];
        self.process(&mut b);
        b[0]
    }

    /// Filters `buf` in place. Never allocates.
    pub fn process(&mut self, buf: &mut [f32]) {
        let mut rest = buf;
        while !rest.is_empty() {
            let n = rest.len().min(self.gain.segment_left());
            let (chunk, tail) = rest.split_at_mut(n);
            let g = self.gain.advance(n);
            let h = self.hf.advance(n);
            self.process_chunk(chunk, g, h);
            if self.gain.at_segment_boundary() {
                self.lp.flush();
            }
            rest = tail;
        }
    }

    #[inline]
    fn process_chunk(&mut self, chunk: &mut [f32], g: Ramp, h: Ramp) {
        if h.is_exactly(1.0) {
            self.lp = LowPassState::default();
            if g.is_exactly(1.0) {
                return;
            }
            for (i, x) in chunk.iter_mut().enumerate() {
                *x *= g.at(i);
            }
            return;
        }
        // 1. The low-pass pair (the only serial part), into a stack scratch.
        let n = chunk.len().min(RAMP_SEGMENT);
        let chunk = &mut chunk[..n];
        let mut lp = [0.0f32; RAMP_SEGMENT];
        let lp = &mut lp[..n];
        let a = self.a;
        let c = 1.0 - a;
        let ca = c * a;
        let c2 = c * c;
        let LowPassState {
            mut x1,
            mut s1_1,
            mut s1_2,
            mut s2_1,
            mut s2_2,
        } = self.lp;
        for (o, &x) in lp.iter_mut().zip(chunk.iter()) {
            let s1 = a * x + ca * x1 + c2 * s1_2;
            let s2 = a * s1 + ca * s1_1 + c2 * s2_2;
            x1 = x;
            s1_2 = s1_1;
            s1_1 = s1;
            s2_2 = s2_1;
            s2_1 = s2;
            *o = s2;
        }
        self.lp = LowPassState {
            x1,
            s1_1,
            s1_2,
            s2_1,
            s2_2,
        };
        // 2. The shelf mix with the ramps (vectorises).
        for (i, (x, &l)) in chunk.iter_mut().zip(lp.iter()).enumerate() {
            *x = g.at(i) * (l + h.at(i) * (*x - l));
        }
    }

    /// Returns to the state after [`OcclusionShelf::new`] + `prepare` (unity, cleared).
    pub fn reset(&mut self) {
        self.gain.reset();
        self.hf.reset();
        self.lp = LowPassState::default();
    }

    /// The analytic magnitude response `|H(e^{jω})|` of the shelf with fixed `gain` and
    /// `hf` at `freq_hz`, for `sample_rate`: `gain·|L² + hf·(1 − L²)|` with the one-pole
    /// `L(z) = a / (1 − (1 − a) z⁻¹)`.
    /// Uses the same `f32` coefficient as the filter.
    #[must_use]
    pub fn analytic_magnitude(sample_rate: f32, freq_hz: f32, gain: f32, hf: f32) -> f64 {
        let fs = f64::from(sanitize_sample_rate(sample_rate));
        let a = f64::from(lowpass_coefficient(SHELF_CROSSOVER_HZ, fs as f32));
        let w = core::f64::consts::TAU * f64::from(freq_hz) / fs;
        let z1 = Complex::new(w.cos(), -w.sin());
        let den = Complex::new(1.0, 0.0).sub(z1.scale(1.0 - a));
        let l = Complex::new(a, 0.0).div(den);
        let l2 = l.mul(l);
        let one = Complex::new(1.0, 0.0);
        let h = l2
            .add(one.sub(l2).scale(f64::from(hf)))
            .scale(f64::from(gain));
        h.abs()
    }
}
