//! `cargo xtask web`: Resound in the browser. Adds the `wasm32-unknown-unknown` target if
//! missing (rustup), installs `wasm-bindgen-cli` at exactly the version `crates/wasm` pins
//! (`cargo install --locked`), builds `resound-wasm` in release for wasm32 (warnings denied),
//! and writes
//!
//! - `target/web/pkg/`: the npm-style package (`resound.js` ES module glue, `resound.d.ts`,
//!   `resound_bg.wasm` optimised by `wasm-opt -O3` from npm's `binaryen` when npm is there,
//!   `package.json`);
//! - `target/web/site/`: the demo page (`web/`), which also runs from `file://`: its glue is the
//!   no-modules build and the `.wasm` is embedded as base64 (`resound_wasm_bytes.js`), since a
//!   browser fetches nothing from `file://`.
//!
//! `cargo xtask web-test` (a step of `cargo xtask test`) then writes the native reference
//! renders (`crates/wasm/examples/reference.rs`), runs the Node test (`web/test/`, Node's own
//! test runner: the package renders equal the native bytes) and the browser test (headless
//! Chromium through `playwright-core`: the page loads without console errors, a walk renders
//! through its AudioWorklet into an `OfflineAudioContext` equal to the native render, and
//! `target/web/web-screenshot.png` is saved).

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail};

use super::{cargo, run_step};

/// The wasm-bindgen version `crates/wasm/Cargo.toml` pins (`=0.2.130`): the CLI must match it.
pub const WASM_BINDGEN_VERSION: &str = "0.2.130";

/// The npm packages the web build and test use, installed in `target/web/node`:
/// `playwright-core` drives Chromium in the browser test — 1.61.1, the last release whose
/// `engines` accept Node 18, the `nodejs` a fresh Debian 12 installs (1.62 and later refuse to
/// start under it: found by `cargo xtask fresh-machine`); `binaryen` is wasm-opt (Debian 12's
/// binaryen 108 breaks wasm-bindgen's externref table: the glue then fails at `initSync`).
pub const NODE_PACKAGES: &[(&str, &str)] =
    &[("playwright-core", "1.61.1"), ("binaryen", "132.0.0")];

const TARGET: &str = "wasm32-unknown-unknown";

/// The wasm32 build's rustflags (`cargo --config`): warnings are errors.
const WASM_RUSTFLAGS: &str = "target.wasm32-unknown-unknown.rustflags=[\"-D\", \"warnings\"]";

/// Where the web build goes: `target/web`.
pub fn out_dir() -> PathBuf {
    target_dir().join("web")
}

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| super::workspace_root().join("target"))
}

/// `cargo xtask web`: the target, the CLI, the build, the package and the page.
pub fn run(_args: &[String]) -> anyhow::Result<()> {
    ensure_target()?;
    ensure_wasm_bindgen()?;
    let tools = node_tools(&out_dir())
        .map_err(|e| eprintln!("==> no npm packages ({e:#})"))
        .ok();
    build(tools.as_deref())?;
    let out = out_dir();
    println!("\nthe package: {}", out.join("pkg").display());
    println!(
        "the page:    {} (open it, or serve the folder)",
        out.join("site").join("index.html").display()
    );
    Ok(())
}

/// `cargo xtask web-test`: the build, the native reference, the Node test, the browser test.
pub fn test(_args: &[String]) -> anyhow::Result<()> {
    super::prereq::ensure(super::prereq::WEB)?;
    ensure_target()?;
    ensure_wasm_bindgen()?;
    let out = out_dir();
    let modules = node_tools(&out)?;
    build(Some(&modules))?;
    let reference = out.join("reference");
    let mut native = cargo();
    native.args([
        "run",
        "--quiet",
        "--locked",
        "-p",
        "resound-wasm",
        "--example",
        "reference",
        "--",
    ]);
    native.arg(&reference);
    run_step("native reference renders", native)?;

    let root = super::workspace_root();
    let mut node = Command::new("node");
    node.arg("--test")
        .arg(root.join("web").join("test").join("package.test.mjs"))
        .env("RESOUND_WEB_PKG", out.join("pkg"))
        .env("RESOUND_WEB_REFERENCE", &reference)
        .current_dir(&root);
    run_step("the package in Node (node --test)", node)?;

    let mut browser = Command::new("node");
    browser
        .arg("--test")
        .arg(root.join("web").join("test").join("browser.mjs"))
        .env("RESOUND_WEB_SITE", out.join("site"))
        .env("RESOUND_WEB_REFERENCE", &reference)
        .env("RESOUND_WEB_SCREENSHOT", out.join("web-screenshot.png"))
        .env("RESOUND_PLAYWRIGHT", &modules)
        .env("RESOUND_CHROMIUM", chromium()?)
        .current_dir(&root);
    run_step("the page in headless Chromium", browser)?;
    println!(
        "\nthe screenshot: {}",
        out.join("web-screenshot.png").display()
    );
    Ok(())
}

/// Adds the wasm32 target through rustup when it is not installed.
fn ensure_target() -> anyhow::Result<()> {
    let installed = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .context("rustup is needed to add the wasm32-unknown-unknown target")?;
    if String::from_utf8_lossy(&installed.stdout)
        .lines()
        .any(|l| l.trim() == TARGET)
    {
        return Ok(());
    }
    let mut add = Command::new("rustup");
    add.args(["target", "add", TARGET]);
    run_step("rustup target add wasm32-unknown-unknown", add)
}

/// The `wasm-bindgen` version on `PATH` (`None` when there is none).
fn wasm_bindgen_version() -> Option<String> {
    let out = Command::new("wasm-bindgen")
        .arg("--version")
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    text.split_whitespace().nth(1).map(str::to_owned)
}

/// Installs `wasm-bindgen-cli` at [`WASM_BINDGEN_VERSION`] unless that version is on `PATH`.
/// `--locked` first; if the registry lacks a version its lock file names, the install is
/// retried with the newest compatible versions (said so on the terminal).
fn ensure_wasm_bindgen() -> anyhow::Result<()> {
    if wasm_bindgen_version().as_deref() == Some(WASM_BINDGEN_VERSION) {
        return Ok(());
    }
    let install = |locked: bool| {
        let mut cmd = cargo();
        cmd.args([
            "install",
            "wasm-bindgen-cli",
            "--version",
            WASM_BINDGEN_VERSION,
        ]);
        if locked {
            cmd.arg("--locked");
        }
        cmd
    };
    if run_step("install wasm-bindgen-cli (--locked)", install(true)).is_err() {
        eprintln!("==> the locked install failed: retrying without --locked");
        run_step("install wasm-bindgen-cli", install(false))?;
    }
    match wasm_bindgen_version() {
        Some(v) if v == WASM_BINDGEN_VERSION => Ok(()),
        other => bail!(
            "wasm-bindgen {WASM_BINDGEN_VERSION} installed, but `wasm-bindgen --version` says {other:?} (is ~/.cargo/bin on PATH?)"
        ),
    }
}

/// Builds the wasm, runs wasm-bindgen twice (the ES-module package, the page's no-modules
/// glue), optimises, writes `package.json` and copies the page.
fn build(node_tools: Option<&Path>) -> anyhow::Result<()> {
    let mut wasm = cargo();
    wasm.args([
        "build",
        "--release",
        "--locked",
        "--target",
        TARGET,
        "-p",
        "resound-wasm",
        // Warnings denied for the workspace's crates on wasm32 (code compiled for x86-64 only
        // leaves dead code behind there unless its cfg says so); registry crates' lints are
        // capped by cargo as always.
        "--config",
        WASM_RUSTFLAGS,
    ]);
    run_step(
        "build resound-wasm (release, wasm32, warnings denied)",
        wasm,
    )?;
    let input = target_dir()
        .join(TARGET)
        .join("release")
        .join("resound_wasm.wasm");
    let out = out_dir();
    let (pkg, site) = (out.join("pkg"), out.join("site"));
    for dir in [&pkg, &site] {
        if dir.exists() {
            std::fs::remove_dir_all(dir).with_context(|| format!("clearing {}", dir.display()))?;
        }
    }
    let bindgen = |target: &str, dir: &Path| {
        let mut cmd = Command::new("wasm-bindgen");
        cmd.args(["--target", target, "--out-name", "resound", "--out-dir"])
            .arg(dir)
            .arg(&input);
        cmd
    };
    run_step("wasm-bindgen (the package)", bindgen("web", &pkg))?;
    let page_glue = out.join("page-glue");
    if page_glue.exists() {
        std::fs::remove_dir_all(&page_glue)?;
    }
    run_step("wasm-bindgen (the page)", bindgen("no-modules", &page_glue))?;

    let wasm_file = pkg.join("resound_bg.wasm");
    match node_tools {
        Some(dir) => optimise(dir, &wasm_file)?,
        None => eprintln!("==> wasm-opt not installed (npm binaryen): the .wasm is not optimised"),
    }
    std::fs::write(pkg.join("package.json"), package_json())?;
    copy_page(&site, &page_glue, &wasm_file)?;
    let size = std::fs::metadata(&wasm_file)?.len();
    println!(
        "resound_bg.wasm: {size} bytes ({:.2} MiB)",
        size as f64 / 1_048_576.0
    );
    Ok(())
}

/// `wasm-opt -O3` (npm's binaryen in `TOOLS/node_modules`) in place, with the features rustc's
/// wasm32 target enables.
fn optimise(tools: &Path, wasm: &Path) -> anyhow::Result<()> {
    let before = std::fs::metadata(wasm)?.len();
    let tmp = wasm.with_extension("opt.wasm");
    let mut opt = Command::new(tools.join("node_modules").join(".bin").join("wasm-opt"));
    opt.args([
        "-O3",
        "--enable-bulk-memory",
        "--enable-nontrapping-float-to-int",
        "--enable-sign-ext",
        "--enable-mutable-globals",
        "--enable-multivalue",
        "--enable-reference-types",
    ])
    .arg(wasm)
    .arg("-o")
    .arg(&tmp);
    run_step("wasm-opt -O3", opt)?;
    std::fs::rename(&tmp, wasm)?;
    let after = std::fs::metadata(wasm)?.len();
    println!("wasm-opt: {before} -> {after} bytes");
    Ok(())
}

fn package_json() -> String {
    let doc = serde_json::json!({
        "name": "resound-wasm",
        "version": "0.1.0",
        "description": "Resound in the browser: the retail Asheron's Call ambient and voxel acoustics, rendered in WebAssembly",
        "license": "MIT",
        "type": "module",
        "main": "resound.js",
        "module": "resound.js",
        "types": "resound.d.ts",
        "files": ["resound.js", "resound.d.ts", "resound_bg.wasm", "resound_bg.wasm.d.ts"],
        "sideEffects": false,
    });
    serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
}

/// The page: `web/*.html`, `web/*.js`, `web/*.css`, the no-modules glue and the wasm as base64.
fn copy_page(site: &Path, glue: &Path, wasm: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(site)?;
    let web = super::workspace_root().join("web");
    for entry in std::fs::read_dir(&web).with_context(|| format!("reading {}", web.display()))? {
        let path = entry?.path();
        let keep = path
            .extension()
            .is_some_and(|e| e == "html" || e == "js" || e == "css");
        if keep && let Some(name) = path.file_name() {
            std::fs::copy(&path, site.join(name))?;
        }
    }
    std::fs::copy(glue.join("resound.js"), site.join("resound_glue.js"))?;
    let bytes = std::fs::read(wasm)?;
    let js = format!(
        "// The optimised resound_bg.wasm as base64 (written by `cargo xtask web`): a page opened\n// from file:// can fetch nothing.\nvar RESOUND_WASM_BASE64 = \"{}\";\n",
        base64(&bytes)
    );
    std::fs::write(site.join("resound_wasm_bytes.js"), js)?;
    Ok(())
}

/// Standard base64 with padding.
fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ABC[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// [`NODE_PACKAGES`] from npm in `OUT/node` (installed once, at their pinned versions): the
/// folder holding `node_modules`.
fn node_tools(out: &Path) -> anyhow::Result<PathBuf> {
    let dir = out.join("node");
    let present = |name: &str, version: &str| {
        let manifest = dir.join("node_modules").join(name).join("package.json");
        std::fs::read_to_string(manifest)
            .is_ok_and(|t| t.contains(&format!("\"version\": \"{version}\"")))
    };
    if NODE_PACKAGES.iter().all(|(n, v)| present(n, v)) {
        return Ok(dir);
    }
    std::fs::create_dir_all(&dir)?;
    let mut npm = Command::new("npm");
    npm.args(["install", "--no-audit", "--no-fund", "--prefix"])
        .arg(&dir)
        .args(NODE_PACKAGES.iter().map(|(n, v)| format!("{n}@{v}")));
    run_step("npm install (playwright-core, binaryen)", npm)?;
    Ok(dir)
}

/// Debian's Chromium (`chromium`), or one on `PATH` under another name.
fn chromium() -> anyhow::Result<PathBuf> {
    for name in ["chromium", "chromium-browser", "google-chrome"] {
        let found = Command::new("which").arg(name).output();
        if let Ok(o) = found
            && o.status.success()
        {
            let path = String::from_utf8_lossy(&o.stdout).trim().to_owned();
            return Ok(PathBuf::from(path));
        }
    }
    bail!("no Chromium found (Debian: apt-get install chromium)")
}

#[cfg(test)]
mod tests {
    use super::base64;

    #[test]
    fn base64_pads_as_the_standard_says() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
        assert_eq!(base64(&[0xFF, 0xEE]), "/+4=");
    }

    /// The CLI version xtask installs is the one the crate pins.
    #[test]
    fn the_cli_matches_the_pinned_crate() {
        let manifest = std::fs::read_to_string(
            crate::workspace_root()
                .join("crates")
                .join("wasm")
                .join("Cargo.toml"),
        )
        .expect("crates/wasm/Cargo.toml");
        let pin = format!("wasm-bindgen = \"={}\"", super::WASM_BINDGEN_VERSION);
        assert!(manifest.contains(&pin), "crates/wasm pins {pin}");
    }
}
