//! `cargo xtask instructions [--only NAME] [--json] [--compare FILE]`: instructions per call of
//! the hot paths, counted by callgrind in the criterion bench binaries.
//!
//! Time on the shared bench VM drifts by up to 30 % between hours, so a change of a few percent
//! cannot be seen in criterion's medians alone. An instruction count does not drift: the same
//! binary gives the same count (to a few parts in 10⁴), so this command makes a regression or a
//! gain in the work done visible at once. It is a companion of the benches, not a replacement:
//! the targets are times, and cache misses and instruction mixes are not counted here.
//!
//! Each probe runs one bench of a bench binary under `valgrind --tool=callgrind` and divides the
//! instructions spent inside one function (inclusive, optionally only its calls from one caller)
//! by the number of those calls. The callgrind files are kept in `target/instructions/`
//! (`callgrind_annotate FILE` shows where the instructions go). `--json` prints the figures for
//! machines; `--compare FILE` (an earlier `--json` output) prints each change in percent.
//! Needs valgrind (`apt-get install -y valgrind`); not part of `cargo xtask test`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, bail};

const USAGE: &str = "usage: cargo xtask instructions [--only NAME] [--json] [--compare FILE]
  Counts instructions per call of the hot paths with callgrind (needs valgrind).
  --only NAME     one probe (names below)
  --json          print the figures as JSON
  --compare FILE  show the change against an earlier --json output";

/// One measured path: which bench runs it and which calls are counted.
struct Probe {
    /// Short name (`--only`, JSON key).
    name: &'static str,
    /// What one counted call is, for people.
    what: &'static str,
    package: &'static str,
    bench: &'static str,
    /// Criterion filter selecting the bench (or the printed measurement) to run.
    filter: &'static str,
    /// The counted function: a demangled name ending with this.
    callee: &'static str,
    /// Only calls made from a function whose name ends with this (`None`: all calls).
    caller: Option<&'static str>,
}

/// The hot paths of issue 16's targets.
const PROBES: &[Probe] = &[
    Probe {
        name: "mixer_motion_shelf_sends",
        what: "one 512-frame block, 100 moving voices with shelf + 4 sends",
        package: "resound-mixer",
        bench: "voices",
        filter: "mixer/motion/shelf_sends_100$",
        callee: "voices::motion_block",
        caller: None,
    },
    Probe {
        name: "mixer_motion_plain",
        what: "one 512-frame block, 100 moving plain voices",
        package: "resound-mixer",
        bench: "voices",
        filter: "mixer/motion/plain_100$",
        callee: "voices::motion_block",
        caller: None,
    },
    Probe {
        name: "mixer_motion_plain_modern",
        what: "one 512-frame block, 100 moving plain voices, Modern read (issue 31)",
        package: "resound-mixer",
        bench: "voices",
        filter: "mixer/motion/plain_100_modern$",
        callee: "voices::motion_block",
        caller: None,
    },
    Probe {
        name: "mixer_motion_shelf_sends_modern",
        what: "one 512-frame block, 100 moving voices with shelf + 4 sends, Modern read",
        package: "resound-mixer",
        bench: "voices",
        filter: "mixer/motion/shelf_sends_100_modern$",
        callee: "voices::motion_block",
        caller: None,
    },
    Probe {
        name: "room_terrain_both_spaces",
        what: "room measurement of both spaces on the AC terrain (warm cache)",
        package: "resound-engine",
        bench: "terrain",
        filter: "terrain/room_both_spaces_valley$",
        callee: "OwnModel as resound_acoustics::model::AcousticModel>::room",
        caller: None,
    },
    Probe {
        name: "ground_ray_through_bumps",
        what: "one 512-block ray along the ground through the bump layer",
        package: "resound-acoustics",
        bench: "trace",
        filter: "cost/ground_512_block_ray_through_bumps$",
        callee: "::ray::dda::walk_impl",
        caller: None,
    },
    Probe {
        name: "ambient_use_time_due",
        what: "one ambient UseTime frame with sounds due (the retail world of the bench)",
        package: "resound-ambient",
        bench: "ambient",
        filter: "use_time_playing_frames",
        callee: "::Ambient::use_time_due",
        caller: None,
    },
];

/// The command line.
#[derive(Debug, Default, PartialEq)]
struct Options {
    only: Option<String>,
    json: bool,
    compare: Option<PathBuf>,
}

/// `None` for `--help`.
fn parse(args: &[String]) -> anyhow::Result<Option<Options>> {
    let mut o = Options::default();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--json" => o.json = true,
            "--only" => o.only = Some(it.next().context("--only needs a probe name")?.clone()),
            "--compare" => {
                o.compare = Some(PathBuf::from(it.next().context("--compare needs a file")?));
            }
            "--help" | "-h" => return Ok(None),
            other => bail!("unknown argument `{other}` (cargo xtask instructions --help)"),
        }
    }
    Ok(Some(o))
}

/// One probe's count.
#[derive(Debug, Clone, PartialEq)]
struct Count {
    calls: u64,
    instructions: u64,
}

impl Count {
    fn per_call(&self) -> f64 {
        self.instructions as f64 / self.calls.max(1) as f64
    }
}

pub fn run(args: &[String]) -> anyhow::Result<()> {
    let Some(opts) = parse(args)? else {
        println!("{USAGE}");
        return Ok(());
    };
    let probes: Vec<&Probe> = PROBES
        .iter()
        .filter(|p| opts.only.as_deref().is_none_or(|o| o == p.name))
        .collect();
    if probes.is_empty() {
        let names: Vec<&str> = PROBES.iter().map(|p| p.name).collect();
        bail!(
            "no probe `{}` (there are: {})",
            opts.only.unwrap_or_default(),
            names.join(", ")
        );
    }
    let before = match &opts.compare {
        Some(path) => Some(read_json(path)?),
        None => None,
    };
    let valgrind = Command::new("valgrind")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if !valgrind.is_ok_and(|s| s.success()) {
        bail!("valgrind not found: install it (apt-get install -y valgrind) to count instructions");
    }
    let out_dir = super::workspace_root().join("target").join("instructions");
    std::fs::create_dir_all(&out_dir).context("could not create target/instructions")?;
    let mut binaries: HashMap<(&str, &str), PathBuf> = HashMap::new();
    let mut counts = Vec::new();
    for (k, p) in probes.iter().enumerate() {
        eprintln!("[{}/{}] {}: {}", k + 1, probes.len(), p.name, p.what);
        let bin = match binaries.get(&(p.package, p.bench)) {
            Some(b) => b.clone(),
            None => {
                let b = build_bench(p.package, p.bench)?;
                binaries.insert((p.package, p.bench), b.clone());
                b
            }
        };
        let file = out_dir.join(format!("{}.callgrind", p.name));
        let started = std::time::Instant::now();
        let status = Command::new("valgrind")
            .arg("--tool=callgrind")
            .arg(format!("--callgrind-out-file={}", file.display()))
            .arg(&bin)
            .args(["--bench", p.filter, "--profile-time", "1"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .context("could not start valgrind")?;
        if !status.success() {
            bail!("{}: the bench failed under valgrind ({status})", p.name);
        }
        let text = read_capped(&file, MAX_CALLGRIND_BYTES)?;
        let count = count_calls(&text, p.callee, p.caller);
        if count.calls == 0 {
            bail!("{}: no call of `{}` was recorded", p.name, p.callee);
        }
        eprintln!(
            "      {:.0} instructions per call ({} calls, {:.0} s)",
            count.per_call(),
            count.calls,
            started.elapsed().as_secs_f64()
        );
        counts.push((*p, count));
    }
    if opts.json {
        println!("{}", to_json(&counts));
    } else {
        print_table(&counts, before.as_ref());
    }
    Ok(())
}

/// Builds a bench binary (release, as `cargo bench` does) and returns its path.
fn build_bench(package: &str, bench: &str) -> anyhow::Result<PathBuf> {
    let out = super::cargo()
        .args(["bench", "-p", package, "--bench", bench, "--no-run"])
        .args(["--message-format", "json"])
        .stderr(Stdio::inherit())
        .output()
        .with_context(|| format!("could not build the {bench} bench"))?;
    if !out.status.success() {
        bail!("building the {bench} bench of {package} failed");
    }
    for line in out.stdout.split(|b| *b == b'\n') {
        let Ok(msg) = serde_json::from_slice::<serde_json::Value>(line) else {
            continue;
        };
        let is_bench = msg["target"]["name"] == bench
            && msg["target"]["kind"]
                .as_array()
                .is_some_and(|k| k.iter().any(|v| v == "bench"));
        if let (true, Some(exe)) = (is_bench, msg["executable"].as_str()) {
            return Ok(PathBuf::from(exe));
        }
    }
    bail!("cargo did not report the {bench} bench's executable")
}

/// A callgrind name spec: `(12) name` defines id 12 (and gives the name), `(12)` refers to it.
fn resolve<'a>(spec: &'a str, names: &mut HashMap<&'a str, &'a str>) -> &'a str {
    let spec = spec.trim();
    match spec.split_once(' ') {
        Some((id, name)) if id.starts_with('(') => {
            names.insert(id, name);
            name
        }
        None if spec.starts_with('(') => names.get(spec).copied().unwrap_or(""),
        _ => spec,
    }
}

/// Calls of the function whose name ends with `callee` (made from one whose name ends with
/// `caller`, if given) and the instructions spent in them, inclusive, from a callgrind file
/// with the one event `Ir`.
fn count_calls(text: &str, callee: &str, caller: Option<&str>) -> Count {
    let mut names = HashMap::new();
    let mut count = Count {
        calls: 0,
        instructions: 0,
    };
    let mut current = "";
    let mut pending: Option<(&str, u64)> = None;
    for line in text.lines() {
        if let Some(spec) = line.strip_prefix("fn=") {
            current = resolve(spec, &mut names);
        } else if let Some(spec) = line.strip_prefix("cfn=") {
            pending = Some((resolve(spec, &mut names), 0));
        } else if let Some(rest) = line.strip_prefix("calls=") {
            if let Some((name, _)) = pending {
                let n = rest.split_whitespace().next().and_then(|n| n.parse().ok());
                pending = Some((name, n.unwrap_or(0)));
            }
        } else if let Some((name, calls)) = pending {
            if calls == 0 {
                // Lines between `cfn=` and `calls=` (a `cfi=` file line).
                continue;
            }
            pending = None;
            // The cost line after `calls=`: position, then the inclusive `Ir` of those calls.
            if name.ends_with(callee) && caller.is_none_or(|c| current.ends_with(c)) {
                let ir = line
                    .split_whitespace()
                    .last()
                    .and_then(|v| v.parse::<u64>().ok());
                count.calls += calls;
                count.instructions += ir.unwrap_or(0);
            }
        }
    }
    count
}

/// The counts as JSON: `{"probes": {name: {"calls", "instructions", "per_call", "what"}}}`.
fn to_json(counts: &[(&Probe, Count)]) -> String {
    let probes: serde_json::Map<String, serde_json::Value> = counts
        .iter()
        .map(|(p, c)| {
            let v = serde_json::json!({
                "what": p.what,
                "calls": c.calls,
                "instructions": c.instructions,
                "per_call": c.per_call().round(),
            });
            (p.name.to_string(), v)
        })
        .collect();
    serde_json::json!({ "probes": probes }).to_string()
}

/// Largest `--compare` file read (a `--json` output is well under a kilobyte).
const MAX_JSON_BYTES: u64 = 1 << 20;
/// Largest callgrind file read (a probe's is a few megabytes).
const MAX_CALLGRIND_BYTES: u64 = 1 << 30;

/// The text of `path`, refused past `cap` bytes (read through the cap: a pipe or `/dev/zero`
/// reports no length).
fn read_capped(path: &Path, cap: u64) -> anyhow::Result<String> {
    use std::io::Read;
    let file =
        std::fs::File::open(path).with_context(|| format!("could not read {}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("could not read {}", path.display()))?;
    if bytes.len() as u64 > cap {
        bail!("{} is larger than {cap} bytes", path.display());
    }
    String::from_utf8(bytes).with_context(|| format!("{} is not UTF-8 text", path.display()))
}

/// Per-call figures of an earlier `--json` output, by probe name.
fn read_json(path: &Path) -> anyhow::Result<HashMap<String, f64>> {
    let text = read_capped(path, MAX_JSON_BYTES)?;
    parse_json(&text)
        .with_context(|| format!("{} is not an instructions --json output", path.display()))
}

fn parse_json(text: &str) -> anyhow::Result<HashMap<String, f64>> {
    let doc: serde_json::Value = serde_json::from_str(text)?;
    let probes = doc["probes"].as_object().context("no \"probes\" object")?;
    Ok(probes
        .iter()
        .filter_map(|(k, v)| Some((k.clone(), v["per_call"].as_f64()?)))
        .collect())
}

/// The human table, with the change against `before` when given.
fn print_table(counts: &[(&Probe, Count)], before: Option<&HashMap<String, f64>>) {
    println!("instructions per call (callgrind; files in target/instructions/)");
    for (p, c) in counts {
        let now = c.per_call();
        let change = match before.and_then(|b| b.get(p.name)) {
            Some(old) if *old > 0.0 => {
                format!("  ({:+.1} % against {old:.0})", (now / old - 1.0) * 100.0)
            }
            Some(_) => String::new(),
            None if before.is_some() => "  (not in the earlier file)".to_string(),
            None => String::new(),
        };
        println!("  {:<26} {:>11.0}{change}", p.name, now);
        println!("  {:<26} {}", "", p.what);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A callgrind file as callgrind writes it: compressed names, a `cfi=` line between `cfn=`
    /// and `calls=`, position compression.
    const SAMPLE: &str = "# callgrind format
version: 1
positions: line
events: Ir
summary: 5000

ob=(1) /bin/bench
fl=(1) bench.rs
fn=(1) voices::time_motion
10 40
cfn=(2) resound_mixer::renderer::MixerRenderer::render
calls=3 50
+2 900
cfn=(3) voices::build_motion
calls=1 60
* 1200

fn=(3)
5 10
cfn=(2)
calls=2 50
+1 500
fl=(2) other.rs
fn=(4) resound_mixer::renderer::MixerRenderer::render_more
1 7
fn=(1)
cfi=(2)
cfn=(2)
calls=1 50
12 350
";

    #[test]
    fn counts_the_calls_of_one_function_from_one_caller() {
        let all = count_calls(SAMPLE, "::MixerRenderer::render", None);
        assert_eq!(
            all,
            Count {
                calls: 6,
                instructions: 1750
            }
        );
        let from = count_calls(
            SAMPLE,
            "::MixerRenderer::render",
            Some("voices::time_motion"),
        );
        assert_eq!(
            from,
            Count {
                calls: 4,
                instructions: 1250
            }
        );
        assert_eq!(from.per_call(), 312.5);
        let none = count_calls(SAMPLE, "::nothing", None);
        assert_eq!(none.calls, 0);
    }

    #[test]
    fn json_round_trips_and_bad_files_are_refused() {
        let p = &PROBES[0];
        let text = to_json(&[(
            p,
            Count {
                calls: 4,
                instructions: 1000,
            },
        )]);
        let back = parse_json(&text).expect("parse");
        assert_eq!(back.get(p.name), Some(&250.0));
        assert!(parse_json("{}").is_err());
        assert!(parse_json("not json").is_err());
    }

    #[test]
    fn arguments_are_checked() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let o = parse(&args(&["--only", "mixer_motion_plain", "--json"])).expect("ok");
        assert_eq!(
            o,
            Some(Options {
                only: Some("mixer_motion_plain".into()),
                json: true,
                compare: None
            })
        );
        assert_eq!(parse(&args(&["--help"])).expect("ok"), None);
        assert!(parse(&args(&["--only"])).is_err());
        assert!(parse(&args(&["--fast"])).is_err());
    }

    #[test]
    fn compare_files_are_read_through_a_cap() {
        // /dev/zero reports no length: an uncapped read would never end.
        let err = read_json(Path::new("/dev/zero")).expect_err("refused");
        assert!(err.to_string().contains("larger than"), "{err}");
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("before.json");
        std::fs::write(
            &path,
            r#"{"probes":{"mixer_motion_plain":{"per_call":5.0}}}"#,
        )
        .expect("write");
        assert_eq!(
            read_json(&path).expect("read").get("mixer_motion_plain"),
            Some(&5.0)
        );
        assert!(read_json(&dir.path().join("missing.json")).is_err());
    }

    #[test]
    fn probe_names_are_unique() {
        let mut names: Vec<&str> = PROBES.iter().map(|p| p.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), PROBES.len());
    }
}
