//! `resound demo`: a short tour writes a stereo, non-silent WAV and a PNG; `--retail` differs
//! from the default and never has more than 16 live voices; a seed gives the same bytes twice.

#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a failed unwrap is a failed test"
)]

use std::path::Path;
use std::process::{Command, Output};

fn resound(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_resound"))
        .args(args)
        .output()
        .expect("the resound binary runs")
}

/// Runs a tour of `seconds` into `out` with `extra` flags; returns the JSON summary.
fn demo(out: &Path, seconds: &str, extra: &[&str]) -> serde_json::Value {
    let dir = out.to_str().unwrap();
    let mut args = vec![
        "demo",
        "--seconds",
        seconds,
        "--out",
        dir,
        "--no-play",
        "--json",
    ];
    args.extend_from_slice(extra);
    let o = resound(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

fn wav(path: &Path) -> (hound::WavSpec, Vec<f32>) {
    let mut r = hound::WavReader::open(path).unwrap();
    let spec = r.spec();
    let s = r.samples::<f32>().map(Result::unwrap).collect();
    (spec, s)
}

/// The default 10-second tour, run once for the tests that need it.
fn modern() -> &'static (std::path::PathBuf, serde_json::Value) {
    static MODERN: std::sync::OnceLock<(std::path::PathBuf, serde_json::Value)> =
        std::sync::OnceLock::new();
    MODERN.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("demo-modern-10s");
        let doc = demo(&dir, "10", &[]);
        (dir, doc)
    })
}

#[test]
fn ten_second_tour_writes_a_stereo_wav_and_a_png() {
    let (dir, doc) = modern();
    let (spec, samples) = wav(&dir.join("demo.wav"));
    assert_eq!(spec.channels, 2);
    assert_eq!(samples.len(), 2 * 10 * spec.sample_rate as usize);
    let rms = (samples.iter().map(|s| s * s).sum::<f32>() / samples.len() as f32).sqrt();
    assert!(rms > 1e-3, "silent tour: rms {rms}");
    assert!(samples.iter().all(|s| s.is_finite() && s.abs() <= 1.0));
    assert!(doc["limiter_engagements"].is_u64());
    assert!(doc["ambient_plays"].as_u64().unwrap() > 0, "{doc}");
    assert!(doc["events_fired"].as_u64().unwrap() >= 6, "{doc}");
    assert!(
        doc["cells"].as_u64().unwrap() > 0,
        "full acoustics traced nothing: {doc}"
    );
    let png = std::fs::read(dir.join("demo.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert!(
        png.len() > 50_000,
        "a near-empty picture: {} bytes",
        png.len()
    );
}

#[test]
fn retail_differs_from_modern_and_keeps_16_voices() {
    let (modern, m) = modern();
    let retail = tempfile::tempdir().unwrap();
    let r = demo(retail.path(), "10", &["--retail"]);
    assert_eq!(r["output"], "retail");
    assert_eq!(r["cells"], 0, "retail traced rays: {r}");
    assert!(r["max_live_voices"].as_u64().unwrap() <= 16, "{r}");
    assert!(r["max_live_voices"].as_u64().unwrap() > 0, "{r}");
    assert!(m["cells"].as_u64().unwrap() > 0);
    let a = std::fs::read(modern.join("demo.wav")).unwrap();
    let b = std::fs::read(retail.path().join("demo.wav")).unwrap();
    assert_eq!(a.len(), b.len());
    assert_ne!(a, b, "--retail rendered the same bytes as the default");
}

#[test]
fn a_seed_gives_byte_identical_wavs() {
    let one = tempfile::tempdir().unwrap();
    let two = tempfile::tempdir().unwrap();
    let other = tempfile::tempdir().unwrap();
    demo(one.path(), "4", &["--seed", "7"]);
    demo(two.path(), "4", &["--seed", "7"]);
    demo(other.path(), "4", &["--seed", "8", "--mode", "off"]);
    let a = std::fs::read(one.path().join("demo.wav")).unwrap();
    let b = std::fs::read(two.path().join("demo.wav")).unwrap();
    assert!(a == b, "two runs with seed 7 differ");
    let c = std::fs::read(other.path().join("demo.wav")).unwrap();
    assert_ne!(a, c);
}

#[test]
fn bad_length_is_one_line_error() {
    let dir = tempfile::tempdir().unwrap();
    let o = resound(&[
        "demo",
        "--seconds",
        "0",
        "--out",
        dir.path().to_str().unwrap(),
        "--no-play",
    ]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("1..=600"), "{err}");
}

/// Without a sound device (an ALSA default that cannot be opened): the files are written, one
/// line on stderr says there is no live playback, exit 0.
#[test]
fn no_device_is_one_line_on_stderr_and_the_files_are_written() {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(
        home.path().join(".asoundrc"),
        "pcm.!default \"sysdefault:CARD=nosuch\"\n",
    )
    .unwrap();
    let out = home.path().join("tour");
    let o = Command::new(env!("CARGO_BIN_EXE_resound"))
        .args(["demo", "--seconds", "2", "--out", out.to_str().unwrap()])
        .env("HOME", home.path())
        .env_remove("ALSA_CONFIG_PATH")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("no live playback: "), "{stderr}");
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(!stdout.contains("no live playback"), "{stdout}");
    assert!(out.join("demo.wav").is_file() && out.join("demo.png").is_file());
}
