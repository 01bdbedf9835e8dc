//! Echo taps in binaural output (issue 33): a tap with a direction is convolved with its own
//! direction's responses when it holds a renderer (the synthetic set's interaural delay and
//! level), shares the budget with the voices (loudest first), and is panned otherwise; a tap
//! moving between the two paths crossfades without a click.

use std::sync::Arc;

use resound_mixer::{
    MixerHandle, MixerRenderer, MixerSettings, PlaySettings, SoundData, Spatial, Tap, VoiceId,
    VoiceParams, build_with_hrtf,
};

use crate::hrir;

const RIGHT: [f32; 3] = [1.0, 0.0, 0.0];
const AHEAD: [f32; 3] = [0.0, 0.0, -1.0];

fn mixer(budget: usize) -> (MixerHandle, MixerRenderer) {
    let s = MixerSettings {
        spatial: Spatial::Binaural,
        binaural_voices: budget,
        limiter: false,
        ..MixerSettings::default()
    };
    build_with_hrtf(s, hrir::bank(48_000)).unwrap()
}

fn render(r: &mut MixerRenderer, frames: usize) -> (Vec<f32>, Vec<f32>) {
    let mut out = vec![0.0f32; 2 * frames];
    r.render(&mut out);
    (
        out.iter().step_by(2).copied().collect(),
        out.iter().skip(1).step_by(2).copied().collect(),
    )
}

/// Index and size of the largest sample of `x[from..]` (the first of equals).
fn peak_after(x: &[f32], from: usize) -> (usize, f32) {
    x.iter()
        .enumerate()
        .skip(from)
        .fold((0, 0.0f32), |b, (i, v)| {
            if v.abs() > b.1 + 1e-6 {
                (i, v.abs())
            } else {
                b
            }
        })
}

fn tap(delay: f32, level: f32, direction: [f32; 3]) -> Tap {
    Tap {
        delay,
        level,
        path: 0.0,
        hf: 1.0,
        pan: 0.0,
        direction,
    }
}

/// Plays `sound` (one-shot) with `volume` and `direction`, its taps set; flushed.
fn play(h: &mut MixerHandle, sound: Arc<[f32]>, volume: f32, direction: [f32; 3]) -> VoiceId {
    let s = h.load_sound(SoundData::mono(sound, 48_000)).unwrap();
    let params = VoiceParams {
        volume,
        direction,
        ..VoiceParams::default()
    };
    let v = h
        .play(
            s,
            PlaySettings {
                params,
                ..PlaySettings::default()
            },
        )
        .unwrap();
    h.flush();
    v
}

/// A one-sample click at frame 0 of `len` frames.
fn click(len: usize) -> Arc<[f32]> {
    (0..len).map(|i| if i == 0 { 1.0 } else { 0.0 }).collect()
}

/// A click straight ahead whose one echo (pan centre, 100 ms) comes from the right: holding
/// a renderer, the echo reaches the right ear first and louder (the synthetic set: the far ear
/// 20 frames later at a quarter), 128 frames (the latency) after its delay; without one (the
/// budget taken by the voice) it is panned centre: both ears alike, no interaural delay.
#[test]
fn a_tap_is_heard_from_its_own_direction() {
    for budget in [2, 1] {
        let (mut h, mut r) = mixer(budget);
        let v = play(&mut h, click(4800), 1.0, AHEAD);
        h.set_taps(v, &[tap(0.1, 0.5, RIGHT)]).unwrap();
        h.flush();
        let (l, rt) = render(&mut r, 6000);
        let ((il, pl), (ir, pr)) = (peak_after(&l, 4000), peak_after(&rt, 4000));
        if budget == 2 {
            assert_eq!((ir, il), (4800 + 128, 4800 + 128 + 20), "right ear leads");
            assert!(
                (pr - 0.5).abs() < 1e-3 && (pl - 0.125).abs() < 1e-3,
                "{pr} {pl}"
            );
        } else {
            assert_eq!((ir, il), (4800, 4800), "panned: no interaural delay");
            let centre = 0.5 * std::f32::consts::FRAC_1_SQRT_2;
            assert!(
                (pr - centre).abs() < 1e-3 && (pl - centre).abs() < 1e-3,
                "{pr} {pl}"
            );
        }
    }
}

/// Voices and taps share the budget: with one renderer, a quiet positional voice holds it
/// until a tap four times louder (of a voice that is not positional) outranks it; the voice
/// hands over to pan and the tap takes the renderer, so its echo carries the right-ear lead.
#[test]
fn a_loud_tap_outranks_a_quiet_voice() {
    let (mut h, mut r) = mixer(1);
    let quiet = play(&mut h, click(48_000), 0.1, AHEAD);
    let loud = play(&mut h, click(4800), 1.0, [0.0; 3]);
    h.set_taps(loud, &[tap(0.3, 0.4, RIGHT)]).unwrap();
    h.flush();
    let (mut left, mut right) = (Vec::new(), Vec::new());
    for _ in 0..70 {
        // New parameters every block: the ranking runs.
        h.set_params(
            quiet,
            VoiceParams {
                volume: 0.1,
                direction: AHEAD,
                ..VoiceParams::default()
            },
        )
        .unwrap();
        h.flush();
        let (l, rt) = render(&mut r, 256);
        left.extend(l);
        right.extend(rt);
    }
    let echo = 14_400;
    let ((il, pl), (ir, pr)) = (
        peak_after(&left, echo - 100),
        peak_after(&right, echo - 100),
    );
    assert_eq!((ir, il), (echo + 128, echo + 128 + 20), "right ear leads");
    assert!(
        (pr - 0.4).abs() < 1e-3 && (pl - 0.1).abs() < 1e-3,
        "{pr} {pl}"
    );
}

/// A tone's echo handed from its renderer to pan (its direction taken away) and back
/// crossfades over the taps' 50 ms ramp: no click (the click measure of the voice handover
/// test), centred and identical in both ears while panned, apart while binaural.
#[test]
fn a_tap_moving_between_binaural_and_pan_has_no_click() {
    let (mut h, mut r) = mixer(1);
    let tone: Arc<[f32]> = (0..96_000)
        .map(|i| 0.5 * (std::f32::consts::TAU * 440.0 * i as f32 / 48_000.0).sin())
        .collect();
    // The voice itself is not positional (panned centre): the renderer is the tap's.
    let v = play(&mut h, tone, 1.0, [0.0; 3]);
    let (mut left, mut rt) = (Vec::new(), Vec::new());
    for block in 0..160 {
        let dir = if (60..110).contains(&block) {
            [0.0; 3]
        } else {
            RIGHT
        };
        h.set_taps(v, &[tap(0.05, 0.5, dir)]).unwrap();
        h.flush();
        let (l, r2) = render(&mut r, 256);
        left.extend(l);
        rt.extend(r2);
    }
    let diff = |a: &[f32], b: &[f32]| {
        a.iter()
            .zip(b)
            .fold(0.0f32, |m, (x, y)| m.max((x - y).abs()))
    };
    // Binaural (blocks 30..55): the ears differ; panned (blocks 85..105): bit for bit alike.
    assert!(diff(&left[7_680..14_080], &rt[7_680..14_080]) > 0.1);
    let (pl, pr) = (&left[21_760..26_880], &rt[21_760..26_880]);
    assert!(pl.iter().zip(pr).all(|(a, b)| a.to_bits() == b.to_bits()));
    let peak = |x: &[f32]| x.iter().fold(0.0f32, |m, v| m.max(v.abs()));
    for (ear, x) in [("left", &left), ("right", &rt)] {
        let x = &x[1_000..];
        let bound = 1.2 * peak(x) * std::f32::consts::TAU * 440.0 / 48_000.0;
        let step = resound_dsp::analysis::max_adjacent_difference(x);
        assert!(step <= bound, "{ear}: step {step} > {bound}");
    }
}
