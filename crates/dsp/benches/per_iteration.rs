//! Per-iteration timings of the same workloads as `benches/dsp.rs` (48 kHz, 512-frame
//! buffers): each call is timed alone, 5000 times, and the minimum and median are printed.
//! On a shared, loaded machine these show the processors' own cost, while criterion's
//! batched means also include time lost to other processes.
//!
//! `cargo bench -p resound-dsp --bench per_iteration`
#![allow(missing_docs)]

use std::hint::black_box;
use std::time::Instant;

use resound_dsp::{
    EchoTaps, OcclusionShelf, PeakLimiter, REVERB_SLOTS, ReverbBus, ReverbBusSettings,
    SmoothedGain, StereoPanner, TapParams,
};

const BLOCK: usize = 512;
const RUNS: usize = 5000;

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

fn report(name: &str, mut f: impl FnMut()) {
    let mut t: Vec<f64> = (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    t.sort_by(f64::total_cmp);
    println!(
        "{name:<40} min {:8.3} µs   median {:8.3} µs",
        t[0],
        t[RUNS / 2]
    );
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let input = noise(BLOCK, 1);
    let mut buf = input.clone();
    let mut shelf = OcclusionShelf::new();
    shelf.set_immediate(0.55, 0.05);
    report("shelf/active_512", || {
        buf.copy_from_slice(&input);
        shelf.process(black_box(&mut buf));
    });
    let mut sends: Vec<SmoothedGain> = (0..REVERB_SLOTS).map(|_| SmoothedGain::send()).collect();
    for s in &mut sends {
        s.set_immediate(0.3);
    }
    let mut bus_in = vec![vec![0.0f32; BLOCK]; REVERB_SLOTS];
    report("gain/four_sends_512", || {
        for (s, o) in sends.iter_mut().zip(bus_in.iter_mut()) {
            s.mix(black_box(&input), o);
        }
    });
    let mut pan = StereoPanner::new();
    pan.set_immediate(0.3, 0.8);
    let (mut l, mut r) = (vec![0.0f32; BLOCK], vec![0.0f32; BLOCK]);
    report("gain/pan_512", || {
        pan.mix(black_box(&input), &mut l, &mut r)
    });
    let source = noise(5 * 48_000, 3);
    let set: Vec<TapParams> = (0..6)
        .map(|k| TapParams {
            delay: 0.05 + 0.07 * k as f32,
            level: 0.2,
            hf: 0.3 + 0.1 * k as f32,
            pan: -0.8 + 0.3 * k as f32,
        })
        .collect();
    for (name, step) in [
        ("taps/six_taps_512 (step 44.1/48)", 44_100.0 / 48_000.0),
        ("taps/six_taps_512 (step 1)", 1.0),
    ] {
        let mut taps = EchoTaps::new();
        taps.set_taps(&set);
        let mut pos = 48_000.0f64;
        report(name, || {
            taps.mix(black_box(&source), pos, step, &mut l, &mut r);
            pos += BLOCK as f64 * step;
            if pos > 4.0 * 48_000.0 {
                pos = 48_000.0;
            }
        });
    }
    let mut bus = ReverbBus::new(ReverbBusSettings::default());
    let ins: Vec<Vec<f32>> = (0..REVERB_SLOTS)
        .map(|k| noise(BLOCK, 10 + k as u32))
        .collect();
    report("reverb/bus_4_busy_slots_512", || {
        let i: [&[f32]; REVERB_SLOTS] = core::array::from_fn(|k| ins[k].as_slice());
        bus.mix(black_box(i), &mut l, &mut r);
    });
    let mut idle = ReverbBus::new(ReverbBusSettings::default());
    let zeros = vec![0.0f32; BLOCK];
    report("reverb/bus_idle_512", || {
        idle.mix(black_box([zeros.as_slice(); REVERB_SLOTS]), &mut l, &mut r)
    });
    for (name, gain) in [
        ("limiter/stereo_512_limiting", 1.5f32),
        ("limiter/stereo_512_below_ceiling", 0.5),
    ] {
        let mut lim = PeakLimiter::default();
        report(name, || {
            for ((a, b), x) in l.iter_mut().zip(r.iter_mut()).zip(&input) {
                *a = x * gain;
                *b = x * 0.5;
            }
            lim.process(black_box(&mut l), black_box(&mut r));
        });
    }
}
