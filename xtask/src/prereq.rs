//! System prerequisites: checked, and installed where we can (Debian/Ubuntu `apt-get`).

use std::process::Command;

use anyhow::bail;

/// Whether `pkg-config` is there and finds ALSA's development files (what `alsa-sys` builds
/// with).
fn have_alsa() -> bool {
    Command::new("pkg-config")
        .args(["--exists", "alsa"])
        .status()
        .map(|s| s.success())
        .unwrap_or(false)
}

/// Makes sure the system libraries the build needs are present.
///
/// cpal needs the ALSA headers (`libasound2-dev`) and `pkg-config` on Linux, but only once a
/// crate in the lock file pulls in `alsa-sys`.
pub fn ensure() -> anyhow::Result<()> {
    let lock =
        std::fs::read_to_string(super::workspace_root().join("Cargo.lock")).unwrap_or_default();
    if !cfg!(target_os = "linux") || !lock.contains("name = \"alsa-sys\"") {
        return Ok(());
    }
    if have_alsa() {
        return Ok(());
    }
    eprintln!("==> installing libasound2-dev and pkg-config (needed by cpal)");
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
    if !apt(&["install", "-y", "-q", "libasound2-dev", "pkg-config"]) {
        bail!(
            "libasound2-dev is missing and could not be installed (apt-get{}); install it and retry",
            if root { "" } else { " through sudo" }
        );
    }
    if !have_alsa() {
        bail!("libasound2-dev was installed but pkg-config still cannot find alsa");
    }
    eprintln!("<== libasound2-dev and pkg-config installed");
    Ok(())
}
