//! The late-reverb bus (acoustics.md §6): [`REVERB_SLOTS`] slots, each a pre-delay, two
//! series allpasses and four parallel combs with a three-band loop filter; L = combs 0+2,
//! R = combs 1+3.
//!
//! Each slot's decay is set per band (low < 500 Hz, mid, high > 2 kHz) and can be retuned while
//! it runs ([`ReverbBus::set_slot_decays`]): the engine tunes a slot to the decay of the space
//! whose voices feed it, so the tail it renders is one exponential at the decay the engine
//! reports (issue 30), not a cross-fade of two fixed decays (two slopes). A comb of delay `L`
//! passes its loop through `F = g_h + (g_m − g_h)·LP_hi + (g_l − g_m)·LP_lo` (one-poles at
//! [`LOW_CROSSOVER_HZ`] and [`HIGH_CROSSOVER_HZ`]) with `g_b = 10^(−3L/(T_b·fs))`: `g_l` at DC,
//! `g_m` between the crossovers, `g_h` above; the crossovers' skirts reach into the
//! neighbouring bands, so the gains are matched to the decays at [`BAND_REFERENCE_HZ`]
//! (`quadrature`). The slots' sum passes the bus's voicing (`voicing`: band-pass
//! [`VOICING_HIGHPASS_HZ`]–[`VOICING_LOWPASS_HZ`], second order), so the broadband decay a
//! click measures is the mid band's, not the high band's.
//!
//! Each slot is normalised when prepared so that its stereo impulse response (voiced) carries unit
//! energy, half in each channel ([`CHANNEL_ENERGY`]), then scaled by its `gain` (SPR's slot
//! gain × 0.595), so the level does not grow with the decay time and a send `s` puts
//! `s²·gain²` of the voice's energy into the tail, whatever the voice's pan. A slot whose input is silent and whose whole state has fallen below
//! [`IDLE_THRESHOLD`] is zeroed and skipped until its input is non-zero again.

mod quadrature;
mod voicing;

use crate::denormal::{flush, flush_small};
use crate::one_pole::lowpass_coefficient;
use crate::simd::multiversion;
use crate::smoothing::DEFAULT_SAMPLE_RATE;
use crate::{sanitize, sanitize_sample_rate};
use quadrature::Quadrature;
use voicing::Voicing;

pub use quadrature::BAND_REFERENCE_HZ;
pub use voicing::{VOICING_HIGHPASS_HZ, VOICING_LOWPASS_HZ};

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
/// Retuned decays step on this grid too.
pub const IDLE_CHECK_PERIOD: usize = 256;
/// Bands of a slot's decay: low, mid, high.
pub const DECAY_BANDS: usize = 3;
/// Crossover of the loop filter's low band (Hz).
pub const LOW_CROSSOVER_HZ: f32 = 300.0;
/// Crossover of the loop filter's high band (Hz).
pub const HIGH_CROSSOVER_HZ: f32 = 3000.0;
/// Time constant (s) with which a running slot's decays follow a new setting (on a log scale,
/// stepped every [`IDLE_CHECK_PERIOD`] frames); an idle slot takes a new setting at once.
pub const DECAY_SLEW_S: f32 = 0.1;
/// Shortest and longest decay a slot renders (s); settings are clamped here.
pub const SLOT_DECAY_RANGE_S: (f32, f32) = (0.05, 30.0);

/// Settings of one reverb slot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReverbSlotSettings {
    /// Broadband decay time T60 in seconds (clamped to `0.05..=30`).
    pub decay_s: f32,
    /// High-band (> 2 kHz) decay / `decay_s` at the nominal decays (clamped to `0.05..=1`).
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
    /// Loop gain above the high crossover, `g_h`.
    gh: f32,
    /// `g_m − g_h`, on the high crossover's low-pass.
    bm: f32,
    /// `g_l − g_m`, on the low crossover's low-pass.
    bl: f32,
    /// Low crossover low-pass state.
    l1: f32,
    /// High crossover low-pass state.
    l2: f32,
}

impl Comb {
    fn clear_state(&mut self) {
        self.l1 = 0.0;
        self.l2 = 0.0;
    }

    /// Sets the band gains for decays `t` (s, low/mid/high) at `fs`
    /// ([`Quadrature::loop_gains`]).
    fn tune(&mut self, t: [f32; DECAY_BANDS], fs: f32, quad: &Quadrature) {
        let [gl, gm, gh] = quad.loop_gains(self.ring.buf.len(), t, fs);
        self.gh = gh;
        self.bm = gm - gh;
        self.bl = gl - gm;
    }
}

/// Loop gains `10^(−3L/(T_b·fs))` of a comb of `len` frames for band decays `t`.
fn band_gains(len: usize, t: [f32; DECAY_BANDS], fs: f32) -> [f32; DECAY_BANDS] {
    let l = len as f32;
    t.map(|tb| 10f32.powf(-3.0 * l / (tb * fs)))
}

/// Decays clamped to [`SLOT_DECAY_RANGE_S`] (NaN → `fallback`).
fn sanitize_decays(t: [f32; DECAY_BANDS], fallback: [f32; DECAY_BANDS]) -> [f32; DECAY_BANDS] {
    let (lo, hi) = SLOT_DECAY_RANGE_S;
    core::array::from_fn(|b| sanitize(t[b], lo, hi, fallback[b]))
}

#[derive(Clone, Debug, Default)]
struct Slot {
    /// Pre-delay ring; `None` for 0 frames.
    pre: Option<Ring>,
    allpass: [Ring; ALLPASSES],
    ap_gain: f32,
    combs: [Comb; COMBS],
    /// Low and high crossover coefficients.
    a1: f32,
    a2: f32,
    gain_left: f32,
    gain_right: f32,
    /// Decays rendered now (low, mid, high), s.
    decays: [f32; DECAY_BANDS],
    /// Decays aimed at.
    target: [f32; DECAY_BANDS],
    /// `gain²·CHANNEL_ENERGY` × (analytic / measured energy) at the nominal decays: the
    /// output gain is `sqrt(norm / analytic energy)`, exact at the nominal decays.
    norm_left: f64,
    norm_right: f64,
    idle: bool,
    /// True if the slot input or a comb output reached [`IDLE_THRESHOLD`] since the
    /// last idle check.
    window_loud: bool,
}

impl Slot {
    fn build(settings: &ReverbBusSettings, k: usize, fs: f32, quad: &Quadrature) -> Self {
        let s = &settings.slots[k];
        let frames = |sec: f32| (sec * fs).round() as usize;
        let pre_frames = frames(s.pre_delay_s);
        let nominal = nominal_decays(s);
        let combs = core::array::from_fn(|j| {
            let mut c = Comb {
                ring: Ring::with_len(frames(settings.comb_delays_s[j]).max(1)),
                ..Comb::default()
            };
            c.tune(nominal, fs, quad);
            c
        });
        Self {
            pre: (pre_frames > 0).then(|| Ring::with_len(pre_frames)),
            allpass: core::array::from_fn(|j| {
                Ring::with_len(frames(settings.allpass_delays_s[j]).max(1))
            }),
            ap_gain: settings.allpass_gain,
            combs,
            a1: lowpass_coefficient(LOW_CROSSOVER_HZ, fs),
            a2: lowpass_coefficient(HIGH_CROSSOVER_HZ, fs),
            gain_left: 1.0,
            gain_right: 1.0,
            decays: nominal,
            target: nominal,
            norm_left: 1.0,
            norm_right: 1.0,
            idle: true,
            window_loud: false,
        }
    }

    fn comb_lens(&self) -> [usize; COMBS] {
        core::array::from_fn(|j| self.combs[j].ring.buf.len())
    }

    /// Renders decays `t` from now: retunes the combs and renormalises the output gains.
    fn retune(&mut self, t: [f32; DECAY_BANDS], fs: f32, quad: &Quadrature) {
        self.decays = t;
        for c in &mut self.combs {
            c.tune(t, fs, quad);
        }
        let (el, er) = quad.slot_energy(self.comb_lens(), t, fs);
        let g = |norm: f64, e: f64| {
            if e > 0.0 {
                (norm / e).sqrt() as f32
            } else {
                0.0
            }
        };
        self.gain_left = g(self.norm_left, el);
        self.gain_right = g(self.norm_right, er);
    }

    /// One step of the decays toward the target (log scale, [`DECAY_SLEW_S`]); an idle slot
    /// jumps. Retunes when they moved.
    fn follow(&mut self, fs: f32, quad: &Quadrature) {
        if self.decays == self.target {
            return;
        }
        let next = if self.idle {
            self.target
        } else {
            let k = 1.0 - (-(IDLE_CHECK_PERIOD as f32) / (DECAY_SLEW_S * fs)).exp();
            core::array::from_fn(|b| {
                let (now, want) = (self.decays[b], self.target[b]);
                let step = now * ((want / now).ln() * k).exp();
                // Snap once within 0.1 %: the slot then renders the target exactly.
                if (step / want - 1.0).abs() < 1e-3 {
                    want
                } else {
                    step
                }
            })
        };
        self.retune(next, fs, quad);
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
            m = m.max(c.ring.peak()).max(c.l1.abs()).max(c.l2.abs());
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
            (self.a1, self.a2),
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
            c.l1 = flush_small(c.l1);
            c.l2 = flush_small(c.l2);
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

multiversion! {
/// Schroeder allpass: `w = x + g·d`, `y = d − g·w`, line ← `w` (flushed). Compiled for the
/// baseline and AVX2 (`simd::multiversion`; identical bits).
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
}

/// Longest piece the comb stage handles at once (stack scratch).
const COMB_CHUNK: usize = 128;

multiversion! {
/// The four combs. Per piece (no longer than any comb's distance to its wrap point, and
/// shorter than every comb delay, so reads never see this piece's writes):
/// 1. the eight crossover low-passes (two per comb) run side by side in one loop, each step
///    one multiply-add on the chain (`l = c·l + a·o`, the only serial part);
/// 2. outputs (L = combs 0+2, R = 1+3) are summed and checked against the idle threshold,
///    and the lines written `flush(x + g_h·o + (g_m − g_h)·l_hi + (g_l − g_m)·l_lo)`, in a
///    vectorisable pass.
///
/// Returns true if any comb output reached [`IDLE_THRESHOLD`]. Compiled for the baseline
/// and AVX2 (`simd::multiversion`; identical bits).
fn combs_through(
    combs: &mut [Comb; COMBS],
    coefficients: (f32, f32),
    work: &[f32],
    left: &mut [f32],
    right: &mut [f32],
    gl: f32,
    gr: f32,
) -> bool {
    let (a1, a2) = coefficients;
    let mut loud = false;
    let mut done = 0;
    let n = work.len();
    let (c1, c2) = (1.0 - a1, 1.0 - a2);
    let mut s_lo = [[0.0f32; COMB_CHUNK]; COMBS];
    let mut s_hi = [[0.0f32; COMB_CHUNK]; COMBS];
    while done < n {
        let m = combs.iter().fold((n - done).min(COMB_CHUNK), |m, c| {
            m.min(c.ring.run()).min(c.ring.buf.len())
        });
        let x = &work[done..done + m];
        let lo = &mut left[done..done + m];
        let ro = &mut right[done..done + m];
        let [c0, k1, k2, k3] = combs;
        let gh = [c0.gh, k1.gh, k2.gh, k3.gh];
        let bm = [c0.bm, k1.bm, k2.bm, k3.bm];
        let bl = [c0.bl, k1.bl, k2.bl, k3.bl];
        let b0 = &mut c0.ring.buf[c0.ring.idx..c0.ring.idx + m];
        let b1 = &mut k1.ring.buf[k1.ring.idx..k1.ring.idx + m];
        let b2 = &mut k2.ring.buf[k2.ring.idx..k2.ring.idx + m];
        let b3 = &mut k3.ring.buf[k3.ring.idx..k3.ring.idx + m];
        {
            let mut l1 = [c0.l1, k1.l1, k2.l1, k3.l1];
            let mut l2 = [c0.l2, k1.l2, k2.l2, k3.l2];
            for i in 0..m {
                let o = [b0[i], b1[i], b2[i], b3[i]];
                for k in 0..COMBS {
                    l1[k] = c1 * l1[k] + a1 * o[k];
                    l2[k] = c2 * l2[k] + a2 * o[k];
                    s_lo[k][i] = l1[k];
                    s_hi[k][i] = l2[k];
                }
            }
            (c0.l1, k1.l1, k2.l1, k3.l1) = (l1[0], l1[1], l1[2], l1[3]);
            (c0.l2, k1.l2, k2.l2, k3.l2) = (l2[0], l2[1], l2[2], l2[3]);
        }
        for i in 0..m {
            let (o0, o1, o2, o3) = (b0[i], b1[i], b2[i], b3[i]);
            lo[i] += (o0 + o2) * gl;
            ro[i] += (o1 + o3) * gr;
            loud |= (o0.abs() >= IDLE_THRESHOLD)
                | (o1.abs() >= IDLE_THRESHOLD)
                | (o2.abs() >= IDLE_THRESHOLD)
                | (o3.abs() >= IDLE_THRESHOLD);
            let xi = x[i];
            b0[i] = flush(xi + gh[0] * o0 + bm[0] * s_hi[0][i] + bl[0] * s_lo[0][i]);
            b1[i] = flush(xi + gh[1] * o1 + bm[1] * s_hi[1][i] + bl[1] * s_lo[1][i]);
            b2[i] = flush(xi + gh[2] * o2 + bm[2] * s_hi[2][i] + bl[2] * s_lo[2][i]);
            b3[i] = flush(xi + gh[3] * o3 + bm[3] * s_hi[3][i] + bl[3] * s_lo[3][i]);
        }
        for c in combs.iter_mut() {
            c.ring.advance(m);
        }
        done += m;
    }
    loud
}
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
    /// The slots' summed output before the voicing.
    wet: [Vec<f32>; 2],
    voicing: Voicing,
    phase: usize,
    quad: Quadrature,
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
            wet: [Vec::new(), Vec::new()],
            voicing: Voicing::default(),
            phase: 0,
            quad: Quadrature::default(),
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
        self.wet = [vec![0.0; block], vec![0.0; block]];
        self.voicing = Voicing::new(self.sample_rate);
        self.phase = 0;
        self.quad = Quadrature::new(self.sample_rate);
        for k in 0..REVERB_SLOTS {
            let mut slot = Slot::build(&self.settings, k, self.sample_rate, &self.quad);
            let (el, er) = impulse_energy(&mut slot, &self.settings.slots[k], self.sample_rate);
            let (al, ar) = self
                .quad
                .slot_energy(slot.comb_lens(), slot.decays, self.sample_rate);
            let gain = f64::from(self.settings.slots[k].gain);
            // Output gain² × analytic energy = gain² × CHANNEL_ENERGY × analytic/measured: the
            // measured level at the nominal decays, following the analytic energy when retuned.
            let norm = |measured: f64, analytic: f64| {
                if measured > 0.0 {
                    gain * gain * CHANNEL_ENERGY * analytic / measured
                } else {
                    0.0
                }
            };
            slot.norm_left = norm(el, al);
            slot.norm_right = norm(er, ar);
            let decays = slot.decays;
            slot.retune(decays, self.sample_rate, &self.quad);
            slot.clear();
            self.slots[k] = slot;
        }
    }

    /// Sets the decays (s; low < 500 Hz, mid, high > 2 kHz) slot `k` renders from the next
    /// point of the [`IDLE_CHECK_PERIOD`] grid on (so the output does not depend on how the
    /// calls are cut): an idle slot takes them there at once, a running one follows with
    /// [`DECAY_SLEW_S`] on a log scale. Values are clamped to [`SLOT_DECAY_RANGE_S`]; NaN keeps
    /// the current value. Never allocates; a retune costs a few thousand operations, an
    /// unchanged setting nothing.
    pub fn set_slot_decays(&mut self, k: usize, decays: [f32; DECAY_BANDS]) {
        if let Some(slot) = self.slots.get_mut(k) {
            slot.target = sanitize_decays(decays, slot.target);
        }
    }

    /// Decays slot `k` renders now (low, mid, high), s; `None` for `k >= 4`.
    #[must_use]
    pub fn slot_decays(&self, k: usize) -> Option<[f32; DECAY_BANDS]> {
        self.slots.get(k).map(|s| s.decays)
    }

    /// The decays of slot `k` with nothing set: its `decay_s` in the low and mid bands and
    /// `decay_s·hf_ratio` in the high band; `None` for `k >= 4`.
    #[must_use]
    pub fn nominal_decays(&self, k: usize) -> Option<[f32; DECAY_BANDS]> {
        self.settings.slots.get(k).map(nominal_decays)
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
            if self.phase == 0 {
                for slot in &mut self.slots {
                    slot.follow(self.sample_rate, &self.quad);
                }
            }
            let n = (frames - done)
                .min(IDLE_CHECK_PERIOD - self.phase)
                .min(self.work.len());
            let lo = &mut left[done..done + n];
            let ro = &mut right[done..done + n];
            let [wl, wr] = &mut self.wet;
            let (wl, wr) = (&mut wl[..n], &mut wr[..n]);
            let mut rendered = false;
            for (slot, input) in self.slots.iter_mut().zip(inputs) {
                let avail = input.len().saturating_sub(done).min(n);
                let inp = input.get(done..done + avail).unwrap_or(&[]);
                if slot.idle && is_silent(inp) {
                    continue;
                }
                if !rendered {
                    wl.fill(0.0);
                    wr.fill(0.0);
                    rendered = true;
                }
                slot.idle = false;
                let work = &mut self.work[..n];
                work[..avail].copy_from_slice(inp);
                work[avail..].fill(0.0);
                slot.render(work, wl, wr);
            }
            if rendered {
                self.voicing.add_into(wl, wr, lo, ro);
            } else {
                // Every slot idle: their states (and so the voicing's) are below
                // IDLE_THRESHOLD.
                self.voicing.clear();
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
        self.voicing.clear();
        self.phase = 0;
    }
}

/// A slot's decays with nothing set: `[decay_s, decay_s, decay_s·hf_ratio]`.
fn nominal_decays(s: &ReverbSlotSettings) -> [f32; DECAY_BANDS] {
    [s.decay_s, s.decay_s, s.decay_s * s.hf_ratio]
}

/// Energy of the slot's left and right impulse responses with unit output gains.
fn impulse_energy(slot: &mut Slot, s: &ReverbSlotSettings, fs: f32) -> (f64, f64) {
    const BLOCK: usize = 256;
    slot.gain_left = 1.0;
    slot.gain_right = 1.0;
    // -60 dB of decay (the rest holds about 1e-6 of the energy) plus the pre-delay and
    // the longest loop.
    let total = ((s.decay_s + s.pre_delay_s + 0.25) * fs) as usize;
    let mut voicing = Voicing::new(fs);
    let mut work = [0.0f32; BLOCK];
    let mut left = [0.0f32; BLOCK];
    let mut right = [0.0f32; BLOCK];
    let mut voiced = [[0.0f32; BLOCK]; 2];
    let (mut el, mut er) = (0.0f64, 0.0f64);
    let energy = |x: &[f32]| x.iter().map(|&v| f64::from(v) * f64::from(v)).sum::<f64>();
    let mut done = 0;
    while done < total {
        work.fill(0.0);
        if done == 0 {
            work[0] = 1.0;
        }
        left.fill(0.0);
        right.fill(0.0);
        slot.render(&mut work, &mut left, &mut right);
        let [vl, vr] = &mut voiced;
        vl.fill(0.0);
        vr.fill(0.0);
        voicing.add_into(&left, &right, vl, vr);
        el += energy(vl);
        er += energy(vr);
        done += BLOCK;
    }
    (el, er)
}
