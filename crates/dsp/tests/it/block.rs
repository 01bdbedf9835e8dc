//! Block processing equals sample-by-sample processing, for every processor and for any
//! split of the signal into blocks (proptest); `reset` + re-render is bit-identical.
//!
//! Each subject renders a fixed input with parameter changes at fixed frames; the chunk
//! list always breaks at those frames (a caller sets targets between buffers).

use proptest::prelude::*;
use resound_dsp::{
    EchoTaps, OcclusionShelf, OnePoleHighPass, OnePoleLowPass, PeakLimiter, REVERB_SLOTS,
    ReverbBus, ReverbBusSettings, SmoothedGain, StereoPanner, TapParams,
};

const LEN: usize = 12_000;

/// Deterministic noise in -1..1 (xorshift32).
pub fn noise(n: usize, seed: u32) -> Vec<f32> {
    let mut s = seed.max(1);
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            (s as f32 / u32::MAX as f32) * 2.0 - 1.0
        })
        .collect()
}

/// Splits `0..total` into chunks of the cycled `pattern` sizes, also breaking at `events`.
fn chunk_list(pattern: &[usize], events: &[usize], total: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut pos = 0;
    let mut k = 0;
    while pos < total {
        let want = pattern
            .get(k % pattern.len().max(1))
            .copied()
            .unwrap_or(total)
            .max(1);
        k += 1;
        let next_event = events
            .iter()
            .copied()
            .filter(|&e| e > pos)
            .min()
            .unwrap_or(total);
        let n = want.min(next_event - pos).min(total - pos);
        out.push(n);
        pos += n;
    }
    out
}

/// A processor under test with its input, events and output collection.
pub trait Subject {
    /// Frames to render.
    fn len(&self) -> usize {
        LEN
    }
    /// Frames at which `event` is called.
    fn events(&self) -> &'static [usize];
    /// Applies the parameter change at `frame`.
    fn event(&mut self, frame: usize);
    /// Processes frames `start..start + n` and appends the output.
    fn chunk(&mut self, start: usize, n: usize, out: &mut Vec<f32>);
    /// Calls the processor's `reset`.
    fn reset(&mut self);
}

/// Renders with the given chunk pattern; returns output bits.
pub fn render(s: &mut dyn Subject, pattern: &[usize]) -> Vec<u32> {
    let chunks = chunk_list(pattern, s.events(), s.len());
    let mut out = Vec::new();
    let mut pos = 0;
    for n in chunks {
        if s.events().contains(&pos) {
            s.event(pos);
        }
        s.chunk(pos, n, &mut out);
        pos += n;
    }
    out.iter().map(|x| x.to_bits()).collect()
}

struct Shelf(OcclusionShelf, Vec<f32>);
impl Subject for Shelf {
    fn events(&self) -> &'static [usize] {
        &[0, 1000, 5000, 9000]
    }
    fn event(&mut self, f: usize) {
        match f {
            0 => self.0.set_immediate(0.9, 0.5),
            1000 => self.0.set_targets(0.2, 0.01),
            5000 => self.0.set_targets(1.0, 1.0),
            _ => self.0.set_targets(0.7, 1.0),
        }
    }
    fn chunk(&mut self, s: usize, n: usize, out: &mut Vec<f32>) {
        let mut b = self.1[s..s + n].to_vec();
        self.0.process(&mut b);
        out.extend(b);
    }
    fn reset(&mut self) {
        self.0.reset();
    }
}

struct Filters(OnePoleLowPass, OnePoleHighPass, Vec<f32>);
impl Subject for Filters {
    fn events(&self) -> &'static [usize] {
        &[3000]
    }
    fn event(&mut self, _: usize) {
        self.0.set_cutoff(200.0);
        self.1.set_cutoff(3000.0);
    }
    fn chunk(&mut self, s: usize, n: usize, out: &mut Vec<f32>) {
        let mut a = self.2[s..s + n].to_vec();
        let mut b = a.clone();
        self.0.process(&mut a);
        self.1.process(&mut b);
        out.extend(a.iter().zip(&b).flat_map(|(x, y)| [*x, *y]));
    }
    fn reset(&mut self) {
        self.0.reset();
        self.1.reset();
    }
}

struct Gains(SmoothedGain, SmoothedGain, StereoPanner, Vec<f32>);
impl Subject for Gains {
    fn events(&self) -> &'static [usize] {
        &[0, 2000, 7000]
    }
    fn event(&mut self, f: usize) {
        match f {
            0 => {
                self.0.set_target(0.3);
                self.1.set_target(0.8);
                self.2.set_target(-0.7, 0.9);
            }
            2000 => {
                self.0.set_target(1.5);
                self.1.set_target(0.0);
                self.2.set_target(0.9, 0.4);
            }
            _ => {
                self.0.set_immediate(0.5);
                self.2.set_immediate(0.0, 1.0);
            }
        }
    }
    fn chunk(&mut self, s: usize, n: usize, out: &mut Vec<f32>) {
        let x = &self.3[s..s + n];
        let mut a = x.to_vec();
        self.0.process(&mut a);
        let mut send = vec![0.25f32; n];
        self.1.mix(x, &mut send);
        let (mut l, mut r) = (vec![0.0f32; n], vec![0.0f32; n]);
        self.2.mix(x, &mut l, &mut r);
        for i in 0..n {
            out.extend([a[i], send[i], l[i], r[i]]);
        }
    }
    fn reset(&mut self) {
        self.0.reset();
        self.1.reset();
        self.2.reset();
    }
}

struct Taps(EchoTaps, Vec<f32>);
const TAP_STEP: f64 = 0.75;
impl Subject for Taps {
    fn len(&self) -> usize {
        20_000
    }
    fn events(&self) -> &'static [usize] {
        &[0, 4000, 9000, 15_000]
    }
    fn event(&mut self, f: usize) {
        let t = |delay, level, hf, pan| TapParams {
            delay,
            level,
            hf,
            pan,
        };
        match f {
            0 => self
                .0
                .set_taps(&[t(0.04, 0.5, 0.3, -0.5), t(0.09, 0.3, 1.0, 0.8)]),
            4000 => self
                .0
                .set_taps(&[t(0.041, 0.7, 0.2, -0.4), t(0.15, 0.2, 0.05, 0.0)]),
            9000 => self.0.set_taps(&[t(0.2, 0.4, 0.9, 1.0)]),
            _ => self.0.clear(),
        }
    }
    fn chunk(&mut self, s: usize, n: usize, out: &mut Vec<f32>) {
        let (mut l, mut r) = (vec![0.0f32; n], vec![0.0f32; n]);
        self.0
            .mix(&self.1, s as f64 * TAP_STEP, TAP_STEP, &mut l, &mut r);
        out.extend(l.iter().zip(&r).flat_map(|(x, y)| [*x, *y]));
    }
    fn reset(&mut self) {
        self.0.reset();
    }
}

struct Bus(ReverbBus, Vec<Vec<f32>>);
impl Subject for Bus {
    fn len(&self) -> usize {
        40_000
    }
    fn events(&self) -> &'static [usize] {
        &[]
    }
    fn event(&mut self, _: usize) {}
    fn chunk(&mut self, s: usize, n: usize, out: &mut Vec<f32>) {
        let (mut l, mut r) = (vec![0.0f32; n], vec![0.0f32; n]);
        let ins: [&[f32]; REVERB_SLOTS] = core::array::from_fn(|k| &self.1[k][s..s + n]);
        self.0.mix(ins, &mut l, &mut r);
        out.extend(l.iter().zip(&r).flat_map(|(x, y)| [*x, *y]));
    }
    fn reset(&mut self) {
        self.0.reset();
    }
}

struct Limiter(PeakLimiter, Vec<f32>);
impl Subject for Limiter {
    fn events(&self) -> &'static [usize] {
        &[]
    }
    fn event(&mut self, _: usize) {}
    fn chunk(&mut self, s: usize, n: usize, out: &mut Vec<f32>) {
        let mut l: Vec<f32> = self.1[s..s + n].iter().map(|x| x * 3.0).collect();
        let mut r: Vec<f32> = self.1[s..s + n].iter().map(|x| x * 0.5).collect();
        self.0.process(&mut l, &mut r);
        out.extend(l.iter().zip(&r).flat_map(|(x, y)| [*x, *y]));
    }
    fn reset(&mut self) {
        self.0.reset();
    }
}

/// Every subject, freshly built.
pub fn subjects() -> Vec<(&'static str, Box<dyn Subject>)> {
    let x = noise(LEN, 7);
    // Short decays so the bus render also covers idle zeroing.
    let mut settings = ReverbBusSettings::default();
    settings.slots[0].decay_s = 0.1;
    let mut bus_in: Vec<Vec<f32>> = (0..REVERB_SLOTS)
        .map(|k| noise(40_000, 11 + k as u32))
        .collect();
    for (k, ch) in bus_in.iter_mut().enumerate() {
        ch[2000 * (k + 1)..].fill(0.0);
    }
    vec![
        (
            "shelf",
            Box::new(Shelf(OcclusionShelf::new(), x.clone())) as Box<dyn Subject>,
        ),
        (
            "one-poles",
            Box::new(Filters(
                OnePoleLowPass::new(800.0),
                OnePoleHighPass::new(100.0),
                x.clone(),
            )),
        ),
        (
            "gains",
            Box::new(Gains(
                SmoothedGain::volume(),
                SmoothedGain::send(),
                StereoPanner::new(),
                x.clone(),
            )),
        ),
        ("taps", Box::new(Taps(EchoTaps::new(), noise(16_000, 3)))),
        ("bus", Box::new(Bus(ReverbBus::new(settings), bus_in))),
        ("limiter", Box::new(Limiter(PeakLimiter::default(), x))),
    ]
}

#[test]
fn whole_block_equals_sample_by_sample() {
    for (name, mut s) in subjects() {
        let whole = render(s.as_mut(), &[usize::MAX]);
        s.reset();
        let single = render(s.as_mut(), &[1]);
        assert_eq!(whole.len(), single.len());
        let first = whole.iter().zip(&single).position(|(a, b)| a != b);
        assert!(first.is_none(), "{name}: differs at {first:?}");
        assert!(whole.iter().any(|&b| b != 0), "{name}: silent");
    }
}

#[test]
fn reset_and_rerender_is_bit_identical() {
    for ((name, mut s), (_, mut fresh)) in subjects().into_iter().zip(subjects()) {
        let a = render(s.as_mut(), &[512]);
        s.reset();
        let b = render(s.as_mut(), &[512]);
        let c = render(fresh.as_mut(), &[512]);
        assert!(a == b, "{name}: reset + re-render differs");
        assert!(a == c, "{name}: differs from a fresh processor");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn any_block_split_equals_sample_by_sample(
        pattern in proptest::collection::vec(1usize..700, 1..12),
    ) {
        for (name, mut s) in subjects() {
            let single = render(s.as_mut(), &[1]);
            s.reset();
            let split = render(s.as_mut(), &pattern);
            let first = single.iter().zip(&split).position(|(a, b)| a != b);
            prop_assert!(first.is_none(), "{}: differs at {:?}", name, first);
        }
    }
}
