//! Echo taps: exact frames, resampling step, fades, matching, tail length, set-change clicks.

use resound_dsp::analysis::{max_adjacent_difference, sine};
use resound_dsp::{EchoTaps, MAX_TAPS, TapParams};

const FS: f32 = 48_000.0;

fn tap(delay: f32, level: f32) -> TapParams {
    TapParams {
        delay,
        level,
        hf: 1.0,
        pan: 0.0,
    }
}

/// Renders `frames` output frames of `taps` over `source` at `step`, 512-frame buffers.
fn render(taps: &mut EchoTaps, source: &[f32], step: f64, frames: usize) -> (Vec<f32>, Vec<f32>) {
    let (mut l, mut r) = (vec![0.0f32; frames], vec![0.0f32; frames]);
    for start in (0..frames).step_by(512) {
        let end = (start + 512).min(frames);
        taps.mix(
            source,
            start as f64 * step,
            step,
            &mut l[start..end],
            &mut r[start..end],
        );
    }
    (l, r)
}

fn argmax(x: &[f32]) -> usize {
    x.iter()
        .enumerate()
        .fold((0, 0.0f32), |(bi, bv), (i, &v)| {
            if v.abs() > bv { (i, v.abs()) } else { (bi, bv) }
        })
        .0
}

#[test]
fn tap_lands_on_its_exact_frame() {
    // Source at the output rate: 150 ms → frame 7200.
    let mut source = vec![0.0f32; 20_000];
    source[0] = 1.0;
    let mut taps = EchoTaps::new();
    taps.set_taps(&[TapParams {
        delay: 0.15,
        level: 1.0,
        hf: 1.0,
        pan: -1.0,
    }]);
    let (l, r) = render(&mut taps, &source, 1.0, 20_000);
    assert_eq!(argmax(&l), 7200);
    // 0.15f32 · 48000 = 7200.0003 frames: 3e-4 of the pulse goes to the next frame.
    assert!((l[7200] - 1.0).abs() < 1e-3, "{}", l[7200]);
    assert!(r.iter().all(|&x| x == 0.0), "hard left pan leaks right");
    // Fractional delay: energy split between the two neighbouring frames by linear interpolation.
    let mut taps = EchoTaps::new();
    taps.set_taps(&[tap(0.1589, 1.0)]);
    let (l, _) = render(&mut taps, &source, 1.0, 20_000);
    let d = f64::from(0.1589f32) * 48_000.0;
    let i = d.floor() as usize;
    let frac = (d - d.floor()) as f32;
    let g = std::f32::consts::FRAC_1_SQRT_2;
    let (a, b) = (l[i], l[i + 1]);
    assert!(
        (a - g * (1.0 - frac)).abs() < 1e-4 && (b - g * frac).abs() < 1e-4,
        "{i} {frac} {a} {b}"
    );
}

#[test]
fn delay_is_in_output_time_for_any_resampling_step() {
    // A 24 kHz source played at 48 kHz (step 0.5): the impulse at source frame 100 sounds
    // at output frame 200 dry, and at 200 + 0.05·48000 through a 50 ms tap.
    let mut source = vec![0.0f32; 10_000];
    source[100] = 1.0;
    let mut taps = EchoTaps::new();
    taps.prepare(FS, 512);
    taps.set_taps(&[TapParams {
        delay: 0.08,
        level: 1.0,
        hf: 1.0,
        pan: 1.0,
    }]);
    let (_, r) = render(&mut taps, &source, 0.5, 12_000);
    assert_eq!(argmax(&r), 200 + 3840);
}

#[test]
fn new_set_fades_in_over_50_ms_and_old_set_fades_out() {
    let source = vec![1.0f32; 48_000];
    let mut taps = EchoTaps::new();
    taps.set_taps(&[TapParams {
        delay: 0.0,
        level: 1.0,
        hf: 1.0,
        pan: -1.0,
    }]);
    let (l, _) = render(&mut taps, &source, 1.0, 4800);
    assert!(l[0] < 0.01);
    assert!((l[1200] - 0.5).abs() < 0.01, "{}", l[1200]);
    assert!((l[2400] - 1.0).abs() < 1e-6 && (l[4799] - 1.0).abs() < 1e-6);
    // A tap 10 ms away is a new tap: the old one fades out, the new one in.
    taps.set_taps(&[TapParams {
        delay: 0.01,
        level: 1.0,
        hf: 1.0,
        pan: -1.0,
    }]);
    assert_eq!(taps.active_count(), 2);
    let (l, _) = render(&mut taps, &source, 1.0, 4800);
    assert!(
        (l[1200] - 1.0).abs() < 1e-5,
        "cross-fade keeps the level: {}",
        l[1200]
    );
    assert_eq!(taps.active_count(), 1, "the faded tap is freed");
}

#[test]
fn tap_within_3_ms_only_changes_level() {
    let mut taps = EchoTaps::new();
    taps.set_taps(&[tap(0.2, 0.5)]);
    taps.set_taps(&[tap(0.202, 0.8)]);
    assert_eq!(taps.active_count(), 1);
    assert_eq!(taps.max_delay_s(), 0.2, "the delay is kept");
    taps.set_taps(&[tap(0.2041, 0.8)]);
    assert_eq!(taps.active_count(), 2);
    assert_eq!(taps.max_delay_s(), 0.2041);
}

#[test]
fn at_most_six_taps_and_bad_values_are_contained() {
    let mut taps = EchoTaps::new();
    let many: Vec<TapParams> = (0..10).map(|i| tap(0.05 * (i + 1) as f32, 0.1)).collect();
    taps.set_taps(&many);
    assert_eq!(taps.active_count(), MAX_TAPS);
    taps.set_taps(&[
        TapParams {
            delay: f32::NAN,
            level: 1.0,
            hf: 1.0,
            pan: 0.0,
        },
        TapParams {
            delay: f32::INFINITY,
            level: f32::NAN,
            hf: f32::NAN,
            pan: f32::NAN,
        },
        TapParams {
            delay: 0.1,
            level: f32::INFINITY,
            hf: -3.0,
            pan: 9.0,
        },
    ]);
    let source = sine(440.0, 1.0, FS, 48_000);
    let (l, r) = render(&mut taps, &source, 1.0, 48_000);
    assert!(l.iter().chain(&r).all(|x| x.is_finite()));
    taps.mix(&source, f64::NAN, 1.0, &mut [0.0; 4], &mut [0.0; 4]);
}

#[test]
fn tail_is_the_longest_active_delay() {
    let mut taps = EchoTaps::new();
    assert_eq!(taps.max_delay_s(), 0.0);
    taps.set_taps(&[tap(0.1589, 0.2), tap(0.2421, 0.1)]);
    assert_eq!(taps.max_delay_s(), 0.2421);
    // After the sample ends the taps still read it for max_delay.
    let source = vec![0.5f32; 4800];
    let (l, _) = render(&mut taps, &source, 1.0, 4800 + 11_621 + 200);
    assert!(l[4800 + 11_600] != 0.0);
    assert!(l[4800 + 11_625..].iter().all(|&x| x == 0.0));
}

#[test]
fn tap_set_change_is_click_free() {
    // 60 Hz sine source; level steps 0 → 1 → 0.2 and a re-ranked set, each within step/50.
    let source = sine(60.0, 1.0, FS, 200_000);
    let mut taps = EchoTaps::new();
    let mut out = Vec::new();
    let sets: [&[TapParams]; 4] = [
        &[tap(0.1, 1.0)],
        &[tap(0.101, 0.2)],
        &[tap(0.3, 0.6), tap(0.5, 0.4)],
        &[],
    ];
    let mut pos = 0usize;
    for set in sets {
        taps.set_taps(set);
        let (l, _) = {
            let (mut l, mut r) = (vec![0.0f32; 24_000], vec![0.0f32; 24_000]);
            for s in (0..24_000).step_by(512) {
                let e = (s + 512).min(24_000);
                taps.mix(&source, (pos + s) as f64, 1.0, &mut l[s..e], &mut r[s..e]);
            }
            (l, r)
        };
        out.extend(l);
        pos += 24_000;
    }
    let d = max_adjacent_difference(&out);
    // Smallest level step is 0.8·(1/√2): limit step/50.
    assert!(d < 0.8 * std::f32::consts::FRAC_1_SQRT_2 / 50.0, "{d}");
}

#[test]
fn air_filter_darkens_the_tap() {
    let source = sine(8000.0, 1.0, FS, 48_000);
    let mut bright = EchoTaps::new();
    bright.set_taps(&[tap(0.01, 1.0)]);
    let mut dark = EchoTaps::new();
    dark.set_taps(&[TapParams {
        delay: 0.01,
        level: 1.0,
        hf: 0.1,
        pan: 0.0,
    }]);
    let e = |t: &mut EchoTaps| {
        render(t, &source, 1.0, 48_000).0[24_000..]
            .iter()
            .map(|x| x * x)
            .sum::<f32>()
    };
    let ratio_db = 10.0 * (e(&mut dark) / e(&mut bright)).log10();
    // One-pole with 5 kHz gain 0.1 → fc = 503 Hz → about -24 dB at 8 kHz.
    assert!(ratio_db < -20.0 && ratio_db > -30.0, "{ratio_db}");
}

/// Renders like [`render`] through `mix_routed` with one feed for slot 0 (returned third),
/// routing slot 0 on or off at each `(frame, on)` of `route` (a 512-frame buffer start).
fn render_routed(
    taps: &mut EchoTaps,
    source: &[f32],
    frames: usize,
    route: &[(usize, bool)],
) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
    let (mut l, mut r, mut m) = (
        vec![0.0f32; frames],
        vec![0.0f32; frames],
        vec![0.0f32; frames],
    );
    for start in (0..frames).step_by(512) {
        for &(at, on) in route {
            if at == start {
                taps.set_routed(0, on);
            }
        }
        let end = (start + 512).min(frames);
        let mut feeds: resound_dsp::tap::Feeds<'_> = Default::default();
        feeds[0] = Some(&mut m[start..end]);
        taps.mix_routed(
            source,
            start as f64,
            1.0,
            &mut l[start..end],
            &mut r[start..end],
            &mut feeds,
        );
    }
    (l, r, m)
}

/// A routed tap (binaural output) leaves the pan for its mono feed over the 50 ms ramp and
/// comes back the same way: the pan's and the feed's gains are complementary throughout (a
/// constant tone's level is kept), and a tap never routed renders bit for bit as `mix`.
#[test]
fn a_routed_tap_crossfades_between_pan_and_feed() {
    let source = vec![1.0f32; 40_000];
    let centre = std::f32::consts::FRAC_1_SQRT_2;
    let mut taps = EchoTaps::new();
    taps.set_taps(&[tap(0.01, 0.5)]);
    let t = taps.sounding(0).unwrap();
    assert_eq!((t.tap, t.level, t.routed), (0, 0.5, false));
    let (l, r, m) = render_routed(&mut taps, &source, 30_720, &[(5120, true), (15_360, false)]);
    // Settled on the pan, in the feed, back on the pan.
    assert!((l[4000] - 0.5 * centre).abs() < 1e-6 && m[4000] == 0.0);
    assert!(l[12_000] == 0.0 && r[12_000] == 0.0 && (m[12_000] - 0.5).abs() < 1e-6);
    assert!((r[25_000] - 0.5 * centre).abs() < 1e-6 && m[25_000] == 0.0);
    // During the fades the two paths' gains add to the tap's level.
    for i in (5120..5120 + 2400).chain(15_360..15_360 + 2400) {
        let sum = l[i] / centre + m[i];
        assert!((sum - 0.5).abs() < 1e-5, "frame {i}: {sum}");
    }
    assert!(taps.sounding(0).is_some_and(|t| !t.routed));
    // Never routed: the same bits as `mix`.
    let mut a = EchoTaps::new();
    let mut b = EchoTaps::new();
    let set = [tap(0.01, 0.5), tap(0.02, 0.25)];
    a.set_taps(&set);
    b.set_taps(&set);
    let src: Vec<f32> = (0..20_000).map(|i| (i as f32 * 0.01).sin()).collect();
    let (la, ra) = render(&mut a, &src, 1.0, 10_000);
    let (lb, rb, mb) = render_routed(&mut b, &src, 10_000, &[]);
    assert!(la.iter().zip(&lb).all(|(x, y)| x.to_bits() == y.to_bits()));
    assert!(ra.iter().zip(&rb).all(|(x, y)| x.to_bits() == y.to_bits()));
    assert!(mb.iter().all(|&x| x == 0.0));
}
