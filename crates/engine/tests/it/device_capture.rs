//! The real cpal path, headless: ALSA's default PCM is a `file` plugin over `null` (set through
//! the child's `HOME/.asoundrc`), the `device_capture` example plays a deterministic mix
//! through `DeviceOutput` for a fixed number of frames, and the captured raw samples must equal
//! an offline render of the same mix (f32 bit for bit, i16/u16 to 1 LSB).

// Test helpers outside #[test] fns unwrap too (clippy.toml only covers #[test] bodies).
#![allow(clippy::unwrap_used)]
#![cfg(target_os = "linux")]

#[path = "../../examples/device_capture/scene.rs"]
#[allow(dead_code)]
mod scene;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use resound_engine::device::{SampleFormat, f32_to_i16, f32_to_u16};

/// The example binary next to this test binary, (re)built first: `cargo test --test it`
/// alone does not build examples, and a stale one would test old code.
pub(crate) fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe.parent().unwrap().parent().unwrap();
    let mut cmd = Command::new(env!("CARGO"));
    cmd.args(["build", "-q", "-p", "resound-engine", "--example", name]);
    if profile_dir.file_name().is_some_and(|n| n == "release") {
        cmd.arg("--release");
    }
    assert!(cmd.status().unwrap().success(), "building example {name}");
    profile_dir.join("examples").join(name)
}

/// Runs `device_capture` with `HOME` at a fresh folder whose `.asoundrc` holds `asoundrc`
/// (`{file}` replaced by the capture path). Returns the output and the capture path.
pub(crate) fn run_capture(asoundrc: &str, args: &[&str]) -> (Output, PathBuf, tempfile::TempDir) {
    let home = tempfile::tempdir().unwrap();
    let file = home.path().join("capture.raw");
    let rc = asoundrc.replace("{file}", file.to_str().unwrap());
    std::fs::write(home.path().join(".asoundrc"), rc).unwrap();
    let out = Command::new(example("device_capture"))
        .args(args)
        .env("HOME", home.path())
        .env_remove("ALSA_CONFIG_PATH")
        .output()
        .unwrap();
    (out, file, home)
}

const FILE_PCM: &str =
    "pcm.!default { type file  slave.pcm \"null\"  file \"{file}\"  format \"raw\" }\n";

fn offline(rate: u32, frames: usize) -> Vec<f32> {
    let (_h, mut r) = scene::mixer(rate).unwrap();
    let mut out = vec![0.0f32; 2 * frames];
    // Uneven pieces: the mixer's output must not depend on the call size.
    let mut done = 0;
    for n in [1usize, 333, 4096, 17].iter().cycle() {
        if done == frames {
            break;
        }
        let n = (*n).min(frames - done);
        r.render(&mut out[2 * done..2 * (done + n)]);
        done += n;
    }
    out
}

fn check(args: &[&str], frames: usize) {
    let (out, file, _home) = run_capture(FILE_PCM, args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {stdout} {stderr}");
    assert!(stderr.is_empty(), "stderr: {stderr}");
    let head: Vec<&str> = stdout.lines().next().unwrap().split(' ').collect();
    let rate: u32 = head[0].parse().unwrap();
    let channels: usize = head[1].parse().unwrap();
    let format = SampleFormat::from_name(head[2]).unwrap();
    assert_eq!(channels, 2, "the file PCM over null prefers stereo");
    let raw = std::fs::read(&file).unwrap();
    let frame_bytes = channels * format.bytes();
    assert!(
        raw.len() >= frames * frame_bytes,
        "captured {} bytes, wanted {} frames",
        raw.len(),
        frames
    );
    let want = offline(rate, frames);
    assert!(want.iter().any(|x| x.abs() > 0.1), "the mix is not silent");
    let raw = &raw[..frames * frame_bytes];
    match format {
        SampleFormat::F32 => {
            let got: Vec<f32> = raw
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect();
            let first_bad = got
                .iter()
                .zip(&want)
                .position(|(g, w)| g.to_bits() != w.to_bits());
            assert_eq!(
                first_bad, None,
                "f32 capture differs from the offline render"
            );
        }
        SampleFormat::I16 | SampleFormat::U16 => {
            let mut worst = 0i32;
            for (b, w) in raw.chunks_exact(2).zip(&want) {
                let g = u16::from_le_bytes([b[0], b[1]]);
                let d = if format == SampleFormat::I16 {
                    i32::from(g as i16) - i32::from(f32_to_i16(*w))
                } else {
                    i32::from(g) - i32::from(f32_to_u16(*w))
                };
                worst = worst.max(d.abs());
            }
            assert!(worst <= 1, "{format} capture off by {worst} LSB");
        }
    }
}

#[test]
fn the_default_device_plays_the_mix_sample_for_sample_f32() {
    check(&["20000"], 20_000);
}

#[test]
fn i16_and_a_requested_rate_and_buffer_through_alsa() {
    check(
        &[
            "15000", "--format", "i16", "--rate", "44100", "--buffer", "256",
        ],
        15_000,
    );
}

#[test]
fn u16_through_alsa() {
    check(&["12000", "--format", "u16", "--rate", "22050"], 12_000);
}

/// The stock configuration's way of naming a card, for a card that is not there: without the
/// engine's ALSA silencing this prints `ALSA lib confmisc.c:855:(parse_card) cannot find card`
/// and four more lines of `snd_func_*` errors.
pub(crate) const NO_CARD: &str = "pcm.!default \"sysdefault:CARD=nosuch\"\n";

/// A default device that cannot be opened: one line naming it and why, exit 3, no ALSA noise.
#[test]
fn an_unopenable_default_device_is_one_line_and_exit_3() {
    let (out, file, _home) = run_capture(NO_CARD, &["1000"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(out.stdout.is_empty());
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("no audio output device could be opened (ALSA: default: "),
        "{stderr}"
    );
    assert!(
        stderr
            .trim_end()
            .ends_with("; use resound render to write a WAV"),
        "{stderr}"
    );
    assert!(!Path::new(&file).exists());
}

/// The real cpal path losing its stream: a `file` PCM writing to `/dev/full` fails on the
/// audio thread; cpal reports it, the output drops the dead stream, keeps the mixer, reopens
/// (at most once a second) and goes on until the frames are delivered. ALSA's complaints on
/// the audio thread (one per failed write) stay off stderr.
#[test]
fn a_stream_failing_on_the_audio_thread_is_reopened_quietly() {
    let rc = "pcm.!default { type file  slave.pcm \"null\"  file \"/dev/full\"  format \"raw\" }\n";
    let (out, _file, _home) = run_capture(rc, &["6000"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout} {stderr}");
    assert_eq!(stderr, "", "ALSA noise reached stderr");
    let last: Vec<u64> = stdout
        .lines()
        .nth(2)
        .unwrap()
        .split(' ')
        .filter_map(|w| w.parse().ok())
        .collect();
    let (lost, reopens, attempts) = (last[0], last[1], last[2]);
    assert!(lost >= 1, "{stdout}");
    assert!(reopens >= 1 && reopens <= attempts, "{stdout}");
    assert!(stdout.contains("stream lost"), "{stdout}");
}
