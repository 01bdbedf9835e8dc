//! Binaural output through the mixer (issue 33): the direction decides which ear leads, the
//! budget keeps the loudest voices binaural, non-positional and stereo voices stay panned,
//! and a mixer refuses binaural output without a bank at its rate.

use std::sync::Arc;

use resound_mixer::{
    BuildError, MixerHandle, MixerRenderer, MixerSettings, Pan, PlaySettings, SoundData, Spatial,
    VoiceParams, build, build_with_hrtf,
};

use crate::common::load;
use crate::hrir;

fn mixer(budget: usize) -> (MixerHandle, MixerRenderer) {
    let s = MixerSettings {
        spatial: Spatial::Binaural,
        binaural_voices: budget,
        limiter: false,
        ..MixerSettings::default()
    };
    build_with_hrtf(s, hrir::bank(48_000)).unwrap()
}

/// A one-sample click at frame 0 of a silent second.
fn click() -> Arc<[f32]> {
    (0..4800).map(|i| if i == 0 { 1.0 } else { 0.0 }).collect()
}

fn render(r: &mut MixerRenderer, frames: usize) -> (Vec<f32>, Vec<f32>) {
    let mut out = vec![0.0f32; 2 * frames];
    r.render(&mut out);
    (
        out.iter().step_by(2).copied().collect(),
        out.iter().skip(1).step_by(2).copied().collect(),
    )
}

fn first_peak(x: &[f32]) -> (usize, f32) {
    x.iter().enumerate().fold((0, 0.0f32), |b, (i, v)| {
        if v.abs() > b.1 + 1e-6 {
            (i, v.abs())
        } else {
            b
        }
    })
}

fn play_click(h: &mut MixerHandle, direction: [f32; 3], volume: f32) {
    let s = load(h, click(), 48_000);
    let params = VoiceParams {
        volume,
        direction,
        ..VoiceParams::default()
    };
    h.play(
        s,
        PlaySettings {
            params,
            ..PlaySettings::default()
        },
    )
    .unwrap();
    h.flush();
}

/// A click on the right reaches the right ear first and louder, 128 frames (the latency) plus
/// the synthetic set's delays after the click; on the left the reverse.
#[test]
fn the_direction_decides_which_ear_leads() {
    for (dir, near_right) in [([1.0, 0.0, 0.0], true), ([-1.0, 0.0, 0.0], false)] {
        let (mut h, mut r) = mixer(4);
        play_click(&mut h, dir, 1.0);
        let (l, rt) = render(&mut r, 1024);
        let ((il, pl), (ir, pr)) = (first_peak(&l), first_peak(&rt));
        let (near, far, pn, pf) = if near_right {
            (ir, il, pr, pl)
        } else {
            (il, ir, pl, pr)
        };
        assert_eq!(near, 128, "near ear at the latency");
        assert_eq!(far, 128 + 20, "far ear 20 frames later");
        assert!(
            (pn - 1.0).abs() < 1e-3 && (pf - 0.25).abs() < 1e-3,
            "{pn} {pf}"
        );
    }
}

/// Straight ahead and straight behind give the same interaural cues but different responses
/// (the synthetic set's front/back echo).
#[test]
fn front_and_back_differ() {
    let mut echoes = Vec::new();
    for dir in [[0.0, 0.0, -1.0], [0.0, 0.0, 1.0]] {
        let (mut h, mut r) = mixer(4);
        play_click(&mut h, dir, 1.0);
        let (l, _) = render(&mut r, 1024);
        let at = l
            .iter()
            .enumerate()
            .skip(150)
            .find(|(_, v)| v.abs() > 0.1)
            .map(|(i, _)| i);
        echoes.push(at);
    }
    assert_eq!(echoes, vec![Some(128 + 10 + 30), Some(128 + 10 + 40)]);
}

/// With a budget of one, the louder of two clicks is binaural (128 frames late), the quieter
/// is panned (at frame 0); a voice with no direction and a retail voice are panned even with
/// renderers free.
#[test]
fn the_budget_keeps_the_loudest_binaural_and_pans_the_rest() {
    let (mut h, mut r) = mixer(1);
    let s = load(&mut h, click(), 48_000);
    // The quiet one starts first and takes the only renderer, the loud one a block later.
    let quiet = VoiceParams {
        volume: 0.1,
        direction: [1.0, 0.0, 0.0],
        ..VoiceParams::default()
    };
    h.play(
        s,
        PlaySettings {
            params: quiet,
            ..PlaySettings::default()
        },
    )
    .unwrap();
    h.flush();
    let (l, rt) = render(&mut r, 64);
    assert!(
        l.iter().chain(&rt).all(|v| *v == 0.0),
        "binaural: not yet heard"
    );
    let s2 = load(&mut h, click(), 48_000);
    let loud = VoiceParams {
        volume: 1.0,
        direction: [-1.0, 0.0, 0.0],
        ..VoiceParams::default()
    };
    h.play(
        s2,
        PlaySettings {
            params: loud,
            ..PlaySettings::default()
        },
    )
    .unwrap();
    h.flush();
    // The loud voice outranks the quiet one: the quiet voice falls back to pan and its
    // renderer rings out (the loud voice takes it at a later ranking).
    let (l, rt) = render(&mut r, 4096);
    // The loud click was panned at once (centre, equal power) while the renderer drained.
    let centre = std::f32::consts::FRAC_1_SQRT_2;
    assert!(
        (l[0] - centre).abs() < 1e-4 && (rt[0] - centre).abs() < 1e-4,
        "{} {}",
        l[0],
        rt[0]
    );
    // The quiet click was heard binaurally on the right (128 frames after its start): it was
    // fed to its renderer before its handover to pan began, 64 frames in.
    assert!((rt[128 - 64] - 0.1).abs() < 1e-4, "{}", rt[64]);

    // No direction, or the retail law: panned.
    for params in [
        VoiceParams {
            direction: [0.0; 3],
            ..VoiceParams::default()
        },
        VoiceParams {
            pan: Pan::Retail(0),
            ..VoiceParams::default()
        },
    ] {
        let (mut h, mut r) = mixer(4);
        let s = load(&mut h, click(), 48_000);
        h.play(
            s,
            PlaySettings {
                params,
                ..PlaySettings::default()
            },
        )
        .unwrap();
        h.flush();
        let (l, rt) = render(&mut r, 256);
        assert!(
            l[0] > 0.5 && rt[0] > 0.5,
            "panned at once: {} {}",
            l[0],
            rt[0]
        );
    }
}

/// A tone handed from binaural to pan output and back (its direction taken away, then given
/// back) crossfades the two paths: no click, though they differ by the latency. Checked by the
/// click measure of the other click tests, which a hard switch between the paths fails.
#[test]
fn handing_a_voice_between_binaural_and_pan_has_no_click() {
    let (mut h, mut r) = mixer(1);
    let tone: Arc<[f32]> = (0..48_000)
        .map(|i| 0.5 * (std::f32::consts::TAU * 440.0 * i as f32 / 48_000.0).sin())
        .collect();
    let s = h.load_sound(SoundData::mono(tone, 48_000)).unwrap();
    let right = VoiceParams {
        direction: [1.0, 0.0, 0.0],
        ..VoiceParams::default()
    };
    let v = h
        .play(
            s,
            PlaySettings {
                looping: true,
                params: right,
                ..PlaySettings::default()
            },
        )
        .unwrap();
    h.flush();
    let (mut left, mut rt) = (Vec::new(), Vec::new());
    for block in 0..120 {
        // Directionless from block 30 (panned centre), back on the right from block 70.
        let p = if (30..70).contains(&block) {
            VoiceParams {
                direction: [0.0; 3],
                ..right
            }
        } else {
            right
        };
        h.set_params(v, p).unwrap();
        h.flush();
        let (l, r2) = render(&mut r, 256);
        left.extend(l);
        rt.extend(r2);
    }
    // Binaural on the right: the left (far) ear quiet; panned centre: 0.5 · 0.707.
    let peak = |x: &[f32]| x.iter().fold(0.0f32, |m, v| m.max(v.abs()));
    assert!(peak(&left[5_000..7_000]) < 0.2);
    assert!((peak(&left[15_000..17_000]) - 0.354).abs() < 0.01);
    assert!(peak(&left[25_000..27_000]) < 0.2);
    // A 440 Hz sine of the output's peak moves at most `peak · 2π · 440 / fs` per sample; a
    // hard switch between the two paths (128 frames and a different filter apart) jumps by
    // far more.
    for (ear, x) in [("left", &left), ("right", &rt)] {
        let x = &x[1_000..];
        let bound = 1.2 * peak(x) * std::f32::consts::TAU * 440.0 / 48_000.0;
        let step = resound_dsp::analysis::max_adjacent_difference(x);
        assert!(step <= bound, "{ear}: step {step} > {bound}");
    }
}

/// A stereo voice plays its two channels as it would in pan output.
#[test]
fn stereo_voices_are_not_spatialised() {
    let mut outs = Vec::new();
    for binaural in [false, true] {
        let (mut h, mut r) = if binaural {
            mixer(4)
        } else {
            build(MixerSettings {
                limiter: false,
                ..MixerSettings::default()
            })
            .unwrap()
        };
        let left: Arc<[f32]> = (0..2000).map(|i| (i as f32 * 0.01).sin()).collect();
        let right: Arc<[f32]> = (0..2000).map(|i| (i as f32 * 0.02).sin()).collect();
        let s = h
            .load_sound(SoundData::stereo(left, right, 48_000))
            .unwrap();
        h.play(
            s,
            PlaySettings {
                stereo: true,
                ..PlaySettings::default()
            },
        )
        .unwrap();
        h.flush();
        outs.push(render(&mut r, 1024));
    }
    assert_eq!(outs[0], outs[1]);
    assert!(outs[0].0.iter().any(|v| v.abs() > 0.5));
}

#[test]
fn binaural_needs_a_bank_at_the_mix_rate() {
    let s = MixerSettings {
        spatial: Spatial::Binaural,
        ..MixerSettings::default()
    };
    assert_eq!(build(s).err(), Some(BuildError::NoHrtf));
    let e = build_with_hrtf(s, hrir::bank(44_100)).err();
    assert!(
        matches!(e, Some(BuildError::HrtfRate { mix: 48_000, .. })),
        "{e:?}"
    );
    let bad = VoiceParams {
        direction: [f32::NAN, 0.0, 0.0],
        ..VoiceParams::default()
    };
    assert!(bad.validate().is_err());
}
