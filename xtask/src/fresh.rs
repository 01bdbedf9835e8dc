//! `cargo xtask fresh-machine [--dir DIR] [--repo PATH] [--keep]`: the README's commands on a
//! fresh machine, as a newcomer runs them (root only; not part of `cargo xtask test`).
//!
//! A fresh machine here is a Debian 12 root made with `debootstrap --variant=minbase bookworm`
//! plus `gcc libc6-dev git ca-certificates`, with this machine's Rust toolchain bind-mounted
//! into it (read from `RUSTUP_HOME` and the directory of `cargo`), an empty `CARGO_HOME`, and
//! this machine's CA certificates and resolver copied in. Inside it the repository's committed
//! `HEAD` is cloned with `git clone`, then, timed one after another:
//!
//! 1. `cargo build -p resound-engine --no-default-features` (its own target folder and
//!    registry, removed afterwards): the headless engine builds before any system package is
//!    installed;
//! 2. `cargo xtask demo` (cold: empty registry, empty target) — it installs the ALSA headers,
//!    and must write `out/demo/demo.wav` and `demo.png`;
//! 3. `cargo xtask test`.
//!
//! It prints each step's wall time and writes them to `DIR/report.txt`. The root is made anew
//! on every run (a previous run installed packages into it) and removed at the end unless
//! `--keep`. Mounts are undone however the run ends.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use anyhow::{Context, bail};

/// The packages debootstrap adds to the minimal base: the toolchain's C side and git.
const INCLUDE: &str = "gcc,libc6-dev,git,ca-certificates";
/// The Debian release of the fresh machine.
const SUITE: &str = "bookworm";
/// Where debootstrap fetches from.
const MIRROR: &str = "http://deb.debian.org/debian";

/// The command's options.
struct Options {
    dir: PathBuf,
    repo: PathBuf,
    keep: bool,
}

fn parse(args: &[String]) -> anyhow::Result<Options> {
    let mut o = Options {
        dir: PathBuf::from("/var/tmp/resound-fresh"),
        repo: super::workspace_root(),
        keep: false,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .with_context(|| format!("{name} needs a value"))
        };
        match arg.as_str() {
            "--dir" => o.dir = PathBuf::from(value("--dir")?),
            "--repo" => o.repo = PathBuf::from(value("--repo")?),
            "--keep" => o.keep = true,
            other => bail!(
                "unknown argument `{other}` (cargo xtask fresh-machine [--dir DIR] [--repo PATH] [--keep])"
            ),
        }
    }
    Ok(o)
}

/// Runs the fresh-machine proof.
pub fn run(args: &[String]) -> anyhow::Result<()> {
    let o = parse(args)?;
    let uid = Command::new("id")
        .arg("-u")
        .output()
        .context("running id")?;
    if uid.stdout.trim_ascii() != b"0" {
        bail!("cargo xtask fresh-machine needs root (debootstrap, chroot and bind mounts)");
    }
    let toolchain = Toolchain::find()?;
    let has_debootstrap = Command::new("debootstrap")
        .arg("--version")
        .stdout(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !has_debootstrap {
        eprintln!("==> installing debootstrap");
        let ok = Command::new("apt-get")
            .args(["install", "-y", "-q", "debootstrap"])
            .env("DEBIAN_FRONTEND", "noninteractive")
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            bail!("debootstrap is missing and apt-get could not install it");
        }
    }
    let root = o.dir.join("root");
    std::fs::create_dir_all(&o.dir).with_context(|| format!("creating {}", o.dir.display()))?;
    if root.exists() {
        unmount_all(&root);
        remove_root(&root)?;
    }
    let mut report = Vec::new();
    let started = Instant::now();
    let mut boot = Command::new("debootstrap");
    boot.args(["--variant=minbase", &format!("--include={INCLUDE}"), SUITE])
        .arg(&root)
        .arg(MIRROR)
        .stdout(std::process::Stdio::null());
    step("debootstrap", boot, &mut report)?;

    copy_host_files(&root)?;
    let mounts = Mounts::new(&root, &toolchain, &o.repo)?;
    let result = inside(&mounts, &mut report);
    drop(mounts);
    report.push(format!("all: {:.0} s", started.elapsed().as_secs_f64()));
    let text = report.join("\n") + "\n";
    std::fs::write(o.dir.join("report.txt"), &text)?;
    println!("\nfresh machine ({SUITE}, minbase + {INCLUDE}):\n{text}");
    if !o.keep {
        remove_root(&root)?;
    }
    result
}

/// The steps inside the fresh root.
fn inside(mounts: &Mounts, report: &mut Vec<String>) -> anyhow::Result<()> {
    let root = &mounts.root;
    step(
        "git clone",
        chroot(root, "git clone -q /mnt/repo /root/resound"),
        report,
    )?;
    step(
        "cargo build -p resound-engine --no-default-features (no system package installed)",
        chroot(
            root,
            "cd /root/resound && CARGO_HOME=/root/headless-cargo CARGO_TARGET_DIR=/root/headless-target \
             cargo build -p resound-engine --no-default-features",
        ),
        report,
    )?;
    let _ = std::fs::remove_dir_all(root.join("root/headless-cargo"));
    let _ = std::fs::remove_dir_all(root.join("root/headless-target"));
    step(
        "cargo xtask demo (cold)",
        chroot(root, "cd /root/resound && cargo xtask demo"),
        report,
    )?;
    for name in ["demo.wav", "demo.png"] {
        let path = root.join("root/resound/out/demo").join(name);
        let len = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        if len == 0 {
            bail!("cargo xtask demo did not write {}", path.display());
        }
        report.push(format!("  out/demo/{name}: {len} bytes"));
    }
    step(
        "cargo xtask test",
        chroot(root, "cd /root/resound && cargo xtask test"),
        report,
    )
}

/// Runs one timed step, echoing it; its wall time goes into `report`.
fn step(label: &str, mut cmd: Command, report: &mut Vec<String>) -> anyhow::Result<()> {
    eprintln!("\n==> fresh machine: {label}");
    let started = Instant::now();
    let status = cmd
        .status()
        .with_context(|| format!("could not start {label}"))?;
    let secs = started.elapsed().as_secs_f64();
    let verdict = if status.success() { "ok" } else { "FAILED" };
    report.push(format!("{label}: {verdict} in {secs:.0} s"));
    eprintln!("<== fresh machine: {label}: {verdict} in {secs:.0} s");
    if !status.success() {
        bail!("fresh machine: {label} failed ({status})");
    }
    Ok(())
}

/// `bash -c script` inside `root` with a clean environment: the bind-mounted toolchain first on
/// `PATH`, `CARGO_HOME` empty at the start.
fn chroot(root: &Path, script: &str) -> Command {
    let mut cmd = Command::new("chroot");
    cmd.arg(root)
        .args(["/usr/bin/env", "-i"])
        .args([
            "HOME=/root",
            "USER=root",
            "LANG=C.UTF-8",
            "TERM=dumb",
            "PATH=/opt/rust/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
            "RUSTUP_HOME=/opt/rustup",
            "CARGO_HOME=/root/.cargo",
            "RUSTUP_AUTO_INSTALL=0",
        ])
        .args(["/bin/bash", "-c", script]);
    cmd
}

/// This machine's Rust toolchain: rustup's home and the folder of the cargo/rustc proxies.
struct Toolchain {
    rustup_home: PathBuf,
    bin: PathBuf,
}

impl Toolchain {
    fn find() -> anyhow::Result<Self> {
        let home = std::env::var_os("HOME")
            .map(PathBuf::from)
            .unwrap_or_default();
        let rustup_home = std::env::var_os("RUSTUP_HOME")
            .map(PathBuf::from)
            .unwrap_or_else(|| home.join(".rustup"));
        let bin = std::env::var_os("CARGO_HOME")
            .map(PathBuf::from)
            .unwrap_or_else(|| home.join(".cargo"))
            .join("bin");
        if !rustup_home.join("toolchains").is_dir() || !bin.join("cargo").is_file() {
            bail!(
                "no rustup toolchain found (looked for {} and {})",
                rustup_home.join("toolchains").display(),
                bin.join("cargo").display()
            );
        }
        Ok(Self { rustup_home, bin })
    }
}

/// Copies what a real machine's administrator would have set up: CA certificates, the resolver
/// and apt's settings for this network.
fn copy_host_files(root: &Path) -> anyhow::Result<()> {
    for file in [
        "/etc/resolv.conf",
        "/etc/ssl/certs/ca-certificates.crt",
        "/etc/apt/apt.conf.d/99artifact-registry",
    ] {
        let from = Path::new(file);
        if !from.is_file() {
            continue;
        }
        let to = root.join(file.trim_start_matches('/'));
        if let Some(dir) = to.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let _ = std::fs::remove_file(&to);
        std::fs::copy(from, &to).with_context(|| format!("copying {file} into the root"))?;
    }
    Ok(())
}

/// The bind mounts into the root; undone on drop.
struct Mounts {
    root: PathBuf,
    mounted: Vec<PathBuf>,
}

impl Mounts {
    fn new(root: &Path, toolchain: &Toolchain, repo: &Path) -> anyhow::Result<Self> {
        let mut m = Self {
            root: root.to_path_buf(),
            mounted: Vec::new(),
        };
        m.mount(&["-t", "proc", "proc"], "proc")?;
        m.mount(&["--rbind", "/dev"], "dev")?;
        m.mount(&["--rbind", "/sys"], "sys")?;
        m.bind(&toolchain.rustup_home, "opt/rustup")?;
        m.bind(&toolchain.bin, "opt/rust/bin")?;
        m.bind(repo, "mnt/repo")?;
        Ok(m)
    }

    fn bind(&mut self, from: &Path, to: &str) -> anyhow::Result<()> {
        let from = from.display().to_string();
        self.mount(&["--bind", &from], to)
    }

    fn mount(&mut self, args: &[&str], to: &str) -> anyhow::Result<()> {
        let target = self.root.join(to);
        std::fs::create_dir_all(&target)?;
        let ok = Command::new("mount")
            .args(args)
            .arg(&target)
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            bail!("mount {} {} failed", args.join(" "), target.display());
        }
        self.mounted.push(target);
        Ok(())
    }
}

impl Drop for Mounts {
    fn drop(&mut self) {
        for target in self.mounted.iter().rev() {
            let done = Command::new("umount")
                .arg("-R")
                .arg(target)
                .status()
                .is_ok_and(|s| s.success());
            if !done {
                // Busy (a process of the run still holds /dev open): detach it now, the kernel
                // finishes when the last user goes.
                let _ = Command::new("umount")
                    .arg("-R")
                    .arg("-l")
                    .arg(target)
                    .status();
            }
        }
    }
}

/// Removes the root, but never while anything is still mounted under it (that would delete
/// the host's `/dev`, toolchain or repository through the bind mounts).
fn remove_root(root: &Path) -> anyhow::Result<()> {
    let left = mounts_under(root);
    if !left.is_empty() {
        bail!(
            "not removing {}: still mounted there: {}",
            root.display(),
            left.join(", ")
        );
    }
    std::fs::remove_dir_all(root).with_context(|| format!("removing {}", root.display()))
}

/// Mount points at or under `root`, from `/proc/self/mounts`.
fn mounts_under(root: &Path) -> Vec<String> {
    let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let text = std::fs::read_to_string("/proc/self/mounts").unwrap_or_default();
    text.lines()
        .filter_map(|line| line.split_whitespace().nth(1))
        .filter(|point| Path::new(point).starts_with(&root))
        .map(str::to_owned)
        .collect()
}

/// Undoes any mounts a killed earlier run left under `root`.
fn unmount_all(root: &Path) {
    for to in [
        "mnt/repo",
        "opt/rust/bin",
        "opt/rustup",
        "sys",
        "dev",
        "proc",
    ] {
        let target = root.join(to);
        let _ = Command::new("umount")
            .args(["-R", "-l", "-q"])
            .arg(&target)
            .stderr(std::process::Stdio::null())
            .status();
    }
}
