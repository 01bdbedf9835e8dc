//! Sound that travels: the direct path's propagation delay (`distance / 343` s, to the frame),
//! its exclusions (switch off, relative, `Retail16`, mode `off`/`direct`), Doppler under motion
//! with the per-source factor and the listener's own motion, the switch toggled on a playing
//! voice and teleports without a click, byte-identical offline renders.

use std::sync::Arc;

use resound_engine::glam::DVec3;
use resound_engine::{Engine, Mode, Orientation, Source, VoiceHandle, VoicePolicy};

const FS: u32 = 48_000;

fn engine(mode: Mode, policy: VoicePolicy) -> Engine {
    let mut e = Engine::builder()
        .mode(mode)
        .voice_policy(policy)
        .build()
        .unwrap();
    e.set_listener(DVec3::new(0.5, 1.5, 0.5), Orientation::default())
        .unwrap();
    e
}

/// Left plus right (the sources sit to the side).
fn left(x: &[f32]) -> Vec<f32> {
    x.chunks_exact(2).map(|f| f[0] + f[1]).collect()
}

/// Frame of the first sample above 1 % of the render's peak.
fn onset(x: &[f32]) -> usize {
    let peak = x.iter().fold(0.0f32, |m, v| m.max(v.abs()));
    x.iter().position(|v| v.abs() > 0.01 * peak).unwrap()
}

fn shot(e: &mut Engine, source: Source) -> Vec<f32> {
    let mut click = vec![0.0f32; 4800];
    for (i, c) in click.iter_mut().enumerate().take(48) {
        *c = (1.0 - i as f32 / 48.0) * if i % 2 == 0 { 1.0 } else { -1.0 };
    }
    let s = e.load_mono(Arc::from(click), FS).unwrap();
    e.play(s, source).unwrap();
    left(&e.render_frames(60_000).unwrap())
}

fn far(relative: bool, propagation: bool) -> Source {
    Source {
        position: if relative {
            DVec3::new(0.0, 0.0, -343.0)
        } else {
            DVec3::new(343.5, 1.5, 0.5)
        },
        range: 2000.0,
        relative,
        propagation,
        impulsive: true,
        ..Source::default()
    }
}

#[test]
fn a_shot_343_m_away_is_heard_one_second_after_it_fires() {
    let mut e = engine(Mode::Reflect, VoicePolicy::Modern);
    let out = shot(&mut e, far(false, true));
    let at = onset(&out);
    assert!((at as i64 - 48_000).abs() <= 48, "onset at {at}");
    // The exclusions: switched off, relative, Retail16, modes off and direct.
    for (mode, policy, relative, propagation) in [
        (Mode::Reflect, VoicePolicy::Modern, false, false),
        (Mode::Reflect, VoicePolicy::Modern, true, true),
        (Mode::Reflect, VoicePolicy::Retail16, false, true),
        (Mode::Off, VoicePolicy::Modern, false, true),
        (Mode::Direct, VoicePolicy::Modern, false, true),
    ] {
        let mut e = engine(mode, policy);
        let out = shot(&mut e, far(relative, propagation));
        assert!(
            onset(&out) < 48,
            "{mode:?} {policy:?} {relative} {propagation}"
        );
    }
}

/// A 1 kHz tone passing the listener at `speed` m/s, 10 m to the side, moved once per tick;
/// returns the render (left channel) and the voice.
fn pass_by(doppler: f32, calls: &[usize]) -> (Vec<f32>, VoiceHandle) {
    let mut e = engine(Mode::Reflect, VoicePolicy::Modern);
    let tone: Vec<f32> = (0..FS as usize)
        .map(|i| (0.5 * (std::f64::consts::TAU * 1000.0 * i as f64 / f64::from(FS)).sin()) as f32)
        .collect();
    let s = e.load_mono(Arc::from(tone), FS).unwrap();
    let speed = 20.0;
    let at = |t: f64| DVec3::new(0.5 - 60.0 + speed * t, 1.5, 10.5);
    let v = e
        .play(
            s,
            Source {
                position: at(0.0),
                looping: true,
                range: 1000.0,
                doppler,
                ..Source::default()
            },
        )
        .unwrap();
    let tf = e.tick_frames() as usize;
    let mut out = Vec::new();
    for tick in 0..(6 * FS as usize / tf) {
        let mut done = 0;
        for &c in calls.iter().cycle() {
            if done == tf {
                break;
            }
            let n = c.min(tf - done);
            out.extend(e.render_frames(n).unwrap());
            done += n;
        }
        e.set_position(v, at(((tick + 1) * tf) as f64 / f64::from(FS)))
            .unwrap();
    }
    (left(&out), v)
}

/// Frequency from zero crossings over `x` (the dsp crate's measure).
fn frequency(x: &[f32]) -> f64 {
    resound_engine::advanced::dsp::analysis::zero_crossing_frequency(x, FS).expect("a tone")
}

#[test]
fn a_passing_tone_is_doppler_shifted_unless_its_factor_is_0() {
    let (out, _) = pass_by(1.0, &[4096]);
    // Approaching (t ≈ 0.5..1.0 s heard): 50..40 m before the pass, nearly head-on.
    let f = frequency(&out[30_000..50_000]);
    assert!(f > 1040.0 && f < 1062.0, "approaching {f}");
    // Receding (5..5.8 s heard): moving away.
    let f = frequency(&out[240_000..280_000]);
    assert!(f > 940.0 && f < 962.0, "receding {f}");
    let (flat, _) = pass_by(0.0, &[4096]);
    for range in [30_000..50_000, 240_000..280_000] {
        let f = frequency(&flat[range]);
        assert!((f - 1000.0).abs() < 0.5, "factor 0: {f}");
    }
}

#[test]
fn a_moving_voice_renders_byte_identically_in_any_call_sizes() {
    let (a, _) = pass_by(1.0, &[4096]);
    let (b, _) = pass_by(1.0, &[1, 77, 512, 1000, 333]);
    assert_eq!(a, b);
}

#[test]
fn a_listener_running_at_a_still_source_hears_it_higher() {
    // Head-on at 20 m/s: f·(c + v)/c = 1 058.3 Hz.
    let mut e = engine(Mode::Reflect, VoicePolicy::Modern);
    let tone: Vec<f32> = (0..FS as usize)
        .map(|i| (0.5 * (std::f64::consts::TAU * 1000.0 * i as f64 / f64::from(FS)).sin()) as f32)
        .collect();
    let s = e.load_mono(Arc::from(tone), FS).unwrap();
    let source = DVec3::new(0.5, 1.5, -100.5);
    let p = Source {
        position: source,
        looping: true,
        range: 1000.0,
        ..Source::default()
    };
    e.play(s, p).unwrap();
    let tf = e.tick_frames() as usize;
    let mut out = Vec::new();
    for tick in 0..(2 * FS as usize / tf) {
        out.extend(e.render_frames(tf).unwrap());
        let t = ((tick + 1) * tf) as f64 / f64::from(FS);
        e.set_listener(DVec3::new(0.5, 1.5, 0.5 - 20.0 * t), Orientation::default())
            .unwrap();
    }
    let f = frequency(&left(&out)[48_000..90_000]);
    let want = 1000.0 * (343.0 + 20.0) / 343.0;
    assert!((f - want).abs() < want * 0.002, "{f} vs {want}");
}

#[test]
fn toggling_propagation_on_a_playing_voice_does_not_click() {
    let mut e = engine(Mode::Reflect, VoicePolicy::Modern);
    let tone: Vec<f32> = (0..FS as usize)
        .map(|i| (0.5 * (std::f64::consts::TAU * 440.0 * i as f64 / f64::from(FS)).sin()) as f32)
        .collect();
    let s = e.load_mono(Arc::from(tone), FS).unwrap();
    let p = Source {
        position: DVec3::new(60.5, 1.5, 0.5),
        looping: true,
        range: 1000.0,
        ..Source::default()
    };
    let v = e.play(s, p).unwrap();
    let steady = left(&e.render_frames(24_000).unwrap());
    e.voice(v).unwrap().set_propagation(false).unwrap();
    let off = left(&e.render_frames(24_000).unwrap());
    e.voice(v).unwrap().set_propagation(true).unwrap();
    let on = left(&e.render_frames(24_000).unwrap());
    let diff = |x: &[f32]| x.windows(2).fold(0.0f32, |m, w| m.max((w[1] - w[0]).abs()));
    let base = diff(&steady[12_000..]);
    let peak = steady[12_000..].iter().fold(0.0f32, |m, v| m.max(v.abs()));
    assert!(base > 0.0);
    for x in [&off, &on] {
        let got = diff(x);
        assert!(got <= base * 1.02 + peak / 128.0, "{got} vs {base}");
    }
    // Off: the read jumped 175 ms ahead (the tone goes on); on again: 175 ms of silence would
    // be a restart, the cut only fades (the sound already in flight is heard again).
    assert!(off[1_000..].iter().fold(0.0f32, |m, v| m.max(v.abs())) > peak * 0.5);
    // The setters refuse a bad Doppler factor with a typed error.
    assert!(e.voice(v).unwrap().set_doppler(f32::NAN).is_err());
    assert!(e.voice(v).unwrap().set_doppler(1.5).is_err());
    assert!(e.voice(v).unwrap().set_doppler(0.5).is_ok());
}

#[test]
fn a_teleport_cuts_the_delay_without_a_click() {
    let mut e = engine(Mode::Reflect, VoicePolicy::Modern);
    let tone: Vec<f32> = (0..FS as usize)
        .map(|i| (0.5 * (std::f64::consts::TAU * 440.0 * i as f64 / f64::from(FS)).sin()) as f32)
        .collect();
    let s = e.load_mono(Arc::from(tone), FS).unwrap();
    let v = e
        .play(
            s,
            Source {
                position: DVec3::new(20.5, 1.5, 0.5),
                looping: true,
                range: 1000.0,
                ..Source::default()
            },
        )
        .unwrap();
    let steady = left(&e.render_frames(24_000).unwrap());
    // 20 m → 200 m in one tick: a cut (fade out, jump by 0.52 s, fade in), then 200 → 20.
    e.set_position(v, DVec3::new(200.5, 1.5, 0.5)).unwrap();
    let a = left(&e.render_frames(24_000).unwrap());
    e.set_position(v, DVec3::new(20.5, 1.5, 0.5)).unwrap();
    let b = left(&e.render_frames(24_000).unwrap());
    let diff = |x: &[f32]| x.windows(2).fold(0.0f32, |m, w| m.max((w[1] - w[0]).abs()));
    let base = diff(&steady[4_000..]);
    let peak = steady[4_000..].iter().fold(0.0f32, |m, v| m.max(v.abs()));
    for x in [&a, &b] {
        let got = diff(x);
        assert!(got <= base * 1.02 + peak / 128.0, "{got} vs {base}");
    }
    // It did cut: the fade dips to silence on the cut's grid point (the first after the
    // update plus 128 frames), and the tone carries on.
    let around = a[100..156].iter().fold(0.0f32, |m, v| m.max(v.abs()));
    eprintln!("around the cut {around}, peak {peak}");
    assert!(around < peak * 0.3, "{around}");
    assert!(a[1000..].iter().fold(0.0f32, |m, v| m.max(v.abs())) > peak * 0.5);
}
