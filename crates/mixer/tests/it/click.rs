//! Click tests (acoustics §4 "Smoothing: max adjacent-sample difference < step/50"): a parameter
//! stepped on a playing sine adds less than `step/50` to the largest adjacent-sample difference
//! the output has when held at either value.
//!
//! Steps land at a block boundary where the sine is at its peak, so an unsmoothed step would
//! add about `step` (the negative control shows the measure catches that).

use std::f32::consts::FRAC_PI_2;

use resound_mixer::{Pan, PlaySettings, Tap, VoiceParams};

use crate::common::{FS, load, max_diff, mixer, render, sine};

const STEP_AT: usize = 48_000; // 1 s, a multiple of both sine periods used (1200 and 12 frames)
const TOTAL: usize = 96_000;
const SETTLED: usize = 24_000; // steady renders are measured from 0.5 s on

enum Change {
    Params(VoiceParams),
    Taps(Vec<Tap>),
}

/// Renders a 48 kHz sine voice (peak at `STEP_AT`) with `start`, applying `change` at `STEP_AT`.
fn run(
    freq: f32,
    looping: bool,
    start: VoiceParams,
    taps: &[Tap],
    change: Option<&Change>,
) -> (Vec<f32>, Vec<f32>) {
    let (mut h, mut r) = mixer();
    let s = load(&mut h, sine(freq, FS, 2.5, FRAC_PI_2), FS);
    let v = h
        .play(
            s,
            PlaySettings {
                looping,
                params: start,
                ..PlaySettings::default()
            },
        )
        .unwrap();
    if !taps.is_empty() {
        h.set_taps(v, taps).unwrap();
    }
    h.flush();
    let (mut l, mut rr) = render(&mut r, STEP_AT);
    match change {
        Some(Change::Params(p)) => h.set_params(v, *p).unwrap(),
        Some(Change::Taps(t)) => h.set_taps(v, t).unwrap(),
        None => {}
    }
    h.flush();
    let (l2, r2) = render(&mut r, TOTAL - STEP_AT);
    l.extend(l2);
    rr.extend(r2);
    (l, rr)
}

/// Largest adjacent difference of the stepped render around and after the step, minus the
/// largest of the steady renders (after settling).
fn excess(stepped: &[f32], a: &[f32], b: &[f32]) -> f32 {
    let s = max_diff(&stepped[STEP_AT - 64..]);
    let steady = max_diff(&a[SETTLED..]).max(max_diff(&b[SETTLED..]));
    s - steady
}

fn check(name: &str, freq: f32, looping: bool, a: VoiceParams, b: VoiceParams, step: f32) {
    let (sl, sr) = run(freq, looping, a, &[], Some(&Change::Params(b)));
    let (al, ar) = run(freq, looping, a, &[], None);
    let (bl, br) = run(freq, looping, b, &[], None);
    assert!(sl.iter().chain(&sr).all(|x| x.is_finite()));
    for (ch, s, a, b) in [("left", &sl, &al, &bl), ("right", &sr, &ar, &br)] {
        let e = excess(s, a, b);
        eprintln!(
            "{name} {ch}: excess {e:.2e}, bound step/50 = {:.2e}",
            step / 50.0
        );
        assert!(
            e < step / 50.0,
            "{name} {ch}: excess {e} ≥ step/50 = {}",
            step / 50.0
        );
    }
}

#[test]
fn measure_catches_an_unsmoothed_step() {
    // The same sine with a gain jumping 1 → 0.25 at the peak, no ramp.
    let x = sine(40.0, FS, 2.0, FRAC_PI_2);
    let stepped: Vec<f32> = x
        .iter()
        .enumerate()
        .map(|(i, v)| if i < STEP_AT { *v } else { 0.25 * v })
        .collect();
    let a: Vec<f32> = x.to_vec();
    let b: Vec<f32> = x.iter().map(|v| 0.25 * v).collect();
    assert!(excess(&stepped, &a, &b) > 0.75 / 50.0 * 10.0);
}

#[test]
fn occlusion_gain_step_is_click_free() {
    let a = VoiceParams::default();
    let b = VoiceParams {
        shelf_gain: 0.25,
        ..a
    };
    check("gain down", 40.0, true, a, b, 0.75);
    check("gain up", 40.0, true, b, a, 0.75);
}

#[test]
fn volume_step_is_click_free() {
    let a = VoiceParams::default();
    let b = VoiceParams { volume: 0.2, ..a };
    check("volume", 40.0, true, a, b, 0.8);
}

#[test]
fn hf_step_is_click_free() {
    let a = VoiceParams::default();
    let b = VoiceParams {
        shelf_hf: 0.0025,
        ..a
    };
    check("hf down", 4000.0, true, a, b, 1.0 - 0.0025);
    check("hf up", 4000.0, true, b, a, 1.0 - 0.0025);
}

#[test]
fn pan_step_is_click_free() {
    let a = VoiceParams {
        pan: Pan::EqualPower(-1.0),
        ..VoiceParams::default()
    };
    let b = VoiceParams {
        pan: Pan::EqualPower(1.0),
        ..a
    };
    check("pan", 40.0, true, a, b, 1.0);
}

#[test]
fn send_step_is_click_free() {
    let a = VoiceParams::default();
    let b = VoiceParams {
        sends: [0.0, 0.0, 1.0, 0.0],
        ..a
    };
    check("send", 40.0, true, a, b, 1.0);
}

#[test]
fn walking_from_the_field_into_the_hall_is_click_free() {
    // Issue 30: the field (no sends) → a hall whose slot is tuned to its own decay.
    let a = VoiceParams::default();
    let b = VoiceParams {
        sends: [0.0, 0.0, 0.0, 1.0],
        reverb_decay: [4.14, 4.14, 3.4],
        ..a
    };
    check("field → hall", 40.0, true, a, b, 1.0);
}

#[test]
fn retuning_a_ringing_slot_is_click_free() {
    // The same slot, fed all along, retuned from a short room to a long hall.
    let a = VoiceParams {
        sends: [0.0, 0.0, 1.0, 0.0],
        reverb_decay: [0.4, 0.5, 0.3],
        ..VoiceParams::default()
    };
    let b = VoiceParams {
        reverb_decay: [4.0, 3.5, 2.5],
        ..a
    };
    check("retune", 40.0, true, a, b, 1.0);
}

#[test]
fn tap_set_change_is_click_free() {
    let tap = |delay, level, pan| Tap {
        delay,
        level,
        path: 0.0,
        hf: 1.0,
        pan,
        direction: [0.0; 3],
    };
    let p = VoiceParams::default();
    let old = [tap(0.1, 1.0, -0.5)];
    let new = vec![tap(0.25, 1.0, 0.5), tap(0.1015, 0.5, -0.5)];
    let (sl, sr) = run(40.0, false, p, &old, Some(&Change::Taps(new.clone())));
    let (al, ar) = run(40.0, false, p, &old, None);
    let (bl, br) = run(40.0, false, p, &new, None);
    for (ch, s, a, b) in [("left", &sl, &al, &bl), ("right", &sr, &ar, &br)] {
        let e = excess(s, a, b);
        eprintln!("taps {ch}: excess {e:.2e}, bound 2.00e-2");
        assert!(e < 1.0 / 50.0, "taps {ch}: excess {e}");
    }
    // Clearing the set fades it out too.
    let (cl, _) = run(40.0, false, p, &old, Some(&Change::Taps(Vec::new())));
    let (nl, _) = run(40.0, false, p, &[], None);
    assert!(excess(&cl, &al, &nl) < 1.0 / 50.0);
}

#[test]
fn stop_fades_without_a_click() {
    let (mut h, mut r) = mixer();
    let s = load(&mut h, sine(40.0, FS, 2.0, FRAC_PI_2), FS);
    let v = h
        .play(
            s,
            PlaySettings {
                looping: true,
                ..Default::default()
            },
        )
        .unwrap();
    let (mut l, _) = render(&mut r, STEP_AT);
    h.stop(v).unwrap();
    let (l2, _) = render(&mut r, 4800);
    l.extend(l2);
    let steady = max_diff(&l[SETTLED..STEP_AT]);
    // Equal-power centre: the voice's level is cos(π/4).
    let step = std::f32::consts::FRAC_1_SQRT_2;
    assert!(max_diff(&l[STEP_AT - 64..]) - steady < step / 50.0);
    assert_eq!(*l.last().unwrap(), 0.0);
    assert!(!h.is_playing(v));
}

#[test]
fn stopping_a_voice_fades_its_taps_too() {
    let (mut h, mut r) = mixer();
    let s = load(&mut h, sine(40.0, FS, 4.0, FRAC_PI_2), FS);
    let v = h.play(s, PlaySettings::default()).unwrap();
    let t = Tap {
        delay: 0.1,
        level: 1.0,
        path: 0.0,
        hf: 1.0,
        pan: -1.0,
        direction: [0.0; 3],
    };
    h.set_taps(v, &[t]).unwrap();
    h.flush();
    let (mut l, _) = render(&mut r, STEP_AT);
    h.stop(v).unwrap();
    let (l2, _) = render(&mut r, 4800);
    l.extend(l2);
    let steady = max_diff(&l[SETTLED..STEP_AT]);
    // Dry (−3 dB centre) plus a hard-left tap at level 1.
    let step = std::f32::consts::FRAC_1_SQRT_2 + 1.0;
    let e = max_diff(&l[STEP_AT - 64..]) - steady;
    assert!(e < step / 50.0, "excess {e}");
    // The voice outlives its 10 ms dry fade by the 50 ms tap fade, then ends in silence.
    assert!(l[STEP_AT + 1000].abs() > 1e-3, "taps still fading");
    assert!(l[STEP_AT + 2400..].iter().all(|x| *x == 0.0));
    assert!(!h.is_playing(v));
}

/// Six taps whose delays move every 512-frame tick (0.25 ms a tick in a 10 ms triangle, so the
/// 3 ms match rule keeps handing taps over to new delays with 50 ms cross-fades) add less than
/// `step/50` to the largest adjacent difference of the same voice with its taps held still,
/// `step` being the sum of the tap levels (what an unsmoothed jump of the set could add).
#[test]
fn moving_tap_delays_are_click_free() {
    let taps = |tick: usize| -> Vec<Tap> {
        let phase = tick % 80;
        let tri = if phase < 40 { phase } else { 80 - phase } as f32 * 0.000_25;
        (0..6)
            .map(|k| Tap {
                delay: 0.04 + 0.045 * k as f32 + tri,
                level: 0.3,
                path: 0.0,
                hf: 1.0,
                pan: k as f32 / 2.5 - 1.0,
                direction: [0.0; 3],
            })
            .collect()
    };
    let render_with = |moving: bool| {
        let (mut h, mut r) = mixer();
        let s = load(&mut h, sine(40.0, FS, 2.5, FRAC_PI_2), FS);
        let v = h.play(s, PlaySettings::default()).unwrap();
        let (mut l, mut rr) = (Vec::new(), Vec::new());
        for tick in 0..(TOTAL / 512) {
            h.set_taps(v, &taps(if moving { tick } else { 0 })).unwrap();
            h.flush();
            let (bl, br) = render(&mut r, 512);
            l.extend(bl);
            rr.extend(br);
        }
        (l, rr)
    };
    let (ml, mr) = render_with(true);
    let (sl, sr) = render_with(false);
    let step = 6.0 * 0.3;
    for (ch, m, s) in [("left", &ml, &sl), ("right", &mr, &sr)] {
        assert!(m.iter().all(|x| x.is_finite()));
        let e = max_diff(&m[SETTLED..]) - max_diff(&s[SETTLED..]);
        eprintln!(
            "moving taps {ch}: excess {e:.2e}, bound {:.2e}",
            step / 50.0
        );
        assert!(e < step / 50.0, "moving taps {ch}: excess {e}");
    }
    // The delays really moved: the renders differ.
    assert!(ml.iter().zip(&sl).any(|(a, b)| (a - b).abs() > 1e-3));
}

/// The direct path's propagation delay (issue 31): glides (Doppler), a teleport's cut,
/// propagation switched off and on, each landing anywhere in render calls of odd sizes.
#[test]
fn no_click_when_the_delay_glides_cuts_or_crosses_calls() {
    use crate::travel::{changes, scripted};
    // The steady sine's largest step between samples, and the largest with the changes: a
    // cut fades out and in over 128 frames each (adds at most 1/128 of the amplitude), a
    // glide shifts the pitch by at most 5 %.
    let steady = scripted(&[], &[512], false);
    let moved = scripted(&changes(), &[1, 7, 64, 333, 1000], false);
    let base = max_diff(&steady[10_000..]);
    let got = max_diff(&moved[10_000..]);
    assert!(got < base * 1.06 + 1.0 / 128.0, "{got} vs {base}");
    // The negative control: the read jumping without the fades steps by up to twice the
    // amplitude; the measure sees a step of a quarter of it.
    let mut jumped = steady[..40_000].to_vec();
    jumped.extend_from_slice(&steady[40_055..]);
    assert!(max_diff(&jumped) > base + 0.25);
}
