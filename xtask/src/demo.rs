//! `cargo xtask demo`: installs the prerequisites, builds `resound` in release and runs
//! `resound demo` (the tour: fixture world, retail ambient sounds, acoustics), which writes
//! `out/demo/demo.wav` and `out/demo/demo.png` and plays the tour when a sound device works.
//! Extra arguments go to `resound demo` (`cargo xtask demo -- --retail --seconds 60`).

use super::{cargo, run_step};

/// Builds the `resound` binary in release and runs the tour.
pub fn run(args: &[String]) -> anyhow::Result<()> {
    super::prereq::ensure(super::prereq::AUDIO)?;
    let mut build = cargo();
    build.args(["build", "--release", "--locked", "-p", "resound"]);
    run_step("build resound (release)", build)?;

    let root = super::workspace_root();
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    let exe = target.join("release").join("resound");
    let mut pass: Vec<String> = args.iter().filter(|a| *a != "--").cloned().collect();
    if !pass.iter().any(|a| a == "--out") {
        let out = root.join("out").join("demo");
        pass.extend(["--out".to_owned(), out.display().to_string()]);
    }
    let out = pass
        .iter()
        .position(|a| a == "--out")
        .and_then(|i| pass.get(i + 1))
        .map(std::path::PathBuf::from)
        .unwrap_or_default();
    let mut demo = std::process::Command::new(&exe);
    demo.arg("demo").args(&pass).current_dir(&root);
    run_step("resound demo", demo)?;
    println!("\nthe demo's files:");
    for name in ["demo.wav", "demo.png"] {
        println!("  {}", out.join(name).display());
    }
    Ok(())
}
