//! Binaural rendering (issue 33, dsp half): SOFA loading, interpolation, the renderer's
//! samples (ITD/ILD sign and size, front/back, no clicks when moving), determinism.

// Test helpers outside #[test] fns unwrap too (clippy.toml only covers #[test] bodies).
#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use resound_dsp::analysis::{
    band_energy_db, interaural_time_difference_s, max_adjacent_difference, sine,
};
use resound_dsp::hrtf::{
    BinauralRenderer, HrirError, HrirSet, HrtfBank, LATENCY_FRAMES, PARTITION, azimuth_elevation,
    from_azimuth_elevation, head_direction,
};

const FS: f32 = 48_000.0;
const HEAD_RADIUS: f32 = 0.0875;
const SPEED_OF_SOUND: f32 = 343.0;

fn data(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(path).unwrap()
}

fn woodworth_s(azimuth_deg: f32) -> f32 {
    let t = azimuth_deg.to_radians();
    HEAD_RADIUS / SPEED_OF_SOUND * (t + t.sin())
}

/// A synthetic set at 48 kHz: rings every 20° of elevation (−40..80) and the pole, 15°
/// azimuth steps; each response an impulse delayed by Woodworth's ITD of the lateral angle
/// (far ear late), louder at the near ear, a deterministic decaying tail to 300 taps (three
/// partitions), and for sources behind (cos az < 0) a two-tap low-pass (the pinna's shadow).
fn synthetic() -> HrirSet {
    let taps = 300;
    let mut dirs = Vec::new();
    let mut left = Vec::new();
    let mut right = Vec::new();
    let mut angles = vec![(0.0f32, 90.0f32)];
    for el in (-40..=80).step_by(20) {
        for az in (0..360).step_by(15) {
            angles.push((az as f32, el as f32));
        }
    }
    let mut seed = 12345u32;
    for (az, el) in angles {
        dirs.push(from_azimuth_elevation(az, el));
        let (a, e) = (az.to_radians(), el.to_radians());
        let lateral = (a.sin() * e.cos()).asin(); // + = left
        let itd = woodworth_s(lateral.abs().to_degrees()) * FS;
        let back = a.cos() * e.cos() < 0.0;
        for ear in 0..2 {
            let near = (ear == 0) == (lateral >= 0.0);
            let delay = 20 + if near { 0 } else { itd.round() as usize };
            let gain = if near {
                1.0 + 0.6 * lateral.sin().abs()
            } else {
                1.0 - 0.6 * lateral.sin().abs()
            };
            let mut ir = vec![0.0f32; taps];
            if back {
                ir[delay] = 0.5 * gain;
                ir[delay + 1] = 0.5 * gain;
            } else {
                ir[delay] = gain;
            }
            for (k, x) in ir.iter_mut().enumerate().skip(delay + 2) {
                seed ^= seed << 13;
                seed ^= seed >> 17;
                seed ^= seed << 5;
                let noise = seed as f32 / u32::MAX as f32 - 0.5;
                *x += 0.05 * gain * noise * (-((k - delay) as f32) / 40.0).exp();
            }
            if ear == 0 { &mut left } else { &mut right }.extend_from_slice(&ir);
        }
    }
    HrirSet::new(FS, taps, &dirs, &left, &right).unwrap()
}

fn bank(set: HrirSet) -> Arc<HrtfBank> {
    Arc::new(HrtfBank::new(set))
}

/// Renders a unit impulse from `dir` and returns (left, right) without the latency.
fn impulse_response(bank: &Arc<HrtfBank>, dir: [f32; 3], len: usize) -> (Vec<f32>, Vec<f32>) {
    let mut r = BinauralRenderer::new(Arc::clone(bank));
    r.set_direction_immediate(dir);
    let n = len + LATENCY_FRAMES;
    let mut input = vec![0.0; n];
    input[0] = 1.0;
    let (mut l, mut rr) = (vec![0.0; n], vec![0.0; n]);
    r.process(&input, &mut l, &mut rr);
    (l[LATENCY_FRAMES..].to_vec(), rr[LATENCY_FRAMES..].to_vec())
}

/// The ITD (s) from the cross-correlation lag (±1.5 ms); > 0 when the right ear is late.
fn itd_s(l: &[f32], r: &[f32], fs: f32) -> f32 {
    interaural_time_difference_s(l, r, fs, 0.0015)
}

/// Energy (dB) of `x` between `lo` and `hi` Hz (plain DFT over the band's bins).
fn band_db(x: &[f32], fs: f32, lo: f32, hi: f32) -> f32 {
    band_energy_db(x, fs, lo, hi, 2048.min(x.len().next_power_of_two()))
}

/// The measurement helpers the verify rows use: the cross-correlation lag of a pair of
/// impulses, signed by which ear is late; a 6 kHz tone's energy in its band and out of it.
#[test]
fn itd_and_band_helpers_measure_what_they_say() {
    let pulse =
        |at: usize| -> Vec<f32> { (0..256).map(|i| f32::from(u8::from(i == at))).collect() };
    assert_eq!(itd_s(&pulse(10), &pulse(30), FS), 20.0 / FS);
    assert_eq!(itd_s(&pulse(30), &pulse(10), FS), -20.0 / FS);
    assert_eq!(itd_s(&[0.0; 64], &[0.0; 64], FS), 0.0);
    let tone = sine(6_000.0, 0.5, FS, 2048);
    let inside = band_db(&tone, FS, 4_000.0, 8_000.0);
    let outside = band_db(&tone, FS, 500.0, 1_000.0);
    assert!(inside - outside > 40.0, "{inside} vs {outside}");
}

#[test]
fn axes_match_the_engine_and_aes69() {
    // Ahead is −z, left is −x, up is +y; AES69 azimuth +90° is the left.
    assert_eq!(azimuth_elevation([0.0, 0.0, -1.0]), (0.0, 0.0));
    let (az, el) = azimuth_elevation([-1.0, 0.0, 0.0]);
    assert!((az - 90.0).abs() < 1e-4 && el.abs() < 1e-4, "{az} {el}");
    let (az, _) = azimuth_elevation([1.0, 0.0, 0.0]);
    assert!((az - 270.0).abs() < 1e-4, "{az}");
    let (_, el) = azimuth_elevation([0.0, 1.0, 0.0]);
    assert!((el - 90.0).abs() < 1e-4);
    let d = from_azimuth_elevation(30.0, 20.0);
    let (az, el) = azimuth_elevation(d);
    assert!((az - 30.0).abs() < 1e-3 && (el - 20.0).abs() < 1e-3);
    // A listener facing +x (yaw −90°) hears a source at world +z (its right side) at 270°.
    let h = head_direction([0.0, 0.0, 5.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]).unwrap();
    let (az, _) = azimuth_elevation(h);
    assert!((az - 270.0).abs() < 1e-3, "{az}");
    // Pitched up 90° (facing +y), a source straight above is straight ahead.
    let h = head_direction([0.0, 3.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]).unwrap();
    assert!((h[2] + 1.0).abs() < 1e-5, "{h:?}");
}

#[test]
fn interpolation_weights_are_bilinear_over_rings() {
    let set = synthetic();
    assert_eq!(set.ring_count(), 8);
    // On a measurement: that measurement alone.
    let w = set.weights(from_azimuth_elevation(45.0, 20.0));
    assert_eq!(w.len, 1, "{w:?}");
    assert_eq!(set.angles(w.entries[0].0 as usize), (45.0, 20.0));
    // Half way in azimuth and a quarter way in elevation: 4 points, weights 3/8,3/8,1/8,1/8.
    let w = set.weights(from_azimuth_elevation(37.5, 25.0));
    assert_eq!(w.len, 4);
    let mut ws: Vec<f32> = w.as_slice().iter().map(|e| e.1).collect();
    ws.sort_by(f32::total_cmp);
    for (got, want) in ws.iter().zip([0.125, 0.125, 0.375, 0.375]) {
        assert!((got - want).abs() < 1e-3, "{ws:?}");
    }
    // Wrapping past 360°: between 345° and 0°.
    let w = set.weights(from_azimuth_elevation(352.5, 0.0));
    let azs: Vec<f32> = w
        .as_slice()
        .iter()
        .map(|e| set.angles(e.0 as usize).0)
        .collect();
    assert!(azs.contains(&345.0) && azs.contains(&0.0), "{azs:?}");
    // Above the top ring (80°) towards the pole.
    let w = set.weights(from_azimuth_elevation(10.0, 85.0));
    let sum: f32 = w.as_slice().iter().map(|e| e.1).sum();
    assert!((sum - 1.0).abs() < 1e-5);
}

#[test]
fn impulse_through_renderer_reproduces_the_measured_response() {
    let set = synthetic();
    let b = bank(set.clone());
    assert_eq!(b.partitions(), 300usize.div_ceil(PARTITION));
    let dir = from_azimuth_elevation(60.0, 0.0);
    let (l, r) = impulse_response(&b, dir, 400);
    let i = set.weights(dir).entries[0].0 as usize;
    for k in 0..400 {
        let (wl, wr) = if k < 300 {
            (set.left(i)[k], set.right(i)[k])
        } else {
            (0.0, 0.0)
        };
        assert!((l[k] - wl).abs() < 1e-5, "left {k}: {} vs {wl}", l[k]);
        assert!((r[k] - wr).abs() < 1e-5, "right {k}: {} vs {wr}", r[k]);
    }
}

#[test]
fn source_on_the_left_is_earlier_and_louder_on_the_left() {
    let b = bank(synthetic());
    let mut last = -1.0;
    for az in [0.0f32, 30.0, 60.0, 90.0] {
        let (l, r) = impulse_response(&b, from_azimuth_elevation(az, 0.0), 600);
        let itd = itd_s(&l, &r, FS);
        let want = woodworth_s(az);
        assert!(
            (itd - want).abs() <= 80e-6,
            "az {az}: ITD {itd} s, Woodworth {want} s"
        );
        assert!(itd >= last, "ITD not monotonic at {az}");
        last = itd;
        if az > 0.0 {
            let el: f32 = l.iter().map(|x| x * x).sum();
            let er: f32 = r.iter().map(|x| x * x).sum();
            assert!(el > 1.5 * er, "az {az}: left energy {el}, right {er}");
        }
    }
    // And the mirror image: from the right, the right ear leads.
    let (l, r) = impulse_response(&b, from_azimuth_elevation(270.0, 0.0), 600);
    assert!((itd_s(&l, &r, FS) + woodworth_s(90.0)).abs() <= 80e-6);
}

#[test]
fn front_and_back_differ_spectrally() {
    let b = bank(synthetic());
    let (f, _) = impulse_response(&b, from_azimuth_elevation(30.0, 0.0), 512);
    let (k, _) = impulse_response(&b, from_azimuth_elevation(150.0, 0.0), 512);
    let diff = band_db(&f, FS, 8_000.0, 16_000.0) - band_db(&k, FS, 8_000.0, 16_000.0);
    assert!(diff > 3.0, "front/back 8–16 kHz difference only {diff} dB");
}

/// Renders a 440 Hz sine from a source circling the listener at `rev_per_s`, the direction
/// set once per 512-frame block; `jump` uses `set_direction_immediate` (no crossfade).
fn circling(b: &Arc<HrtfBank>, rev_per_s: f32, jump: bool) -> Vec<f32> {
    let block = 512;
    let n = 48_000;
    let input = sine(440.0, 0.5, FS, n);
    let mut r = BinauralRenderer::new(Arc::clone(b));
    let mut out = vec![0.0; n];
    let mut right = vec![0.0; n];
    for (i, ((x, l), rr)) in input
        .chunks(block)
        .zip(out.chunks_mut(block))
        .zip(right.chunks_mut(block))
        .enumerate()
    {
        let az = 360.0 * rev_per_s * (i * block) as f32 / FS;
        let d = from_azimuth_elevation(az.rem_euclid(360.0), 10.0);
        if jump {
            r.set_direction_immediate(d);
        } else {
            r.set_direction(d);
        }
        r.process(x, l, rr);
    }
    out
}

#[test]
fn moving_source_has_no_click() {
    let b = bank(synthetic());
    let smooth = circling(&b, 2.0, false);
    let skip = 2 * LATENCY_FRAMES + 600;
    let peak = smooth[skip..].iter().fold(0.0f32, |m, x| m.max(x.abs()));
    // A 440 Hz sine of the output's peak changes by at most this per sample; a filter switch
    // without crossfade jumps by a good part of the amplitude.
    let bound = 1.3 * peak * std::f32::consts::TAU * 440.0 / FS + 0.01 * peak;
    let smooth_max = max_adjacent_difference(&smooth[skip..]);
    assert!(
        smooth_max <= bound,
        "moving source: step {smooth_max} > bound {bound} (peak {peak})"
    );
    // The measure can fail: the same motion switched hard at block boundaries clicks.
    let hard = circling(&b, 2.0, true);
    let hard_max = max_adjacent_difference(&hard[skip..]);
    assert!(
        hard_max > bound,
        "hard switch {hard_max} not caught (bound {bound})"
    );
}

#[test]
fn any_block_split_gives_identical_bits() {
    let b = bank(synthetic());
    let n = 4096;
    let input: Vec<f32> = (0..n)
        .map(|i| ((i * 7919 % 1000) as f32 / 500.0) - 1.0)
        .collect();
    let render = |splits: &[usize]| {
        let mut r = BinauralRenderer::new(Arc::clone(&b));
        let (mut l, mut rr) = (vec![0.0; n], vec![0.0; n]);
        let mut at = 0;
        let mut k = 0;
        while at < n {
            if at % 1024 == 0 {
                r.set_direction(from_azimuth_elevation((at / 16) as f32, 5.0));
            }
            let step = splits[k % splits.len()].min(n - at).min(1024 - at % 1024);
            r.process(
                &input[at..at + step],
                &mut l[at..at + step],
                &mut rr[at..at + step],
            );
            at += step;
            k += 1;
        }
        (l, rr)
    };
    let a = render(&[512]);
    let c = render(&[1, 7, 300, 33, 129, 64]);
    assert!(a.0.iter().any(|&x| x != 0.0));
    assert_eq!(a, c);
    // mix adds exactly what process writes.
    let mut r = BinauralRenderer::new(Arc::clone(&b));
    let (mut l, mut rr) = (vec![1.0; 512], vec![1.0; 512]);
    r.set_direction(from_azimuth_elevation(0.0, 5.0));
    r.mix(&input[..512], &mut l, &mut rr);
    for (x, y) in l.iter().zip(&a.0[..512]) {
        assert!((x - 1.0 - y).abs() < 1e-6);
    }
}

/// The renderer's AVX2 kernels and the baseline ones give the same bits (a moving source, so
/// the blend, both convolutions and the crossfade all run). On a CPU without AVX2 both runs
/// take the baseline kernels and the test only checks determinism.
#[test]
fn avx2_and_baseline_kernels_give_identical_bits() {
    let b = bank(synthetic());
    let render = |avx2: bool| {
        let before = resound_dsp::simd::set_avx2_enabled(avx2);
        let out = circling(&b, 2.0, false);
        resound_dsp::simd::set_avx2_enabled(before);
        out
    };
    let (base, wide) = (render(false), render(true));
    assert!(base.iter().any(|x| x.abs() > 0.01));
    let first = base
        .iter()
        .zip(&wide)
        .position(|(a, b)| a.to_bits() != b.to_bits());
    assert_eq!(first, None, "first differing sample");
}

#[test]
fn sofa_file_round_trips() {
    let set = HrirSet::from_sofa_bytes(&data("tiny.sofa"), 44_100.0).unwrap();
    assert_eq!((set.len(), set.taps(), set.ring_count()), (24, 64, 3));
    assert_eq!(set.sample_rate(), 44_100.0);
    // Azimuth 90°, elevation 0 (the left): the left ear's impulse at 8 (1.5), the right's
    // 29 samples later (Woodworth 655 µs at 44.1 kHz) at 0.5.
    let i = (0..set.len())
        .find(|&i| {
            let (a, e) = set.angles(i);
            (a - 90.0).abs() < 1e-3 && e.abs() < 1e-3
        })
        .unwrap();
    let peak = |x: &[f32]| {
        x.iter().enumerate().fold(
            (0, 0.0f32),
            |b, (k, &v)| if v.abs() > b.1.abs() { (k, v) } else { b },
        )
    };
    let (kl, vl) = peak(set.left(i));
    let (kr, vr) = peak(set.right(i));
    let itd = (woodworth_s(90.0) * 44_100.0).round() as usize;
    assert_eq!((kl, kr), (8, 8 + itd));
    assert!(
        (vl - 1.5).abs() < 1e-6 && (vr - 0.5).abs() < 1e-6,
        "{vl} {vr}"
    );
    // Resampled to 48 kHz: longer, the gain at DC kept, the ITD kept within a sample.
    let hi = HrirSet::from_sofa_bytes(&data("tiny.sofa"), FS).unwrap();
    assert_eq!(hi.taps(), (64.0f32 * FS / 44_100.0).ceil() as usize);
    let sum: f32 = hi.left(i).iter().sum();
    assert!((sum - 1.5).abs() < 0.05, "DC gain {sum}");
    let lag = itd_s(hi.left(i), hi.right(i), FS);
    assert!((lag - itd as f32 / 44_100.0).abs() < 1.5 / FS, "lag {lag}");
}

#[test]
fn bad_sofa_files_give_typed_errors() {
    let good = data("tiny.sofa");
    match HrirSet::from_sofa_bytes(&data("wrong_convention.sofa"), FS) {
        Err(HrirError::Convention {
            attribute, found, ..
        }) => assert_eq!(
            (attribute, found.as_str()),
            ("SOFAConventions", "GeneralFIR")
        ),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        HrirSet::from_sofa_bytes(&data("no_ir.sofa"), FS).unwrap_err(),
        HrirError::MissingVariable("Data.IR")
    );
    assert!(matches!(
        HrirSet::from_sofa_bytes(b"not a sofa file at all", FS),
        Err(HrirError::Parse(_))
    ));
    assert!(matches!(
        HrirSet::from_sofa_bytes(&[], FS),
        Err(HrirError::Parse(_))
    ));
    assert!(matches!(
        HrirSet::from_sofa_bytes(&good, f32::NAN),
        Err(HrirError::SampleRate(_))
    ));
    // Every truncation and a few corruptions: an error or a valid set, never a panic, and
    // each message is one line.
    for cut in (0..good.len()).step_by(997) {
        if let Err(e) = HrirSet::from_sofa_bytes(&good[..cut], FS) {
            assert!(!e.to_string().contains('\n'));
        }
    }
    let mut bad = good.clone();
    for k in (64..bad.len()).step_by(1231) {
        bad[k] ^= 0x5a;
    }
    if let Ok(set) = HrirSet::from_sofa_bytes(&bad, FS) {
        assert!(set.left(0).iter().all(|x| x.is_finite()));
    }
    let missing = HrirSet::from_sofa_file("/nonexistent/x.sofa", FS).unwrap_err();
    assert!(matches!(missing, HrirError::Io(_)));
    // Built from arrays: shapes and values are checked.
    assert!(matches!(
        HrirSet::new(FS, 4, &[[0.0, 0.0, -1.0]], &[0.0; 3], &[0.0; 4]),
        Err(HrirError::Shape(_))
    ));
    assert!(matches!(
        HrirSet::new(FS, 1, &[[0.0, 0.0, 0.0]], &[0.0], &[0.0]),
        Err(HrirError::NotFinite(_))
    ));
    assert!(matches!(
        HrirSet::new(FS, 1, &[[0.0, 0.0, -1.0]], &[f32::NAN], &[0.0]),
        Err(HrirError::NotFinite(_))
    ));
}

/// The default set (IRCAM LISTEN 1040): the verify rows at dsp level.
#[cfg(feature = "hrtf-default")]
mod ircam {
    use super::*;

    fn ircam() -> Arc<HrtfBank> {
        let set = HrirSet::ircam_1040(FS).unwrap();
        assert_eq!(set.len(), 187);
        assert_eq!(set.taps(), (512.0f32 * FS / 44_100.0).ceil() as usize);
        bank(set)
    }

    #[test]
    fn itd_follows_woodworth_and_ild_rises() {
        let b = ircam();
        let mut last_itd = -1.0;
        let mut last_ild = f32::MIN;
        for az in [0.0f32, 30.0, 60.0, 90.0] {
            let (l, r) = impulse_response(&b, from_azimuth_elevation(az, 0.0), 1024);
            let itd = itd_s(&l, &r, FS);
            let want = woodworth_s(az);
            assert!(
                (itd - want).abs() <= 80e-6,
                "az {az}: ITD {itd}, Woodworth {want}"
            );
            assert!(itd >= last_itd, "ITD not monotonic at {az}");
            last_itd = itd;
            let ild = band_db(&l, FS, 4_000.0, 8_000.0) - band_db(&r, FS, 4_000.0, 8_000.0);
            assert!(
                ild >= last_ild - 0.5,
                "ILD falls at {az}: {ild} after {last_ild}"
            );
            last_ild = ild;
        }
        assert!(last_ild >= 8.0, "ILD at 90° only {last_ild} dB");
    }

    #[test]
    fn front_back_and_mirror() {
        let b = ircam();
        let (f, _) = impulse_response(&b, from_azimuth_elevation(30.0, 0.0), 1024);
        let (k, _) = impulse_response(&b, from_azimuth_elevation(150.0, 0.0), 1024);
        let mut most = 0.0f32;
        let mut lo = 2_000.0;
        while lo < 8_000.0 {
            let d = band_db(&f, FS, lo, lo * 1.26) - band_db(&k, FS, lo, lo * 1.26);
            most = most.max(d.abs());
            lo *= 1.26;
        }
        assert!(
            most >= 3.0,
            "30° and 150° differ by at most {most} dB in 2–8 kHz"
        );
        // Left/right mirror: the level of the near ear at ±60° within 1 dB.
        let (l, _) = impulse_response(&b, from_azimuth_elevation(60.0, 0.0), 1024);
        let (_, r) = impulse_response(&b, from_azimuth_elevation(300.0, 0.0), 1024);
        let d = band_db(&l, FS, 500.0, 8_000.0) - band_db(&r, FS, 500.0, 8_000.0);
        assert!(d.abs() <= 1.0, "mirror differs by {d} dB");
    }

    #[test]
    fn circling_at_two_revolutions_per_second_has_no_click() {
        let b = ircam();
        let smooth = circling(&b, 2.0, false);
        let skip = 2 * LATENCY_FRAMES + 1200;
        let peak = smooth[skip..].iter().fold(0.0f32, |m, x| m.max(x.abs()));
        let bound = 1.3 * peak * std::f32::consts::TAU * 440.0 / FS + 0.01 * peak;
        let step = max_adjacent_difference(&smooth[skip..]);
        assert!(step <= bound, "step {step} > bound {bound}");
    }
}
