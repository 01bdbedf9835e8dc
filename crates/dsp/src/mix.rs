//! One pass over a voice's signal into several outputs: the dry pair and the four reverb sends.
//!
//! Each kernel adds `x[i]·g` into every output, with constant gains or with ramps
//! ([`Ramp::at`]: `start + step·(offset + i)`), over the length of `x` (the outputs must be at
//! least as long; longer ones are used up to `x.len()`). The products and sums are exactly those
//! of one [`crate::mix_ramp`] pass per output: a mix in one pass gives the same bits as the
//! same mix output by output. Compiled for the baseline and for AVX2 ([`crate::simd`]).

use crate::simd::multiversion;
use crate::smoothing::{FRAMES, Ramp, RampSet};

/// True when the ramps share one offset (one frame index for all of them).
#[inline(always)]
fn shared_offset(ramps: &[Ramp]) -> bool {
    ramps.iter().all(|r| r.offset == ramps[0].offset)
}

multiversion! {
    /// `left[i] += x[i]·gains[0]`, `right[i] += x[i]·gains[1]`.
    pub fn mix_stereo(x: &[f32], left: &mut [f32], right: &mut [f32], gains: [f32; 2]) {
        let n = x.len();
        let (l, r) = (&mut left[..n], &mut right[..n]);
        let [gl, gr] = gains;
        for ((v, ol), or) in x.iter().zip(l.iter_mut()).zip(r.iter_mut()) {
            *ol += v * gl;
            *or += v * gr;
        }
    }
}

multiversion! {
    /// `left[i] += x[i]·ramps[0].at(i)`, `right[i] += x[i]·ramps[1].at(i)`.
    pub fn mix_stereo_ramped(x: &[f32], left: &mut [f32], right: &mut [f32], ramps: [Ramp; 2]) {
        let n = x.len();
        let (l, r) = (&mut left[..n], &mut right[..n]);
        let [rl, rr] = ramps;
        let outs = x.iter().zip(l.iter_mut()).zip(r.iter_mut());
        if let Some(ts) = rl.frames(n).filter(|_| shared_offset(&ramps)) {
            for (((v, ol), or), t) in outs.zip(ts) {
                *ol += v * (rl.start + rl.step * t);
                *or += v * (rr.start + rr.step * t);
            }
        } else {
            for (i, ((v, ol), or)) in outs.enumerate() {
                *ol += v * rl.at(i);
                *or += v * rr.at(i);
            }
        }
    }
}

/// The six outputs of a voice with all four sends open: left, right, sends 0..4.
pub struct SixOutputs<'a> {
    /// Dry left.
    pub left: &'a mut [f32],
    /// Dry right.
    pub right: &'a mut [f32],
    /// The reverb bus inputs, one per slot.
    pub sends: [&'a mut [f32]; 4],
}

impl SixOutputs<'_> {
    /// The frames `r` of every output (panics if an output is shorter than `r.end`).
    pub fn range(&mut self, r: std::ops::Range<usize>) -> SixOutputs<'_> {
        let [s0, s1, s2, s3] = &mut self.sends;
        SixOutputs {
            left: &mut self.left[r.clone()],
            right: &mut self.right[r.clone()],
            sends: [
                &mut s0[r.clone()],
                &mut s1[r.clone()],
                &mut s2[r.clone()],
                &mut s3[r],
            ],
        }
    }

    /// `out[k][i] += x[i]·gains[k]` (outputs in the order left, right, sends 0..4).
    pub fn mix(&mut self, x: &[f32], gains: [f32; 6]) {
        let [s0, s1, s2, s3] = &mut self.sends;
        mix_six(x, self.left, self.right, s0, s1, s2, s3, gains);
    }

    /// `out[k][i] += x[i]·ramps[k].at(i)` (outputs in the order left, right, sends 0..4).
    pub fn mix_ramped(&mut self, x: &[f32], ramps: [Ramp; 6]) {
        let [s0, s1, s2, s3] = &mut self.sends;
        mix_six_ramped(x, self.left, self.right, s0, s1, s2, s3, ramps);
    }

    /// [`SixOutputs::mix_ramped`] over consecutive pieces of `x`: piece `k` covers the next
    /// `pieces[k].frames` frames with its own ramps (a voice's smoothing segments, mixed in
    /// one call instead of one call each). The same products and sums as one `mix_ramped` per
    /// piece. Pieces past the end of `x` (or of an output) are cut there.
    pub fn mix_pieces(&mut self, x: &[f32], pieces: &[SixRamps]) {
        let [s0, s1, s2, s3] = &mut self.sends;
        mix_six_pieces(x, self.left, self.right, s0, s1, s2, s3, pieces);
    }
}

/// One piece of a six-output mix for [`SixOutputs::mix_pieces`]: its length and the ramps of
/// its outputs (left, right, sends 0..4), which share one offset (a voice's gains on one grid).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SixRamps {
    /// Frames of `x` the piece covers.
    pub frames: usize,
    /// The outputs' gains over the piece.
    pub ramps: RampSet<6>,
}

/// One piece of [`mix_six_pieces`] (and of [`mix_six_ramped`] when its ramps share an offset),
/// inlined into each of their compiled copies: the frame indices read from a table.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn six_piece(
    x: &[f32],
    o0: &mut [f32],
    o1: &mut [f32],
    o2: &mut [f32],
    o3: &mut [f32],
    o4: &mut [f32],
    o5: &mut [f32],
    r: &RampSet<6>,
) {
    let n = x.len();
    let (o0, o1, o2) = (&mut o0[..n], &mut o1[..n], &mut o2[..n]);
    let (o3, o4, o5) = (&mut o3[..n], &mut o4[..n], &mut o5[..n]);
    let [a0, a1, a2, a3, a4, a5] = r.start;
    let [b0, b1, b2, b3, b4, b5] = r.step;
    match FRAMES.get(r.offset..r.offset.saturating_add(n)) {
        Some(ts) => {
            let ts = &ts[..n];
            for i in 0..n {
                let v = x[i];
                let t = ts[i];
                o0[i] += v * (a0 + b0 * t);
                o1[i] += v * (a1 + b1 * t);
                o2[i] += v * (a2 + b2 * t);
                o3[i] += v * (a3 + b3 * t);
                o4[i] += v * (a4 + b4 * t);
                o5[i] += v * (a5 + b5 * t);
            }
        }
        None => six_at(x, o0, o1, o2, o3, o4, o5, r.ramps()),
    }
}

/// One piece with each output's frame index converted as [`Ramp::at`] does (ramps with their
/// own offsets, or a piece running past one segment).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn six_at(
    x: &[f32],
    o0: &mut [f32],
    o1: &mut [f32],
    o2: &mut [f32],
    o3: &mut [f32],
    o4: &mut [f32],
    o5: &mut [f32],
    r: [Ramp; 6],
) {
    let n = x.len();
    let (o0, o1, o2) = (&mut o0[..n], &mut o1[..n], &mut o2[..n]);
    let (o3, o4, o5) = (&mut o3[..n], &mut o4[..n], &mut o5[..n]);
    for i in 0..n {
        let v = x[i];
        o0[i] += v * r[0].at(i);
        o1[i] += v * r[1].at(i);
        o2[i] += v * r[2].at(i);
        o3[i] += v * r[3].at(i);
        o4[i] += v * r[4].at(i);
        o5[i] += v * r[5].at(i);
    }
}

multiversion! {
    /// [`SixOutputs::mix_pieces`] (separate slices, so the compiler knows they do not overlap).
    #[allow(clippy::too_many_arguments)]
    fn mix_six_pieces(
        x: &[f32],
        o0: &mut [f32],
        o1: &mut [f32],
        o2: &mut [f32],
        o3: &mut [f32],
        o4: &mut [f32],
        o5: &mut [f32],
        pieces: &[SixRamps],
    ) {
        let n = [o0.len(), o1.len(), o2.len(), o3.len(), o4.len(), o5.len()]
            .into_iter()
            .fold(x.len(), usize::min);
        let mut done = 0;
        for p in pieces {
            let m = p.frames.min(n - done);
            let r = done..done + m;
            six_piece(
                &x[r.clone()],
                &mut o0[r.clone()],
                &mut o1[r.clone()],
                &mut o2[r.clone()],
                &mut o3[r.clone()],
                &mut o4[r.clone()],
                &mut o5[r],
                &p.ramps,
            );
            done += m;
        }
    }
}

multiversion! {
    /// [`SixOutputs::mix`] (separate slices, so the compiler knows they do not overlap).
    #[allow(clippy::too_many_arguments)]
    fn mix_six(
        x: &[f32],
        o0: &mut [f32],
        o1: &mut [f32],
        o2: &mut [f32],
        o3: &mut [f32],
        o4: &mut [f32],
        o5: &mut [f32],
        g: [f32; 6],
    ) {
        let n = x.len();
        let (o0, o1, o2) = (&mut o0[..n], &mut o1[..n], &mut o2[..n]);
        let (o3, o4, o5) = (&mut o3[..n], &mut o4[..n], &mut o5[..n]);
        for i in 0..n {
            let v = x[i];
            o0[i] += v * g[0];
            o1[i] += v * g[1];
            o2[i] += v * g[2];
            o3[i] += v * g[3];
            o4[i] += v * g[4];
            o5[i] += v * g[5];
        }
    }
}

multiversion! {
    /// [`SixOutputs::mix_ramped`] (separate slices, so the compiler knows they do not overlap).
    #[allow(clippy::too_many_arguments)]
    fn mix_six_ramped(
        x: &[f32],
        o0: &mut [f32],
        o1: &mut [f32],
        o2: &mut [f32],
        o3: &mut [f32],
        o4: &mut [f32],
        o5: &mut [f32],
        r: [Ramp; 6],
    ) {
        if shared_offset(&r) {
            let set = RampSet {
                start: r.map(|r| r.start),
                step: r.map(|r| r.step),
                offset: r[0].offset,
            };
            six_piece(x, o0, o1, o2, o3, o4, o5, &set);
        } else {
            six_at(x, o0, o1, o2, o3, o4, o5, r);
        }
    }
}
