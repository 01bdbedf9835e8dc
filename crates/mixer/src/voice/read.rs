//! How a voice reads its sound: the frames a block will read, and the reads themselves at the
//! voice's step (segment by segment on the renderer's grid while the rate moves), linear or
//! the Modern 4-point read of the oversampled buffer.

use super::*;

impl Voice {
    /// Frames rendered (at most `stop_at`, the first `lead` of them silent) before a
    /// one-shot's end (its last sample plus its tail), and the fixed-point source frames
    /// read over them.
    pub(super) fn plan_reads(
        &self,
        samples_len: usize,
        lead: usize,
        stop_at: usize,
    ) -> (usize, u64) {
        let end = ((samples_len as u64) << FRAC_BITS).saturating_add(self.tail);
        let reads = stop_at.saturating_sub(lead);
        if !self.rate_moving {
            let mut frames = reads;
            if !self.looping && self.step > 0 {
                let left = end.saturating_sub(self.played).div_ceil(self.step);
                frames = frames.min(usize::try_from(left).unwrap_or(usize::MAX));
            }
            return (lead + frames, self.step.saturating_mul(frames as u64));
        }
        // A moving rate: segment by segment on the grid, as `read` steps.
        let (mut done, mut advance) = (0usize, 0u64);
        let f0 = self.block_frame + lead as u64;
        while done < reads {
            let f = f0 + done as u64;
            let m = ((GRID - f % GRID) as usize).min(reads - done);
            let step = scaled_step(self.base_step, self.rate.value(f - f % GRID));
            if !self.looping && step > 0 {
                let left = end.saturating_sub(self.played.saturating_add(advance));
                let k = usize::try_from(left.div_ceil(step)).unwrap_or(usize::MAX);
                if k < m {
                    return (lead + done + k, advance + step * k as u64);
                }
            }
            advance = advance.saturating_add(step.saturating_mul(m as u64));
            done += m;
        }
        (lead + reads, advance)
    }

    /// Reads the sound into `x` (the block's active frames): `lead` silent frames, then the
    /// samples at the voice's step (per grid segment while the rate moves).
    pub(super) fn read(&mut self, samples: &[f32], x: &mut [f32]) {
        let lead = self.lead.min(x.len());
        x[..lead].fill(0.0);
        let x = &mut x[lead..];
        if !self.rate_moving {
            self.read_at(samples, self.step, x);
            return;
        }
        let f0 = self.block_frame + lead as u64;
        let mut done = 0;
        while done < x.len() {
            let f = f0 + done as u64;
            let m = ((GRID - f % GRID) as usize).min(x.len() - done);
            self.step = scaled_step(self.base_step, self.rate.value(f - f % GRID));
            self.read_at(samples, self.step, &mut x[done..done + m]);
            done += m;
        }
    }

    /// Reads `x.len()` frames at `step` from the voice's position with its resampler.
    pub(super) fn read_at(&mut self, samples: &[f32], step: u64, x: &mut [f32]) {
        if self.cubic {
            resample_cubic(samples, &mut self.pos, step, self.looping, x);
        } else {
            resample(samples, &mut self.pos, step, self.looping, x);
        }
    }
}
