//! Binaural output through the engine (issue 33's verify rows, with the built-in IRCAM LISTEN
//! IRC_1040 set): a click played by a source on the horizontal plane around the listener,
//! rendered by `Engine::render` with `Spatial::Binaural`, written to a float WAV, read back and
//! measured — interaural time difference from the cross-correlation lag against Woodworth,
//! 4–8 kHz level difference, front/back and left/right mirror — plus the `Retail16` refusal,
//! a bad SOFA file, `Pan` unchanged by the binaural machinery, and an echo off a wall heard
//! from the wall (its own direction's responses).

use std::sync::Arc;

use resound_engine::advanced::acoustics::Cell;
use resound_engine::advanced::dsp::analysis::{band_energy_db, interaural_time_difference_s};
use resound_engine::glam::{DVec3, IVec3};
use resound_engine::{BuildError, Engine, Mode, Orientation, Source, Spatial, VoicePolicy};
use resound_studio::wav_write::{WavFormat, write_wav};

const FS: f32 = 48_000.0;
/// Frames rendered per click (the click, 128 frames of latency and the ~560-tap responses).
const FRAMES: usize = 4_800;

/// Woodworth's ITD (s) for a spherical head of radius 8.75 cm, c = 343 m/s.
fn woodworth_s(azimuth_deg: f32) -> f32 {
    let t = azimuth_deg.to_radians();
    0.0875 / 343.0 * (t + t.sin())
}

/// A source `azimuth_deg` counter-clockwise from ahead (AES69: +90° is the left), 10 blocks
/// away on the horizontal plane, for a listener at the origin with yaw `yaw_deg` (turned
/// counter-clockwise seen from above); its click rendered binaurally, through a WAV file.
fn render_click(azimuth_deg: f32, yaw_deg: f32, spatial: Spatial) -> (Vec<f32>, Vec<f32>) {
    let mut e = Engine::builder()
        .mode(Mode::Off)
        .spatial(spatial)
        .limiter(false)
        .build()
        .unwrap();
    let yaw = yaw_deg.to_radians() as f64;
    let forward = DVec3::new(-yaw.sin(), 0.0, -yaw.cos());
    e.set_listener(DVec3::ZERO, Orientation::looking(forward))
        .unwrap();
    let a = (azimuth_deg + yaw_deg).to_radians() as f64;
    let position = 10.0 * DVec3::new(-a.sin(), 0.0, -a.cos());
    let click: Arc<[f32]> = (0..256).map(|i| if i == 0 { 1.0 } else { 0.0 }).collect();
    let s = e.load_mono(click, 48_000).unwrap();
    e.play(
        s,
        Source {
            position,
            range: 1000.0,
            ..Source::default()
        },
    )
    .unwrap();
    let mut out = vec![0.0f32; 2 * FRAMES];
    e.render(&mut out).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(format!("click_{azimuth_deg}.wav"));
    write_wav(&path, &out, 2, 48_000, WavFormat::F32).unwrap();
    let samples: Vec<f32> = hound::WavReader::open(&path)
        .unwrap()
        .into_samples::<f32>()
        .map(Result::unwrap)
        .collect();
    assert_eq!(samples, out, "the WAV holds the render");
    (
        samples.iter().step_by(2).copied().collect(),
        samples.iter().skip(1).step_by(2).copied().collect(),
    )
}

/// The ITD (s) from the cross-correlation lag (±1.5 ms); positive when the right ear is late.
fn itd_s(l: &[f32], r: &[f32]) -> f32 {
    interaural_time_difference_s(l, r, FS, 0.0015)
}

/// Energy (dB) of `x` between `lo` and `hi` Hz (a DFT of 2048 points over the band's bins).
fn band_db(x: &[f32], lo: f32, hi: f32) -> f32 {
    band_energy_db(x, FS, lo, hi, 2048)
}

#[test]
fn itd_follows_woodworth_and_ild_reaches_8_db_at_90_degrees() {
    let mut last_itd = -1.0;
    let mut ild = 0.0;
    for az in [0.0f32, 30.0, 60.0, 90.0] {
        let (l, r) = render_click(az, 0.0, Spatial::Binaural);
        let itd = itd_s(&l, &r);
        let want = woodworth_s(az);
        assert!(
            (itd - want).abs() <= 80e-6,
            "azimuth {az}: ITD {} µs, Woodworth {} µs",
            itd * 1e6,
            want * 1e6
        );
        assert!(itd >= last_itd, "ITD not monotonic at {az}°");
        last_itd = itd;
        ild = band_db(&l, 4_000.0, 8_000.0) - band_db(&r, 4_000.0, 8_000.0);
        eprintln!(
            "azimuth {az}°: ITD {:.1} µs (Woodworth {:.1} µs), 4–8 kHz ILD {ild:.1} dB",
            itd * 1e6,
            want * 1e6
        );
    }
    assert!(ild >= 8.0, "4–8 kHz ILD at 90° only {ild} dB");
}

#[test]
fn front_and_back_differ_and_left_mirrors_right() {
    let (f, _) = render_click(30.0, 0.0, Spatial::Binaural);
    let (k, _) = render_click(150.0, 0.0, Spatial::Binaural);
    let mut most = 0.0f32;
    let mut lo = 2_000.0;
    while lo < 8_000.0 {
        let d = band_db(&f, lo, lo * 1.26) - band_db(&k, lo, lo * 1.26);
        most = most.max(d.abs());
        lo *= 1.26;
    }
    assert!(
        most >= 3.0,
        "30° and 150° differ by at most {most} dB in 2–8 kHz"
    );
    let (l, _) = render_click(60.0, 0.0, Spatial::Binaural);
    let (_, r) = render_click(-60.0, 0.0, Spatial::Binaural);
    let d = band_db(&l, 500.0, 8_000.0) - band_db(&r, 500.0, 8_000.0);
    eprintln!("left/right mirror at ±60°: {d:.2} dB");
    assert!(d.abs() <= 1.0, "left/right mirror differs by {d} dB");
}

/// The listener's yaw counts: a source at world azimuth 90° + 40° heard by a listener turned
/// 40° is the same click as one at 90° heard facing ahead.
#[test]
fn the_listeners_yaw_turns_the_scene() {
    let (l0, r0) = render_click(90.0, 0.0, Spatial::Binaural);
    let (l1, r1) = render_click(90.0, 40.0, Spatial::Binaural);
    for (a, b) in l0.iter().zip(&l1).chain(r0.iter().zip(&r1)) {
        assert!((a - b).abs() < 1e-4, "{a} vs {b}");
    }
    // And it is binaural: the left ear leads by about Woodworth's 90° ITD.
    assert!((itd_s(&l0, &r0) - woodworth_s(90.0)).abs() <= 80e-6);
}

/// `Pan` through the engine is the equal-power pan: the click at 90° (left) lands at frame 0
/// on the left channel only.
#[test]
fn pan_is_the_equal_power_pan() {
    let (l, r) = render_click(90.0, 0.0, Spatial::Pan);
    // Equal power at pan −1, times the distance gain 1 − 10/1000.
    assert!(
        (l[0] - 0.99).abs() < 1e-3 && r[0].abs() < 1e-3,
        "{} {}",
        l[0],
        r[0]
    );
    assert!(l[1..].iter().chain(&r[1..]).all(|x| x.abs() < 1e-6));
}

#[test]
fn binaural_is_refused_with_retail16_and_a_bad_sofa_file_is_an_error() {
    let e = Engine::builder()
        .voice_policy(VoicePolicy::Retail16)
        .spatial(Spatial::Binaural)
        .build();
    assert!(matches!(e, Err(BuildError::Spatial)), "{e:?}");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("not.sofa");
    std::fs::write(&path, b"not a SOFA file").unwrap();
    let e = Engine::builder()
        .spatial(Spatial::Binaural)
        .sofa(&path)
        .build();
    let Err(BuildError::Hrtf(msg)) = e else {
        panic!("expected an HRIR error, got {e:?}");
    };
    assert!(msg.contains("not.sofa") && !msg.contains('\n'), "{msg}");
}

/// A 440 Hz tone circling the listener at 2 revolutions per second for 5 s (the host moving it
/// every 10 ms): no click — no step between samples beyond what the tone's own slope allows —
/// and the left ear louder while it passes the left, the right while it passes the right.
#[test]
fn a_source_circling_at_two_revolutions_per_second_has_no_click() {
    let mut e = Engine::builder()
        .mode(Mode::Off)
        .spatial(Spatial::Binaural)
        .limiter(false)
        .build()
        .unwrap();
    e.set_listener(DVec3::ZERO, Orientation::default()).unwrap();
    let tone: Arc<[f32]> = (0..48_000)
        .map(|i| 0.3 * (i as f32 * std::f32::consts::TAU * 440.0 / FS).sin())
        .collect();
    let s = e.load_mono(tone, 48_000).unwrap();
    let at = |t: f64| {
        let a = std::f64::consts::TAU * 2.0 * t;
        10.0 * DVec3::new(-a.sin(), 0.0, -a.cos())
    };
    let v = e
        .play(
            s,
            Source {
                position: at(0.0),
                range: 1000.0,
                looping: true,
                ..Source::default()
            },
        )
        .unwrap();
    let step = 480;
    let mut out = vec![0.0f32; 2 * 5 * 48_000];
    for (k, chunk) in out.chunks_mut(2 * step).enumerate() {
        e.set_position(v, at(k as f64 * step as f64 / f64::from(FS)))
            .unwrap();
        e.render(chunk).unwrap();
    }
    let (l, r): (Vec<f32>, Vec<f32>) = out.chunks_exact(2).map(|f| (f[0], f[1])).unzip();
    let skip = 4_800;
    for ear in [&l, &r] {
        let peak = ear[skip..].iter().fold(0.0f32, |m, x| m.max(x.abs()));
        let bound = 1.3 * peak * std::f32::consts::TAU * 440.0 / FS + 0.01 * peak;
        let worst = ear[skip..]
            .windows(2)
            .map(|w| (w[1] - w[0]).abs())
            .fold(0.0f32, f32::max);
        assert!(worst <= bound, "step {worst} > bound {bound}");
    }
    // At t = 1.125 s the source is at azimuth 90° (left), at 1.375 s at 270° (right).
    let energy = |x: &[f32], t: f32| -> f32 {
        let c = (t * FS) as usize;
        x[c - 480..c + 480].iter().map(|v| v * v).sum()
    };
    assert!(energy(&l, 1.125) > 2.0 * energy(&r, 1.125));
    assert!(energy(&r, 1.375) > 2.0 * energy(&l, 1.375));
}

/// Frames of silence before the click of [`render_wall_echo`]: the echo set is traced and has
/// faded in (50 ms) before the click plays.
const WALL_LEAD: usize = 9_600;

/// A click straight ahead (16 blocks) with one stone wall 16.5 blocks to the listener's right
/// (mode `Reflect`): its one echo (60 ms) comes off the wall, 64° to the right. Returns the
/// rendered (left, right) from the direct sound's onset on, the echo's delay after it in
/// frames and the echo's applied pan.
fn render_wall_echo(spatial: Spatial) -> (Vec<f32>, Vec<f32>, usize, f32) {
    let mut e = Engine::builder()
        .mode(Mode::Reflect)
        .spatial(spatial)
        .limiter(false)
        .build()
        .unwrap();
    let table = resound_engine::advanced::acoustics::MaterialTable::standard();
    let stone = table.by_name("stone").unwrap();
    e.world()
        .fill_box(
            IVec3::new(17, -10, -60),
            IVec3::new(20, 20, 30),
            Cell::solid(stone),
        )
        .unwrap();
    e.set_listener(DVec3::new(0.5, 1.5, 0.5), Orientation::default())
        .unwrap();
    let mut click = vec![0.0f32; 48_000];
    click[WALL_LEAD] = 1.0;
    let s = e.load_mono(Arc::from(click), 48_000).unwrap();
    let v = e
        .play(
            s,
            Source {
                position: DVec3::new(0.5, 1.5, -15.5),
                range: 256.0,
                impulsive: true,
                ..Source::default()
            },
        )
        .unwrap();
    let out = e.render_frames(24_000).unwrap();
    let a = e.voice_acoustics(v).unwrap();
    let [tap] = a.applied.taps[..] else {
        panic!("one echo expected: {:?}", a.applied.taps);
    };
    let l: Vec<f32> = out.iter().step_by(2).copied().collect();
    let r: Vec<f32> = out.iter().skip(1).step_by(2).copied().collect();
    let onset = l
        .iter()
        .zip(&r)
        .position(|(a, b)| a.abs().max(b.abs()) > 1e-4)
        .unwrap();
    let delay = (tap.delay_s * FS).round() as usize;
    (l[onset..].to_vec(), r[onset..].to_vec(), delay, tap.pan)
}

/// An echo gets its own direction's responses (issue 33): a click straight ahead with a stone
/// wall on the right — in the echo's window the right ear leads by Woodworth's ITD for the
/// reflection point's azimuth (within 80 µs) and is louder in 4–8 kHz, while the direct sound
/// has no ITD. Through `Pan` the same echo is panned: no interaural delay at all.
#[test]
fn an_echo_off_a_wall_on_the_right_leads_in_the_right_ear() {
    for spatial in [Spatial::Binaural, Spatial::Pan] {
        let (l, r, delay, pan) = render_wall_echo(spatial);
        let w = delay - 48..delay + 400;
        let itd = itd_s(&l[w.clone()], &r[w.clone()]);
        let ild = band_db(&r[w.clone()], 4_000.0, 8_000.0) - band_db(&l[w], 4_000.0, 8_000.0);
        let direct = itd_s(&l[..400], &r[..400]);
        let want = woodworth_s(pan.asin().to_degrees());
        eprintln!(
            "{spatial:?}: echo at {delay} frames, pan {pan:.3}: ITD {:.1} µs (Woodworth {:.1} \
             µs), 4–8 kHz ILD {ild:.1} dB; direct ITD {:.1} µs",
            itd * 1e6,
            want * 1e6,
            direct * 1e6
        );
        if spatial == Spatial::Binaural {
            // Negative: the left ear is late, the right leads.
            assert!((-itd - want).abs() <= 80e-6, "echo ITD {} µs", itd * 1e6);
            assert!(ild >= 6.0, "echo ILD {ild} dB");
            assert!(direct.abs() <= 40e-6, "direct ITD {} µs", direct * 1e6);
        } else {
            assert_eq!(itd, 0.0, "a panned echo has no interaural delay");
        }
    }
}
