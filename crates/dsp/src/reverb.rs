//! The late-reverb bus (acoustics.md §6): [`REVERB_SLOTS`] fixed slots, each a pre-delay,
//! two series allpasses and four parallel combs with an in-loop one-pole; L = combs 0+2,
//! R = combs 1+3.
//!
//! Each slot is normalised when prepared so that its stereo impulse response carries unit
//! energy, half in each channel ([`CHANNEL_ENERGY`]), then scaled by its `gain` (SPR's slot
//! gain × 0.595), so the level does not grow with the decay time and a send `s` puts
//! `s²·gain²` of the voice's energy into the tail, whatever the voice's pan. A slot whose input is silent and whose whole state has fallen below
//! [`IDLE_THRESHOLD`] is zeroed and skipped until its input is non-zero again.

use crate::denormal::{flush, flush_small};
use crate::one_pole::air_coefficient;
use crate::smoothing::DEFAULT_SAMPLE_RATE;
use crate::{sanitize, sanitize_sample_rate};

/// Number of reverb slots (SPR's four aux slots).
pub const REVERB_SLOTS: usize = 4;
/// Combs per slot.
pub const COMBS: usize = 4;
/// Allpasses per slot.
pub const ALLPASSES: usize = 2;
/// Slot decay times (s), shortest to longest (acoustics.md §6, spr.md §1.9).
pub const SLOT_DECAYS_S: [f32; REVERB_SLOTS] = [0.15, 0.55, 1.68, 4.142];
/// Slot decay-HF ratios (spr.md §1.9, brightness 1).
pub const SLOT_HF_RATIOS: [f32; REVERB_SLOTS] = [0.6, 0.7, 0.7, 0.7];
/// SPR's slot gains before the 0.595 multiplier (spr.md §1.9).
pub const SLOT_SPR_GAINS: [f32; REVERB_SLOTS] = [0.2, 0.3, 0.5, 0.4];
/// SPR's reverb gain multiplier `0.7·reverb_gain·0.85` (spr.md §1.9).
pub const SPR_GAIN_MULTIPLIER: f32 = 0.595;
/// Slot pre-delays = SPR late delays (s).
pub const SLOT_PRE_DELAYS_S: [f32; REVERB_SLOTS] = [0.011, 0.011, 0.021, 0.021];
/// Comb delays (s), Resound defaults.
pub const COMB_DELAYS_S: [f32; COMBS] = [0.0297, 0.0371, 0.0411, 0.0437];
/// Allpass delays (s).
pub const ALLPASS_DELAYS_S: [f32; ALLPASSES] = [0.005, 0.0017];
/// Allpass gain.
pub const ALLPASS_GAIN: f32 = 0.7;
/// A silent slot whose state is entirely below this magnitude (-180 dB) is zeroed and idles.
pub const IDLE_THRESHOLD: f32 = 1e-9;
/// Impulse-response energy of each output channel of a slot before its `gain`: ½, so left
/// and right together carry unit energy, as an equal-power-panned voice does
/// (`cos² + sin² = 1`). With 1 per channel (acoustics.md §6 read literally) the stereo tail
/// carries twice the energy the send and slot gain set, 3 dB above the §6 reference
/// tail/click figures (room −7.7 dB, tunnel −11.7 dB) in any pan-independent measure.
pub const CHANNEL_ENERGY: f64 = 0.5;
/// Frames between idle checks and state flushes (a fixed grid, independent of block sizes).
pub const IDLE_CHECK_PERIOD: usize = 256;

/// Settings of one reverb slot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReverbSlotSettings {
    /// Broadband decay time T60 in seconds (clamped to `0.05..=30`).
    pub decay_s: f32,
    /// 5 kHz decay time / `decay_s` (clamped to `0.05..=1`).
    pub hf_ratio: f32,
    /// Output gain after energy normalisation (clamped to `0..=16`).
    pub gain: f32,
    /// Pre-delay in seconds (clamped to `0..=0.5`).
    pub pre_delay_s: f32,
}

/// Settings of the whole bus. [`Default`] gives the spec values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReverbBusSettings {
    /// The four slots (send `k` feeds slot `k`).
    pub slots: [ReverbSlotSettings; REVERB_SLOTS],
    /// Comb delays in seconds (clamped to `0.001..=0.2`).
    pub comb_delays_s: [f32; COMBS],
    /// Allpass delays in seconds (clamped to `0.0001..=0.1`).
    pub allpass_delays_s: [f32; ALLPASSES],
    /// Allpass gain (clamped to `0..=0.95`).
    pub allpass_gain: f32,
}

impl Default for ReverbBusSettings {
    fn default() -> Self {
        Self {
            slots: core::array::from_fn(|k| ReverbSlotSettings {
                decay_s: SLOT_DECAYS_S[k],
                hf_ratio: SLOT_HF_RATIOS[k],
                gain: SLOT_SPR_GAINS[k] * SPR_GAIN_MULTIPLIER,
                pre_delay_s: SLOT_PRE_DELAYS_S[k],
            }),
            comb_delays_s: COMB_DELAYS_S,
            allpass_delays_s: ALLPASS_DELAYS_S,
            allpass_gain: ALLPASS_GAIN,
        }
    }
}

impl ReverbBusSettings {
    /// The settings with every value clamped to its documented range (NaN → default).
    #[must_use]
    pub fn sanitized(&self) -> Self {
        let d = Self::default();
        Self {
            slots: core::array::from_fn(|k| {
                let s = &self.slots[k];
                let ds = &d.slots[k];
                ReverbSlotSettings {
                    decay_s: sanitize(s.decay_s, 0.05, 30.0, ds.decay_s),
                    hf_ratio: sanitize(s.hf_ratio, 0.05, 1.0, ds.hf_ratio),
                    gain: sanitize(s.gain, 0.0, 16.0, ds.gain),
                    pre_delay_s: sanitize(s.pre_delay_s, 0.0, 0.5, ds.pre_delay_s),
                }
            }),
            comb_delays_s: core::array::from_fn(|k| {
                sanitize(self.comb_delays_s[k], 0.001, 0.2, d.comb_delays_s[k])
            }),
            allpass_delays_s: core::array::from_fn(|k| {
                sanitize(self.allpass_delays_s[k], 0.0001, 0.1, d.allpass_delays_s[k])
            }),
            allpass_gain: sanitize(self.allpass_gain, 0.0, 0.95, d.allpass_gain),
        }
    }
}

/// Circular buffer position helper: a ring of fixed length with one index.
#[derive(Clone, Debug, Default)]
struct Ring {
    buf: Vec<f32>,
    idx: usize,
}

impl Ring {
    fn with_len(len: usize) -> Self {
        Self {
            buf: vec![0.0; len.max(1)],
            idx: 0,
        }
    }
    /// Frames until the index wraps.
    #[inline]
    fn run(&self) -> usize {
        self.buf.len() - self.idx
    }
    #[inline]
    fn advance(&mut self, n: usize) {
        self.idx += n;
        if self.idx >= self.buf.len() {
            self.idx = 0;
        }
    }
    fn peak(&self) -> f32 {
        self.buf.iter().fold(0.0f32, |m, x| m.max(x.abs()))
    }
    fn clear(&mut self) {
        self.buf.fill(0.0);
        self.idx = 0;
    }
}

#[derive(Clone, Debug, Default)]
struct Comb {
    ring: Ring,
    /// Feedback `g = 10^(-3L/(T·fs))`.
    g: f32,
    /// Loop low-pass `s[n] = a·o[n] + c·s[n−1]` with `c = 1 − a`, run two steps ahead:
    /// `s[n] = a·o[n] + c·a·o[n−1] + c²·s[n−2]` (two interleaved chains halve the
    /// latency per frame). `a = 1, c = 0` passes `o` unchanged.
    a: f32,
    /// `c·a`.
    ca: f32,
    /// `c²`.
    c2: f32,
    /// Loop low-pass output one and two frames back.
    s1: f32,
    s2: f32,
    /// Comb output one frame back.
    o1: f32,
}

impl Comb {
    fn clear_state(&mut self) {
        self.s1 = 0.0;
        self.s2 = 0.0;
        self.o1 = 0.0;
    }
}

#[derive(Clone, Debug, Default)]
struct Slot {
    /// Pre-delay ring; `None` for 0 frames.
    pre: Option<Ring>,
    allpass: [Ring; ALLPASSES],
    ap_gain: f32,
    combs: [Comb; COMBS],
    gain_left: f32,
    gain_right: f32,
    idle: bool,
    /// True if the slot input or a comb output reached [`IDLE_THRESHOLD`] since the
    /// last idle check.
    window_loud: bool,
}

impl Slot {
    fn build(settings: &ReverbBusSettings, k: usize, fs: f32) -> Self {
        let s = &settings.slots[k];
        let frames = |sec: f32| (sec * fs).round() as usize;
        let pre_frames = frames(s.pre_delay_s);
        let combs = core::array::from_fn(|j| {
            let len = frames(settings.comb_delays_s[j]).max(1);
            let l = len as f32;
            let t = s.decay_s * fs;
            let g = 10f32.powf(-3.0 * l / t);
            // 5 kHz loop gain making the 5 kHz decay T·ratio (acoustics.md §6).
            let h = 10f32.powf(-3.0 * l / t * (1.0 / s.hf_ratio - 1.0));
            let (a, c) = match air_coefficient(h, fs) {
                Some(a) => (a, 1.0 - a),
                None => (1.0, 0.0),
            };
            Comb {
                ring: Ring::with_len(len),
                g,
                a,
                ca: c * a,
                c2: c * c,
                s1: 0.0,
                s2: 0.0,
                o1: 0.0,
            }
        });
        Self {
            pre: (pre_frames > 0).then(|| Ring::with_len(pre_frames)),
            allpass: core::array::from_fn(|j| {
                Ring::with_len(frames(settings.allpass_delays_s[j]).max(1))
            }),
            ap_gain: settings.allpass_gain,
            combs,
            gain_left: 1.0,
            gain_right: 1.0,
            idle: true,
            window_loud: false,
        }
    }

    fn clear(&mut self) {
        if let Some(p) = &mut self.pre {
            p.clear();
        }
        for a in &mut self.allpass {
            a.clear();
        }
        for c in &mut self.combs {
            c.ring.clear();
            c.clear_state();
        }
        self.idle = true;
        self.window_loud = false;
    }

    fn state_peak(&self) -> f32 {
        let mut m = self.pre.as_ref().map_or(0.0, Ring::peak);
        for a in &self.allpass {
            m = m.max(a.peak());
        }
        for c in &self.combs {
            m = m
                .max(c.ring.peak())
                .max(c.s1.abs())
                .max(c.s2.abs())
                .max(c.o1.abs());
        }
        m
    }

    /// Runs `work` (input in, diffused signal out) through the slot and adds the
    /// outputs into `left`/`right`. All slices have the same length.
    fn render(&mut self, work: &mut [f32], left: &mut [f32], right: &mut [f32]) {
        let n = work.len().min(left.len()).min(right.len());
        let (work, left, right) = (&mut work[..n], &mut left[..n], &mut right[..n]);
        self.window_loud |= any_loud(work);
        if let Some(pre) = &mut self.pre {
            delay_through(pre, work);
        }
        let g = self.ap_gain;
        for ap in &mut self.allpass {
            allpass_through(ap, g, work);
        }
        self.window_loud |= combs_through(
            &mut self.combs,
            work,
            left,
            right,
            self.gain_left,
            self.gain_right,
        );
    }

    /// Called on the idle-check grid.
    fn check_idle(&mut self) {
        for c in &mut self.combs {
            c.s1 = flush_small(c.s1);
            c.s2 = flush_small(c.s2);
            c.o1 = flush_small(c.o1);
        }
        if !self.idle && !self.window_loud && self.state_peak() < IDLE_THRESHOLD {
            self.clear();
        }
        self.window_loud = false;
    }
}

/// Pure delay: `work` becomes the ring's delayed signal.
#[inline]
fn delay_through(ring: &mut Ring, work: &mut [f32]) {
    let mut rest = work;
    while !rest.is_empty() {
        let m = rest.len().min(ring.run());
        let (chunk, tail) = rest.split_at_mut(m);
        let line = &mut ring.buf[ring.idx..ring.idx + m];
        chunk.swap_with_slice(line);
        ring.advance(m);
        rest = tail;
    }
}

/// Schroeder allpass: `w = x + g·d`, `y = d − g·w`, line ← `w` (flushed).
#[inline]
fn allpass_through(ring: &mut Ring, g: f32, work: &mut [f32]) {
    let mut rest = work;
    while !rest.is_empty() {
        let m = rest.len().min(ring.run());
        let (chunk, tail) = rest.split_at_mut(m);
        let line = &mut ring.buf[ring.idx..ring.idx + m];
        for (x, d) in chunk.iter_mut().zip(line.iter_mut()) {
            let w = flush(*x + g * *d);
            *x = *d - g * w;
            *d = w;
        }
        ring.advance(m);
        rest = tail;
    }
}

/// Longest piece the comb stage handles at once (stack scratch).
const COMB_CHUNK: usize = 128;

/// The four combs. Per piece (no longer than any comb's distance to its wrap point, and
/// shorter than every comb delay, so reads never see this piece's writes):
/// 1. the four in-loop one-pole recursions run side by side in one loop (the only serial
///    part);
/// 2. outputs (L = combs 0+2, R = 1+3) are summed and checked against the idle threshold
///    in a vectorisable pass;
/// 3. the lines are written `flush(x + g·s)` in vectorisable passes.
///
/// Returns true if any comb output reached [`IDLE_THRESHOLD`].
#[inline]
fn combs_through(
    combs: &mut [Comb; COMBS],
    work: &[f32],
    left: &mut [f32],
    right: &mut [f32],
    gl: f32,
    gr: f32,
) -> bool {
    let mut loud = false;
    let mut done = 0;
    let n = work.len();
    let mut sv = [[0.0f32; COMB_CHUNK]; COMBS];
    while done < n {
        let m = combs.iter().fold((n - done).min(COMB_CHUNK), |m, c| {
            m.min(c.ring.run()).min(c.ring.buf.len())
        });
        let x = &work[done..done + m];
        let lo = &mut left[done..done + m];
        let ro = &mut right[done..done + m];
        let [c0, c1, c2, c3] = combs;
        let b0 = &mut c0.ring.buf[c0.ring.idx..c0.ring.idx + m];
        let b1 = &mut c1.ring.buf[c1.ring.idx..c1.ring.idx + m];
        let b2 = &mut c2.ring.buf[c2.ring.idx..c2.ring.idx + m];
        let b3 = &mut c3.ring.buf[c3.ring.idx..c3.ring.idx + m];
        {
            let [v0, v1, v2, v3] = &mut sv;
            let (v0, v1, v2, v3) = (&mut v0[..m], &mut v1[..m], &mut v2[..m], &mut v3[..m]);
            let a = [c0.a, c1.a, c2.a, c3.a];
            let ca = [c0.ca, c1.ca, c2.ca, c3.ca];
            let cc = [c0.c2, c1.c2, c2.c2, c3.c2];
            let mut p1 = [c0.s1, c1.s1, c2.s1, c3.s1];
            let mut p2 = [c0.s2, c1.s2, c2.s2, c3.s2];
            let mut q1 = [c0.o1, c1.o1, c2.o1, c3.o1];
            for i in 0..m {
                let o = [b0[i], b1[i], b2[i], b3[i]];
                let mut s = [0.0f32; COMBS];
                for k in 0..COMBS {
                    s[k] = a[k] * o[k] + ca[k] * q1[k] + cc[k] * p2[k];
                }
                q1 = o;
                p2 = p1;
                p1 = s;
                v0[i] = s[0];
                v1[i] = s[1];
                v2[i] = s[2];
                v3[i] = s[3];
            }
            (c0.s1, c1.s1, c2.s1, c3.s1) = (p1[0], p1[1], p1[2], p1[3]);
            (c0.s2, c1.s2, c2.s2, c3.s2) = (p2[0], p2[1], p2[2], p2[3]);
            (c0.o1, c1.o1, c2.o1, c3.o1) = (q1[0], q1[1], q1[2], q1[3]);
        }
        let [v0, v1, v2, v3] = &sv;
        let (v0, v1, v2, v3) = (&v0[..m], &v1[..m], &v2[..m], &v3[..m]);
        let (g0, g1, g2, g3) = (c0.g, c1.g, c2.g, c3.g);
        for i in 0..m {
            let (o0, o1, o2, o3) = (b0[i], b1[i], b2[i], b3[i]);
            lo[i] += (o0 + o2) * gl;
            ro[i] += (o1 + o3) * gr;
            loud |= (o0.abs() >= IDLE_THRESHOLD)
                | (o1.abs() >= IDLE_THRESHOLD)
                | (o2.abs() >= IDLE_THRESHOLD)
                | (o3.abs() >= IDLE_THRESHOLD);
            let xi = x[i];
            b0[i] = flush(xi + g0 * v0[i]);
            b1[i] = flush(xi + g1 * v1[i]);
            b2[i] = flush(xi + g2 * v2[i]);
            b3[i] = flush(xi + g3 * v3[i]);
        }
        for c in combs.iter_mut() {
            c.ring.advance(m);
        }
        done += m;
    }
    loud
}

/// True if every sample is ±0 (a vectorisable OR reduction over the bits).
#[inline]
fn is_silent(x: &[f32]) -> bool {
    x.iter().fold(0u32, |acc, v| acc | (v.to_bits() << 1)) == 0
}

/// True if any `|x| >= IDLE_THRESHOLD` (a vectorisable OR reduction).
#[inline]
fn any_loud(x: &[f32]) -> bool {
    x.iter()
        .fold(false, |acc, v| acc | (v.abs() >= IDLE_THRESHOLD))
}

/// The 4-slot reverb bus. `new`/`prepare` allocate; `mix` never does.
#[derive(Clone, Debug)]
pub struct ReverbBus {
    settings: ReverbBusSettings,
    sample_rate: f32,
    slots: [Slot; REVERB_SLOTS],
    work: Vec<f32>,
    phase: usize,
}

impl ReverbBus {
    /// A bus with `settings` (sanitised), prepared for 48 kHz and 512-frame blocks.
    #[must_use]
    pub fn new(settings: ReverbBusSettings) -> Self {
        let mut bus = Self {
            settings: settings.sanitized(),
            sample_rate: DEFAULT_SAMPLE_RATE,
            slots: Default::default(),
            work: Vec::new(),
            phase: 0,
        };
        bus.prepare(DEFAULT_SAMPLE_RATE, 512);
        bus
    }

    /// Allocates the delay lines and the work buffer for `sample_rate` and blocks of up
    /// to `max_block` frames (larger calls are processed in pieces), and normalises each
    /// slot to [`CHANNEL_ENERGY`] of impulse-response energy per channel (unit energy in
    /// left and right together). Clears all state.
    pub fn prepare(&mut self, sample_rate: f32, max_block: usize) {
        self.sample_rate = sanitize_sample_rate(sample_rate);
        let block = max_block.clamp(1, 1 << 16);
        self.work = vec![0.0; block];
        self.phase = 0;
        for k in 0..REVERB_SLOTS {
            let mut slot = Slot::build(&self.settings, k, self.sample_rate);
            let (el, er) = impulse_energy(&mut slot, &self.settings.slots[k], self.sample_rate);
            let gain = self.settings.slots[k].gain;
            let norm = |e: f64| {
                if e > 0.0 {
                    gain * (CHANNEL_ENERGY / e).sqrt() as f32
                } else {
                    0.0
                }
            };
            slot.gain_left = norm(el);
            slot.gain_right = norm(er);
            slot.clear();
            self.slots[k] = slot;
        }
    }

    /// The sanitised settings in use.
    #[must_use]
    pub fn settings(&self) -> &ReverbBusSettings {
        &self.settings
    }

    /// The sample rate in use.
    #[must_use]
    pub fn sample_rate(&self) -> f32 {
        self.sample_rate
    }

    /// Output gains `(left, right)` of slot `k` (normalisation × gain); `None` for `k >= 4`.
    #[must_use]
    pub fn output_gains(&self, k: usize) -> Option<(f32, f32)> {
        self.slots.get(k).map(|s| (s.gain_left, s.gain_right))
    }

    /// True if slot `k` is idle (silent and zeroed); `k >= 4` counts as idle.
    #[must_use]
    pub fn slot_is_idle(&self, k: usize) -> bool {
        self.slots.get(k).is_none_or(|s| s.idle)
    }

    /// True if every slot is idle.
    #[must_use]
    pub fn is_idle(&self) -> bool {
        self.slots.iter().all(|s| s.idle)
    }

    /// Adds the bus output for `inputs[k]` → slot `k` into `left` and `right`.
    ///
    /// Processes `min(left.len(), right.len())` frames; an input shorter than that is
    /// treated as silent past its end. Never allocates.
    pub fn mix(&mut self, inputs: [&[f32]; REVERB_SLOTS], left: &mut [f32], right: &mut [f32]) {
        let frames = left.len().min(right.len());
        let mut done = 0;
        while done < frames {
            let n = (frames - done)
                .min(IDLE_CHECK_PERIOD - self.phase)
                .min(self.work.len());
            let lo = &mut left[done..done + n];
            let ro = &mut right[done..done + n];
            for (slot, input) in self.slots.iter_mut().zip(inputs) {
                let avail = input.len().saturating_sub(done).min(n);
                let inp = input.get(done..done + avail).unwrap_or(&[]);
                if slot.idle && is_silent(inp) {
                    continue;
                }
                slot.idle = false;
                let work = &mut self.work[..n];
                work[..avail].copy_from_slice(inp);
                work[avail..].fill(0.0);
                slot.render(work, lo, ro);
            }
            self.phase += n;
            if self.phase >= IDLE_CHECK_PERIOD {
                self.phase = 0;
                for slot in &mut self.slots {
                    slot.check_idle();
                }
            }
            done += n;
        }
    }

    /// Zeroes all state (silence, `stop_all`, offline start/end). Keeps the buffers.
    pub fn reset(&mut self) {
        for s in &mut self.slots {
            s.clear();
        }
        self.phase = 0;
    }
}

/// Energy of the slot's left and right impulse responses with unit output gains.
fn impulse_energy(slot: &mut Slot, s: &ReverbSlotSettings, fs: f32) -> (f64, f64) {
    const BLOCK: usize = 256;
    slot.gain_left = 1.0;
    slot.gain_right = 1.0;
    // -60 dB of decay (the rest holds about 1e-6 of the energy) plus the pre-delay and
    // the longest loop.
    let total = ((s.decay_s + s.pre_delay_s + 0.25) * fs) as usize;
    let mut work = [0.0f32; BLOCK];
    let mut left = [0.0f32; BLOCK];
    let mut right = [0.0f32; BLOCK];
    let (mut el, mut er) = (0.0f64, 0.0f64);
    let mut done = 0;
    while done < total {
        work.fill(0.0);
        if done == 0 {
            work[0] = 1.0;
        }
        left.fill(0.0);
        right.fill(0.0);
        slot.render(&mut work, &mut left, &mut right);
        el += left
            .iter()
            .map(|&x| f64::from(x) * f64::from(x))
            .sum::<f64>();
        er += right
            .iter()
            .map(|&x| f64::from(x) * f64::from(x))
            .sum::<f64>();
        done += BLOCK;
    }
    (el, er)
}
