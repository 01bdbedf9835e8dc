//! `resound ambient` end to end: a rebuild and a walk on the fixture world, and one plain error
//! line for each kind of bad input (issue 9, items 2, 5, 6, 8 and 9).

#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a failed unwrap is a failed test"
)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::bad_input::fails_with_one_line;

const EXAMPLE_WALK: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../crates/ambient/examples-data/walk.json"
);

fn resound(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_resound"))
        .args(args)
        .output()
        .expect("the resound binary runs")
}

/// The fixture world written by `resound fixture write`.
fn world() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let out = resound(&["fixture", "write", dir.path().to_str().unwrap()]);
    assert!(out.status.success());
    dir
}

/// `resound ambient --dat-dir WORLD ARGS…`.
fn ambient(world: &Path, args: &[&str]) -> Output {
    let mut all = vec!["ambient", "--dat-dir", world.to_str().unwrap()];
    all.extend_from_slice(args);
    resound(&all)
}

/// Asserts that clap refused the arguments (exit 2) with the reason on the first line, plain.
fn refused_at_parse(out: &Output, needle: &str) {
    assert_eq!(out.status.code(), Some(2), "expected a usage error");
    let err = String::from_utf8(out.stderr.clone()).unwrap();
    let first = err.lines().next().unwrap_or_default();
    assert!(first.starts_with("error: "), "{err:?}");
    assert!(first.contains(needle), "{needle:?} not in {err:?}");
    assert!(!err.contains('\u{1b}'), "escape codes in {err:?}");
}

fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// A walk file holding `text`.
fn walk_file(dir: &Path, text: &str) -> PathBuf {
    let path = dir.join("walk.json");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn at_rebuilds_and_prints_text_and_json() {
    let w = world();
    let text = ok(&ambient(w.path(), &["--at", "0xA9B40025:100,100,72"]));
    assert!(
        text.starts_with("cell 0xA9B40025 at (100.00, 100.00, 72.00)"),
        "{text}"
    );
    assert!(text.contains("landblocks: 9 gathered, 0 missing"), "{text}");
    assert!(text.contains("total weight"), "{text}");
    let doc: serde_json::Value = serde_json::from_str(&ok(&ambient(
        w.path(),
        &["--at", "a9b40025:100,100,72", "--json"],
    )))
    .unwrap();
    assert_eq!(doc["rebuild"]["land_blocks"].as_array().unwrap().len(), 9);
    assert_eq!(doc["rebuild"]["cell_id"], "0xA9B40025");
    assert!(doc["snapshot"]["total_sound_count"].as_f64().unwrap() > 0.0);
    assert!(doc["sound_table_loads"].as_u64().unwrap() >= 1);
}

#[test]
fn the_example_walk_plays_and_rebuilds() {
    let w = world();
    let text = ok(&ambient(
        w.path(),
        &["--walk", EXAMPLE_WALK, "--seconds", "30"],
    ));
    assert!(text.contains("  play  "), "{text}");
    assert!(text.lines().filter(|l| l.contains("  rebuild  ")).count() > 3);
    // the retail order: the start cell is left at frame 1 and rebuilt at frame 2 (0.067 s)
    let second = text
        .lines()
        .filter(|l| l.contains("  rebuild  "))
        .nth(1)
        .unwrap();
    assert!(second.trim_start().starts_with("0.067"), "{second}");
    let log: serde_json::Value = serde_json::from_str(&ok(&ambient(
        w.path(),
        &["--walk", EXAMPLE_WALK, "--seconds", "30", "--json"],
    )))
    .unwrap();
    assert!(log["entries"].as_array().unwrap().len() > 10);
}

/// Item 5: a walk `cell` that is no cell id says what is expected.
#[test]
fn walk_cell_values_say_what_is_expected() {
    let w = world();
    for bad in ["4294967296", "-1", "1.5", "null"] {
        let path = walk_file(
            w.path(),
            &format!(r#"{{ "waypoints": [ {{ "t": 0, "cell": {bad}, "origin": [1, 1, 1] }} ] }}"#),
        );
        let out = ambient(
            w.path(),
            &["--walk", path.to_str().unwrap(), "--seconds", "1"],
        );
        fails_with_one_line(&out, r#"expected "0xXXYYCCCC" or an integer 0..2^32"#);
    }
}

/// Item 6: cell 0 is the same invalid-cell error as any other invalid id, for `--at` and for a
/// walk.
#[test]
fn cell_zero_is_an_invalid_cell() {
    let w = world();
    let needle = "cell id 0x00000000 is not a valid land cell, EnvCell or landblock id";
    refused_at_parse(&ambient(w.path(), &["--at", "0x00000000:1,1,1"]), needle);
    let path = walk_file(
        w.path(),
        r#"{ "waypoints": [ { "t": 0, "cell": "0xA9B40025", "origin": [100, 100, 72] },
                            { "t": 1, "cell": 0, "origin": [1, 1, 1] } ] }"#,
    );
    let out = ambient(
        w.path(),
        &["--walk", path.to_str().unwrap(), "--seconds", "2"],
    );
    fails_with_one_line(&out, needle);
}

/// Item 8: the ambient volume is checked at parse time, with its range.
#[test]
fn ambient_volume_is_checked_with_its_range() {
    let w = world();
    for bad in ["NaN", "1e39", "-0.5", "1.01"] {
        let out = ambient(
            w.path(),
            &["--at", "0xA9B40025:100,100,72", "--ambient-volume", bad],
        );
        refused_at_parse(&out, "is not a volume from 0 to 1");
    }
    ok(&ambient(
        w.path(),
        &["--at", "0xA9B40025:100,100,72", "--ambient-volume", "0.5"],
    ));
}

/// Item 8: `--at` refuses positions outside the named cell and absurd heights.
#[test]
fn at_positions_must_lie_in_their_cell() {
    let w = world();
    refused_at_parse(
        &ambient(w.path(), &["--at", "0xA9B40025:3.4e38,100,72"]),
        "(3.4e38, 100.0) is not inside cell 0xA9B40025",
    );
    refused_at_parse(
        &ambient(w.path(), &["--at", "0xA9B40025:10,10,72"]),
        "(10.0, 10.0) is not inside cell 0xA9B40025",
    );
    refused_at_parse(
        &ambient(w.path(), &["--at", "0xA9B40025:100,100,3.4e38"]),
        "height 3.4e38 is outside -10000..=10000 m",
    );
    refused_at_parse(
        &ambient(w.path(), &["--at", "0xA9B40025:100,2"]),
        "expected three coordinates X,Y,Z",
    );
}

/// Item 8: `--seconds` says its limit, at parse time and for the walk's frame rate.
#[test]
fn seconds_say_their_limit() {
    let w = world();
    let walk = ["--walk", EXAMPLE_WALK, "--seconds"];
    let out = ambient(w.path(), &[&walk[..], &["1e9"]].concat());
    refused_at_parse(&out, "is not a number of seconds from 0 to 2160000");
    for bad in ["NaN", "-1"] {
        let out = ambient(w.path(), &[&walk[..], &[bad]].concat());
        refused_at_parse(&out, "is not a number of seconds from 0 to 2160000");
    }
    let out = ambient(w.path(), &[&walk[..], &["100000"]].concat());
    fails_with_one_line(
        &out,
        "duration 100000 s is not between 0 and 72000 s (at most 2160000 frames at 30 frames per second)",
    );
}

/// Item 8: flags that do nothing in the chosen mode are refused.
#[test]
fn seconds_with_at_is_refused() {
    let w = world();
    let out = ambient(
        w.path(),
        &["--at", "0xA9B40025:100,100,72", "--seconds", "5"],
    );
    // with --out it renders (issue 29); without, there is nothing for the seconds to do
    fails_with_one_line(&out, "--seconds with --at needs --out");
}

/// Item 9: `--region` names the id asked for.
#[test]
fn region_errors_name_the_id_asked_for() {
    let w = world();
    let out = ambient(
        w.path(),
        &["--at", "0xA9B40025:100,100,72", "--region", "0xffff0001"],
    );
    refused_at_parse(
        &out,
        "0xFFFF0001 is not a Region id (0x13000000..=0x1300FFFF)",
    );
    assert!(!String::from_utf8_lossy(&out.stderr).contains("0x00000001"));
    let out = ambient(
        w.path(),
        &["--at", "0xA9B40025:100,100,72", "--region", "0x13000001"],
    );
    fails_with_one_line(&out, "the portal dat has no Region 0x13000001");
}

/// Item 2: a walk of 100 000 waypoints runs in time linear in frames plus waypoints.
#[test]
fn a_long_walk_is_linear() {
    let w = world();
    let mut text = String::from(r#"{ "frame_rate": 30, "waypoints": ["#);
    for i in 0..100_000 {
        let x = 96.0 + f64::from(i % 2) * 0.5;
        if i > 0 {
            text.push(',');
        }
        text.push_str(&format!(
            r#"{{ "t": {}, "cell": "0xA9B40025", "origin": [{x}, 100, 72] }}"#,
            f64::from(i) * 0.01
        ));
    }
    text.push_str("] }");
    let path = walk_file(w.path(), &text);
    let started = std::time::Instant::now();
    ok(&ambient(
        w.path(),
        &["--walk", path.to_str().unwrap(), "--seconds", "1000"],
    ));
    // quadratic, this is 30 001 frames × 100 000 waypoints: minutes, not seconds
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
}

/// `--walk --out` renders through the engine: every event played or counted dropped, at most
/// 16 retail voices, and the same bytes twice.
#[test]
fn a_walk_renders_through_the_engine_deterministically() {
    let w = world();
    let render = |name: &str, policy: &str| {
        let out = w.path().join(name);
        let doc: serde_json::Value = serde_json::from_str(&ok(&ambient(
            w.path(),
            &[
                "--walk",
                EXAMPLE_WALK,
                "--seconds",
                "8",
                "--out",
                out.to_str().unwrap(),
                "--policy",
                policy,
                "--json",
            ],
        )))
        .unwrap();
        (std::fs::read(&out).unwrap(), doc)
    };
    let (a, doc) = render("a.wav", "retail16");
    let (b, _) = render("b.wav", "retail16");
    assert_eq!(a, b);
    let amb = &doc["ambient"];
    let n = |k: &str| amb[k].as_u64().unwrap();
    assert!(n("event_count") > 0, "{doc}");
    assert_eq!(n("event_count"), n("played") + n("dropped"), "{doc}");
    assert_eq!(n("played"), n("started") + n("not_started"), "{doc}");
    let reader = hound::WavReader::new(std::io::Cursor::new(&a)).unwrap();
    assert_eq!(reader.spec().channels, 2);
    assert_eq!(reader.duration(), 8 * 48_000);
    let (m, _) = render("m.wav", "modern");
    assert_eq!(m.len(), a.len());
    refused_at_parse(
        &ambient(
            w.path(),
            &[
                "--walk",
                EXAMPLE_WALK,
                "--seconds",
                "1",
                "--policy",
                "modern",
            ],
        ),
        "required arguments were not provided",
    );
}

/// Issue 29: `--at CELL:X,Y,Z --seconds S --out X.wav` renders the ambient heard standing
/// there: a WAV of S seconds whose samples are not silent.
#[test]
fn at_with_out_renders_the_ambient_at_a_fixed_position() {
    let w = world();
    let wav = w.path().join("a.wav");
    let args = [
        "--at",
        "0xA9B40025:96,96,70",
        "--seconds",
        "10",
        "--out",
        wav.to_str().unwrap(),
    ];
    let text = ok(&ambient(w.path(), &args));
    assert!(text.starts_with("wrote "), "{text}");
    let mut reader = hound::WavReader::open(&wav).unwrap();
    let spec = reader.spec();
    assert_eq!(spec.channels, 2);
    let samples: Vec<f32> = reader.samples::<f32>().map(Result::unwrap).collect();
    assert_eq!(samples.len(), 10 * spec.sample_rate as usize * 2);
    let peak = samples.iter().fold(0.0f32, |m, s| m.max(s.abs()));
    let rms = (samples.iter().map(|s| s * s).sum::<f32>() / samples.len() as f32).sqrt();
    assert!(peak > 0.05 && rms > 0.005, "peak {peak}, rms {rms}");
    // the last second still sounds (the constant ambient sound keeps playing)
    let tail = &samples[samples.len() - spec.sample_rate as usize * 2..];
    assert!(tail.iter().any(|s| s.abs() > 0.01));
}

/// `--walk` without `--seconds` runs the whole walk (first to last waypoint).
#[test]
fn walk_seconds_default_to_the_walks_length() {
    let w = world();
    let doc: serde_json::Value =
        serde_json::from_str(&ok(&ambient(w.path(), &["--walk", EXAMPLE_WALK, "--json"]))).unwrap();
    assert_eq!(doc["duration_s"], 90.0);
    let last = doc["entries"].as_array().unwrap().last().unwrap()["time_s"]
        .as_f64()
        .unwrap();
    assert!(last > 60.0, "{last}");
}

/// `--seconds` with `--at` and no `--out` is a plain error (a rebuild takes no time).
#[test]
fn at_seconds_without_out_is_refused() {
    let w = world();
    let out = ambient(w.path(), &["--at", "0xA9B40025:96,96,70", "--seconds", "3"]);
    fails_with_one_line(&out, "needs --out");
}
