//! 10 s of silence after an impulse leaves no NaN and no denormal, in any processor.

use resound_dsp::analysis::{all_finite, has_denormal};
use resound_dsp::{
    EchoTaps, OcclusionShelf, OnePoleHighPass, OnePoleLowPass, PeakLimiter, REVERB_SLOTS,
    ReverbBus, ReverbBusSettings, TapParams,
};

const FS: f32 = 48_000.0;
const BLOCK: usize = 512;
const FRAMES: usize = 10 * 48_000 + BLOCK;

fn impulse() -> Vec<f32> {
    let mut x = vec![0.0f32; FRAMES];
    x[0] = 1.0;
    x
}

fn check(name: &str, out: &[f32]) {
    assert!(all_finite(out), "{name}: non-finite output");
    assert!(!has_denormal(out), "{name}: denormal output");
    assert!(
        out.iter().any(|&x| x != 0.0),
        "{name}: silent (test would be vacuous)"
    );
}

#[test]
fn reverb_bus_ten_seconds_after_an_impulse() {
    let mut bus = ReverbBus::new(ReverbBusSettings::default());
    bus.prepare(FS, BLOCK);
    let x = impulse();
    let (mut l, mut r) = (vec![0.0f32; FRAMES], vec![0.0f32; FRAMES]);
    for start in (0..FRAMES).step_by(BLOCK) {
        let end = (start + BLOCK).min(FRAMES);
        let ins: [&[f32]; REVERB_SLOTS] = [&x[start..end]; REVERB_SLOTS];
        bus.mix(ins, &mut l[start..end], &mut r[start..end]);
    }
    check("bus L", &l);
    check("bus R", &r);
    // The three short slots (≤ 1.68 s: -180 dB by 5 s) have gone idle and been zeroed.
    for k in 0..3 {
        assert!(bus.slot_is_idle(k), "slot {k} still busy");
    }
    // 20 more seconds: the 4.142 s slot goes idle too.
    let zeros = vec![0.0f32; BLOCK];
    let (mut lo, mut ro) = (vec![0.0f32; BLOCK], vec![0.0f32; BLOCK]);
    for _ in 0..(20 * 48_000 / BLOCK) {
        bus.mix([&zeros[..]; REVERB_SLOTS], &mut lo, &mut ro);
        assert!(all_finite(&lo) && !has_denormal(&lo) && !has_denormal(&ro));
    }
    assert!(bus.is_idle());
}

#[test]
fn filters_ten_seconds_after_an_impulse() {
    let mut shelf = OcclusionShelf::new();
    shelf.set_immediate(0.5, 0.01);
    let mut a = impulse();
    for b in a.chunks_mut(BLOCK) {
        shelf.process(b);
    }
    check("shelf", &a);
    let mut lp = OnePoleLowPass::new(50.0);
    let mut b = impulse();
    lp.process(&mut b);
    check("low-pass", &b);
    let mut hp = OnePoleHighPass::new(50.0);
    let mut c = impulse();
    hp.process(&mut c);
    check("high-pass", &c);
    let mut lim = PeakLimiter::default();
    let mut d = impulse();
    let mut e = impulse();
    d[1] = 4.0;
    lim.process(&mut d, &mut e);
    check("limiter", &d);
}

#[test]
fn taps_ten_seconds_after_an_impulse() {
    let mut taps = EchoTaps::new();
    taps.set_taps(&[
        TapParams {
            delay: 0.1,
            level: 0.8,
            hf: 0.01,
            pan: 0.3,
        },
        TapParams {
            delay: 0.5,
            level: 0.5,
            hf: 0.5,
            pan: -0.3,
        },
    ]);
    let source = [1.0f32];
    let (mut l, mut r) = (vec![0.0f32; FRAMES], vec![0.0f32; FRAMES]);
    for start in (0..FRAMES).step_by(BLOCK) {
        let end = (start + BLOCK).min(FRAMES);
        taps.mix(
            &source,
            start as f64,
            1.0,
            &mut l[start..end],
            &mut r[start..end],
        );
    }
    check("taps L", &l);
    check("taps R", &r);
}
