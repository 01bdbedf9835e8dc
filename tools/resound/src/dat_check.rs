//! `resound dat check DIR`: parse and round-trip every entry of every `*.dat` in a folder.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use resound_engine::datformat::container::{DatEntry, DatKind, DatReader, Iteration};
use resound_engine::datformat::record::{
    LandBlock, LandBlockInfo, Record, Region, SoundTable, Wave,
};
use serde::Serialize;

use crate::dat_type::{Parsed, classify, kind_name};

/// The error and all its sources, `a: b: c`.
pub fn chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut source = e.source();
    while let Some(inner) = source {
        s.push_str(": ");
        s.push_str(&inner.to_string());
        source = inner.source();
    }
    s
}

/// Parses `payload` as `kind` and writes it back; `Err` describes a parse failure or the first
/// byte where the re-written record differs.
pub fn round_trip(kind: Parsed, payload: &[u8]) -> Result<(), String> {
    fn rt<T: Record>(p: &[u8]) -> Result<Vec<u8>, String> {
        let r = T::from_bytes(p).map_err(|e| format!("parse: {}", chain(&e)))?;
        r.to_bytes().map_err(|e| format!("write: {}", chain(&e)))
    }
    let written = match kind {
        Parsed::Region => rt::<Region>(payload)?,
        Parsed::SoundTable => rt::<SoundTable>(payload)?,
        Parsed::Wave => rt::<Wave>(payload)?,
        Parsed::LandBlock => rt::<LandBlock>(payload)?,
        Parsed::LandBlockInfo => rt::<LandBlockInfo>(payload)?,
        Parsed::Iteration => Iteration::from_bytes(payload)
            .map_err(|e| format!("parse: {}", chain(&e)))?
            .to_bytes(),
    };
    if written == payload {
        return Ok(());
    }
    let at = written.iter().zip(payload).position(|(a, b)| a != b);
    Err(match at {
        Some(at) => format!(
            "round trip differs at byte {at} (wrote {} bytes, read {})",
            written.len(),
            payload.len()
        ),
        None => format!(
            "round trip length differs (wrote {} bytes, read {})",
            written.len(),
            payload.len()
        ),
    })
}

/// The outcome of one entry.
enum Status {
    Ok,
    Failed(String),
    Skipped,
}

/// ok / failed / skipped counts.
#[derive(Clone, Copy, Debug, Default, Serialize)]
struct Counts {
    ok: usize,
    failed: usize,
    skipped: usize,
}

impl Counts {
    fn add(&mut self, other: Counts) {
        self.ok += other.ok;
        self.failed += other.failed;
        self.skipped += other.skipped;
    }
}

#[derive(Debug, Serialize)]
struct Failure {
    id: u32,
    record_type: &'static str,
    error: String,
}

#[derive(Debug, Serialize)]
struct TypeRow {
    record_type: &'static str,
    #[serde(flatten)]
    counts: Counts,
}

#[derive(Debug, Serialize)]
struct DatReport {
    file: String,
    dat_type: String,
    entries: usize,
    #[serde(flatten)]
    counts: Counts,
    by_type: Vec<TypeRow>,
    failures: Vec<Failure>,
}

#[derive(Debug, Serialize)]
struct Report {
    dir: String,
    dats: Vec<DatReport>,
    #[serde(flatten)]
    counts: Counts,
}

type Reader = DatReader<BufReader<File>>;

fn open(path: &Path) -> anyhow::Result<Reader> {
    let file = File::open(path).with_context(|| format!("opening {}", path.display()))?;
    DatReader::new(BufReader::new(file)).with_context(|| format!("reading {}", path.display()))
}

fn check_entry(reader: &mut Option<Reader>, kind: DatKind, e: &DatEntry) -> (&'static str, Status) {
    let (name, parsed) = classify(kind, e.id);
    let Some(r) = reader else {
        return (name, Status::Failed("cannot reopen the dat".to_owned()));
    };
    let payload = match r.read_entry(e) {
        Ok(p) => p,
        Err(err) => return (name, Status::Failed(format!("read: {}", chain(&err)))),
    };
    match parsed {
        None => (name, Status::Skipped),
        Some(p) => match round_trip(p, &payload) {
            Ok(()) => (name, Status::Ok),
            Err(msg) => (name, Status::Failed(msg)),
        },
    }
}

fn dat_files(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for item in std::fs::read_dir(dir).with_context(|| format!("listing {}", dir.display()))? {
        let path = item?.path();
        let is_dat = path
            .extension()
            .is_some_and(|x| x.eq_ignore_ascii_case("dat"));
        if is_dat && path.is_file() {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// Runs the check; prints a summary (text or JSON); fails if any entry failed.
pub fn run(dir: &Path, json: bool, max_failures: usize) -> anyhow::Result<()> {
    let files = dat_files(dir)?;
    anyhow::ensure!(!files.is_empty(), "no *.dat files in {}", dir.display());
    // List every dat first so the progress bar knows the total.
    let mut listings = Vec::new();
    for path in &files {
        let listing = open(path).and_then(|mut r| {
            let kind = r.header().dat_type;
            let entries = r
                .entries()
                .with_context(|| format!("walking the B-tree of {}", path.display()))?;
            Ok((kind, entries))
        });
        listings.push((path.clone(), listing));
    }
    let total: usize = listings
        .iter()
        .map(|(_, l)| l.as_ref().map_or(0, |(_, e)| e.len()))
        .sum();
    let bar = ProgressBar::new(total as u64);
    if let Ok(style) =
        ProgressStyle::with_template("{spinner} [{bar:40}] {pos}/{len} entries {per_sec} {msg}")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    let mut dats = Vec::new();
    for (path, listing) in listings {
        let file = path.display().to_string();
        bar.set_message(
            path.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
        );
        let (kind, entries) = match listing {
            Ok(l) => l,
            Err(e) => {
                dats.push(DatReport {
                    file,
                    dat_type: "?".to_owned(),
                    entries: 0,
                    counts: Counts {
                        failed: 1,
                        ..Counts::default()
                    },
                    by_type: Vec::new(),
                    failures: vec![Failure {
                        id: 0,
                        record_type: "container",
                        error: format!("{e:#}"),
                    }],
                });
                continue;
            }
        };
        let outcomes: Vec<(u32, &'static str, Status)> = entries
            .par_iter()
            .map_init(
                || open(&path).ok(),
                |reader, e| {
                    let (name, status) = check_entry(reader, kind, e);
                    bar.inc(1);
                    (e.id, name, status)
                },
            )
            .collect();
        let mut by_type: BTreeMap<&'static str, Counts> = BTreeMap::new();
        let mut failures = Vec::new();
        let mut counts = Counts::default();
        for (id, name, status) in outcomes {
            let c = by_type.entry(name).or_default();
            match status {
                Status::Ok => c.ok += 1,
                Status::Skipped => c.skipped += 1,
                Status::Failed(error) => {
                    c.failed += 1;
                    if failures.len() < max_failures {
                        failures.push(Failure {
                            id,
                            record_type: name,
                            error,
                        });
                    }
                }
            }
        }
        for c in by_type.values() {
            counts.add(*c);
        }
        dats.push(DatReport {
            file,
            dat_type: kind_name(kind),
            entries: entries.len(),
            counts,
            by_type: by_type
                .into_iter()
                .map(|(record_type, counts)| TypeRow {
                    record_type,
                    counts,
                })
                .collect(),
            failures,
        });
    }
    bar.finish_and_clear();
    let mut counts = Counts::default();
    for d in &dats {
        counts.add(d.counts);
    }
    let report = Report {
        dir: dir.display().to_string(),
        dats,
        counts,
    };
    if json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print_table(&report);
    }
    anyhow::ensure!(
        report.counts.failed == 0,
        "{} of {} entries failed",
        report.counts.failed,
        report.counts.ok + report.counts.failed + report.counts.skipped
    );
    Ok(())
}

fn print_table(report: &Report) {
    println!(
        "{:<28} {:<16} {:>9} {:>9} {:>9}",
        "dat", "record type", "ok", "failed", "skipped"
    );
    for d in &report.dats {
        let name = Path::new(&d.file)
            .file_name()
            .map_or_else(|| d.file.clone(), |n| n.to_string_lossy().into_owned());
        for row in &d.by_type {
            println!(
                "{:<28} {:<16} {:>9} {:>9} {:>9}",
                name, row.record_type, row.counts.ok, row.counts.failed, row.counts.skipped
            );
        }
        println!(
            "{:<28} {:<16} {:>9} {:>9} {:>9}",
            name,
            format!("total ({})", d.dat_type),
            d.counts.ok,
            d.counts.failed,
            d.counts.skipped
        );
    }
    println!(
        "{:<28} {:<16} {:>9} {:>9} {:>9}",
        "all", "", report.counts.ok, report.counts.failed, report.counts.skipped
    );
    println!("(skipped = record type not parsed by resound; its container read succeeded)");
    for d in &report.dats {
        for f in &d.failures {
            println!(
                "FAILED {} 0x{:08X} {}: {}",
                d.file, f.id, f.record_type, f.error
            );
        }
    }
}
