//! `cargo xtask`: the project's automation, one binary with subcommands.
//!
//! - `cargo xtask test` — installs missing system prerequisites where it can, then runs
//!   `cargo fmt --check`, clippy (default features and all features, `-D warnings`), the
//!   workspace tests with default features (the GPL crate left out) and with all features,
//!   `verify` (own model, then SPR in the spr-gpl build), `cargo check` of the detached fuzz
//!   workspace, and `cargo doc` with warnings denied. `.ci/run` calls exactly this.
//!   With `--retail-dats DIR` it also runs the ignored test that reads the retail client dats.
//! - `cargo xtask verify [--out DIR] [--model own|spr] [--only SCENE]` — renders the
//!   acoustics verification scenes offline and checks them against the spec (see `verify`).
//! - `cargo xtask soak [--seconds S]` — the engine under churn for 10 simulated minutes
//!   (`soak`): memory flat, output finite and repeatable; draws `target/soak/soak_memory.png`.
//! - `cargo xtask instructions [--only NAME] [--json] [--compare FILE]` — instructions per call
//!   of the hot paths, counted by callgrind in the bench binaries (`instructions`): a measure of
//!   the work done that does not drift with the machine's load.
//! - `cargo xtask demo` — builds release and runs `resound demo` (the tour: `out/demo/demo.wav`
//!   and `demo.png`, played live when a sound device works).
//! - `cargo xtask prereq` — only the prerequisite step (ALSA headers once cpal is in the lock).

mod demo;
mod instructions;
mod prereq;
mod soak;
mod test;
mod tidy;
mod tidy_layers;
mod verify;

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
        "prereq" => prereq::ensure(),
        "verify" => verify::run(&rest),
        "soak" => soak::run_cli(&rest),
        "instructions" => instructions::run(&rest),
        "" | "help" | "--help" | "-h" => {
            println!("usage: cargo xtask <test|verify|soak|instructions|demo|prereq> [args]");
            println!("  test   fmt, clippy, tests (default and all features), docs");
            println!("         --retail-dats DIR: also the ignored test on retail client dats");
            println!("  verify render the acoustics scenes offline and check them");
            println!("  soak   the engine under churn, 10 simulated minutes (--seconds S)");
            println!(
                "  instructions  instructions per call of the hot paths (callgrind; needs valgrind)"
            );
            println!("  demo   build release and run the demonstration");
            println!("  prereq install missing system libraries (test and demo do this first)");
            Ok(())
        }
        other => bail!("unknown xtask subcommand `{other}` (try `cargo xtask help`)"),
    }
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
