//! `cargo xtask`: the project's automation, one binary with subcommands.
//!
//! - `cargo xtask test` — installs missing system prerequisites where it can, then runs
//!   `cargo fmt --check`, clippy (default features and all features, `-D warnings`), the
//!   workspace tests with default features (the GPL crate left out) and with all features,
//!   `verify` (own model, then SPR in the spr-gpl build), `cargo check` of the detached fuzz
//!   workspace, and `cargo doc` with warnings denied. `.ci/run` calls exactly this.
//!   With `--retail-dats DIR` it also runs the ignored test that reads the retail client dats.
//! - `cargo xtask verify [--out DIR] [--model own|spr] [--only SCENE]` — installs the
//!   prerequisites, then runs `resound verify` (crates/studio): renders the acoustics
//!   verification scenes offline and checks them against the spec; `--model spr` builds
//!   `resound` with the `spr-gpl` feature.
//! - `cargo xtask soak [--seconds S]` — `resound soak`: the engine under churn for 10
//!   simulated minutes; memory flat, output finite and repeatable; draws
//!   `target/soak/soak_memory.png`.
//! - `cargo xtask instructions [--only NAME] [--json] [--compare FILE]` — instructions per call
//!   of the hot paths, counted by callgrind in the bench binaries (`instructions`): a measure of
//!   the work done that does not drift with the machine's load.
//! - `cargo xtask demo` — builds release and runs `resound demo` (the tour: `out/demo/demo.wav`
//!   and `demo.png`, played live when a sound device works).
//! - `cargo xtask web` — the WebAssembly package (`target/web/pkg`) and the demo page
//!   (`target/web/site`): the wasm32 target and `wasm-bindgen-cli` installed when missing
//!   (`web`). `cargo xtask web-test` also renders natively and checks the package in Node and
//!   the page in headless Chromium against those bytes (a step of `test`).
//! - `cargo xtask prereq` — only the prerequisite step (the ALSA headers and pkg-config).
//! - `cargo xtask fresh-machine [--keep]` — (root only; not part of `test`) proves the README's
//!   commands on a fresh Debian 12 root made with debootstrap (`fresh`).
//!
//! xtask itself is a thin driver with few, pure-Rust dependencies: it links no system library
//! (the tidy test `xtask_links_nothing_native` keeps it so), so it builds on a machine that has
//! only the Rust toolchain and can install the prerequisites before building what needs them.

mod demo;
mod fresh;
mod instructions;
#[cfg(test)]
mod metadata;
mod prereq;
mod test;
mod tidy;
mod tidy_layers;
mod tidy_modules;
mod tidy_native;
mod web;

use std::process::Command;

use anyhow::{Context, bail};

fn main() -> std::process::ExitCode {
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(err) => {
            // One plain line, whatever RUST_BACKTRACE says: the chain joined, repeats left out.
            let mut line = String::new();
            for cause in err.chain() {
                let text = cause.to_string();
                if !line.contains(&text) {
                    if !line.is_empty() {
                        line.push_str(": ");
                    }
                    line.push_str(&text);
                }
            }
            eprintln!("error: {}", line.replace('\n', " "));
            std::process::ExitCode::FAILURE
        }
    }
}

fn run() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let sub = args.next().unwrap_or_default();
    let rest: Vec<String> = args.collect();
    match sub.as_str() {
        "test" => test::run(&rest),
        "demo" => demo::run(&rest),
        "prereq" => prereq::ensure(prereq::ALL),
        "verify" => verify(&rest),
        "soak" => {
            prereq::ensure(prereq::AUDIO)?;
            run_step("resound soak", resound(&[], "soak", &rest))
        }
        "fresh-machine" => fresh::run(&rest),
        "instructions" => instructions::run(&rest),
        "web" => web::run(&rest),
        "web-test" => web::test(&rest),
        "" | "help" | "--help" | "-h" => {
            println!(
                "usage: cargo xtask <test|verify|soak|instructions|demo|web|web-test|prereq|fresh-machine> [args]"
            );
            println!("  test   fmt, clippy, tests (default and all features), docs");
            println!("         --retail-dats DIR: also the ignored test on retail client dats");
            println!("  verify render the acoustics scenes offline and check them");
            println!("  soak   the engine under churn, 10 simulated minutes (--seconds S)");
            println!(
                "  instructions  instructions per call of the hot paths (callgrind; needs valgrind)"
            );
            println!("  demo   build release and run the demonstration");
            println!(
                "  web    build the wasm package (target/web/pkg) and the page (target/web/site)"
            );
            println!("  web-test  the package in Node and the page in headless Chromium vs native");
            println!("  fresh-machine  (root) the README's commands on a fresh Debian 12 root");
            println!("  prereq install missing system libraries (test and demo do this first)");
            Ok(())
        }
        other => bail!("unknown xtask subcommand `{other}` (try `cargo xtask help`)"),
    }
}

/// `cargo xtask verify ARGS`: the prerequisites, then `resound verify ARGS` (with the
/// `spr-gpl` feature when `--model spr` is asked for).
fn verify(args: &[String]) -> anyhow::Result<()> {
    prereq::ensure(prereq::AUDIO)?;
    let spr = args.windows(2).any(|w| w[0] == "--model" && w[1] == "spr");
    let features: &[&str] = if spr { &["spr-gpl"] } else { &[] };
    let label = if spr {
        "resound verify (spr model, spr-gpl build)"
    } else {
        "resound verify"
    };
    run_step(label, resound(features, "verify", args))
}

/// `cargo run -p resound [--features F] -- SUB ARGS` (the dev profile, as the tests build).
fn resound(features: &[&str], sub: &str, args: &[String]) -> Command {
    let mut cmd = cargo();
    cmd.args(["run", "--quiet", "--locked", "-p", "resound"]);
    if !features.is_empty() {
        cmd.args(["--features", &features.join(",")]);
    }
    cmd.args(["--", sub]).args(args);
    cmd
}

/// The cargo that invoked us (`$CARGO`), falling back to `cargo` on `PATH`.
fn cargo() -> Command {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(workspace_root());
    cmd
}

/// The workspace root (the parent of this crate's manifest directory).
fn workspace_root() -> std::path::PathBuf {
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    here.parent().unwrap_or(here).to_path_buf()
}

/// Runs `cmd`, echoing it first, and fails if it does not exit successfully.
fn run_step(label: &str, mut cmd: Command) -> anyhow::Result<()> {
    eprintln!("\n==> {label}: {cmd:?}");
    let started = std::time::Instant::now();
    let status = cmd
        .status()
        .with_context(|| format!("could not start {label}"))?;
    eprintln!(
        "<== {label}: {} in {:.1} s",
        if status.success() { "ok" } else { "FAILED" },
        started.elapsed().as_secs_f64()
    );
    if !status.success() {
        bail!("{label} failed ({status})");
    }
    Ok(())
}
