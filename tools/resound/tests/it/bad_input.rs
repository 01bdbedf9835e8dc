//! Bad input at the CLI's edges: bounded reads and one plain error line (issue 9).

#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a failed unwrap is a failed test"
)]

use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn resound(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_resound"))
        .args(args)
        .output()
        .expect("the resound binary runs")
}

/// Asserts that `out` failed with exactly one plain line on stderr that contains `needle`.
pub(crate) fn fails_with_one_line(out: &Output, needle: &str) {
    assert!(!out.status.success(), "expected a failure");
    let err = String::from_utf8(out.stderr.clone()).unwrap();
    assert_eq!(err.lines().count(), 1, "one line expected, got: {err:?}");
    assert!(err.contains(needle), "{needle:?} not in {err:?}");
    assert!(!err.contains('\u{1b}'), "escape codes in {err:?}");
    assert!(!err.contains(".rs:"), "source path in {err:?}");
}

#[test]
fn a_device_is_refused_and_an_endless_stdin_stops_at_the_cap() {
    let started = Instant::now();
    let out = resound(&["acoustics", "--scene", "/dev/zero"]);
    assert!(started.elapsed() < Duration::from_secs(5));
    fails_with_one_line(&out, "/dev/zero is a character device, not a scene file");
    let Ok(zero) = std::fs::File::open("/dev/zero") else {
        return;
    };
    let started = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_resound"))
        .args(["acoustics", "--scene", "-"])
        .stdin(zero)
        .output()
        .unwrap();
    assert!(started.elapsed() < Duration::from_secs(10));
    fails_with_one_line(&out, "scene file - is larger than 64 MiB");
}

#[test]
fn scene_from_a_pipe_is_read() {
    let scene = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../crates/acoustics-core/scenes/W1.json"
    ))
    .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_resound"))
        .args(["acoustics", "--scene", "/dev/stdin", "--json"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(scene.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_usage_error_is_one_line_with_exit_code_2() {
    let out = resound(&["render", "--bogus"]);
    assert_eq!(out.status.code(), Some(2));
    fails_with_one_line(&out, "unexpected argument '--bogus'");
    let help = resound(&["--help"]);
    assert!(help.status.success());
    assert!(String::from_utf8_lossy(&help.stdout).lines().count() > 3);
}
