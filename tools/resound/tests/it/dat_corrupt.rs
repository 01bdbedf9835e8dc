//! The corrupted-DAT suite of `resound-fixture` run through the CLI (issue 9 item 3): `dat ls`,
//! `dat dump` and `dat check`, with and without `--json`, stderr a pipe. No output may hold an
//! ANSI escape, a Rust source path or binrw's backtrace, and an error is one line.

#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a failed unwrap is a failed test"
)]

use std::process::Command;

#[allow(
    dead_code,
    reason = "the suite's allocation probes and round trips serve other test binaries"
)]
#[path = "../../../../crates/fixture/tests/it/fixture/corrupt.rs"]
mod corrupt;

/// Every `stride`-th damaged dat of a routine goes through the CLI (each costs six runs);
/// returns how many dats ran and how many runs failed with a record-level message.
fn through_cli(stride: usize, each: fn(corrupt::Visit<'_>)) -> (usize, usize) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("damaged.dat");
    let file = path.to_str().unwrap().to_owned();
    let folder = dir.path().to_str().unwrap().to_owned();
    let mut seen = 0;
    let mut ran = 0;
    let mut record_errors = 0;
    each(&mut |bad, ids, what| {
        seen += 1;
        if seen % stride != 1 && stride > 1 {
            return;
        }
        ran += 1;
        std::fs::write(&path, bad).unwrap();
        let id = format!("0x{:08X}", ids[ids.len() / 2]);
        for args in [
            vec!["dat", "ls", &file],
            vec!["dat", "ls", "--json", &file],
            vec!["dat", "dump", &file, &id],
            vec!["dat", "dump", "--json", &file, &id],
            vec!["dat", "check", &folder],
            vec!["dat", "check", "--json", &folder],
        ] {
            let out = Command::new(env!("CARGO_BIN_EXE_resound"))
                .args(&args)
                .output()
                .unwrap();
            let stdout = String::from_utf8_lossy(&out.stdout);
            let stderr = String::from_utf8_lossy(&out.stderr);
            for (name, text) in [("stdout", &stdout), ("stderr", &stderr)] {
                for bad in ["\u{1b}", ".rs:", "Backtrace", "panicked"] {
                    assert!(
                        !text.contains(bad),
                        "{what}: resound {args:?} {name} holds {bad:?}: {text}"
                    );
                }
            }
            if stdout.contains(": at byte") || stderr.contains(": at byte") {
                record_errors += 1;
            }
            assert!(
                stderr.lines().count() <= 1,
                "{what}: resound {args:?} wrote more than one error line: {stderr}"
            );
        }
    });
    (ran, record_errors)
}

#[test]
fn truncated_dats_give_plain_messages() {
    let (ran, _) = through_cli(16, corrupt::each_truncation);
    assert!(ran > 10, "{ran}");
}

#[test]
fn flipped_dats_give_plain_messages() {
    let (ran, record_errors) = through_cli(10, corrupt::each_flip);
    assert!(ran > 10, "{ran}");
    assert!(record_errors > 0, "no flip reached a record parse error");
}

#[test]
fn all_ones_dats_give_plain_messages() {
    let (ran, _) = through_cli(4, corrupt::each_all_ones_dat);
    assert!(ran > 10, "{ran}");
}
