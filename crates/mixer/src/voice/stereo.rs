//! A stereo voice's block: both channels read at the voice's step, the game's controls and
//! the stop fade as one envelope, each channel to its side, their mean to the sends.

use resound_dsp::{apply_ramp, mix_ramp};

use super::{LEFT, RIGHT, SEND0, Voice};
use crate::params::SENDS;

impl Voice {
    /// [`Voice::render_active`] for a stereo voice: its two channels `ch` read into `x` and
    /// `x2` (with `env` as scratch for the shared gain envelope), the left channel to the left
    /// output and the right to the right (the gains' balance), their mean to the sends. No
    /// occlusion shelf: stereo plays only for non-positional voices.
    #[allow(clippy::too_many_arguments)] // the renderer's one call site
    pub(crate) fn render_stereo(
        &mut self,
        ch: [&[f32]; 2],
        bufs: [&mut [f32]; 3],
        n: usize,
        mix_l: &mut [f32],
        mix_r: &mut [f32],
        bus_in: &mut [Vec<f32>; SENDS],
    ) {
        let [x, x2, env] = bufs;
        let active = x.len();
        if active > 0 {
            self.read(ch[0], x);
            self.read(ch[1], x2);
            env.fill(1.0);
            self.apply_controls(env);
            if !self.fade.is_settled() || self.fade.target() != 1.0 {
                let mut rest = &mut env[..];
                while !rest.is_empty() {
                    let k = rest.len().min(self.fade.frames_left());
                    let (chunk, tail) = rest.split_at_mut(k);
                    apply_ramp(chunk, self.fade.advance(k));
                    rest = tail;
                }
            }
            for ((l, r), e) in x.iter_mut().zip(x2.iter_mut()).zip(env.iter_mut()) {
                *l *= *e;
                *r *= *e;
                *e = 0.5 * (*l + *r);
            }
            self.sync_gains();
            let mut done = 0;
            while done < active {
                let m = self.gains.segment_left().min(active - done);
                let g = self.gains.advance(m);
                let range = done..done + m;
                for (k, bus) in bus_in.iter_mut().enumerate() {
                    if !self.send_silent(k) {
                        let ramp = g.ramp(SEND0 + k);
                        mix_ramp(&env[range.clone()], &mut bus[range.clone()], ramp);
                    }
                }
                mix_ramp(&x[range.clone()], &mut mix_l[range.clone()], g.ramp(LEFT));
                mix_ramp(&x2[range.clone()], &mut mix_r[range.clone()], g.ramp(RIGHT));
                done += m;
            }
            self.gains_synced = self.clock + active as u64;
        }
        self.end_block(n, active);
    }
}
