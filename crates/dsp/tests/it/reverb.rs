//! Reverb bus: per-slot T30, monotonic energy decay, normalisation (unit stereo energy), idle
//! behaviour.

use proptest::prelude::*;
use resound_dsp::analysis::{schroeder_t30, window_energies};
use resound_dsp::equal_power_pan;
use resound_dsp::reverb::{CHANNEL_ENERGY, COMB_DELAYS_S, SLOT_DECAYS_S};
use resound_dsp::{REVERB_SLOTS, ReverbBus, ReverbBusSettings};

const FS: f32 = 48_000.0;

/// Impulse response (left, right) of the bus with `amps[k]` as the impulse into slot `k`.
fn impulse_response(
    bus: &mut ReverbBus,
    amps: [f32; REVERB_SLOTS],
    seconds: f32,
) -> (Vec<f32>, Vec<f32>) {
    let n = (seconds * FS) as usize;
    let mut left = vec![0.0; n];
    let mut right = vec![0.0; n];
    let block = 512;
    let mut inputs = vec![vec![0.0f32; block]; REVERB_SLOTS];
    let mut done = 0;
    while done < n {
        let m = block.min(n - done);
        for (k, inp) in inputs.iter_mut().enumerate() {
            inp.fill(0.0);
            if done == 0 {
                inp[0] = amps[k];
            }
        }
        let ins: [&[f32]; REVERB_SLOTS] = core::array::from_fn(|k| &inputs[k][..m]);
        bus.mix(ins, &mut left[done..done + m], &mut right[done..done + m]);
        done += m;
    }
    (left, right)
}

#[test]
fn each_slot_t30_within_half_to_1_15_of_nominal() {
    let mut bus = ReverbBus::new(ReverbBusSettings::default());
    bus.prepare(FS, 512);
    for k in 0..REVERB_SLOTS {
        bus.reset();
        let mut amps = [0.0; REVERB_SLOTS];
        amps[k] = 1.0;
        let nominal = SLOT_DECAYS_S[k];
        let (l, r) = impulse_response(&mut bus, amps, nominal * 2.0 + 0.2);
        for (name, ch) in [("L", &l), ("R", &r)] {
            let t30 = schroeder_t30(ch, FS).expect("decays past -35 dB");
            let ratio = t30 / nominal;
            eprintln!("slot {k} {name}: T30 {t30:.3} s, nominal {nominal} s, ratio {ratio:.3}");
            assert!(
                (0.5..=1.15).contains(&ratio),
                "slot {k} {name}: T30 {t30} vs {nominal}"
            );
        }
    }
}

#[test]
fn slots_are_normalised_to_unit_stereo_energy_times_gain() {
    let settings = ReverbBusSettings::default();
    let mut bus = ReverbBus::new(settings);
    for k in 0..REVERB_SLOTS {
        bus.reset();
        let mut amps = [0.0; REVERB_SLOTS];
        amps[k] = 1.0;
        let (l, r) = impulse_response(&mut bus, amps, SLOT_DECAYS_S[k] * 1.5 + 0.3);
        let g = f64::from(settings.slots[k].gain);
        let energy = |ch: &[f32]| ch.iter().map(|&x| f64::from(x) * f64::from(x)).sum::<f64>();
        for ch in [&l, &r] {
            let rel = energy(ch) / (CHANNEL_ENERGY * g * g);
            assert!((rel - 1.0).abs() < 1e-3, "slot {k}: per channel {rel}");
        }
        let rel = (energy(&l) + energy(&r)) / (g * g);
        assert!((rel - 1.0).abs() < 1e-3, "slot {k}: left + right {rel}");
    }
}

/// A send `s` into slot `k` puts `s²·gain²` of a voice's energy into the stereo tail: the
/// tail-to-dry energy ratio (left + right) does not depend on the voice's pan and is what
/// the send and slot gain say (acoustics.md §6 tail/click), not twice that.
#[test]
fn wet_to_dry_energy_is_send_squared_times_gain_squared_at_any_pan() {
    let settings = ReverbBusSettings::default();
    let mut bus = ReverbBus::new(settings);
    let send = 0.8f32;
    for k in 0..REVERB_SLOTS {
        bus.reset();
        let mut amps = [0.0; REVERB_SLOTS];
        amps[k] = send;
        let (l, r) = impulse_response(&mut bus, amps, SLOT_DECAYS_S[k] * 1.5 + 0.3);
        let wet: f64 = l
            .iter()
            .chain(&r)
            .map(|&x| f64::from(x) * f64::from(x))
            .sum();
        let want = f64::from(send * settings.slots[k].gain).powi(2);
        for pan in [-1.0f32, -0.3, 0.0, 1.0] {
            // the dry unit impulse, equal-power panned
            let (gl, gr) = equal_power_pan(pan);
            let dry = f64::from(gl * gl + gr * gr);
            let ratio = wet / dry / want;
            assert!(
                (ratio - 1.0).abs() < 1e-3,
                "slot {k}, pan {pan}: wet/dry {ratio} x send²·gain²"
            );
        }
    }
}

#[test]
fn zero_send_gives_exactly_no_output_and_stays_idle() {
    let mut bus = ReverbBus::new(ReverbBusSettings::default());
    let (l, r) = impulse_response(&mut bus, [0.0; REVERB_SLOTS], 0.5);
    assert!(l.iter().chain(&r).all(|&x| x.to_bits() == 0));
    assert!(bus.is_idle());
}

#[test]
fn tail_goes_idle_and_zeroes_after_silence() {
    let mut bus = ReverbBus::new(ReverbBusSettings::default());
    let (l, _) = impulse_response(&mut bus, [1.0, 0.0, 0.0, 0.0], 0.1);
    assert!(!bus.slot_is_idle(0));
    assert!(l.iter().any(|&x| x != 0.0));
    // 0.15 s decay: -180 dB after 0.45 s.
    let (l, r) = impulse_response(&mut bus, [0.0; REVERB_SLOTS], 1.0);
    assert!(bus.is_idle());
    assert!(
        l[l.len() - 100..]
            .iter()
            .chain(&r[r.len() - 100..])
            .all(|&x| x == 0.0)
    );
}

/// `x` differenced three times (+18 dB/octave): the high band outweighs the voiced mid band.
fn treble(x: &[f32]) -> Vec<f32> {
    let mut y = x.to_vec();
    for _ in 0..3 {
        y = y
            .iter()
            .scan(0.0f32, |prev, &v| {
                let d = v - *prev;
                *prev = v;
                Some(d)
            })
            .collect();
    }
    y
}

#[test]
fn loop_filter_shortens_high_frequency_decay() {
    // With hf_ratio 1 the loop filter is bypassed; with 0.3 the treble's T30 must drop, and
    // the broadband (voiced, mid-band) T30 stay within 10 % (issue 30).
    let mut s = ReverbBusSettings::default();
    s.slots[1].hf_ratio = 1.0;
    let mut flat = ReverbBus::new(s);
    s.slots[1].hf_ratio = 0.3;
    let mut dark = ReverbBus::new(s);
    let amps = [0.0, 1.0, 0.0, 0.0];
    let flat_ir = impulse_response(&mut flat, amps, 1.5).0;
    let dark_ir = impulse_response(&mut dark, amps, 1.5).0;
    let t_flat = schroeder_t30(&treble(&flat_ir), FS).unwrap();
    let t_dark = schroeder_t30(&treble(&dark_ir), FS).unwrap();
    eprintln!("treble: flat {t_flat} dark {t_dark}");
    assert!(t_dark < t_flat * 0.8, "{t_dark} vs {t_flat}");
    let (b_flat, b_dark) = (
        schroeder_t30(&flat_ir, FS).unwrap(),
        schroeder_t30(&dark_ir, FS).unwrap(),
    );
    eprintln!("broadband: flat {b_flat} dark {b_dark}");
    assert!(b_flat > 0.5 && b_flat < 0.55 * 1.15);
    assert!(b_dark > b_flat * 0.9, "{b_dark} vs {b_flat}");
}

/// Frames after the impulse when the tail is fully built up: the longest pre-delay plus
/// the longest comb plus the allpass spread.
fn build_up_frames(settings: &ReverbBusSettings) -> usize {
    let pre = settings
        .slots
        .iter()
        .map(|s| s.pre_delay_s)
        .fold(0.0, f32::max);
    let comb = COMB_DELAYS_S.iter().copied().fold(0.0, f32::max);
    ((pre + comb + 0.02) * FS) as usize
}

/// Energy window for the monotonic-decay check: 150 ms, over 3× the longest comb loop
/// (43.7 ms). A comb tail is a train of passes one loop apart, so a 50 ms window holds one
/// or two passes of each comb and its energy can rise by up to ~2× from one window to the
/// next while the reverb decays (measured worst next/previous ratio over decays
/// 0.1–5 s and HF ratios 0.1–1: 1.84 at 50 ms, 1.20 at 100 ms, 0.85 at 150 ms; for the
/// spec's four slots at 50 ms: 0.01 / 0.36 / 0.95 / 1.37, the 4.142 s slot fails).
const ENERGY_WINDOW_S: f32 = 0.15;

/// Largest energy rise allowed from one window to the next: 0.2 dB.
const MAX_STEP_RISE: f64 = 1.047;

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn energy_falls_monotonically_after_an_impulse(
        decays in proptest::array::uniform4(0.1f32..5.0),
        ratios in proptest::array::uniform4(0.1f32..1.0),
        amps in proptest::array::uniform4(0.0f32..1.0),
        pre in proptest::array::uniform4(0.0f32..0.05),
    ) {
        let mut s = ReverbBusSettings::default();
        for k in 0..REVERB_SLOTS {
            s.slots[k].decay_s = decays[k];
            s.slots[k].hf_ratio = ratios[k];
            s.slots[k].pre_delay_s = pre[k];
        }
        let mut bus = ReverbBus::new(s);
        let longest = decays.iter().copied().fold(0.0, f32::max);
        let (l, r) = impulse_response(&mut bus, amps, (longest * 1.2).min(3.0) + 0.2);
        let start = build_up_frames(&s);
        let window = (ENERGY_WINDOW_S * FS) as usize;
        for ch in [&l, &r] {
            let e = window_energies(&ch[start..], window);
            // Adjacent windows may tie within the tail's fluctuation (two slots of nearly
            // equal long decays beat: a 0.1 % rise was seen at 2.7 s); over two windows the
            // energy must fall, and no single step may rise by more than 0.2 dB.
            for (i, w) in e.windows(2).enumerate() {
                prop_assert!(w[1] <= w[0] * MAX_STEP_RISE, "window {i}: {} -> {} ({:?})", w[0], w[1], &e[..e.len().min(12)]);
            }
            for (i, w) in e.windows(3).enumerate() {
                prop_assert!(w[2] < w[0], "windows {i}..{}: {} -> {} ({:?})", i + 2, w[0], w[2], &e[..e.len().min(12)]);
            }
        }
    }
}

/// Seconds between the first crossings of `a` and `b` dB of the EDC of `x`.
fn edc_span(x: &[f32], a: f64, b: f64) -> Option<f64> {
    let edc = resound_dsp::analysis::energy_decay_curve_db(x);
    let ia = edc.iter().position(|&d| d <= a)?;
    let ib = edc.iter().position(|&d| d <= b)?;
    Some((ib - ia) as f64 / f64::from(FS))
}

#[test]
fn a_tuned_slot_renders_its_decay_with_one_slope() {
    // Issue 30: T30 within 10 % of the set decay, and the EDC's decay rate between −5 and −25
    // dB within 15 % of the rate between −25 and −45 dB, for decays 0.3–4 s in every slot.
    let mut bus = ReverbBus::new(ReverbBusSettings::default());
    bus.prepare(FS, 512);
    for k in 0..REVERB_SLOTS {
        for t in [0.3f32, 0.5, 0.8, 1.2, 1.7, 2.5, 3.3, 4.1] {
            bus.reset();
            bus.set_slot_decays(k, [t; 3]);
            let mut amps = [0.0; REVERB_SLOTS];
            amps[k] = 1.0;
            let (l, r) = impulse_response(&mut bus, amps, t * 1.2 + 0.3);
            // Taken at the first grid point, before the impulse passed (the slot was idle).
            assert_eq!(bus.slot_decays(k), Some([t; 3]));
            let m: Vec<f32> = l.iter().zip(&r).map(|(a, b)| a.hypot(*b)).collect();
            let t30 = f64::from(schroeder_t30(&m, FS).expect("decays"));
            let early = edc_span(&m, -5.0, -25.0).unwrap();
            let late = edc_span(&m, -25.0, -45.0).unwrap();
            eprintln!(
                "slot {k} T {t}: T30 {t30:.3} ({:.3}), slopes {early:.3}/{late:.3} ({:.3})",
                t30 / f64::from(t),
                late / early
            );
            assert!(
                (t30 / f64::from(t) - 1.0).abs() < 0.1,
                "slot {k} T {t}: {t30}"
            );
            assert!(
                (late / early - 1.0).abs() < 0.15,
                "slot {k} T {t}: {early} {late}"
            );
            // Unit stereo energy × gain², whatever the decay.
            let e: f64 = m.iter().map(|v| f64::from(*v).powi(2)).sum();
            let g = bus.settings().slots[k].gain;
            let want = f64::from(g * g);
            eprintln!("   energy {:.4} want {want:.4}", e);
            assert!(
                (e / want - 1.0).abs() < 0.25,
                "slot {k} T {t}: energy {e} vs {want}"
            );
        }
    }
}

#[test]
fn broadband_t30_of_a_voiced_tail_follows_the_mid_band_with_one_slope() {
    // Issue 30: a click is flat in frequency; the bus's voicing keeps the broadband T30 within
    // 10 % of the mid-band decay and one slope for band spreads the acoustic model lets
    // through (low 0.6–1.3×, high 0.5–1.2× the mid band).
    let mut bus = ReverbBus::new(ReverbBusSettings::default());
    bus.prepare(FS, 512);
    for (k, mid) in [(1usize, 0.4f32), (2, 1.3), (3, 3.3)] {
        for (rl, rh) in [(1.0, 1.0), (1.3, 0.5), (0.6, 0.5), (0.6, 1.2), (1.3, 1.2)] {
            bus.reset();
            let t = [mid * rl, mid, mid * rh];
            bus.set_slot_decays(k, t);
            let mut amps = [0.0; REVERB_SLOTS];
            amps[k] = 1.0;
            let (l, r) = impulse_response(&mut bus, amps, mid * 1.6 + 0.3);
            let m: Vec<f32> = l.iter().zip(&r).map(|(a, b)| a.hypot(*b)).collect();
            let t30 = f64::from(schroeder_t30(&m, FS).expect("decays"));
            let early = edc_span(&m, -5.0, -25.0).unwrap();
            let late = edc_span(&m, -25.0, -45.0).unwrap();
            eprintln!(
                "slot {k} {t:?}: T30 {t30:.3} ({:+.1} %), slopes {:.3}",
                100.0 * (t30 / f64::from(mid) - 1.0),
                late / early
            );
            assert!((t30 / f64::from(mid) - 1.0).abs() < 0.1, "{t:?}: {t30}");
            assert!((late / early - 1.0).abs() < 0.15, "{t:?}: {early} {late}");
        }
    }
}
