//! `resound fixture write` and `resound dat …` end to end.

#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a failed unwrap is a failed test"
)]

use std::path::Path;
use std::process::{Command, Output};

use resound_engine::advanced::datformat::container::{DatWriter, EntryOptions};
use resound_fixture as fixture;

fn resound(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_resound"))
        .args(args)
        .output()
        .expect("the resound binary runs")
}

fn ok(args: &[&str]) -> String {
    let out = resound(args);
    assert!(
        out.status.success(),
        "resound {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn json(args: &[&str]) -> serde_json::Value {
    let text = ok(args);
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("resound {args:?}: {e}\n{text}"))
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Writes the fixture world into a fresh temporary folder through the CLI.
fn written() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    ok(&["fixture", "write", s(dir.path())]);
    dir
}

#[test]
fn fixture_write_gives_the_library_bytes_and_check_reports_no_failures() {
    let dir = written();
    let world = fixture::write_world();
    assert!(std::fs::read(dir.path().join("client_portal.dat")).unwrap() == world.portal);
    assert!(std::fs::read(dir.path().join("client_cell_1.dat")).unwrap() == world.cell);

    let report = json(&["dat", "check", s(dir.path()), "--json"]);
    assert_eq!(report["tally"]["failed"], 0, "{report:#}");
    assert_eq!(report["tally"]["ok"], 56, "{report:#}");
    assert_eq!(report["files"]["total"], 2, "{report:#}");
    assert_eq!(report["files"]["failed"], 0, "{report:#}");
    assert_eq!(report["dats"].as_array().unwrap().len(), 2);
    let text = ok(&["dat", "check", s(dir.path())]);
    assert!(
        text.contains("LandBlock") && text.contains("Wave"),
        "{text}"
    );
}

#[test]
fn check_fails_on_a_broken_record() {
    let dir = tempfile::tempdir().unwrap();
    let mut portal = DatWriter::from_bytes(fixture::write_world().portal).unwrap();
    portal
        .insert(
            fixture::REGION_ID,
            &[0, 0, 0, 0x13, 1, 0, 0, 0],
            EntryOptions::default(),
        )
        .unwrap();
    std::fs::write(dir.path().join("client_portal.dat"), portal.finish()).unwrap();
    let out = resound(&["dat", "check", s(dir.path()), "--json"]);
    assert!(!out.status.success());
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["tally"]["failed"], 1, "{report:#}");
    assert_eq!(report["dats"][0]["failures"][0]["record_type"], "Region");
}

#[test]
fn ls_json_lists_every_entry_with_its_type() {
    let dir = written();
    let doc = json(&[
        "dat",
        "ls",
        "--json",
        s(&dir.path().join("client_portal.dat")),
    ]);
    assert_eq!(doc["dat_type"], "portal");
    assert_eq!(doc["block_size_bytes"], 1024);
    let entries = doc["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 26);
    let kind = |id: &str| entries.iter().find(|e| e["id"] == id).unwrap()["record_type"].clone();
    assert_eq!(kind("0x13000000"), "Region");
    assert_eq!(kind("0x20000011"), "SoundTable");
    assert_eq!(kind("0x0A000101"), "Wave");
    assert_eq!(kind("0xFFFF0001"), "Iteration");
    let cell = json(&[
        "dat",
        "ls",
        "--json",
        s(&dir.path().join("client_cell_1.dat")),
    ]);
    assert_eq!(cell["entries"].as_array().unwrap().len(), 30);
    let text = ok(&["dat", "ls", s(&dir.path().join("client_cell_1.dat"))]);
    assert!(
        text.contains("0xA9B4FFFF") && text.contains("LandBlockInfo"),
        "{text}"
    );
}

#[test]
fn dump_decodes_each_record_type() {
    let dir = written();
    let portal = dir.path().join("client_portal.dat");
    let cell = dir.path().join("client_cell_1.dat");
    let region = json(&["dat", "dump", "--json", s(&portal), "0x13000000"]);
    assert_eq!(region["record_type"], "Region");
    let region = &region["record"];
    assert_eq!(region["region_name"], "Fixture");
    assert_eq!(region["sound_info"]["stb_desc"][0]["stb_id"], "0x20000011");
    assert!(region["sound_info"]["stb_desc"][0]["ambient_sounds"][0]["base_chance"].is_number());
    let table = json(&["dat", "dump", "--json", s(&portal), "536870929"]);
    assert_eq!(table["id"], "0x20000011");
    assert_eq!(table["record"]["id"], "0x20000011");
    let wave = &json(&["dat", "dump", "--json", s(&portal), "0x0A000101"])["record"];
    assert_eq!(
        (wave["sample_rate"].clone(), wave["bits_per_sample"].clone()),
        (11_025.into(), 8.into())
    );
    let block = &json(&["dat", "dump", "--json", s(&cell), "0xA9B4FFFF"])["record"];
    assert_eq!(block["terrain"].as_array().unwrap().len(), 81);
    let info = ok(&["dat", "dump", s(&cell), "0xa9b4fffe"]);
    assert!(info.contains("building"), "{info}");
    let iteration = &json(&["dat", "dump", "--json", s(&cell), "0xFFFF0001"])["record"];
    assert_eq!(iteration["current"], 1);
    let text = ok(&["dat", "dump", s(&portal), "0x13000000"]);
    assert!(
        text.contains("continuous") && text.contains("intermittent"),
        "{text}"
    );
    assert!(
        !resound(&["dat", "dump", s(&portal), "0x20000099"])
            .status
            .success()
    );
    assert!(!resound(&["dat", "dump", s(&portal), "zz"]).status.success());
}

#[test]
fn dump_raw_decodes_a_bare_record_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("region.bin");
    let region = fixture::region();
    use resound_engine::advanced::datformat::record::Record;
    std::fs::write(&path, region.to_bytes().unwrap()).unwrap();
    let doc = json(&["dat", "dump", "--raw", "region", s(&path), "--json"]);
    assert!(doc["id"].is_null(), "a bare record file has no entry id");
    let doc = &doc["record"];
    assert_eq!(doc["id"], "0x13000000");
    assert_eq!(
        doc["terrain_info"]["terrain_types"]
            .as_array()
            .unwrap()
            .len(),
        32
    );
    assert!(
        !resound(&["dat", "dump", "--raw", "wave", s(&path)])
            .status
            .success()
    );
}

#[test]
fn wave_exports_a_riff_file() {
    let dir = written();
    let out = dir.path().join("bird.wav");
    ok(&[
        "dat",
        "wave",
        s(&dir.path().join("client_portal.dat")),
        "0x0A000121",
        s(&out),
    ]);
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(&bytes[0..4], b"RIFF");
    assert_eq!(&bytes[8..12], b"WAVE");
    assert_eq!(&bytes[12..16], b"fmt ");
    let riff_size = u32::from_le_bytes(bytes[4..8].try_into().unwrap()) as usize;
    assert_eq!(riff_size + 8, bytes.len());
    // PCM cannot be exported as .mp3.
    let mp3 = dir.path().join("bird.mp3");
    assert!(
        !resound(&[
            "dat",
            "wave",
            s(&dir.path().join("client_portal.dat")),
            "0x0A000121",
            s(&mp3)
        ])
        .status
        .success()
    );
}
