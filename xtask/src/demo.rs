//! `cargo xtask demo`: build release and run the richest demonstration that exists.
//!
//! Until the engine's `resound demo` lands this writes the fixture world, shows what the tool
//! reads from it, exports a synthesized Wave, rebuilds and walks the retail ambient sounds, and
//! evaluates the acoustics verification scenes. Everything is written under `out/demo/`.

use super::{cargo, run_step};

/// Builds the `resound` binary in release and runs the demonstration steps.
pub fn run(_args: &[String]) -> anyhow::Result<()> {
    super::prereq::ensure()?;
    let mut build = cargo();
    build.args(["build", "--release", "--locked", "-p", "resound"]);
    run_step("build resound (release)", build)?;

    let root = super::workspace_root();
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    let exe = target.join("release").join("resound");
    let out = root.join("out").join("demo");
    std::fs::create_dir_all(&out)?;
    let path = |p: std::path::PathBuf| p.display().to_string();
    let dir = path(out.clone());
    let portal = path(out.join("client_portal.dat"));
    let walk = path(root.join("crates/ambient/examples-data/walk.json"));
    let scenes = root.join("crates/acoustics-core/scenes");

    let mut steps: Vec<(String, Vec<String>)> = Vec::new();
    let mut step = |label: &str, args: &[&str]| {
        steps.push((
            label.to_owned(),
            args.iter().map(|a| (*a).to_owned()).collect(),
        ));
    };
    step("write the fixture world", &["fixture", "write", &dir]);
    step("list the portal dat", &["dat", "ls", &portal]);
    step("dump the Region", &["dat", "dump", &portal, "0x13000000"]);
    step("check every entry", &["dat", "check", &dir]);
    let wind = path(out.join("wave_0a000101.wav"));
    step(
        "export a synthesized Wave",
        &["dat", "wave", &portal, "0x0a000101", &wind],
    );
    step(
        "rebuild the retail ambient sounds at the crossroads",
        &["ambient", "--dat-dir", &dir, "--at", "0xa9b40025:96,96,70"],
    );
    step(
        "walk the example path through the retail ambient tick",
        &[
            "ambient",
            "--dat-dir",
            &dir,
            "--walk",
            &walk,
            "--seconds",
            "30",
            "--seed",
            "7",
        ],
    );
    for scene in ["W2", "D", "G", "R", "T"] {
        let file = path(scenes.join(format!("{scene}.json")));
        step(
            &format!("acoustics scene {scene}"),
            &["acoustics", "--scene", &file, "--mode", "full"],
        );
    }
    for (label, args) in steps {
        let mut cmd = std::process::Command::new(&exe);
        cmd.args(&args);
        run_step(&label, cmd)?;
    }
    Ok(())
}
