//! How a voice reads its sound: the frames a block will read, and the reads themselves, run by
//! run of one read step ([`Runs`]: per grid segment while the rate or the propagation delay
//! moves), linear or the Modern 4-point read of the oversampled buffer.
//!
//! The direct read position is `emission − delay` (signed, unwrapped): frames read before
//! position 0 are silent (the sound has not arrived yet), a loop's position is wrapped per run.

use super::*;

impl Voice {
    /// Frames rendered (at most `stop_at`, the first `lead` of them silent) before a
    /// one-shot's end (its last sample plus its tail, at the direct read position), and the
    /// read position after them.
    pub(super) fn plan_reads(
        &self,
        samples_len: usize,
        lead: usize,
        stop_at: usize,
    ) -> (usize, i64) {
        let end = ((samples_len as i64) << FRAC_BITS).saturating_add(self.tail as i64);
        let reads = stop_at.saturating_sub(lead);
        let looping = self.looping;
        let (k, pos) = self.runs(lead).walk(reads, |_, n, pos, step| {
            if looping || step == 0 {
                return None;
            }
            let left = end.saturating_sub(pos);
            if left <= 0 {
                return Some(0);
            }
            let k = usize::try_from((left as u64).div_ceil(step)).unwrap_or(usize::MAX);
            (k < n).then_some(k)
        });
        (lead + k, pos)
    }

    /// The runs of one read step over this block's reads, which start after `lead` frames.
    pub(crate) fn runs(&self, lead: usize) -> Runs {
        Runs {
            pos: self.block_start,
            f0: self.block_frame + lead as u64,
            moving: self.moving,
            step: self.step,
            base: self.base_step,
            rate: self.rate,
            travel: self.travel,
        }
    }

    /// Multiplies `x`, the frames from `offset` in this block, by a cut's fade.
    pub(super) fn apply_cut(&self, x: &mut [f32], offset: usize) {
        if self.cut_in_block {
            let f0 = self.block_frame + offset as u64;
            for (i, v) in x.iter_mut().enumerate() {
                *v *= self.travel.envelope(f0 + i as u64);
            }
        }
    }

    /// Reads the sound into `x` (the block's active frames): `lead` silent frames, then the
    /// samples at the direct read position run by run, faded through a cut.
    pub(super) fn read(&self, samples: &[f32], x: &mut [f32]) {
        let lead = self.lead.min(x.len());
        x[..lead].fill(0.0);
        let (cubic, looping) = (self.cubic, self.looping);
        let xs = &mut x[lead..];
        self.runs(lead).walk(xs.len(), |o, n, pos, step| {
            read_run(samples, cubic, pos, step, looping, &mut xs[o..o + n]);
            None
        });
        self.apply_cut(&mut x[lead..], lead);
    }

    /// The plain path's read: the block's active frames times `gains` added into `left` and
    /// `right` (no lead, no cut).
    pub(super) fn read_mix(
        &self,
        samples: &[f32],
        gains: (f32, f32),
        left: &mut [f32],
        right: &mut [f32],
    ) {
        let (cubic, looping) = (self.cubic, self.looping);
        self.runs(0).walk(left.len(), |o, n, pos, step| {
            let (l, r) = (&mut left[o..o + n], &mut right[o..o + n]);
            let k = lead_in(pos, step, n);
            let (l, r) = (&mut l[k..], &mut r[k..]);
            let mut p = wrapped(after(pos, step, k), samples.len(), looping);
            if cubic {
                resample_cubic_mix(samples, &mut p, step, looping, gains, l, r);
            } else {
                resample_mix(samples, &mut p, step, looping, gains, l, r);
            }
            None
        });
    }
}

/// The runs of one read step of a voice's block (see [`Voice::runs`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Runs {
    pos: i64,
    f0: u64,
    moving: bool,
    step: u64,
    base: u64,
    rate: Tweened,
    travel: Travel,
}

impl Runs {
    /// The read step of the grid segment starting at `seg`.
    fn step_at(&self, seg: u64) -> u64 {
        run_step(self.base, self.rate.value(seg), self.travel.delta_at(seg))
    }

    /// Calls `f(offset, frames, pos, step)` for each run of the first `frames` reads (a cut's
    /// jump applied on its grid point); `f` ends the walk by returning `Some(k)`, the frames of
    /// its run read. Returns the frames walked and the position after them.
    pub(crate) fn walk(
        &self,
        frames: usize,
        mut f: impl FnMut(usize, usize, i64, u64) -> Option<usize>,
    ) -> (usize, i64) {
        if !self.moving {
            let k = f(0, frames, self.pos, self.step).unwrap_or(frames);
            return (k, after(self.pos, self.step, k));
        }
        let (mut pos, mut done) = (self.pos, 0);
        while done < frames {
            let fr = self.f0 + done as u64;
            let seg = fr - fr % GRID;
            if fr == seg {
                pos = pos.saturating_sub(self.travel.jump_at(fr));
            }
            let mut m = ((GRID - fr % GRID) as usize).min(frames - done);
            let step = self.step_at(seg);
            // The run goes on over the following segments while their step is the same and no
            // cut jumps (a glide's segments share one step): fewer, longer reads, the same
            // bits (the reads do not depend on how a run is split).
            while done + m < frames {
                let next = fr + m as u64;
                if self.travel.jump_at(next) != 0 || self.step_at(next) != step {
                    break;
                }
                m = (m + GRID as usize).min(frames - done);
            }
            if let Some(k) = f(done, m, pos, step) {
                return (done + k, after(pos, step, k));
            }
            pos = after(pos, step, m);
            done += m;
        }
        (done, pos)
    }
}

/// The position `k` reads of `step` after `pos`.
fn after(pos: i64, step: u64, k: usize) -> i64 {
    let d = i64::try_from(step.saturating_mul(k as u64)).unwrap_or(i64::MAX);
    pos.saturating_add(d)
}

/// Frames of a read from `pos` at `step` that fall before position 0 (silent: the sound has
/// not arrived), at most `frames`.
fn lead_in(pos: i64, step: u64, frames: usize) -> usize {
    if pos >= 0 {
        return 0;
    }
    if step == 0 {
        return frames;
    }
    usize::try_from(pos.unsigned_abs().div_ceil(step))
        .unwrap_or(usize::MAX)
        .min(frames)
}

/// The buffer position of read position `pos` (≥ 0): a loop's laps removed.
pub(crate) fn wrapped(pos: i64, len: usize, looping: bool) -> u64 {
    let end = (len as u64) << FRAC_BITS;
    let p = pos.max(0) as u64;
    if looping && end > 0 { p % end } else { p }
}

/// Reads `out.len()` frames from `pos` at `step` (silence before position 0).
fn read_run(samples: &[f32], cubic: bool, pos: i64, step: u64, looping: bool, out: &mut [f32]) {
    let k = lead_in(pos, step, out.len());
    out[..k].fill(0.0);
    let out = &mut out[k..];
    let mut p = wrapped(after(pos, step, k), samples.len(), looping);
    if cubic {
        resample_cubic(samples, &mut p, step, looping, out);
    } else {
        resample(samples, &mut p, step, looping, out);
    }
}
