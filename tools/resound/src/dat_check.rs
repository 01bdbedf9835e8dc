//! `resound dat check DIR`: parse and round-trip every entry of every `*.dat` in a folder
//! (the per-entry check is `resound_datformat::check::round_trip`).

use std::collections::BTreeMap;
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use resound_engine::datformat::check::round_trip;
use resound_engine::datformat::container::{DatEntry, DatKind, DatReader};
use resound_engine::datformat::entry_type::entry_type;
use serde::Serialize;

use crate::cmd_dat::open;
use crate::report::{one_line, plain};

/// The outcome of one entry.
enum Status {
    /// Round-tripped; the count of zero padding bytes after the last field.
    Ok(usize),
    Failed(String),
    Skipped,
}

/// Entry counts: ok / failed / skipped, and how many ok entries carried zero padding.
#[derive(Clone, Copy, Debug, Default, Serialize)]
struct Counts {
    ok: usize,
    failed: usize,
    skipped: usize,
    padded: usize,
    padding_bytes: usize,
}

impl Counts {
    fn add(&mut self, o: Counts) {
        self.ok += o.ok;
        self.failed += o.failed;
        self.skipped += o.skipped;
        self.padded += o.padded;
        self.padding_bytes += o.padding_bytes;
    }
}

/// File counts: every `*.dat` found, and how many could not be read as a dat at all.
#[derive(Clone, Copy, Debug, Default, Serialize)]
struct FileCounts {
    total: usize,
    failed: usize,
}

#[derive(Debug, Serialize)]
struct Failure {
    id: u32,
    id_hex: String,
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
    /// Why the file could not be read as a dat (its entries are then not counted).
    file_error: Option<String>,
    entries: Counts,
    by_type: Vec<TypeRow>,
    failures: Vec<Failure>,
}

#[derive(Debug, Serialize)]
struct Report {
    dir: String,
    files: FileCounts,
    entries: Counts,
    dats: Vec<DatReport>,
}

type Reader = DatReader<BufReader<File>>;

fn check_entry(reader: &mut Option<Reader>, kind: DatKind, e: &DatEntry) -> (&'static str, Status) {
    let t = entry_type(kind, e.id);
    let Some(r) = reader else {
        return (t.name, Status::Failed("cannot reopen the dat".to_owned()));
    };
    let payload = match r.read_entry(e) {
        Ok(p) => p,
        Err(err) => return (t.name, Status::Failed(format!("read: {}", chain(&err)))),
    };
    match t.parsed {
        None => (t.name, Status::Skipped),
        Some(p) => match round_trip(p, &payload) {
            Ok(rt) => (t.name, Status::Ok(rt.padding)),
            Err(err) => (t.name, Status::Failed(chain(&err))),
        },
    }
}

/// An error and its sources as one plain line (a cause the line already holds is not repeated).
fn chain(e: &dyn std::error::Error) -> String {
    let mut line = plain(&e.to_string());
    let mut next = e.source();
    while let Some(inner) = next {
        let text = plain(&inner.to_string());
        if !line.contains(&text) {
            line.push_str(": ");
            line.push_str(&text);
        }
        next = inner.source();
    }
    line
}

/// Every `*.dat` in `dir`, whatever kind of file it is.
fn dat_files(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for item in std::fs::read_dir(dir).with_context(|| format!("listing {}", dir.display()))? {
        let path = item?.path();
        if path
            .extension()
            .is_some_and(|x| x.eq_ignore_ascii_case("dat"))
        {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// Runs the check; prints a summary (text or JSON); fails if any file or entry failed.
pub fn run(dir: &Path, json: bool, max_failures: usize) -> anyhow::Result<()> {
    let files = dat_files(dir)?;
    anyhow::ensure!(!files.is_empty(), "no *.dat files in {}", dir.display());
    // List every dat first so the progress bar knows the total.
    let listings: Vec<_> = files
        .iter()
        .map(|path| {
            let listing = open(path).and_then(|mut r| {
                let kind = r.header().dat_type;
                let entries = r
                    .entries()
                    .with_context(|| format!("walking the B-tree of {}", path.display()))?;
                Ok((kind, entries))
            });
            (path.clone(), listing)
        })
        .collect();
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
        let (kind, entries) = match listing {
            Ok(l) => l,
            Err(e) => {
                dats.push(DatReport {
                    file,
                    dat_type: "?".to_owned(),
                    file_error: Some(one_line(&e)),
                    entries: Counts::default(),
                    by_type: Vec::new(),
                    failures: Vec::new(),
                });
                continue;
            }
        };
        bar.set_message(
            path.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
        );
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
        for (id, name, status) in outcomes {
            let c = by_type.entry(name).or_default();
            match status {
                Status::Ok(padding) => {
                    c.ok += 1;
                    c.padded += usize::from(padding > 0);
                    c.padding_bytes += padding;
                }
                Status::Skipped => c.skipped += 1,
                Status::Failed(error) => {
                    c.failed += 1;
                    if failures.len() < max_failures {
                        failures.push(Failure {
                            id,
                            id_hex: format!("0x{id:08X}"),
                            record_type: name,
                            error,
                        });
                    }
                }
            }
        }
        let mut counts = Counts::default();
        for c in by_type.values() {
            counts.add(*c);
        }
        dats.push(DatReport {
            file,
            dat_type: kind.to_string(),
            file_error: None,
            entries: counts,
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
    let mut entries = Counts::default();
    for d in &dats {
        entries.add(d.entries);
    }
    let report = Report {
        dir: dir.display().to_string(),
        files: FileCounts {
            total: dats.len(),
            failed: dats.iter().filter(|d| d.file_error.is_some()).count(),
        },
        entries,
        dats,
    };
    if json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print_table(&report);
    }
    let (f, e) = (report.files, report.entries);
    anyhow::ensure!(
        f.failed == 0 && e.failed == 0,
        "{} of {} files and {} of {} entries failed",
        f.failed,
        f.total,
        e.failed,
        e.ok + e.failed + e.skipped
    );
    Ok(())
}

fn print_table(report: &Report) {
    let row = |dat: &str, kind: &str, c: &Counts| {
        println!(
            "{dat:<28} {kind:<16} {:>9} {:>9} {:>9} {:>9}",
            c.ok, c.failed, c.skipped, c.padded
        );
    };
    println!(
        "{:<28} {:<16} {:>9} {:>9} {:>9} {:>9}",
        "dat", "record type", "ok", "failed", "skipped", "padded"
    );
    for d in &report.dats {
        let name = Path::new(&d.file)
            .file_name()
            .map_or_else(|| d.file.clone(), |n| n.to_string_lossy().into_owned());
        for r in &d.by_type {
            row(&name, r.record_type, &r.counts);
        }
        if d.file_error.is_none() {
            row(&name, &format!("total ({})", d.dat_type), &d.entries);
        } else {
            println!("{name:<28} FILE FAILED");
        }
    }
    row("all entries", "", &report.entries);
    let f = report.files;
    println!(
        "files: {} checked, {} failed; entries: {} ok, {} failed, {} skipped, {} with zero \
         padding ({} bytes)",
        f.total,
        f.failed,
        report.entries.ok,
        report.entries.failed,
        report.entries.skipped,
        report.entries.padded,
        report.entries.padding_bytes
    );
    println!(
        "(skipped = record type not parsed by resound; padded = zero bytes after the last field, \
         kept)"
    );
    for d in &report.dats {
        if let Some(err) = &d.file_error {
            println!("FAILED {}: {err}", d.file);
        }
        for f in &d.failures {
            println!(
                "FAILED {} 0x{:08X} {}: {}",
                d.file, f.id, f.record_type, f.error
            );
        }
    }
}
