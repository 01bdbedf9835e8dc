//! `cargo xtask test`: the CI gate.

use super::{cargo, run_step};

/// Runs every check, stopping at the first failure.
pub fn run(_args: &[String]) -> anyhow::Result<()> {
    super::prereq::ensure()?;
    let started = std::time::Instant::now();

    let mut fmt = cargo();
    fmt.args(["fmt", "--all", "--check"]);
    run_step("rustfmt", fmt)?;

    // Default features, GPL crate left out: the MIT build must be clean on its own.
    let mut clippy = cargo();
    clippy.args([
        "clippy",
        "--locked",
        "--workspace",
        "--exclude",
        "resound-spr",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ]);
    run_step("clippy (default features)", clippy)?;

    let mut clippy_all = cargo();
    clippy_all.args([
        "clippy",
        "--locked",
        "--workspace",
        "--all-targets",
        "--all-features",
        "--",
        "-D",
        "warnings",
    ]);
    run_step("clippy (all features)", clippy_all)?;

    let mut test = cargo();
    test.args([
        "test",
        "--locked",
        "--workspace",
        "--exclude",
        "resound-spr",
    ]);
    run_step("tests (default features, no GPL crate)", test)?;

    let mut test_all = cargo();
    test_all.args(["test", "--locked", "--workspace", "--all-features"]);
    run_step("tests (all features, with spr-gpl)", test_all)?;

    // What the engine renders, measured (issue 13): the own model, then SPR in the GPL build.
    let mut verify = cargo();
    verify.args(["run", "--quiet", "--locked", "-p", "xtask", "--", "verify"]);
    run_step("verify (own model)", verify)?;
    let mut verify_spr = cargo();
    verify_spr.args([
        "run",
        "--quiet",
        "--locked",
        "-p",
        "xtask",
        "--features",
        "spr-gpl",
    ]);
    verify_spr.args([
        "--",
        "verify",
        "--model",
        "spr",
        "--out",
        "target/verify-spr",
    ]);
    run_step("verify (spr model, spr-gpl build)", verify_spr)?;

    // The fuzz harness is a detached workspace (STYLE.md §15): check that it still builds.
    let mut fuzz = cargo();
    fuzz.args([
        "check",
        "--locked",
        "--manifest-path",
        "crates/datformat/fuzz/Cargo.toml",
    ]);
    run_step("fuzz targets (cargo check)", fuzz)?;

    let mut doc = cargo();
    doc.args([
        "doc",
        "--locked",
        "--workspace",
        "--no-deps",
        "--exclude",
        "resound-spr",
    ]);
    doc.env("RUSTDOCFLAGS", "-D warnings");
    run_step("rustdoc", doc)?;

    eprintln!(
        "\nall checks passed in {:.0} s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
