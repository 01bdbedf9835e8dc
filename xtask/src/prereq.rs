//! System prerequisites: checked, and installed where we can (Debian/Ubuntu `apt-get`, as root
//! or through `sudo`); anywhere else a one-line error names what to install.
//!
//! What the build needs beyond the Rust toolchain, gcc and libc:
//!
//! - the ALSA headers and `pkg-config` (`libasound2-dev`, `pkg-config`): cpal's `alsa-sys`
//!   links ALSA on Linux. Only `resound-engine`'s default `device` feature pulls it in (the
//!   `resound` tool, the demo and the tests build with it); xtask itself never does;
//! - a C++ compiler (`g++`): the fuzz targets' `libfuzzer-sys`, which `cargo xtask test`
//!   checks, compiles libFuzzer's C++ sources;
//! - `python3` (with `ctypes`): the C ABI's `ctypes` test (`crates/capi/tests/c_abi.rs`).
//! - `valgrind`: the C ABI's test (`crates/capi/tests/c_abi.rs`) runs its C program under
//!   memcheck (it skips that run, saying so, where valgrind is missing).
//!
//! - for the web test (`cargo xtask web-test`, `xtask/src/web.rs`): Node.js and npm (the
//!   package's test in Node's own runner; `playwright-core` from npm), Debian's `chromium`
//!   (the page in a headless browser). The `wasm32-unknown-unknown` target and
//!   `wasm-bindgen-cli` come through rustup and cargo, `playwright-core` and `binaryen`
//!   (wasm-opt) through npm (`web.rs`), not apt.
//!
//! Plots need no font package: their font is embedded (`crates/studio/src/font.rs`).

use std::process::Command;

use anyhow::bail;

/// One prerequisite: how to tell it is there, and the Debian packages that bring it.
pub struct Need {
    /// What it is for, in a few words.
    what: &'static str,
    /// Debian packages that provide it.
    packages: &'static [&'static str],
    /// True when it is present.
    present: fn() -> bool,
}

/// The ALSA headers: what building `resound` (and so the demo, verify and the soak) needs.
pub const AUDIO: &[Need] = &[ALSA];

/// Everything `cargo xtask test` needs: ALSA, a C++ compiler for the fuzz targets, valgrind
/// for the C ABI's memcheck run, Python for its `ctypes` test, and the web test's tools.
pub const ALL: &[Need] = &[ALSA, CXX, VALGRIND, PYTHON, NODE, NPM, CHROMIUM];

/// What the web test needs from the system: Node.js, npm, Chromium.
pub const WEB: &[Need] = &[NODE, NPM, CHROMIUM];

const NODE: Need = Need {
    what: "Node.js (the wasm package's test, node --test)",
    packages: &["nodejs"],
    present: || runs("node", &["--version"]),
};

const NPM: Need = Need {
    what: "npm (playwright-core for the browser test)",
    packages: &["npm"],
    present: || runs("npm", &["--version"]),
};

const CHROMIUM: Need = Need {
    what: "Chromium (the page's headless browser test)",
    packages: &["chromium"],
    present: || runs("chromium", &["--version"]) || runs("chromium-browser", &["--version"]),
};

const PYTHON: Need = Need {
    what: "python3 (the C ABI's ctypes test)",
    packages: &["python3"],
    present: || runs("python3", &["-c", "import ctypes"]),
};

const ALSA: Need = Need {
    what: "ALSA headers (cpal's alsa-sys)",
    packages: &["libasound2-dev", "pkg-config"],
    present: || pkg_config("alsa"),
};

const VALGRIND: Need = Need {
    what: "valgrind (the C ABI test's memcheck run)",
    packages: &["valgrind"],
    present: || runs("valgrind", &["--version"]),
};

const CXX: Need = Need {
    what: "a C++ compiler (libfuzzer-sys in the fuzz targets)",
    packages: &["g++"],
    present: || runs("c++", &["--version"]),
};

/// Makes sure the system libraries and tools in `needs` are present, installing the missing
/// ones with `apt-get` where it can.
///
/// # Errors
/// The packages are missing and cannot be installed (no `apt-get`, not root and no `sudo`,
/// or the install failed), or they were installed and are still not found.
pub fn ensure(needs: &[Need]) -> anyhow::Result<()> {
    if !cfg!(target_os = "linux") {
        return Ok(());
    }
    let missing = missing_packages(needs);
    if missing.is_empty() {
        return Ok(());
    }
    let list = missing.join(" ");
    let root = Command::new("id")
        .arg("-u")
        .output()
        .map(|o| o.stdout.trim_ascii() == b"0")
        .unwrap_or(false);
    if !runs("apt-get", &["--version"]) {
        bail!(
            "missing system packages: {list} (no apt-get here: install their equivalents and retry)"
        );
    }
    if !root && !runs("sudo", &["--version"]) {
        bail!(
            "missing system packages: {list} (not root and no sudo: run `apt-get install {list}` as root and retry)"
        );
    }
    eprintln!("==> installing {list} (apt-get)");
    let started = std::time::Instant::now();
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
    // A failed `update` is not fatal: the packages may be installable from the cached lists.
    let _ = apt(&["update", "-q"]);
    let mut install = vec!["install", "-y", "-q", "--no-install-recommends"];
    install.extend(missing.iter().map(String::as_str));
    if !apt(&install) {
        bail!("missing system packages: {list} (apt-get install failed; install them and retry)");
    }
    // Installed is not the same as found: check again, as the build will.
    let still = missing_packages(needs);
    if !still.is_empty() {
        bail!(
            "{} installed but still not found; check the system's package set",
            still.join(" ")
        );
    }
    eprintln!(
        "<== installed {list} in {:.0} s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The Debian packages of every prerequisite not present, sorted, without repeats.
fn missing_packages(needs: &[Need]) -> Vec<String> {
    let mut missing: Vec<String> = needs
        .iter()
        .filter(|need| !(need.present)())
        .inspect(|need| eprintln!("==> missing: {}", need.what))
        .flat_map(|need| need.packages.iter().map(|p| (*p).to_owned()))
        .collect();
    missing.sort_unstable();
    missing.dedup();
    missing
}

fn pkg_config(name: &str) -> bool {
    runs("pkg-config", &["--exists", name])
}

/// True when `program args` starts and exits successfully.
fn runs(program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false)
}
