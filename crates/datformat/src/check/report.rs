//! The report of `resound dat check`: per-entry outcomes tallied per dat and record type, the
//! failures, and the table ([`Display`](std::fmt::Display)); serialisable with stable keys.

use std::collections::BTreeMap;
use std::fmt;
use std::io::{Read, Seek};

use serde::Serialize;

use super::round_trip_trimmed;
use crate::container::{DatEntry, DatKind, DatReader};
use crate::entry_type::entry_type;

/// The outcome of one entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Round-tripped, with this many zero padding bytes after the last field.
    Ok(usize),
    /// Failed, with the reason as one plain line.
    Failed(String),
    /// A record type resound does not parse (read from the container only).
    Skipped,
}

/// Entry counts: ok / failed / skipped, and how many ok entries carried zero padding.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Round-tripped.
    pub ok: usize,
    /// Failed.
    pub failed: usize,
    /// Not parsed by resound.
    pub skipped: usize,
    /// Ok entries with zero padding.
    pub padded: usize,
    /// Padding bytes over those entries.
    pub padding_bytes: usize,
}

impl Counts {
    fn add(&mut self, o: Self) {
        self.ok += o.ok;
        self.failed += o.failed;
        self.skipped += o.skipped;
        self.padded += o.padded;
        self.padding_bytes += o.padding_bytes;
    }
}

/// File counts: every `*.dat` found, and how many could not be read as a dat at all.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct FileCounts {
    /// Files checked.
    pub total: usize,
    /// Files that could not be read as a dat.
    pub failed: usize,
}

/// One failed entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Failure {
    /// Entry id.
    pub id: u32,
    /// `0xXXXXXXXX`.
    pub id_hex: String,
    /// Record type name.
    pub record_type: &'static str,
    /// Why, one plain line.
    pub error: String,
}

/// Counts of one record type.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TypeRow {
    /// Record type name.
    pub record_type: &'static str,
    /// Its counts.
    #[serde(flatten)]
    pub counts: Counts,
}

/// One dat's report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DatReport {
    /// The file as given.
    pub file: String,
    /// The dat kind (`?` if unreadable).
    pub dat_type: String,
    /// Why the file could not be read as a dat (its entries are then not counted).
    pub file_error: Option<String>,
    /// Entry counts.
    pub entries: Counts,
    /// Counts per record type.
    pub by_type: Vec<TypeRow>,
    /// The first failures.
    pub failures: Vec<Failure>,
}

/// The whole check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CheckReport {
    /// The folder.
    pub dir: String,
    /// File counts.
    pub files: FileCounts,
    /// Entry counts over every dat.
    pub entries: Counts,
    /// Per dat.
    pub dats: Vec<DatReport>,
}

/// An error and its sources as one plain line (control characters become spaces; a cause the
/// line already holds is not repeated).
#[must_use]
pub fn one_line(e: &dyn std::error::Error) -> String {
    let plain = |t: String| t.split(char::is_control).collect::<Vec<_>>().join(" ");
    let mut line = plain(e.to_string());
    let mut next = e.source();
    while let Some(inner) = next {
        let text = plain(inner.to_string());
        if !line.contains(&text) {
            line.push_str(": ");
            line.push_str(&text);
        }
        next = inner.source();
    }
    line
}

/// Bytes of an entry held before its trailing zero run; an entry with more fails its check
/// naming this cap (the zero run itself is counted, never held).
pub const CHECK_CAP: usize = 32 << 20;

/// Reads one entry (from a reader of the same dat) and round-trips it; returns its record
/// type name and outcome. The payload is inflated in pieces with its trailing zero run
/// counted, not held ([`round_trip_trimmed`]), and at most [`CHECK_CAP`] bytes before it.
pub fn check_entry<R: Read + Seek>(
    reader: Option<&mut DatReader<R>>,
    kind: DatKind,
    e: &DatEntry,
) -> (&'static str, Outcome) {
    let t = entry_type(kind, e.id);
    let Some(r) = reader else {
        return (t.name, Outcome::Failed("cannot reopen the dat".to_owned()));
    };
    let payload = match r.read_entry_trimmed(e, CHECK_CAP) {
        Ok(p) => p,
        Err(err) => return (t.name, Outcome::Failed(format!("read: {}", one_line(&err)))),
    };
    match t.parsed {
        None => (t.name, Outcome::Skipped),
        Some(p) => match round_trip_trimmed(p, &payload) {
            Ok(rt) => (t.name, Outcome::Ok(rt.padding)),
            Err(err) => (t.name, Outcome::Failed(one_line(&err))),
        },
    }
}

impl DatReport {
    /// A dat that could not be read.
    #[must_use]
    pub fn unreadable(file: String, error: String) -> Self {
        Self {
            file,
            dat_type: "?".to_owned(),
            file_error: Some(error),
            entries: Counts::default(),
            by_type: Vec::new(),
            failures: Vec::new(),
        }
    }

    /// Tallies the outcomes `(id, record type, outcome)` of one dat, keeping the first
    /// `max_failures` failures.
    #[must_use]
    pub fn tally(
        file: String,
        kind: DatKind,
        outcomes: Vec<(u32, &'static str, Outcome)>,
        max_failures: usize,
    ) -> Self {
        let mut by_type: BTreeMap<&'static str, Counts> = BTreeMap::new();
        let mut failures = Vec::new();
        for (id, name, outcome) in outcomes {
            let c = by_type.entry(name).or_default();
            match outcome {
                Outcome::Ok(padding) => {
                    c.ok += 1;
                    c.padded += usize::from(padding > 0);
                    c.padding_bytes += padding;
                }
                Outcome::Skipped => c.skipped += 1,
                Outcome::Failed(error) => {
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
        let mut entries = Counts::default();
        for c in by_type.values() {
            entries.add(*c);
        }
        Self {
            file,
            dat_type: kind.to_string(),
            file_error: None,
            entries,
            by_type: by_type
                .into_iter()
                .map(|(record_type, counts)| TypeRow {
                    record_type,
                    counts,
                })
                .collect(),
            failures,
        }
    }
}

impl CheckReport {
    /// The report over the dats of `dir`.
    #[must_use]
    pub fn new(dir: String, dats: Vec<DatReport>) -> Self {
        let mut entries = Counts::default();
        for d in &dats {
            entries.add(d.entries);
        }
        Self {
            dir,
            files: FileCounts {
                total: dats.len(),
                failed: dats.iter().filter(|d| d.file_error.is_some()).count(),
            },
            entries,
            dats,
        }
    }

    /// True when no file and no entry failed.
    #[must_use]
    pub fn passed(&self) -> bool {
        self.files.failed == 0 && self.entries.failed == 0
    }

    /// `F of N files and E of M entries failed`.
    #[must_use]
    pub fn summary(&self) -> String {
        let (f, e) = (self.files, self.entries);
        format!(
            "{} of {} files and {} of {} entries failed",
            f.failed,
            f.total,
            e.failed,
            e.ok + e.failed + e.skipped
        )
    }
}

fn row(f: &mut fmt::Formatter<'_>, dat: &str, kind: &str, c: &Counts) -> fmt::Result {
    writeln!(
        f,
        "{dat:<28} {kind:<16} {:>9} {:>9} {:>9} {:>9}",
        c.ok, c.failed, c.skipped, c.padded
    )
}

impl fmt::Display for CheckReport {
    /// The table: per dat and record type, totals, then the failures.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<28} {:<16} {:>9} {:>9} {:>9} {:>9}",
            "dat", "record type", "ok", "failed", "skipped", "padded"
        )?;
        for d in &self.dats {
            let name = std::path::Path::new(&d.file)
                .file_name()
                .map_or_else(|| d.file.clone(), |n| n.to_string_lossy().into_owned());
            for r in &d.by_type {
                row(f, &name, r.record_type, &r.counts)?;
            }
            if d.file_error.is_none() {
                row(f, &name, &format!("total ({})", d.dat_type), &d.entries)?;
            } else {
                writeln!(f, "{name:<28} FILE FAILED")?;
            }
        }
        row(f, "all entries", "", &self.entries)?;
        let (fc, e) = (self.files, self.entries);
        writeln!(
            f,
            "files: {} checked, {} failed; entries: {} ok, {} failed, {} skipped, {} with zero \
             padding ({} bytes)",
            fc.total, fc.failed, e.ok, e.failed, e.skipped, e.padded, e.padding_bytes
        )?;
        writeln!(
            f,
            "(skipped = record type not parsed by resound; padded = zero bytes after the last \
             field, kept)"
        )?;
        for d in &self.dats {
            if let Some(err) = &d.file_error {
                writeln!(f, "FAILED {}: {err}", d.file)?;
            }
            for x in &d.failures {
                writeln!(
                    f,
                    "FAILED {} 0x{:08X} {}: {}",
                    d.file, x.id, x.record_type, x.error
                )?;
            }
        }
        Ok(())
    }
}
