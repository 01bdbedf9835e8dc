//! `resound acoustics` end to end: the shipped scenes and the fixture world's terrain.

#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a failed unwrap is a failed test"
)]

use std::process::{Command, Output};

use super::bad_input::fails_with_one_line;

fn resound(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_resound"))
        .args(args)
        .output()
        .expect("the resound binary runs")
}

fn json(args: &[&str]) -> serde_json::Value {
    let mut all = args.to_vec();
    all.push("--json");
    let out = resound(&all);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn scene(name: &str) -> String {
    format!(
        "{}/../../crates/acoustics-core/scenes/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn gorge_json_has_the_two_taps_and_the_room() {
    let doc = json(&["acoustics", "--scene", &scene("G")]);
    let ms: Vec<f64> = doc["taps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["delay_ms"].as_f64().unwrap())
        .collect();
    assert_eq!(ms.len(), 2);
    assert!(
        (ms[0] - 158.9).abs() < 0.05 && (ms[1] - 242.1).abs() < 0.05,
        "{ms:?}"
    );
    assert!((doc["room"]["enclosure"].as_f64().unwrap() - 0.094).abs() < 0.01);
    assert!(doc["telemetry"]["cells"].as_u64().unwrap() > 0);
}

#[test]
fn modes_paths_and_ticks() {
    let doc = json(&["acoustics", "--scene", &scene("G"), "--mode", "direct"]);
    assert!(doc["taps"].is_null() && doc["room"].is_null());
    let d = scene("D");
    let occ = |paths: &str| {
        json(&["acoustics", "--scene", &d, "--paths", paths])["occlusion"]["occ"]
            .as_f64()
            .unwrap()
    };
    assert_eq!(occ("1"), 1.0);
    assert_eq!(occ("9"), 0.0);
    fails_with_one_line(
        &resound(&["acoustics", "--scene", &d, "--paths", "4"]),
        "bad paths value (allowed: 1, 9)",
    );
    let u = scene("U");
    assert!(
        json(&["acoustics", "--scene", &u])["telemetry"]["met_unknown"]
            .as_bool()
            .unwrap()
    );
    let later = json(&["acoustics", "--scene", &u, "--tick", "20"]);
    assert_eq!(later["occlusion"]["occ"].as_f64().unwrap(), 2.0);
}

#[cfg(not(feature = "spr-gpl"))]
#[test]
fn spr_without_the_feature_is_a_clear_error() {
    let out = resound(&["acoustics", "--scene", &scene("W1"), "--model", "spr"]);
    fails_with_one_line(&out, "GNU GPL version 3");
    fails_with_one_line(&out, "--features spr-gpl");
}

#[test]
fn missing_file_is_an_error() {
    fails_with_one_line(
        &resound(&["acoustics", "--scene", &scene("no-such-scene")]),
        "no-such-scene",
    );
}

/// The fixture world written into a fresh folder.
fn fixture_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let out = resound(&["fixture", "write", dir.path().to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    dir
}

fn terrain(
    dir: &tempfile::TempDir,
    listener: &str,
    source: &str,
    more: &[&str],
) -> serde_json::Value {
    let d = dir.path().to_str().unwrap();
    let mut args = vec![
        "acoustics",
        "--dat-dir",
        d,
        "--listener",
        listener,
        "--source",
        source,
    ];
    args.extend_from_slice(more);
    json(&args)
}

#[test]
fn terrain_valley_behind_the_shoulder_is_muffled_and_open_land_is_clear() {
    let dir = fixture_dir();
    // Valley floor (0xA8B4, cell (1, 2)) → flat land 192 m east behind the valley's shoulder.
    let doc = terrain(
        &dir,
        "0xA8B4000B:30,54,0",
        "0xA9B4000B:30,54,0",
        &["--ground"],
    );
    assert!(doc["occlusion"]["occ"].as_f64().unwrap() >= 1.0, "{doc}");
    assert!(doc["occlusion"]["hf"].as_f64().unwrap() < 0.05, "{doc}");
    assert_eq!(doc["mode"], "full");
    assert!(doc["room"]["listener_space"]["enclosure"].as_f64().unwrap() > 0.0);
    assert_eq!(doc["ac_listener"]["cell_id"], "0xA8B4000B");
    assert_eq!(doc["ac_listener"]["origin_m"][0], 30.0);
    assert_eq!(doc["ac_listener"]["origin_m"][1], 54.0);
    // Two points on the open flat land.
    let doc = terrain(
        &dir,
        "0xA9B30022:102,30,0",
        "0xA9B30038:150,174,0",
        &["--ground", "--mode", "direct"],
    );
    assert_eq!(doc["occlusion"]["occ"].as_f64().unwrap(), 0.0, "{doc}");
    assert_eq!(doc["occlusion"]["gain"].as_f64().unwrap(), 1.0);
    assert!(doc["taps"].is_null());
}

#[test]
fn terrain_text_output_names_both_positions() {
    let dir = fixture_dir();
    let out = resound(&[
        "acoustics",
        "--dat-dir",
        dir.path().to_str().unwrap(),
        "--listener",
        "0xA9B30022:102,30,0",
        "--source",
        "0xA9B30038:150,174,0",
        "--ground",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("AC positions: source 0xA9B30038:150.00,174.00,"),
        "{text}"
    );
    assert!(
        text.contains("occlusion: occ 0.000") && text.contains("room: enclosure"),
        "{text}"
    );
}

#[test]
fn terrain_beyond_the_dat_is_unknown_not_a_failure() {
    let dir = fixture_dir();
    // Listener in the SW fixture block; the source in 0xA6B2, which the cell dat lacks.
    let doc = terrain(
        &dir,
        "0xA7B20001:10,10,80",
        "0xA6B20039:180,10,80",
        &["--mode", "direct"],
    );
    assert!(doc["telemetry"]["met_unknown"].as_bool().unwrap(), "{doc}");
    assert!(doc["telemetry"]["unknown_share"].as_f64().unwrap() > 0.0);
    // --ground there is a clear error.
    let d = dir.path().to_str().unwrap();
    let out = resound(&[
        "acoustics",
        "--dat-dir",
        d,
        "--listener",
        "0xA7B20001:10,10,0",
        "--source",
        "0xA6B20039:180,10,0",
        "--ground",
    ]);
    fails_with_one_line(&out, "no terrain under the source");
}

#[test]
fn terrain_positions_are_checked() {
    let dir = fixture_dir();
    let d = dir.path().to_str().unwrap();
    let run = |l: &str| {
        resound(&[
            "acoustics",
            "--dat-dir",
            d,
            "--listener",
            l,
            "--source",
            "0xA9B40001:1,1,80",
        ])
    };
    fails_with_one_line(
        &run("0xA9B40001:30,1,80"),
        "outside cell 0xA9B40001 (X in [0, 24)",
    );
    fails_with_one_line(&run("0xA9B40000:1,1,80"), "is not a land cell");
    fails_with_one_line(&run("0xA9B40001:1,1"), "expected three coordinates");
    fails_with_one_line(&run("0xA9B40001:1,1,3.4e38"), "Z in [-10000, 10000]");
    fails_with_one_line(&run("zz:1,1,1"), "not a hexadecimal cell id");
    // Flags of the other mode are refused (by the argument parser, with its usage text).
    let refused = |out: Output, flag: &str| {
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            !out.status.success() && err.contains("cannot be used with") && err.contains(flag),
            "{err}"
        );
    };
    let out = resound(&[
        "acoustics",
        "--dat-dir",
        d,
        "--listener",
        "0xA9B40001:1,1,80",
        "--source",
        "0xA9B40001:1,1,80",
        "--tick",
        "3",
    ]);
    refused(out, "--tick");
    let out = resound(&["acoustics", "--scene", &scene("G"), "--ground"]);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        !out.status.success() && err.contains("--ground") && err.contains("--dat-dir"),
        "{err}"
    );
}
