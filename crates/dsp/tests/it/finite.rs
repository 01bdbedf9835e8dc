//! Outputs stay finite for finite inputs whatever the parameters (NaN, ±∞, out of range
//! are clamped or ignored), and nothing panics.

use proptest::prelude::*;
use resound_dsp::analysis::all_finite;
use resound_dsp::{
    EchoTaps, OcclusionShelf, OnePoleHighPass, OnePoleLowPass, PeakLimiter, REVERB_SLOTS,
    ReverbBus, ReverbBusSettings, SmoothedGain, StereoPanner, TapParams,
};

/// Any f32 parameter, weighted towards the awkward ones.
fn param() -> impl Strategy<Value = f32> {
    prop_oneof![
        Just(f32::NAN),
        Just(f32::INFINITY),
        Just(f32::NEG_INFINITY),
        Just(0.0f32),
        Just(-0.0f32),
        Just(f32::MAX),
        Just(f32::MIN_POSITIVE / 4.0),
        -1e6f32..1e6,
        -2.0f32..2.0,
    ]
}

fn signal() -> impl Strategy<Value = Vec<f32>> {
    proptest::collection::vec(-1e4f32..1e4, 1..700)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn voice_processors_stay_finite(
        x in signal(),
        p in proptest::array::uniform8(param()),
        fs in param(),
    ) {
        let mut shelf = OcclusionShelf::new();
        shelf.prepare(fs, 512);
        shelf.set_targets(p[0], p[1]);
        let mut a = x.clone();
        shelf.process(&mut a);
        shelf.set_immediate(p[2], p[3]);
        shelf.process(&mut a);
        prop_assert!(all_finite(&a));

        let mut lp = OnePoleLowPass::new(p[4]);
        let mut hp = OnePoleHighPass::new(p[5]);
        lp.prepare(fs, 0);
        hp.prepare(fs, 0);
        let (mut b, mut c) = (x.clone(), x.clone());
        lp.process(&mut b);
        hp.process(&mut c);
        prop_assert!(all_finite(&b) && all_finite(&c));

        let mut g = SmoothedGain::new(p[6], p[7]);
        g.prepare(fs, 0);
        g.set_target(p[0]);
        let mut d = x.clone();
        g.process(&mut d);
        let mut e = vec![0.0f32; x.len()];
        g.mix(&x, &mut e);
        prop_assert!(all_finite(&d) && all_finite(&e));

        let mut pan = StereoPanner::new();
        pan.set_target(p[1], p[2]);
        let (mut l, mut r) = (vec![0.0f32; x.len()], vec![0.0f32; x.len()]);
        pan.mix(&x, &mut l, &mut r);
        prop_assert!(all_finite(&l) && all_finite(&r));
    }

    #[test]
    fn taps_bus_and_limiter_stay_finite(
        x in signal(),
        p in proptest::array::uniform8(param()),
        pos in prop_oneof![Just(f64::NAN), Just(f64::INFINITY), -1e7f64..1e7],
        step in prop_oneof![Just(f64::NAN), Just(0.0), Just(-1.0), 0.01f64..8.0],
    ) {
        let mut taps = EchoTaps::new();
        taps.prepare(p[7], 512);
        taps.set_taps(&[
            TapParams { delay: p[0], level: p[1], hf: p[2], pan: p[3] },
            TapParams { delay: p[4], level: p[5], hf: p[6], pan: p[7] },
        ]);
        let (mut l, mut r) = (vec![0.0f32; x.len()], vec![0.0f32; x.len()]);
        taps.mix(&x, pos, step, &mut l, &mut r);
        prop_assert!(all_finite(&l) && all_finite(&r));

        let mut s = ReverbBusSettings::default();
        for (k, slot) in s.slots.iter_mut().enumerate() {
            slot.decay_s = p[k];
            slot.hf_ratio = p[k + 1];
            slot.gain = p[k + 2];
            slot.pre_delay_s = p[k + 3];
        }
        s.allpass_gain = p[7];
        s.comb_delays_s[0] = p[6];
        let mut bus = ReverbBus::new(s);
        let ins: [&[f32]; REVERB_SLOTS] = [&x; REVERB_SLOTS];
        bus.mix(ins, &mut l, &mut r);
        prop_assert!(all_finite(&l) && all_finite(&r));

        let mut lim = PeakLimiter::new(p[0], p[1]);
        lim.prepare(p[2], 0);
        lim.process(&mut l, &mut r);
        prop_assert!(l.iter().chain(&r).all(|v| v.is_finite() && v.abs() <= lim.ceiling()));
    }
}
