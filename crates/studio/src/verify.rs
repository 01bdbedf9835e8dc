//! `resound verify [--out DIR] [--model own|spr] [--only SCENE]`: renders the §9
//! verification scenes through `resound-engine` offline (f32), measures what came out (band
//! losses behind walls, echo arrival times, reverb decay and tail level, clicks at parameter
//! changes, determinism across pacing), compares with acoustics.md §4–§6 under their
//! tolerances, prints the check table, writes `DIR/report.md` with PNG plots, and exits
//! non-zero on any failed row.
//!
//! | module | holds |
//! |---|---|
//! | `plan` | the renders (scene, mode, signal, length, folder) and the expected figures |
//! | `engine` | the `resound-engine` adapter (`render::Renderer` for the engine) |
//! | `render` | the renderer trait and what a render returns |
//! | `reverb_checks` | the reverb rows: tail against the reported decay (T30, one slope, band order, Eyring), §6 ranges, decay plots |
//! | `run` | rendering in parallel (rayon), faults, WAVs, analyses → check rows, pictures |
//! | `spectrum` | band energies (realfft), fractional-octave spectra |
//! | `echo` | echo peaks from the mono envelope |
//! | `decay` | tail start, Schroeder T30, tail/click |
//! | `click` | largest adjacent-sample step at a parameter change |
//! | `binaural` | binaural output (BN): ITD against Woodworth, ILD, front/back, mirror, `Pan` unchanged, on rendered WAVs |
//! | `corners` | sound round corners: the L corridor, the door closed and reopened, the thin wooden wall (AL, AD, AW) |
//! | `hash` | output hashes (determinism) |
//! | `check` | the check row and its text / Markdown tables |
//! | `plot` | the PNGs (plotters) |
//! | `report` | stdout text and `report.md` |
//! | `fault` | `RESOUND_VERIFY_FAULT` debug faults |
//! | `travel` | sound that travels (issue 31): the 343 m shot's arrival, a pass-by's Doppler (retarded time), the Modern resampler's images; spectrum and spectrogram plots |

mod binaural;
mod check;
mod click;
mod corners;
mod decay;
mod echo;
mod engine;
mod fault;
mod hash;
mod plan;
mod plot;
mod render;
mod report;
mod reverb_checks;
mod run;
mod spectrum;
mod travel;

#[cfg(test)]
mod tests;

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, bail};

use engine::EngineRenderer;
use render::ModelChoice;

/// Parsed command line.
#[derive(Debug, PartialEq)]
struct Options {
    out: PathBuf,
    model: ModelChoice,
    only: Option<String>,
}

const USAGE: &str = "usage: resound verify [--out DIR] [--model own|spr] [--only SCENE]\n  \
    renders W0–W3, D, P, G, F, R, T, E1–E3 and C offline and checks them (acoustics.md §4–§6)\n  \
    --out DIR     where renders, PNGs and report.md go (default target/verify)\n  \
    --model M     own (default) or spr (needs a build with the spr-gpl feature)\n  \
    --only SCENE  one scene id (W0–W3, D, P, G, F, R, T, E1–E3, C)";

fn parse(args: &[String]) -> anyhow::Result<Option<Options>> {
    let mut out = PathBuf::from("target").join("verify");
    let mut model = ModelChoice::Own;
    let mut only = None;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .with_context(|| format!("{name} needs a value (see --help)"))
        };
        match arg.as_str() {
            "--out" => out = PathBuf::from(value("--out")?),
            "--model" => {
                model = match value("--model")?.as_str() {
                    "own" => ModelChoice::Own,
                    "spr" => ModelChoice::Spr,
                    other => bail!("unknown model `{other}` (expected own or spr)"),
                }
            }
            "--only" => only = Some(value("--only")?),
            "-h" | "--help" => return Ok(None),
            other => bail!("unknown argument `{other}` (see resound verify --help)"),
        }
    }
    Ok(Some(Options { out, model, only }))
}

/// Runs `resound verify`.
pub fn run(args: &[String]) -> anyhow::Result<()> {
    let Some(opts) = parse(args)? else {
        println!("{USAGE}");
        return Ok(());
    };
    if opts.model == ModelChoice::Spr && !cfg!(feature = "spr-gpl") {
        // The GPL model lives behind a feature; `cargo xtask verify --model spr` builds it.
        bail!(
            "--model spr needs a build with the spr-gpl feature \
             (cargo run -p resound --features spr-gpl -- verify --model spr)"
        );
    }
    let fault = fault::Fault::from_env()?;
    let jobs = plan::select(opts.only.as_deref());
    if jobs.is_empty() {
        bail!(
            "no verification scene `{}` (see resound verify --help)",
            opts.only.unwrap_or_default()
        );
    }
    let started = Instant::now();
    let mut renderer = EngineRenderer::new(opts.model)?;
    if fault == Some(fault::Fault::SlotTuningOff) {
        renderer.untune_bus();
    }
    std::fs::create_dir_all(&opts.out)
        .with_context(|| format!("cannot create {}", opts.out.display()))?;
    let mut outcome = run::run(&renderer, &jobs, fault, &opts.out)?;
    if opts.model == ModelChoice::Own && opts.only.is_none() {
        // Air paths are the own model's (the SPR model stays as SPR computes it).
        outcome.sections.push((
            "Sound round corners (direct, 200 Hz sine; air paths, acoustics §4a)".into(),
            corners::corner_checks(),
        ));
    }
    if opts.only.is_none() {
        // Binaural output does not depend on the acoustics model (the source is in free air).
        outcome.sections.push((
            "Binaural output (click on the horizontal plane, IRCAM IRC_1040; issue 33)".into(),
            binaural::binaural_checks(&opts.out.join("binaural")),
        ));
        outcome.sections.push((
            "Sound that travels (propagation delay, Doppler, resampler images; issue 31)".into(),
            travel::travel_checks(engine::RATE, &opts.out, &mut outcome.pictures)?,
        ));
    }
    let info = report::RunInfo {
        model: opts.model.name(),
        fault: fault.map(fault::Fault::name),
        sample_rate: engine::RATE,
        renders: jobs.len(),
        total_s: started.elapsed().as_secs_f64(),
    };
    report::write_markdown(&opts.out, &outcome, &info)?;
    print!("{}", report::text(&outcome));
    println!(
        "\n{} renders in {:.1} s, {:.1} s in all; report: {}",
        jobs.len(),
        outcome.render_s,
        info.total_s,
        opts.out.join("report.md").display()
    );
    if !outcome.passed() {
        // A failed row is a result, not an error: say it in one line and exit 1.
        eprintln!("{}", report::verdict(&outcome));
        std::process::exit(1);
    }
    println!("{}", report::verdict(&outcome));
    Ok(())
}
