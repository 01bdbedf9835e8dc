//! Criterion benches of the DSP processors at 48 kHz with 512-frame buffers.
//!
//! `cargo bench -p resound-dsp --bench dsp -- --warm-up-time 1 --measurement-time 3`
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use resound_dsp::{
    EchoTaps, OcclusionShelf, PeakLimiter, REVERB_SLOTS, ReverbBus, ReverbBusSettings,
    SmoothedGain, StereoPanner, TapParams,
};

#[path = "../tests/support/spaces.rs"]
mod spaces;

const FS: f32 = 48_000.0;
const BLOCK: usize = 512;

fn noise(n: usize, seed: u32) -> Vec<f32> {
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

fn shelf(c: &mut Criterion) {
    let mut g = c.benchmark_group("shelf");
    g.throughput(Throughput::Elements(BLOCK as u64));
    let input = noise(BLOCK, 1);
    let mut buf = input.clone();
    let mut active = OcclusionShelf::new();
    active.prepare(FS, BLOCK);
    active.set_immediate(0.55, 0.05);
    g.bench_function("active_512", |b| {
        b.iter(|| {
            buf.copy_from_slice(&input);
            active.process(black_box(&mut buf));
        });
    });
    let mut ramping = OcclusionShelf::new();
    ramping.prepare(FS, BLOCK);
    let mut flip = false;
    g.bench_function("ramping_512", |b| {
        b.iter(|| {
            flip = !flip;
            ramping.set_targets(if flip { 0.3 } else { 0.9 }, if flip { 0.01 } else { 0.5 });
            buf.copy_from_slice(&input);
            ramping.process(black_box(&mut buf));
        });
    });
    // Four steady shelves side by side (`process_lanes`); per-element figures are per
    // shelf-frame (4 × 512 elements per iteration).
    let mut lanes: Vec<OcclusionShelf> = (0..4)
        .map(|k| {
            let mut s = OcclusionShelf::new();
            s.prepare(FS, BLOCK);
            s.set_immediate(0.5 + 0.1 * k as f32, 0.05);
            s
        })
        .collect();
    let mut bufs: Vec<Vec<f32>> = (0..4).map(|_| input.clone()).collect();
    g.throughput(Throughput::Elements(4 * BLOCK as u64));
    g.bench_function("lanes_4x512", |b| {
        b.iter(|| {
            let mut sh: Vec<&mut OcclusionShelf> = lanes.iter_mut().collect();
            let mut bu: Vec<&mut [f32]> = bufs
                .iter_mut()
                .map(|v| {
                    v.copy_from_slice(&input);
                    v.as_mut_slice()
                })
                .collect();
            OcclusionShelf::process_lanes(&mut sh, black_box(&mut bu));
        });
    });
    g.throughput(Throughput::Elements(BLOCK as u64));
    let mut bypass = OcclusionShelf::new();
    g.bench_function("bypass_512", |b| {
        b.iter(|| {
            buf.copy_from_slice(&input);
            bypass.process(black_box(&mut buf));
        });
    });
    g.finish();
}

fn gains(c: &mut Criterion) {
    let mut g = c.benchmark_group("gain");
    g.throughput(Throughput::Elements(BLOCK as u64));
    let input = noise(BLOCK, 2);
    let mut sends: Vec<SmoothedGain> = (0..REVERB_SLOTS).map(|_| SmoothedGain::send()).collect();
    for (k, s) in sends.iter_mut().enumerate() {
        s.set_immediate(0.1 * (k + 1) as f32);
    }
    let mut bus: Vec<Vec<f32>> = vec![vec![0.0; BLOCK]; REVERB_SLOTS];
    g.bench_function("four_sends_512", |b| {
        b.iter(|| {
            for (s, out) in sends.iter_mut().zip(bus.iter_mut()) {
                s.mix(black_box(&input), out);
            }
        });
    });
    let mut pan = StereoPanner::new();
    pan.set_immediate(0.3, 0.8);
    let (mut l, mut r) = (vec![0.0; BLOCK], vec![0.0; BLOCK]);
    g.bench_function("pan_512", |b| {
        b.iter(|| pan.mix(black_box(&input), &mut l, &mut r));
    });
    g.finish();
}

fn taps(c: &mut Criterion) {
    let mut g = c.benchmark_group("taps");
    g.throughput(Throughput::Elements(BLOCK as u64));
    let source = noise(5 * 48_000, 3);
    let mut taps = EchoTaps::new();
    taps.prepare(FS, BLOCK);
    let set: Vec<TapParams> = (0..6)
        .map(|k| TapParams {
            delay: 0.05 + 0.07 * k as f32,
            level: 0.2,
            hf: 0.3 + 0.1 * k as f32,
            pan: -0.8 + 0.3 * k as f32,
        })
        .collect();
    taps.set_taps(&set);
    let (mut l, mut r) = (vec![0.0; BLOCK], vec![0.0; BLOCK]);
    let mut pos = 48_000.0f64;
    let step = 44_100.0 / 48_000.0;
    g.bench_function("six_taps_512", |b| {
        b.iter(|| {
            taps.mix(black_box(&source), pos, step, &mut l, &mut r);
            pos += BLOCK as f64 * step;
            if pos > 4.0 * 48_000.0 {
                pos = 48_000.0;
            }
        });
    });
    g.finish();
}

fn reverb(c: &mut Criterion) {
    let mut g = c.benchmark_group("reverb");
    g.throughput(Throughput::Elements(BLOCK as u64));
    let mut bus = ReverbBus::new(ReverbBusSettings::default());
    bus.prepare(FS, BLOCK);
    let inputs: Vec<Vec<f32>> = (0..REVERB_SLOTS)
        .map(|k| noise(BLOCK, 10 + k as u32))
        .collect();
    let (mut l, mut r) = (vec![0.0; BLOCK], vec![0.0; BLOCK]);
    g.bench_function("bus_4_busy_slots_512", |b| {
        b.iter(|| {
            let ins: [&[f32]; REVERB_SLOTS] = core::array::from_fn(|k| inputs[k].as_slice());
            bus.mix(black_box(ins), &mut l, &mut r);
        });
    });
    // Four active spaces (issue 30): each slot tuned to its own three-band decay.
    let mut tuned = ReverbBus::new(ReverbBusSettings::default());
    tuned.prepare(FS, BLOCK);
    for (k, d) in spaces::TUNED_SPACES.into_iter().enumerate() {
        tuned.set_slot_decays(k, d);
    }
    g.bench_function("bus_4_tuned_spaces_512", |b| {
        b.iter(|| {
            let ins: [&[f32]; REVERB_SLOTS] = core::array::from_fn(|k| inputs[k].as_slice());
            tuned.mix(black_box(ins), &mut l, &mut r);
        });
    });
    let mut idle = ReverbBus::new(ReverbBusSettings::default());
    let zeros = vec![0.0f32; BLOCK];
    g.bench_function("bus_idle_512", |b| {
        b.iter(|| idle.mix(black_box([zeros.as_slice(); REVERB_SLOTS]), &mut l, &mut r));
    });
    g.finish();
}

fn limiter(c: &mut Criterion) {
    let mut g = c.benchmark_group("limiter");
    g.throughput(Throughput::Elements(BLOCK as u64));
    let input = noise(BLOCK, 5);
    let (mut l, mut r) = (vec![0.0; BLOCK], vec![0.0; BLOCK]);
    for (name, gain) in [
        ("stereo_512_limiting", 1.5f32),
        ("stereo_512_below_ceiling", 0.5),
    ] {
        let mut lim = PeakLimiter::default();
        g.bench_function(name, |b| {
            b.iter(|| {
                for ((a, b), x) in l.iter_mut().zip(r.iter_mut()).zip(&input) {
                    *a = x * gain;
                    *b = x * 0.5;
                }
                lim.process(black_box(&mut l), black_box(&mut r));
            });
        });
    }
    g.finish();
}

criterion_group!(all, shelf, gains, taps, reverb, limiter);
criterion_main!(all);
