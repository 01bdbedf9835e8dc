//! `resound play` (issue 12) through the real cpal path, headless: the child's
//! `HOME/.asoundrc` makes ALSA's default PCM a `file` plugin over `null`, `resound play` plays a
//! §9 scene for a fixed number of frames (the null device takes them as fast as they come, so
//! the run is bounded by frames), and the captured raw samples must equal `resound render` of
//! the same scene and signal (f32: bit for bit). A default device that cannot be opened is one
//! line on stderr and exit code 3.

// Test helpers outside #[test] fns unwrap too (clippy.toml only covers #[test] bodies).
#![allow(clippy::unwrap_used)]
#![cfg(target_os = "linux")]

use std::path::PathBuf;
use std::process::{Command, Output};

const FILE_PCM: &str =
    "pcm.!default { type file  slave.pcm \"null\"  file \"{file}\"  format \"raw\" }\n";

/// Runs `resound play ARGS` with `HOME` at a fresh folder whose `.asoundrc` holds `asoundrc`
/// (`{file}` replaced by the capture path).
fn play(asoundrc: &str, args: &[&str]) -> (Output, PathBuf, tempfile::TempDir) {
    let home = tempfile::tempdir().unwrap();
    let file = home.path().join("capture.raw");
    let rc = asoundrc.replace("{file}", file.to_str().unwrap());
    std::fs::write(home.path().join(".asoundrc"), rc).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_resound"))
        .arg("play")
        .args(args)
        .env("HOME", home.path())
        .env_remove("ALSA_CONFIG_PATH")
        .output()
        .unwrap();
    (out, file, home)
}

/// `resound render` of the same arguments at 48 kHz: interleaved stereo f32.
fn render(args: &[&str]) -> Vec<f32> {
    let dir = tempfile::tempdir().unwrap();
    let wav = dir.path().join("r.wav");
    let out = Command::new(env!("CARGO_BIN_EXE_resound"))
        .arg("render")
        .args(args)
        .args(["--rate", "48000", "--out", wav.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut r = hound::WavReader::open(&wav).unwrap();
    r.samples::<f32>().map(Result::unwrap).collect()
}

/// Plays `args` live and checks the capture against the offline render; returns the number of
/// differing samples (0 means sample for sample).
fn live_vs_offline(args: &[&str]) -> usize {
    let mut play_args = args.to_vec();
    play_args.extend(["--rate", "48000", "--json"]);
    let (out, file, _home) = play(FILE_PCM, &play_args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {stdout} {stderr}");
    assert_eq!(stderr, "", "nothing on stderr");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let dev = &doc["device"];
    assert_eq!(dev["sample_rate_hz"], 48_000);
    assert_eq!(dev["channels"], 2, "the file PCM over null prefers stereo");
    assert_eq!(dev["format"], "f32", "{stdout}");
    assert_eq!(dev["lost"], 0, "{stdout}");
    let want = render(args);
    let frames = doc["frames"].as_u64().unwrap() as usize;
    assert_eq!(want.len(), 2 * frames);
    assert!(
        want.iter().any(|x| x.abs() > 1e-3),
        "the render is not silent"
    );
    let raw = std::fs::read(&file).unwrap();
    assert!(
        raw.len() >= 8 * frames,
        "captured {} bytes of {frames} frames",
        raw.len()
    );
    let got: Vec<f32> = raw[..8 * frames]
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    got.iter()
        .zip(&want)
        .filter(|(g, w)| g.to_bits() != w.to_bits())
        .count()
}

#[test]
fn play_off_equals_render_sample_for_sample() {
    let args = [
        "G",
        "--mode",
        "off",
        "--signal",
        "click",
        "--seconds",
        "0.5",
    ];
    assert_eq!(live_vs_offline(&args), 0);
}

#[test]
fn play_direct_equals_render_sample_for_sample() {
    // W2: the source behind a wall, so `direct` muffles it (a shelf the offline render and
    // the live engine must both start the voice with).
    let args = [
        "W2",
        "--mode",
        "direct",
        "--signal",
        "noise",
        "--seconds",
        "0.4",
    ];
    assert_eq!(live_vs_offline(&args), 0);
    // The acoustics are in what was compared: `off` renders something else.
    let off = render(&[
        "W2",
        "--mode",
        "off",
        "--signal",
        "noise",
        "--seconds",
        "0.4",
    ]);
    let direct = render(&args);
    assert!(off.iter().zip(&direct).filter(|(a, b)| a != b).count() > direct.len() / 10);
}

#[test]
fn play_reflect_equals_render_sample_for_sample() {
    let args = [
        "G",
        "--mode",
        "reflect",
        "--signal",
        "shot",
        "--seconds",
        "0.6",
    ];
    assert_eq!(live_vs_offline(&args), 0);
}

#[test]
fn play_full_equals_render_sample_for_sample() {
    let args = [
        "R",
        "--mode",
        "full",
        "--signal",
        "click",
        "--seconds",
        "0.6",
    ];
    assert_eq!(live_vs_offline(&args), 0);
}

/// A default device that cannot be opened: exactly one line on stderr, exit code 3, nothing
/// on stdout, no ALSA noise (without the engine's silencing ALSA prints five lines of
/// `snd_func_*` errors for this configuration).
#[test]
fn no_device_is_one_line_and_exit_3() {
    let rc = "pcm.!default \"sysdefault:CARD=nosuch\"\n";
    let (out, file, _home) = play(rc, &["G", "--mode", "direct", "--seconds", "0.2"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("no audio output device could be opened (ALSA: default: "),
        "{stderr}"
    );
    assert!(
        stderr.ends_with("; use resound render to write a WAV\n"),
        "{stderr}"
    );
    assert!(!file.exists());
}
