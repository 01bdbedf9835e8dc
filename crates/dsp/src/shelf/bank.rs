//! Eight occlusion shelves filtered side by side: [`OcclusionShelf::process_bufs`].
//!
//! The low-pass recursion is serial within a shelf but independent across shelves, so the
//! mixer filters up to [`BANK_LANES`] voices' shelves in one loop, one vector lane per shelf:
//! each segment's frames are interleaved (frame-major rows, 4×4 transposes in registers),
//! filtered with whole-row arithmetic and written back. The row arithmetic is plain Rust over
//! `[f32; 8]`; with AVX2 ([`crate::simd`]) a row is one 256-bit register; on the baseline the
//! bank runs as two halves of four lanes through the crate's SSE filter. Either way each lane performs exactly the operations of
//! [`OcclusionShelf::process`], in the same order, so the bits are the same.

use wide::f32x4;

#[cfg(target_arch = "x86_64")]
use super::filter_rows_portable;
use super::{BANK_LANES, LaneRamps, LaneState, OcclusionShelf, SHELF_LANES};
use crate::smoothing::{RAMP_SEGMENT, RampSet, Smoothed, SmoothedSet};

const L: usize = BANK_LANES;

/// One value per lane.
type Row = [f32; L];

/// The bank's filter state, one lane per shelf.
type BankState = LaneState<L>;

/// The bank's per-lane gains of one chunk.
type BankRamps = LaneRamps<L>;

/// The filter's coefficients as rows: `a`, `(1−a)·a`, `(1−a)²`.
type Coefficients = (Row, Row, Row);

impl OcclusionShelf {
    /// Filters `bufs[k]` in place with `shelves[k]`, the 1..=[`BANK_LANES`] shelves side by
    /// side (one vector lane each), which must all be
    /// [lane-ready](OcclusionShelf::is_lane_ready) (steady or ramping) and share a sample rate.
    /// Bit-identical to [`OcclusionShelf::process`] on each buffer. The frames filtered are
    /// those of the shortest buffer; buffers beyond `shelves.len()` are scratch (left with
    /// unspecified values).
    ///
    /// Returns `false`, touching nothing, when the shelves do not qualify (then filter them
    /// with `process` / `process_lanes`). Never allocates.
    pub fn process_bufs(shelves: &mut [&mut OcclusionShelf], bufs: [&mut [f32]; L]) -> bool {
        let a = shelves.first().map_or(0.0, |s| s.a);
        let ok = !shelves.is_empty()
            && shelves.len() <= L
            && shelves
                .iter()
                .all(|s| s.is_lane_ready() && s.a.to_bits() == a.to_bits());
        if !ok {
            return false;
        }
        let c = 1.0 - a;
        let coef = ([a; L], [c * a; L], [c * c; L]);
        let mut st = BankState::default();
        for (k, s) in shelves.iter().enumerate() {
            st.set(k, s.lp);
        }
        let len = bufs.iter().map(|b| b.len()).min().unwrap_or(0);
        let mut bufs = bufs.map(|b| &mut b[..len]);
        // One segment's frames, interleaved (frame-major, one lane per shelf).
        let mut rows = [[0.0f32; L]; RAMP_SEGMENT];
        // Shelves on one grid (the mixer's voices) move their smoothers as two sets, one lane
        // per shelf (lanes past the shelves copy the last one): a segment start is whole-row
        // arithmetic, with the operations of each smoother's own.
        let last = shelves.len() - 1;
        let sets = SmoothedSet::<L>::load(std::array::from_fn(|k| &shelves[k.min(last)].gain))
            .zip(SmoothedSet::<L>::load(std::array::from_fn(|k| {
                &shelves[k.min(last)].hf
            })))
            .filter(|(g, h)| g.segment_left() == h.segment_left());
        if let Some((mut gain, mut hf)) = sets {
            let mut done = 0;
            while done < len {
                let m = gain.segment_left().min(len - done);
                let (rg, rh) = (gain.advance(m), hf.advance(m));
                let rows = &mut rows[..m];
                if rg.step.iter().chain(&rh.step).any(|v| *v != 0.0) {
                    let (g, h) = (BankRamps::from_set(rg), BankRamps::from_set(rh));
                    filter_chunk::<true>(&mut st, &mut bufs, done, rows, coef, g, h);
                } else {
                    // A constant ramp's `at(i)` is the same for every `i`.
                    let at0 = |r: RampSet<L>| std::array::from_fn(|k| r.ramp(k).at(0));
                    let (g, h) = (BankRamps::constant(at0(rg)), BankRamps::constant(at0(rh)));
                    filter_chunk::<false>(&mut st, &mut bufs, done, rows, coef, g, h);
                }
                if gain.at_segment_boundary() {
                    st.flush_lanes([true; L]);
                }
                done += m;
            }
            gain.store(shelves.iter_mut().map(|s| &mut s.gain));
            hf.store(shelves.iter_mut().map(|s| &mut s.hf));
            for (k, s) in shelves.iter_mut().enumerate() {
                s.lp = st.get(k);
            }
            return true;
        }
        let mut done = 0;
        while done < len {
            let m = shelves
                .iter()
                .map(|s| s.gain.segment_left())
                .fold(len - done, usize::min);
            let mut moving = false;
            let (mut g, mut h) = (BankRamps::default(), BankRamps::default());
            let (mut gc, mut hc) = ([0.0f32; L], [0.0f32; L]);
            for (k, s) in shelves.iter_mut().enumerate() {
                let [rg, rh] = Smoothed::advance_all([&mut s.gain, &mut s.hf], m);
                moving |= !rg.is_constant() || !rh.is_constant();
                g.set(k, rg);
                h.set(k, rh);
                // A constant ramp's `at(i)` is the same for every `i`.
                (gc[k], hc[k]) = (rg.at(0), rh.at(0));
            }
            let rows = &mut rows[..m];
            if moving {
                filter_chunk::<true>(&mut st, &mut bufs, done, rows, coef, g, h);
            } else {
                let (g, h) = (BankRamps::constant(gc), BankRamps::constant(hc));
                filter_chunk::<false>(&mut st, &mut bufs, done, rows, coef, g, h);
            }
            let mut boundary = [false; L];
            for (b, s) in boundary.iter_mut().zip(shelves.iter()) {
                *b = s.gain.at_segment_boundary();
            }
            st.flush_lanes(boundary);
            done += m;
        }
        for (k, s) in shelves.iter_mut().enumerate() {
            s.lp = st.get(k);
        }
        true
    }
}

/// Filters frames `start..start + rows.len()` of the eight buffers: interleaves them into
/// `rows`, runs the filter over the rows and writes them back. Constant gains
/// (`RAMPED = false`: a constant ramp's value is its `start`) or ramped ones (each lane's value
/// as [`Ramp::at`] computes it). With AVX2 a row of eight lanes is one register; on the
/// baseline the two halves of the bank run one after the other through the crate's 4-lane SSE
/// filter (eight lanes of state and gains do not fit in sixteen 128-bit registers).
fn filter_chunk<const RAMPED: bool>(
    st: &mut BankState,
    bufs: &mut [&mut [f32]; L],
    start: usize,
    rows: &mut [Row],
    coef: Coefficients,
    g: BankRamps,
    h: BankRamps,
) {
    #[cfg(target_arch = "x86_64")]
    if crate::simd::avx2() {
        #[allow(unsafe_code)]
        // SAFETY: the one requirement of calling a `#[target_feature(enable = "avx2")]`
        // function is that the CPU has AVX2, which `avx2()` has just checked.
        unsafe {
            filter_chunk_avx2::<RAMPED>(st, bufs, start, rows, coef, g, h);
        }
        return;
    }
    filter_chunk_halves::<RAMPED>(st, bufs, start, rows.len(), coef, g, h);
}

/// [`filter_chunk`] with eight lanes per row, compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn filter_chunk_avx2<const RAMPED: bool>(
    st: &mut BankState,
    bufs: &mut [&mut [f32]; L],
    start: usize,
    rows: &mut [Row],
    coef: Coefficients,
    g: BankRamps,
    h: BankRamps,
) {
    // Whole groups of eight frames through 8×8 transposes, any rest four (or one) at a time.
    let done = super::transpose::interleave8(bufs, start, rows);
    interleave(bufs, start + done, &mut rows[done..]);
    filter_rows_portable::<RAMPED, L>(st, rows, coef, g, h);
    let done = super::transpose::deinterleave8(rows, bufs, start);
    deinterleave(&rows[done..], bufs, start + done);
}

/// [`filter_chunk`] as two banks of four lanes (the baseline's registers).
fn filter_chunk_halves<const RAMPED: bool>(
    st: &mut BankState,
    bufs: &mut [&mut [f32]; L],
    start: usize,
    m: usize,
    (av, cav, c2v): Coefficients,
    g: BankRamps,
    h: BankRamps,
) {
    const H: usize = SHELF_LANES;
    let half = |r: &Row, k: usize| -> [f32; H] { std::array::from_fn(|j| r[k * H + j]) };
    let mut rows = [[0.0f32; H]; RAMP_SEGMENT];
    let rows = &mut rows[..m.min(RAMP_SEGMENT)];
    for k in 0..L / H {
        let ramps = |r: &BankRamps| LaneRamps {
            start: half(&r.start, k),
            step: half(&r.step, k),
            offset: half(&r.offset, k),
        };
        let mut lanes = LaneState {
            x1: half(&st.x1, k),
            s1_1: half(&st.s1_1, k),
            s1_2: half(&st.s1_2, k),
            s2_1: half(&st.s2_1, k),
            s2_2: half(&st.s2_2, k),
        };
        let coef = (half(&av, k), half(&cav, k), half(&c2v, k));
        let (b0, rest) = bufs[k * H..].split_at_mut(1);
        let (b1, rest) = rest.split_at_mut(1);
        let (b2, b3) = rest.split_at_mut(1);
        let mut quad = [&mut *b0[0], &mut *b1[0], &mut *b2[0], &mut *b3[0]];
        interleave4(&quad, start, rows);
        super::filter_rows::<RAMPED>(&mut lanes, rows, coef, ramps(&g), ramps(&h));
        deinterleave4(rows, &mut quad, start);
        for j in 0..H {
            let l = k * H + j;
            st.x1[l] = lanes.x1[j];
            st.s1_1[l] = lanes.s1_1[j];
            st.s1_2[l] = lanes.s1_2[j];
            st.s2_1[l] = lanes.s2_1[j];
            st.s2_2[l] = lanes.s2_2[j];
        }
    }
}

/// `rows[i][k] = bufs[k][start + i]` for four buffers (one 4×4 transpose per four frames).
#[inline(always)]
fn interleave4(bufs: &[&mut [f32]; SHELF_LANES], start: usize, rows: &mut [[f32; SHELF_LANES]]) {
    let mut quads = rows.chunks_exact_mut(4);
    let mut i = start;
    for q in &mut quads {
        let t = f32x4::transpose(std::array::from_fn(|k| load4(bufs[k], i)));
        for (r, v) in q.iter_mut().zip(t) {
            store4(r, 0, v);
        }
        i += 4;
    }
    for (j, r) in quads.into_remainder().iter_mut().enumerate() {
        *r = std::array::from_fn(|k| bufs[k][i + j]);
    }
}

/// `bufs[k][start + i] = rows[i][k]` for four buffers (the inverse of [`interleave4`]).
#[inline(always)]
fn deinterleave4(rows: &[[f32; SHELF_LANES]], bufs: &mut [&mut [f32]; SHELF_LANES], start: usize) {
    let mut quads = rows.chunks_exact(4);
    let mut i = start;
    for q in &mut quads {
        let t = f32x4::transpose(std::array::from_fn(|j| load4(&q[j], 0)));
        for (k, v) in t.into_iter().enumerate() {
            store4(bufs[k], i, v);
        }
        i += 4;
    }
    for (j, r) in quads.remainder().iter().enumerate() {
        for (b, x) in bufs.iter_mut().zip(r) {
            b[i + j] = *x;
        }
    }
}

/// Four consecutive values of `s` from `i` as a vector (one unaligned load).
#[inline(always)]
fn load4(s: &[f32], i: usize) -> f32x4 {
    let mut v = [0.0f32; 4];
    v.copy_from_slice(&s[i..i + 4]);
    f32x4::new(v)
}

/// Stores `v` at `s[i..i + 4]` (one unaligned store).
#[inline(always)]
fn store4(s: &mut [f32], i: usize, v: f32x4) {
    s[i..i + 4].copy_from_slice(&v.to_array());
}

/// `rows[i][k] = bufs[k][start + i]`, four frames at a time (two 4×4 transposes).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn interleave(bufs: &[&mut [f32]; L], start: usize, rows: &mut [Row]) {
    let m = rows.len();
    let mut quads = rows.chunks_exact_mut(4);
    let mut i = start;
    for q in &mut quads {
        let lo = f32x4::transpose(std::array::from_fn(|k| load4(bufs[k], i)));
        let hi = f32x4::transpose(std::array::from_fn(|k| load4(bufs[4 + k], i)));
        for ((r, lo), hi) in q.iter_mut().zip(lo).zip(hi) {
            store4(r, 0, lo);
            store4(r, 4, hi);
        }
        i += 4;
    }
    for (j, r) in quads.into_remainder().iter_mut().enumerate() {
        *r = std::array::from_fn(|k| bufs[k][i + j]);
    }
    debug_assert!(i <= start + m);
}

/// `bufs[k][start + i] = rows[i][k]` (the inverse of [`interleave`]).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn deinterleave(rows: &[Row], bufs: &mut [&mut [f32]; L], start: usize) {
    let mut quads = rows.chunks_exact(4);
    let mut i = start;
    for q in &mut quads {
        let lo = f32x4::transpose(std::array::from_fn(|j| load4(&q[j], 0)));
        let hi = f32x4::transpose(std::array::from_fn(|j| load4(&q[j], 4)));
        for (k, v) in lo.into_iter().enumerate() {
            store4(bufs[k], i, v);
        }
        for (k, v) in hi.into_iter().enumerate() {
            store4(bufs[4 + k], i, v);
        }
        i += 4;
    }
    for (j, r) in quads.remainder().iter().enumerate() {
        for (b, x) in bufs.iter_mut().zip(r) {
            b[i + j] = *x;
        }
    }
}
