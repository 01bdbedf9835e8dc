//! `resound`: the Resound command-line tool.
//!
//! Human-readable output by default; `--json` prints one JSON document on stdout in the
//! schema of `docs/json.md` ([`json_out`]), and a failure as one `{"error": "…"}` object on
//! stderr with the same exit code.

mod cmd_acoustics;
mod cmd_ambient;
mod cmd_dat;
mod cmd_demo;
mod cmd_devices;
mod cmd_fixture;
mod cmd_play;
mod cmd_render;
mod dat_check;
mod dat_dir;
mod dat_file;
mod interrupt;
mod json_out;
mod json_skim;
mod out_file;
mod report;
mod scene_check;

use clap::{Parser, Subcommand};

/// Resound: Asheron's Call retail ambient sound and voxel acoustics.
#[derive(Parser, Debug)]
#[command(name = "resound", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Inspect, dump, export and check DAT files.
    Dat(cmd_dat::Args),
    /// Write the synthetic fixture world.
    Fixture(cmd_fixture::Args),
    /// Run the retail ambient sound runtime on a set of DAT files.
    Ambient(cmd_ambient::Args),
    /// Evaluate a voxel acoustics scene file.
    Acoustics(cmd_acoustics::Args),
    /// List the audio output devices and their default configurations.
    Devices(cmd_devices::Args),
    /// Render a verification scene offline through the engine.
    Render(cmd_render::Args),
    /// Play a verification scene live on an output device (exit code 3: no device).
    Play(cmd_play::Args),
    /// The demo tour: terrain, retail ambient sounds and acoustics, to WAV + PNG (and live).
    Demo(cmd_demo::Args),
    /// Render the acoustics verification scenes and check them against the spec
    /// (`resound verify --help` for its options).
    #[command(disable_help_flag = true)]
    Verify(Passed),
    /// Run the engine under churn for simulated minutes: memory flat, output finite and
    /// repeatable (`--seconds S --voices N --seed X --out DIR`).
    #[command(disable_help_flag = true)]
    Soak(Passed),
}

/// A tool's own arguments, passed through unparsed (the tool reads them itself).
#[derive(clap::Args, Debug)]
struct Passed {
    /// Arguments for the tool.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    args: Vec<String>,
}

/// Whether the command line asks for JSON (`--json` before any `--`): failures are then
/// reported as a JSON object too, usage errors included.
fn wants_json() -> bool {
    std::env::args_os()
        .skip(1)
        .take_while(|a| a != "--")
        .any(|a| a == "--json")
}

/// Prints a failure's line on stderr: plain, or as `{"error": "…"}` with `--json` (without the
/// line's `error: ` prefix).
fn fail(line: &str, code: u8) -> std::process::ExitCode {
    if wants_json() {
        let line = line.strip_prefix("error: ").unwrap_or(line);
        eprintln!("{}", json_out::error_doc(line));
    } else {
        eprintln!("{line}");
    }
    std::process::ExitCode::from(code)
}

fn main() -> std::process::ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) if err.use_stderr() && wants_json() => {
            return fail(&report::usage_line(&err), 2);
        }
        Err(err) => return report::usage(&err),
    };
    let result = match cli.command {
        Command::Dat(args) => cmd_dat::run(args),
        Command::Fixture(args) => cmd_fixture::run(args),
        Command::Ambient(args) => cmd_ambient::run(args),
        Command::Acoustics(args) => cmd_acoustics::run(args),
        Command::Devices(args) => cmd_devices::run(args),
        Command::Render(args) => cmd_render::run(args),
        Command::Play(args) => cmd_play::run(args),
        Command::Demo(args) => cmd_demo::run(args),
        Command::Verify(passed) => resound_studio::verify::run(&passed.args),
        Command::Soak(passed) => resound_studio::soak::run_cli(&passed.args),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(err) => {
            if let Some(e) = err.downcast_ref::<cmd_play::NoDevice>() {
                return fail(&e.to_string(), 3);
            }
            let line = format!("error: {}", report::one_line(&err));
            if err.downcast_ref::<interrupt::Interrupted>().is_some() {
                return fail(&line, 130);
            }
            fail(&line, 1)
        }
    }
}
