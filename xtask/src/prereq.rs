//! System prerequisites: checked, and installed where we can (Debian/Ubuntu `apt-get`).

use std::process::Command;

use anyhow::bail;

/// Makes sure the system libraries the build needs are present.
///
/// - cpal needs the ALSA headers (`libasound2-dev`) and `pkg-config` on Linux, but only once a
///   crate in the lock file pulls in `alsa-sys`;
/// - `cargo xtask verify` draws its plots with `plotters`' TrueType text, which finds fonts
///   through fontconfig: it needs the fontconfig headers (`libfontconfig1-dev`) to build and
///   one font (`fonts-dejavu-core`) to run.
pub fn ensure() -> anyhow::Result<()> {
    if !cfg!(target_os = "linux") {
        return Ok(());
    }
    let lock =
        std::fs::read_to_string(super::workspace_root().join("Cargo.lock")).unwrap_or_default();
    let mut missing: Vec<&str> = Vec::new();
    if lock.contains("name = \"alsa-sys\"") && !pkg_config("alsa") {
        missing.extend(["libasound2-dev", "pkg-config"]);
    }
    if lock.contains("name = \"yeslogic-fontconfig-sys\"") && !pkg_config("fontconfig") {
        missing.extend(["libfontconfig1-dev", "pkg-config"]);
    }
    if !has_font() {
        missing.push("fonts-dejavu-core");
    }
    if missing.is_empty() {
        return Ok(());
    }
    missing.sort_unstable();
    missing.dedup();
    eprintln!("==> installing {}", missing.join(" "));
    let root = Command::new("id")
        .arg("-u")
        .output()
        .map(|o| o.stdout.trim_ascii() == b"0")
        .unwrap_or(false);
    let apt = |args: &[&str]| {
        let mut cmd = if root {
            Command::new("apt-get")
        } else {
            let mut c = Command::new("sudo");
            c.arg("apt-get");
            c
        };
        cmd.args(args).env("DEBIAN_FRONTEND", "noninteractive");
        cmd.status().map(|s| s.success()).unwrap_or(false)
    };
    // A failed `update` is not fatal: the package may be installable from the cached lists.
    let _ = apt(&["update", "-q"]);
    let mut install = vec!["install", "-y", "-q"];
    install.extend(&missing);
    if !apt(&install) {
        bail!(
            "{} missing and could not be installed; install them and retry",
            missing.join(", ")
        );
    }
    // Installed is not the same as found: check again, as the build will.
    if lock.contains("name = \"alsa-sys\"") && !pkg_config("alsa") {
        bail!("libasound2-dev was installed but pkg-config still cannot find alsa");
    }
    if lock.contains("name = \"yeslogic-fontconfig-sys\"") && !pkg_config("fontconfig") {
        bail!("libfontconfig1-dev was installed but pkg-config still cannot find fontconfig");
    }
    eprintln!("<== installed {}", missing.join(" "));
    Ok(())
}

fn pkg_config(name: &str) -> bool {
    Command::new("pkg-config")
        .args(["--exists", name])
        .status()
        .map(|s| s.success())
        .unwrap_or(false)
}

/// True when fontconfig knows at least one font (or, without `fc-list`, a TrueType file lies
/// under /usr/share/fonts).
fn has_font() -> bool {
    if let Ok(out) = Command::new("fc-list").output()
        && out.status.success()
    {
        return !out.stdout.trim_ascii().is_empty();
    }
    fn any_ttf(dir: &std::path::Path, depth: u32) -> bool {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return false;
        };
        entries.flatten().any(|e| {
            let p = e.path();
            if p.is_dir() {
                depth > 0 && any_ttf(&p, depth - 1)
            } else {
                p.extension().is_some_and(|x| x == "ttf" || x == "otf")
            }
        })
    }
    any_ttf(std::path::Path::new("/usr/share/fonts"), 4)
}
