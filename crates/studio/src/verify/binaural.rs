//! Binaural output (issue 33), scene **BN**: a one-sample click played by a source 10 blocks
//! away on the horizontal plane, the listener facing ahead, rendered offline by the engine
//! with `Spatial::Binaural` (the built-in IRCAM LISTEN IRC_1040 set), written to a float WAV
//! (`DIR/binaural/`), read back and measured (`resound_dsp::analysis`):
//! - the interaural time difference (the cross-correlation lag, ±1.5 ms) at azimuth 0°, 30°,
//!   60° and 90° within 80 µs of Woodworth's `(a/c)(θ + sin θ)`, a = 8.75 cm, c = 343 m/s, and
//!   rising with the azimuth;
//! - the 4–8 kHz interaural level difference rising with the azimuth (0.5 dB slack) to at
//!   least 8 dB at 90°;
//! - 30° and 150° (the same ITD) differing by at least 3 dB in some fifth-octave band of
//!   2–8 kHz;
//! - left/right mirror: the left ear at +60° and the right ear at −60° within 1 dB (0.5–8 kHz);
//! - `Pan` unchanged: the click at 90° through `Spatial::Pan` bit-identical to an engine built
//!   without a spatial mode, and the equal-power pan's values;
//! - an echo from its own direction: a click 16 blocks straight ahead with a stone wall 16.5
//!   blocks to the right (mode `Reflect`, one 60 ms echo off the wall, 64° right): in the
//!   echo's window the right ear leads by Woodworth's ITD for the reflection point's azimuth
//!   (within 80 µs) and is at least 6 dB louder in 4–8 kHz; through `Pan` the echo has no ITD.

use std::path::Path;
use std::sync::Arc;

use anyhow::Context;
use resound_engine::advanced::acoustics::{Cell, MaterialTable};
use resound_engine::advanced::dsp::analysis::{band_energy_db, interaural_time_difference_s};
use resound_engine::glam::{DVec3, IVec3};
use resound_engine::{Engine, Mode, Orientation, Source, Spatial};

use super::check::{Check, Rule};
use crate::wav_write::{WavFormat, write_wav};

const SCENE: &str = "BN";
const RATE: u32 = 48_000;
const FS: f32 = 48_000.0;
/// Frames rendered per click (the click, 128 frames of latency, the ~560-tap responses).
const FRAMES: usize = 4_800;
/// Points of the DFT the band levels are read from.
const DFT: usize = 2048;

/// Woodworth's ITD (s) for a spherical head of radius 8.75 cm, c = 343 m/s.
fn woodworth_s(azimuth_deg: f32) -> f32 {
    let t = azimuth_deg.to_radians();
    0.0875 / 343.0 * (t + t.sin())
}

/// How the engine is built for a render.
#[derive(Clone, Copy, PartialEq)]
enum Output {
    Binaural,
    Pan,
    /// No `spatial` call (the builder's default).
    Default,
}

/// The click from `azimuth_deg` (AES69: counter-clockwise from ahead, +90° the left), rendered
/// to `dir/click_{name}.wav` and read back as (left, right).
fn click(
    azimuth_deg: f32,
    output: Output,
    dir: &Path,
    name: &str,
) -> anyhow::Result<(Vec<f32>, Vec<f32>)> {
    let mut b = Engine::builder().mode(Mode::Off).limiter(false);
    b = match output {
        Output::Binaural => b.spatial(Spatial::Binaural),
        Output::Pan => b.spatial(Spatial::Pan),
        Output::Default => b,
    };
    let mut e = b.build().context("building the engine")?;
    e.set_listener(DVec3::ZERO, Orientation::default())
        .context("listener")?;
    let a = f64::from(azimuth_deg).to_radians();
    let click: Arc<[f32]> = (0..256).map(|i| if i == 0 { 1.0 } else { 0.0 }).collect();
    let s = e.load_mono(click, RATE).context("loading the click")?;
    e.play(
        s,
        Source {
            position: 10.0 * DVec3::new(-a.sin(), 0.0, -a.cos()),
            range: 1000.0,
            ..Source::default()
        },
    )
    .context("playing the click")?;
    let mut out = vec![0.0f32; 2 * FRAMES];
    e.render(&mut out).context("rendering")?;
    through_wav(&out, dir, &format!("click_{name}"))
}

/// Writes the interleaved `out` to `dir/name.wav` and reads it back as (left, right).
fn through_wav(out: &[f32], dir: &Path, name: &str) -> anyhow::Result<(Vec<f32>, Vec<f32>)> {
    let path = dir.join(format!("{name}.wav"));
    write_wav(&path, out, 2, RATE, WavFormat::F32)?;
    let samples = hound::WavReader::open(&path)
        .with_context(|| format!("reading {}", path.display()))?
        .into_samples::<f32>()
        .collect::<Result<Vec<f32>, _>>()
        .with_context(|| format!("reading {}", path.display()))?;
    Ok((
        samples.iter().step_by(2).copied().collect(),
        samples.iter().skip(1).step_by(2).copied().collect(),
    ))
}

/// Frames of silence before the wall scene's click: its echo set is traced and faded in first.
const WALL_LEAD: usize = 9_600;

/// The wall scene (see the module doc) through `output`, rendered to `dir/echo_wall_{name}.wav`
/// and read back: (left, right) from the direct sound's onset, the echo's delay in frames
/// after it and the echo's applied pan.
fn wall_echo(
    output: Output,
    dir: &Path,
    name: &str,
) -> anyhow::Result<(Vec<f32>, Vec<f32>, usize, f32)> {
    let spatial = if output == Output::Binaural {
        Spatial::Binaural
    } else {
        Spatial::Pan
    };
    let mut e = Engine::builder()
        .mode(Mode::Reflect)
        .spatial(spatial)
        .limiter(false)
        .build()
        .context("building the engine")?;
    let stone = MaterialTable::standard()
        .by_name("stone")
        .context("the stone material")?;
    e.world()
        .fill_box(
            IVec3::new(17, -10, -60),
            IVec3::new(20, 20, 30),
            Cell::solid(stone),
        )
        .context("the wall")?;
    e.set_listener(DVec3::new(0.5, 1.5, 0.5), Orientation::default())
        .context("listener")?;
    let mut click = vec![0.0f32; 48_000];
    click[WALL_LEAD] = 1.0;
    let s = e
        .load_mono(Arc::from(click), RATE)
        .context("loading the click")?;
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
        .context("playing the click")?;
    let out = e.render_frames(24_000).context("rendering")?;
    let taps = e
        .voice_acoustics(v)
        .map(|a| a.applied.taps)
        .unwrap_or_default();
    let [tap] = taps[..] else {
        anyhow::bail!("one echo off the wall expected, got {}", taps.len());
    };
    let (l, r) = through_wav(&out, dir, &format!("echo_wall_{name}"))?;
    let onset = l
        .iter()
        .zip(&r)
        .position(|(a, b)| a.abs().max(b.abs()) > 1e-4)
        .context("no direct sound")?;
    let delay = (tap.delay_s * FS).round() as usize;
    if l.len() < onset + delay + 400 {
        anyhow::bail!("the echo falls outside the render");
    }
    Ok((l[onset..].to_vec(), r[onset..].to_vec(), delay, tap.pan))
}

/// The wall scene's rows: the echo's ITD and ILD binaurally, no ITD panned.
fn echo_rows(dir: &Path, rows: &mut Vec<Check>) -> anyhow::Result<()> {
    let (l, r, delay, pan) = wall_echo(Output::Binaural, dir, "binaural")?;
    let w = delay.saturating_sub(48)..delay + 400;
    // Positive: the right ear is late; the echo from the right makes it lead (negative).
    let itd = interaural_time_difference_s(&l[w.clone()], &r[w.clone()], FS, 0.0015);
    rows.push(Check::number(
        SCENE,
        "echo off a wall on the right: right-ear lead vs Woodworth at its azimuth, µs",
        Rule::Abs {
            expected: f64::from(woodworth_s(pan.asin().to_degrees()) * 1e6),
            tol: 80.0,
        },
        Some(f64::from(-itd * 1e6)),
        1,
    ));
    let ild = band(&r[w.clone()], 4_000.0, 8_000.0) - band(&l[w], 4_000.0, 8_000.0);
    rows.push(Check::number(
        SCENE,
        "echo off a wall on the right: 4–8 kHz right − left, dB",
        Rule::Between {
            lo: 6.0,
            hi: f64::INFINITY,
        },
        Some(f64::from(ild)),
        1,
    ));
    let (l, r, delay, _) = wall_echo(Output::Pan, dir, "pan")?;
    let w = delay.saturating_sub(48)..delay + 400;
    let itd = interaural_time_difference_s(&l[w.clone()], &r[w], FS, 0.0015);
    rows.push(Check::number(
        SCENE,
        "echo off a wall on the right through Pan: ITD, µs",
        Rule::Abs {
            expected: 0.0,
            tol: 0.0,
        },
        Some(f64::from(itd * 1e6)),
        1,
    ));
    Ok(())
}

fn band(x: &[f32], lo: f32, hi: f32) -> f32 {
    band_energy_db(x, FS, lo, hi, DFT)
}

fn yes(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

fn rows(dir: &Path) -> anyhow::Result<Vec<Check>> {
    let mut rows = Vec::new();
    let (mut itds, mut ilds) = (Vec::new(), Vec::new());
    for az in [0.0f32, 30.0, 60.0, 90.0] {
        let (l, r) = click(az, Output::Binaural, dir, &format!("binaural_{az}"))?;
        let itd = interaural_time_difference_s(&l, &r, FS, 0.0015);
        rows.push(Check::number(
            SCENE,
            &format!("ITD at {az}° vs Woodworth, µs"),
            Rule::Abs {
                expected: f64::from(woodworth_s(az) * 1e6),
                tol: 80.0,
            },
            Some(f64::from(itd * 1e6)),
            1,
        ));
        itds.push(itd);
        ilds.push(band(&l, 4_000.0, 8_000.0) - band(&r, 4_000.0, 8_000.0));
    }
    let itd_rises = itds.windows(2).all(|w| w[1] >= w[0]);
    rows.push(Check::equal(
        SCENE,
        "ITD rises 0° → 90°",
        "yes",
        yes(itd_rises),
    ));
    let ild_rises = ilds.windows(2).all(|w| w[1] >= w[0] - 0.5);
    rows.push(Check::equal(
        SCENE,
        "4–8 kHz ILD rises 0° → 90° (0.5 dB slack)",
        "yes",
        yes(ild_rises),
    ));
    rows.push(Check::number(
        SCENE,
        "4–8 kHz ILD at 90°, dB",
        Rule::Between {
            lo: 8.0,
            hi: f64::INFINITY,
        },
        ilds.last().map(|&d| f64::from(d)),
        1,
    ));

    let (front, _) = click(30.0, Output::Binaural, dir, "binaural_30_front")?;
    let (back, _) = click(150.0, Output::Binaural, dir, "binaural_150")?;
    let mut most = 0.0f32;
    let mut lo = 2_000.0f32;
    while lo < 8_000.0 {
        let hi = (lo * 1.26).min(8_000.0);
        most = most.max((band(&front, lo, hi) - band(&back, lo, hi)).abs());
        lo *= 1.26;
    }
    rows.push(Check::number(
        SCENE,
        "30° vs 150°: largest 2–8 kHz band difference, dB",
        Rule::Between {
            lo: 3.0,
            hi: f64::INFINITY,
        },
        Some(f64::from(most)),
        1,
    ));

    let (left, _) = click(60.0, Output::Binaural, dir, "binaural_60")?;
    let (_, right) = click(-60.0, Output::Binaural, dir, "binaural_-60")?;
    let mirror = band(&left, 500.0, 8_000.0) - band(&right, 500.0, 8_000.0);
    rows.push(Check::number(
        SCENE,
        "mirror: left ear at +60° vs right ear at −60°, dB",
        Rule::Abs {
            expected: 0.0,
            tol: 1.0,
        },
        Some(f64::from(mirror)),
        2,
    ));

    let pan = click(90.0, Output::Pan, dir, "pan_90")?;
    let default = click(90.0, Output::Default, dir, "default_90")?;
    let same = pan.0.iter().chain(&pan.1).map(|x| x.to_bits()).eq(default
        .0
        .iter()
        .chain(&default.1)
        .map(|x| x.to_bits()));
    rows.push(Check::equal(
        SCENE,
        "Pan at 90° bit-identical to the default (no spatial mode)",
        "yes",
        yes(same),
    ));
    // Equal power at pan −1 (hard left) times the distance gain 1 − 10/1000, all at frame 0.
    rows.push(Check::number(
        SCENE,
        "Pan at 90°: left at frame 0 (equal power × distance gain)",
        Rule::Abs {
            expected: 0.99,
            tol: 1e-4,
        },
        pan.0.first().map(|&x| f64::from(x)),
        4,
    ));
    let rest = pan
        .0
        .get(1..)
        .unwrap_or(&[])
        .iter()
        .chain(&pan.1)
        .fold(0.0f32, |m, x| m.max(x.abs()));
    rows.push(Check::number(
        SCENE,
        "Pan at 90°: largest sample elsewhere",
        Rule::Abs {
            expected: 0.0,
            tol: 1e-6,
        },
        Some(f64::from(rest)),
        6,
    ));
    echo_rows(dir, &mut rows)?;
    Ok(rows)
}

/// The rows of scene BN, the WAVs under `dir` (a render that fails is one failed row).
pub fn binaural_checks(dir: &Path) -> Vec<Check> {
    let run = || -> anyhow::Result<Vec<Check>> {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        rows(dir)
    };
    run().unwrap_or_else(|e| vec![Check::failed(SCENE, "render", &format!("{e:#}"))])
}
