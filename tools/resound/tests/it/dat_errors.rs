//! `resound dat` on bad input (issue 9 items 7 and 9, issue 17's padding): files that are not
//! dats, one id style, plain messages.

#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a failed unwrap is a failed test"
)]

use std::path::Path;
use std::process::{Command, Output};

use resound_datformat::container::{DatWriter, EntryOptions};
use resound_datformat::record::Record;
use resound_fixture as fixture;

use crate::bad_input::fails_with_one_line;

fn resound(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_resound"))
        .args(args)
        .output()
        .expect("the resound binary runs")
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A folder holding the fixture portal dat.
fn portal_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("client_portal.dat"),
        fixture::write_world().portal,
    )
    .unwrap();
    dir
}

/// Item 7: a directory, a FIFO, a symlink loop and a symlink to /dev/zero named `*.dat` are
/// each a failed file (before: silently skipped, exit 0), counted apart from entries.
#[cfg(unix)]
#[test]
fn check_reports_every_dat_that_is_not_a_regular_file() {
    let dir = portal_dir();
    let d = dir.path();
    std::fs::create_dir(d.join("folder.dat")).unwrap();
    std::os::unix::fs::symlink("loop.dat", d.join("loop.dat")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", d.join("zero.dat")).unwrap();
    let fifo = Command::new("mkfifo")
        .arg(d.join("pipe.dat"))
        .status()
        .unwrap();
    assert!(fifo.success());

    let out = resound(&["dat", "check", s(d), "--json"]);
    fails_with_one_line(&out, "4 of 5 files and 0 of 26 entries failed");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["files"]["total"], 5, "{report:#}");
    assert_eq!(report["files"]["failed"], 4, "{report:#}");
    assert_eq!(report["tally"]["ok"], 26, "{report:#}");
    assert_eq!(report["tally"]["failed"], 0, "{report:#}");
    let error = |name: &str| {
        report["dats"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["file"].as_str().unwrap().ends_with(name))
            .unwrap()["file_error"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    assert!(error("folder.dat").contains("is a directory, not a DAT file"));
    assert!(error("pipe.dat").contains("is a FIFO (named pipe), not a DAT file"));
    assert!(error("zero.dat").contains("is a character device, not a DAT file"));
    assert!(error("loop.dat").contains("cannot open"));

    let text = resound(&["dat", "check", s(d)]);
    let stdout = String::from_utf8(text.stdout).unwrap();
    assert!(
        stdout.contains("files: 5 checked, 4 failed; entries: 26 ok, 0 failed"),
        "{stdout}"
    );
}

/// Item 9: `dat ls /dev/zero` says what is wrong (before: "file of 0 bytes").
#[cfg(unix)]
#[test]
fn ls_of_dev_zero_says_it_is_not_a_dat_file() {
    let out = resound(&["dat", "ls", "/dev/zero"]);
    fails_with_one_line(&out, "/dev/zero is a character device, not a DAT file");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!err.contains("0 bytes"), "{err}");
    // a bare record file must be a regular file (before: read until memory ran out)
    fails_with_one_line(
        &resound(&["dat", "dump", "--raw", "region", "/dev/zero"]),
        "/dev/zero is a character device, not a record file",
    );
    // an empty regular file is not a dat either, and says so
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.dat");
    std::fs::write(&empty, b"").unwrap();
    fails_with_one_line(
        &resound(&["dat", "ls", s(&empty)]),
        "not a DAT file: 0 bytes, shorter than the 400-byte dat header",
    );
}

/// Item 9: ids are `0x0A000101` everywhere (lowercase 0x, 8 uppercase digits), and an entry of
/// an unknown type is not "a Unknown".
#[test]
fn ids_have_one_style_and_unknown_types_read_well() {
    let dir = tempfile::tempdir().unwrap();
    let mut portal = DatWriter::from_bytes(fixture::write_world().portal).unwrap();
    portal
        .insert(0x5A00_00AB, &[1, 2, 3], EntryOptions::default())
        .unwrap();
    let path = dir.path().join("client_portal.dat");
    std::fs::write(&path, portal.finish()).unwrap();

    let out = resound(&["dat", "dump", s(&path), "0x5a0000ab"]);
    fails_with_one_line(&out, "0x5A0000AB (3 bytes) has an unknown record type");
    assert!(!String::from_utf8(out.stderr).unwrap().contains("a Unknown"));
    fails_with_one_line(
        &resound(&["dat", "dump", s(&path), "0x0e000002"]),
        "0x0E000002 is not in",
    );
    let ls = String::from_utf8(resound(&["dat", "ls", s(&path)]).stdout).unwrap();
    assert!(
        ls.contains("0x0A000101") && ls.contains("0x5A0000AB"),
        "{ls}"
    );
    assert!(!ls.contains("0x0a000101"), "{ls}");
    let json: serde_json::Value =
        serde_json::from_slice(&resound(&["dat", "ls", "--json", s(&path)]).stdout).unwrap();
    assert!(
        json["entries"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["id"] == "0x0A000101"),
        "{json:#}"
    );
}

/// Issue 17: zero bytes after a Region's last field are padding — `dat check` passes and
/// reports them, `dat dump` shows them; a non-zero trailing byte fails with a typed message.
#[test]
fn check_reports_zero_padding_and_rejects_non_zero_trailing_bytes() {
    let region = fixture::region().to_bytes().unwrap();
    let write = |tail: &[u8]| {
        let dir = tempfile::tempdir().unwrap();
        let mut portal = DatWriter::from_bytes(fixture::write_world().portal).unwrap();
        let mut payload = region.clone();
        payload.extend_from_slice(tail);
        portal
            .insert(fixture::REGION_ID, &payload, EntryOptions::default())
            .unwrap();
        std::fs::write(dir.path().join("client_portal.dat"), portal.finish()).unwrap();
        dir
    };
    let padded = write(&[0; 16]);
    let out = resound(&["dat", "check", s(padded.path()), "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["tally"]["padded"], 1, "{report:#}");
    assert_eq!(report["tally"]["padding_bytes"], 16, "{report:#}");
    let dump = resound(&[
        "dat",
        "dump",
        s(&padded.path().join("client_portal.dat")),
        "0x13000000",
    ]);
    let text = String::from_utf8(dump.stdout).unwrap();
    assert!(
        text.contains("padding: 16 zero bytes after the last field"),
        "{text}"
    );

    let mut tail = [0u8; 16];
    tail[3] = 7;
    let bad = write(&tail);
    let out = resound(&["dat", "check", s(bad.path()), "--json"]);
    assert!(!out.status.success());
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let error = report["dats"][0]["failures"][0]["reason"].as_str().unwrap();
    assert_eq!(
        error,
        format!(
            "parse: Region 0x13000000: 16 trailing bytes after byte {}, not all zero (first \
             non-zero at byte {})",
            region.len(),
            region.len() + 3
        )
    );
}
