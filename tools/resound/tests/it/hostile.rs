//! Hostile input at the CLI (issue 37): special files are refused at once (never a hang),
//! renders stream into place, and every refusal is one true, plain line. Each case runs under a
//! 20 s guard, so a regression that blocks fails instead of hanging the suite.

#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a failed unwrap is a failed test"
)]

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::bad_input::fails_with_one_line;

/// Longest any case may take before it counts as a hang.
pub(crate) const GUARD: Duration = Duration::from_secs(20);

/// Runs `resound ARGS…` with stdin closed, killing it (and failing) after [`GUARD`].
pub(crate) fn run(args: &[&str]) -> Output {
    run_with(args, None)
}

/// [`run`] with stdout sent to `stdout` instead of captured.
pub(crate) fn run_with(args: &[&str], stdout: Option<Stdio>) -> Output {
    let dir = tempfile::tempdir().unwrap();
    let err_path = dir.path().join("stderr");
    let capture = stdout.is_none();
    let out_path = dir.path().join("stdout");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_resound"));
    cmd.args(args)
        .stdin(Stdio::null())
        .stderr(std::fs::File::create(&err_path).unwrap());
    match stdout {
        None => cmd.stdout(std::fs::File::create(&out_path).unwrap()),
        Some(stdout) => cmd.stdout(stdout),
    };
    let mut child = cmd.spawn().unwrap();
    let status = wait_guarded(&mut child, args);
    Output {
        status,
        stdout: if capture {
            std::fs::read(&out_path).unwrap()
        } else {
            Vec::new()
        },
        stderr: std::fs::read(&err_path).unwrap(),
    }
}

/// Runs `resound ARGS…` with stdout a pipe read to the end (as `| cat` does), under the guard.
fn run_piped(args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_resound"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        stdout.read_to_end(&mut bytes).unwrap();
        bytes
    });
    let err_reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        stderr.read_to_end(&mut bytes).unwrap();
        bytes
    });
    let status = wait_guarded(&mut child, args);
    Output {
        status,
        stdout: reader.join().unwrap(),
        stderr: err_reader.join().unwrap(),
    }
}

pub(crate) fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Waits for `child` (a run of `resound ARGS…`), killing it and failing after [`GUARD`].
fn wait_guarded(child: &mut std::process::Child, args: &[&str]) -> std::process::ExitStatus {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if started.elapsed() > GUARD {
            let _ = child.kill();
            let _ = child.wait();
            panic!("resound {args:?} hung (killed after {GUARD:?})");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Waits until a render's temporary `.part` file in `dir` passes 1 MiB (or [`GUARD`]
/// passes), then sends `child` SIGINT with the shell's own `kill` (a minimal system has no
/// kill program). Returns whether the file had grown.
pub(crate) fn interrupt_once_the_part_grows(child: &std::process::Child, dir: &Path) -> bool {
    let started = Instant::now();
    let grew = loop {
        let growing = std::fs::read_dir(dir).unwrap().any(|e| {
            let e = e.unwrap();
            e.file_name().to_string_lossy().ends_with(".part")
                && e.metadata().unwrap().len() > 1 << 20
        });
        if growing || started.elapsed() > GUARD {
            break growing;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let killed = Command::new("sh")
        .args(["-c", &format!("kill -INT {}", child.id())])
        .status()
        .unwrap();
    assert!(killed.success());
    grew
}

/// A FIFO nobody writes to, or `None` where `mkfifo` is missing.
pub(crate) fn fifo(dir: &Path, name: &str) -> Option<PathBuf> {
    let path = dir.join(name);
    let made = Command::new("mkfifo").arg(&path).status();
    made.is_ok_and(|st| st.success()).then_some(path)
}

/// The fixture world written by `resound fixture write`.
pub(crate) fn world() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    assert!(run(&["fixture", "write", s(dir.path())]).status.success());
    dir
}

/// Asserts a failure that took less than 5 s with `line` as its whole stderr.
pub(crate) fn refused(out: &Output, line: &str) {
    fails_with_one_line(out, line);
    let err = String::from_utf8(out.stderr.clone()).unwrap();
    assert_eq!(err.trim_end(), line, "the whole line");
    assert_eq!(out.status.code(), Some(1));
}

pub(crate) fn scene_file(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

pub(crate) const WALK: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../crates/ambient/examples-data/walk.json"
);

#[test]
fn fifos_are_refused_at_once_by_every_reader() {
    let dir = tempfile::tempdir().unwrap();
    let Some(pipe) = fifo(dir.path(), "pipe") else {
        return;
    };
    let p = s(&pipe);
    let out = dir.path().join("x.wav");
    refused(
        &run(&["render", p, "--out", s(&out)]),
        &format!(
            "error: {p} is a FIFO (named pipe), not a scene file (a scene file is a regular file, or - for standard input)"
        ),
    );
    assert!(!out.exists());
    refused(
        &run(&["acoustics", "--scene", p]),
        &format!(
            "error: {p} is a FIFO (named pipe), not a scene file (a scene file is a regular file, or - for standard input)"
        ),
    );
    refused(
        &run(&["dat", "dump", "--raw", "region", p]),
        &format!(
            "error: {p} is a FIFO (named pipe), not a record file (a record file is a regular file, or - for standard input)"
        ),
    );
    refused(
        &run(&["dat", "ls", p]),
        &format!(
            "error: {p} is a FIFO (named pipe), not a DAT file (a DAT file is a regular file)"
        ),
    );
    let w = world();
    refused(
        &run(&[
            "ambient",
            "--dat-dir",
            s(w.path()),
            "--walk",
            p,
            "--seconds",
            "1",
        ]),
        &format!(
            "error: {p} is a FIFO (named pipe), not a walk file (a walk file is a regular file, or - for standard input)"
        ),
    );
}

#[cfg(unix)]
#[test]
fn a_dat_dir_whose_portal_dat_links_to_a_fifo_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let Some(pipe) = fifo(dir.path(), "pipe") else {
        return;
    };
    let w = world();
    let d = dir.path().join("dats");
    std::fs::create_dir(&d).unwrap();
    std::fs::copy(
        w.path().join("client_cell_1.dat"),
        d.join("client_cell_1.dat"),
    )
    .unwrap();
    std::os::unix::fs::symlink(&pipe, d.join("client_portal.dat")).unwrap();
    let line = format!(
        "error: {} is a FIFO (named pipe), not a DAT file (a DAT file is a regular file)",
        d.join("client_portal.dat").display()
    );
    refused(
        &run(&[
            "ambient",
            "--dat-dir",
            s(&d),
            "--at",
            "0xA9B40025:100,100,72",
        ]),
        &line,
    );
    let out = dir.path().join("demo");
    refused(
        &run(&[
            "demo",
            "--dat-dir",
            s(&d),
            "--seconds",
            "1",
            "--no-play",
            "--out",
            s(&out),
        ]),
        &line,
    );
    refused(
        &run(&[
            "acoustics",
            "--dat-dir",
            s(&d),
            "--listener",
            "0xA9B40025:100,100,72",
            "--source",
            "0xA9B40025:110,100,72",
        ]),
        &line,
    );
}

/// A WAV whose RIFF and data sizes match its length, read back by hound.
fn valid_wav(bytes: &[u8]) -> hound::WavSpec {
    assert_eq!(&bytes[0..4], b"RIFF");
    let riff = u32::from_le_bytes(bytes[4..8].try_into().unwrap()) as usize;
    assert_eq!(riff + 8, bytes.len(), "RIFF size");
    let r = hound::WavReader::new(std::io::Cursor::new(bytes)).unwrap();
    let spec = r.spec();
    let len = r.len() as usize;
    let n = match spec.sample_format {
        hound::SampleFormat::Float => r.into_samples::<f32>().map(Result::unwrap).count(),
        hound::SampleFormat::Int => r.into_samples::<i32>().map(Result::unwrap).count(),
    };
    assert_eq!(n, len);
    spec
}

#[test]
fn a_render_to_a_pipe_is_a_valid_wav_and_the_report_goes_to_stderr() {
    for target in ["/dev/stdout", "-"] {
        let out = run_piped(&["render", "G", "--seconds", "0.5", "--out", target, "--json"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let spec = valid_wav(&out.stdout);
        assert_eq!(spec.channels, 2);
        assert_eq!(out.stdout.len(), 44 + extra_f32_header() + 24_000 * 8);
        let doc: serde_json::Value = serde_json::from_slice(&out.stderr).unwrap();
        assert_eq!(doc["written"][0]["path"], target);
    }
}

/// What hound's float header adds to the 44-byte PCM one (WAVE_FORMAT_EXTENSIBLE's fields).
fn extra_f32_header() -> usize {
    let mut c = std::io::Cursor::new(Vec::new());
    let spec = hound::WavSpec {
        channels: 2,
        sample_rate: 48_000,
        bits_per_sample: 32,
        sample_format: hound::SampleFormat::Float,
    };
    hound::WavWriter::new(&mut c, spec)
        .unwrap()
        .finalize()
        .unwrap();
    c.into_inner().len() - 44
}

#[test]
fn a_wave_exported_to_stdout_is_the_whole_stream() {
    let w = world();
    let portal = w.path().join("client_portal.dat");
    let out = run_piped(&["dat", "wave", s(&portal), "0x0A000121", "/dev/stdout"]);
    assert!(out.status.success());
    valid_wav(&out.stdout);
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err,
        format!(
            "wrote /dev/stdout (RIFF WAVE, {} bytes)\n",
            out.stdout.len()
        )
    );
}

#[test]
fn a_failed_render_leaves_the_old_file() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("keep.wav");
    std::fs::write(&target, b"old").unwrap();
    // the scene fails after the output is opened: nothing reaches the target
    let bad = scene_file(
        dir.path(),
        "bad.json",
        r#"{"name": "x", "boxes": [], "source": [0,0,0], "listener": [1,0,0], "range": 1e308}"#,
    );
    assert!(
        !run(&["render", s(&bad), "--out", s(&target)])
            .status
            .success()
    );
    assert_eq!(std::fs::read(&target).unwrap(), b"old");
    // a render into a full device fails with the device's reason, in one line
    if Path::new("/dev/full").exists() {
        let out = run(&["render", "G", "--seconds", "0.2", "--out", "/dev/full"]);
        fails_with_one_line(&out, "No space left on device");
    }
    // a good render replaces it whole, with no temporary file left behind
    assert!(
        run(&["render", "G", "--seconds", "0.2", "--out", s(&target)])
            .status
            .success()
    );
    valid_wav(&std::fs::read(&target).unwrap());
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

#[cfg(unix)]
#[test]
fn sigint_halfway_leaves_the_target_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("long.wav");
    std::fs::write(&target, b"old").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_resound"))
        .args(["render", "G", "--seconds", "600", "--out", s(&target)])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // wait until the temporary file has grown, then interrupt
    let _ = interrupt_once_the_part_grows(&child, dir.path());
    let status = child.wait().unwrap();
    assert!(!status.success());
    assert_eq!(std::fs::read(&target).unwrap(), b"old");
    // the interrupted temporary file is removed
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
}

#[test]
fn a_scene_name_cannot_drive_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../crates/acoustics-core/scenes/G.json"
    ))
    .unwrap();
    let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    doc["name"] = "\u{1b}[2J\u{1b}[31mEVIL".into();
    let path = scene_file(dir.path(), "evil.json", &doc.to_string());
    let wav = dir.path().join("evil.wav");
    for args in [
        vec!["render", s(&path), "--seconds", "0.1", "--out", s(&wav)],
        vec!["acoustics", "--scene", s(&path)],
    ] {
        let out = run(&args);
        assert!(out.status.success(), "{args:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(!text.contains('\u{1b}'), "{text}");
        assert!(text.contains("\\u{1b}[2J\\u{1b}[31mEVIL"), "{text}");
    }
}

#[test]
fn scene_caps_are_the_same_in_render_and_acoustics() {
    let dir = tempfile::tempdir().unwrap();
    let wav = dir.path().join("x.wav");
    let cases = [
        (
            r#"{"name": "far", "boxes": [{"min": [2147483647, 0, 0], "max": [2147483647, 0, 0], "material": "stone"}], "source": [0,0,0], "listener": [1,0,0]}"#,
            "box 0: coordinate 2147483647 is outside the voxel world (|c| < 268435456 cells)",
        ),
        (
            r#"{"name": "loud", "boxes": [], "source": [0,0,0], "listener": [1,0,0], "range": 1e308}"#,
            "range 1e308 is outside 0..=1000000 m (the range cap; above 0)",
        ),
        (
            r#"{"name": "v", "boxes": [], "source": [0,0,0], "listener": [1,0,0], "voices": [{"position": [2,0,0], "volume": 1e308, "range": 10, "kind": "click"}]}"#,
            "voice 0: volume 1e308 is outside 0..=",
        ),
    ];
    for (i, (text, line)) in cases.iter().enumerate() {
        let path = scene_file(dir.path(), &format!("s{i}.json"), text);
        for out in [
            run(&["render", s(&path), "--out", s(&wav)]),
            run(&["acoustics", "--scene", s(&path)]),
        ] {
            fails_with_one_line(&out, line);
            let err = String::from_utf8(out.stderr).unwrap();
            assert!(!err.contains("IVec3"), "{err}");
        }
    }
    assert!(!wav.exists());
}

#[test]
fn degenerate_renders_and_outputs_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let wav = dir.path().join("x.wav");
    refused(
        &run(&["render", "G", "--seconds", "1e-9", "--out", s(&wav)]),
        "error: --seconds 1e-9 at 48000 Hz is shorter than one frame",
    );
    assert!(!wav.exists());
    let w = world();
    refused(
        &run(&[
            "ambient",
            "--dat-dir",
            s(w.path()),
            "--walk",
            WALK,
            "--seconds",
            "0",
            "--out",
            s(&wav),
        ]),
        "error: --seconds 0 at 48000 Hz is shorter than one frame",
    );
    assert!(!wav.exists());
    if Path::new("/dev/full").exists() {
        refused(
            &run(&["demo", "--seconds", "1", "--no-play", "--out", "/dev/full"]),
            "error: --out /dev/full is not a folder (demo writes demo.wav and demo.png into a folder)",
        );
    }
}

#[test]
fn a_huge_walk_frame_rate_is_one_short_line() {
    let w = world();
    let walk = std::fs::read_to_string(WALK).unwrap();
    let walk = walk.replacen("\"frame_rate\": 30", "\"frame_rate\": 1e300", 1);
    let path = scene_file(w.path(), "walk.json", &walk);
    let out = run(&[
        "ambient",
        "--dat-dir",
        s(w.path()),
        "--walk",
        s(&path),
        "--seconds",
        "1",
    ]);
    fails_with_one_line(
        &out,
        "frame_rate 1e300 is outside 0.1..=1000 frames per second (the frame-rate cap)",
    );
    assert!(out.stderr.len() < 200, "{}", out.stderr.len());
}

#[test]
fn waves_with_no_channels_or_no_rate_are_not_exported() {
    use resound_datformat::container::{DatReader, DatWriter, EntryOptions};
    use resound_datformat::record::{Record, Wave};
    let w = world();
    let portal = w.path().join("client_portal.dat");
    let bytes = std::fs::read(&portal).unwrap();
    let id = 0x0A00_0121;
    let payload = DatReader::new(std::io::Cursor::new(&bytes))
        .unwrap()
        .read(id)
        .unwrap()
        .unwrap();
    for (range, what) in [(2..4, "0 channel(s) at 44100 Hz"), (4..8, "at 0 Hz")] {
        let mut wave = Wave::from_bytes(&payload).unwrap();
        wave.header[range].fill(0);
        let mut dat = DatWriter::from_bytes(bytes.clone()).unwrap();
        dat.insert(
            id,
            &wave.to_bytes().unwrap(),
            EntryOptions {
                compress: false,
                raw_date: 0,
                iteration: 1,
            },
        )
        .unwrap();
        let damaged = w.path().join("damaged.dat");
        std::fs::write(&damaged, dat.finish()).unwrap();
        let out = w.path().join("out.wav");
        let o = run(&["dat", "wave", s(&damaged), "0x0A000121", s(&out)]);
        fails_with_one_line(&o, what);
        fails_with_one_line(
            &o,
            "a WAV needs at least 1 channel and a sample rate above 0 Hz",
        );
        assert!(!out.exists());
    }
}

#[cfg(unix)]
#[test]
fn help_into_a_full_device_fails() {
    if !Path::new("/dev/full").exists() {
        return;
    }
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = run_with(&["--help"], Some(Stdio::from(full)));
    fails_with_one_line(&out, "No space left on device");
}
