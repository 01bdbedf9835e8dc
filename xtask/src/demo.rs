//! `cargo xtask demo`: build release and run the richest demonstration that exists.
//!
//! Until the engine's `resound demo` lands this writes the fixture world and shows what the
//! tool reads from it.

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
    let out_s = out.display().to_string();
    let portal = out.join("client_portal.dat").display().to_string();

    let steps: Vec<(&str, Vec<String>)> = vec![
        (
            "write the fixture world",
            vec!["fixture".into(), "write".into(), out_s.clone()],
        ),
        (
            "list the portal dat",
            vec!["dat".into(), "ls".into(), portal.clone()],
        ),
        (
            "dump the Region",
            vec![
                "dat".into(),
                "dump".into(),
                portal.clone(),
                "0x13000000".into(),
            ],
        ),
        (
            "check every entry",
            vec!["dat".into(), "check".into(), out_s.clone()],
        ),
    ];
    for (label, args) in steps {
        let mut cmd = std::process::Command::new(&exe);
        cmd.args(&args);
        run_step(label, cmd)?;
    }
    Ok(())
}
