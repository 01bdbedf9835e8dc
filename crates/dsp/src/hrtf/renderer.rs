//! [`BinauralRenderer`]: one source, mono in, stereo (left/right ear) out.

use std::sync::Arc;

use realfft::num_complex::Complex;

use super::bank::{BINS, FFT_LEN, HrtfBank, PARTITION};
use super::direction::normalize;
use super::kernels::{convolve_filter, crossfade_ears, pack_ears, unpack_ears};
use super::rings::Weights;

/// Time constant of the direction's approach to a new target (seconds).
pub const DIRECTION_SMOOTHING_S: f32 = 0.005;
/// The renderer's latency (frames): its output is its input [`PARTITION`] frames late.
pub const LATENCY_FRAMES: usize = PARTITION;

/// Renders one mono source binaurally through an [`HrtfBank`]: uniformly partitioned
/// overlap-save convolution ([`PARTITION`]-frame partitions), a frequency-domain delay line of
/// past input spectra, and the current direction's filter.
///
/// **Cost per partition.** One real forward transform of the input (realfft); the delay line
/// times each ear's partition spectra, summed bin group by bin group in registers; both ears
/// packed into one complex spectrum (`L + i·R`) and brought back by a single complex inverse
/// transform (rustfft): the left ear is its real part, the right its imaginary part. A moving
/// direction adds one blend of up to four measured filters (one pass) and a second
/// multiply-accumulate and inverse transform for the crossfade. The loops are compiled for the
/// baseline and AVX2 with identical bits (`crate::simd`).
///
/// **Moving sources.** [`BinauralRenderer::set_direction`] sets a target; at each partition
/// boundary the rendered direction approaches it exponentially (time constant
/// [`DIRECTION_SMOOTHING_S`], snapping when within ~0.06°), and whenever the direction moved
/// the partition is rendered through both the old and the new filter and crossfaded linearly
/// across its [`PARTITION`] frames. So the filter never jumps: no zipper noise.
///
/// Real-time safe after [`BinauralRenderer::new`]: `process`, `mix`, `set_direction` and
/// `reset` never allocate, lock or panic. Deterministic: the same input and the same
/// `set_direction` calls at the same frames give the same bits, however the input is split
/// into blocks (the partition grid is the renderer's own). Latency [`LATENCY_FRAMES`].
pub struct BinauralRenderer {
    bank: Arc<HrtfBank>,
    partitions: usize,
    alpha: f32,
    /// Input: the previous partition then the one being filled.
    frame: Vec<f32>,
    fill: usize,
    out: [Vec<f32>; 2],
    /// Spectra of the last `partitions` input frames, `BINS` re then `BINS` im each.
    fdl: Vec<f32>,
    head: usize,
    filter: Vec<f32>,
    next_filter: Vec<f32>,
    /// Both ears' spectral sums (`4 × BINS`, split re/im).
    acc: Vec<f32>,
    time: Vec<f32>,
    spec: Vec<Complex<f32>>,
    /// Both ears through the old filter, then through the new one (`FFT_LEN` each).
    z_old: Vec<Complex<f32>>,
    z: Vec<Complex<f32>>,
    scratch: Vec<Complex<f32>>,
    target: [f32; 3],
    current: [f32; 3],
    weights: Weights,
}

impl std::fmt::Debug for BinauralRenderer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BinauralRenderer")
            .field("direction", &self.current)
            .field("target", &self.target)
            .finish()
    }
}

impl BinauralRenderer {
    /// A renderer over `bank`, facing straight ahead (all buffers allocated here).
    pub fn new(bank: Arc<HrtfBank>) -> Self {
        let partitions = bank.partitions();
        let filter_len = bank.filter_len();
        let fs = bank.set().sample_rate();
        let alpha = 1.0 - (-(PARTITION as f32) / (DIRECTION_SMOOTHING_S * fs)).exp();
        let scratch_len = bank
            .fft
            .get_scratch_len()
            .max(bank.inverse.get_inplace_scratch_len());
        let ahead = [0.0, 0.0, -1.0];
        let weights = bank.set().weights(ahead);
        let mut filter = vec![0.0; filter_len];
        bank.blend(&weights, &mut filter);
        Self {
            partitions,
            alpha,
            frame: vec![0.0; FFT_LEN],
            fill: 0,
            out: [vec![0.0; PARTITION], vec![0.0; PARTITION]],
            fdl: vec![0.0; partitions * 2 * BINS],
            head: 0,
            filter,
            next_filter: vec![0.0; filter_len],
            acc: vec![0.0; 4 * BINS],
            time: vec![0.0; FFT_LEN],
            spec: vec![Complex::new(0.0, 0.0); BINS],
            z_old: vec![Complex::new(0.0, 0.0); FFT_LEN],
            z: vec![Complex::new(0.0, 0.0); FFT_LEN],
            scratch: vec![Complex::new(0.0, 0.0); scratch_len],
            target: ahead,
            current: ahead,
            weights,
            bank,
        }
    }

    /// The bank this renderer reads.
    pub fn bank(&self) -> &Arc<HrtfBank> {
        &self.bank
    }

    /// Sets the source's direction in head coordinates (x right, y up, −z forward; any
    /// non-zero length). The rendered direction glides there (see the type's doc). A zero or
    /// non-finite vector is ignored.
    pub fn set_direction(&mut self, dir: [f32; 3]) {
        if let Some(d) = normalize(dir) {
            self.target = d;
        }
    }

    /// Jumps to a direction without gliding or crossfading (for a voice that has not
    /// sounded yet). A zero or non-finite vector is ignored.
    pub fn set_direction_immediate(&mut self, dir: [f32; 3]) {
        if let Some(d) = normalize(dir) {
            self.target = d;
            self.current = d;
            self.weights = self.bank.set().weights(d);
            self.bank.blend(&self.weights, &mut self.filter);
        }
    }

    /// The direction being rendered now (unit, head coordinates).
    pub fn direction(&self) -> [f32; 3] {
        self.current
    }

    /// Clears the signal history (the direction is kept): the state right after `new` and
    /// `set_direction_immediate`.
    pub fn reset(&mut self) {
        self.frame.fill(0.0);
        self.fill = 0;
        self.out[0].fill(0.0);
        self.out[1].fill(0.0);
        self.fdl.fill(0.0);
        self.head = 0;
        self.target = self.current;
    }

    /// Renders `input` into `left` and `right` (overwriting). Processes
    /// `min(input.len(), left.len(), right.len())` frames.
    pub fn process(&mut self, input: &[f32], left: &mut [f32], right: &mut [f32]) {
        self.run(input, left, right, false);
    }

    /// Renders `input` and *adds* it into `left` and `right`.
    pub fn mix(&mut self, input: &[f32], left: &mut [f32], right: &mut [f32]) {
        self.run(input, left, right, true);
    }

    fn run(&mut self, input: &[f32], left: &mut [f32], right: &mut [f32], add: bool) {
        let n = input.len().min(left.len()).min(right.len());
        let mut done = 0;
        while done < n {
            let take = (PARTITION - self.fill).min(n - done);
            let at = PARTITION + self.fill;
            for (f, &x) in self.frame[at..at + take]
                .iter_mut()
                .zip(&input[done..done + take])
            {
                // Non-finite input would poison the delay line for good.
                *f = if x.is_finite() { x } else { 0.0 };
            }
            let (ol, or) = (
                &self.out[0][self.fill..self.fill + take],
                &self.out[1][self.fill..self.fill + take],
            );
            let (dl, dr) = (&mut left[done..done + take], &mut right[done..done + take]);
            if add {
                dl.iter_mut().zip(ol).for_each(|(d, s)| *d += s);
                dr.iter_mut().zip(or).for_each(|(d, s)| *d += s);
            } else {
                dl.copy_from_slice(ol);
                dr.copy_from_slice(or);
            }
            self.fill += take;
            done += take;
            if self.fill == PARTITION {
                self.partition();
                self.fill = 0;
            }
        }
    }

    /// Moves the rendered direction one partition towards the target; true if it moved.
    fn advance_direction(&mut self) -> bool {
        if self.current == self.target {
            return false;
        }
        let (c, t, a) = (self.current, self.target, self.alpha);
        let step = [
            c[0] + a * (t[0] - c[0]),
            c[1] + a * (t[1] - c[1]),
            c[2] + a * (t[2] - c[2]),
        ];
        let gap = (0..3)
            .map(|i| (step[i] - t[i]).abs())
            .fold(0.0f32, f32::max);
        self.current = match normalize(step) {
            Some(d) if gap > 1e-3 => d,
            _ => t,
        };
        true
    }

    /// One partition: transform the input frame, update the direction, convolve both ears.
    fn partition(&mut self) {
        let bank = Arc::clone(&self.bank);
        self.time.copy_from_slice(&self.frame);
        // Buffer lengths come from the plan: the transform cannot fail.
        let _ = bank
            .fft
            .process_with_scratch(&mut self.time, &mut self.spec, &mut self.scratch);
        self.head = (self.head + 1) % self.partitions;
        let slot = &mut self.fdl[self.head * 2 * BINS..(self.head + 1) * 2 * BINS];
        for (b, c) in self.spec.iter().enumerate() {
            slot[b] = c.re;
            slot[BINS + b] = c.im;
        }
        self.frame.copy_within(PARTITION..FFT_LEN, 0);

        let moved = self.advance_direction() && {
            let w = bank.set().weights(self.current);
            let changed = w != self.weights;
            if changed {
                self.weights = w;
                bank.blend(&self.weights, &mut self.next_filter);
            }
            changed
        };
        if moved {
            self.convolve(&bank, false);
            std::mem::swap(&mut self.z_old, &mut self.z);
            self.convolve(&bank, true);
            let [left, right] = &mut self.out;
            crossfade_ears(&self.z_old, &self.z, left, right);
            std::mem::swap(&mut self.filter, &mut self.next_filter);
        } else {
            self.convolve(&bank, false);
            let [left, right] = &mut self.out;
            unpack_ears(&self.z, left, right);
        }
    }

    /// Multiplies the delay line by the current (or the next) filter, both ears, and
    /// transforms back into `self.z` (left ear in the real parts, right in the imaginary;
    /// the last [`PARTITION`] samples are valid).
    fn convolve(&mut self, bank: &HrtfBank, next: bool) {
        let filter = if next {
            &self.next_filter
        } else {
            &self.filter
        };
        convolve_filter(&self.fdl, self.head, filter, &mut self.acc);
        pack_ears(&self.acc, &mut self.z);
        bank.inverse
            .process_with_scratch(&mut self.z, &mut self.scratch);
    }
}
