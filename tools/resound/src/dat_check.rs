//! `resound dat check DIR`: parse and round-trip every entry of every `*.dat` in a folder, in
//! parallel (the check and its report are `resound_datformat::check`).

use std::path::{Path, PathBuf};

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use resound_engine::advanced::datformat::check::report::{CheckReport, DatReport, check_entry};

use crate::dat_file::open;
use crate::report::one_line;

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
                dats.push(DatReport::unreadable(file, one_line(&e)));
                continue;
            }
        };
        bar.set_message(
            path.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
        );
        let outcomes = entries
            .par_iter()
            .map_init(
                || open(&path).ok(),
                |reader, e| {
                    let (name, outcome) = check_entry(reader.as_mut(), kind, e);
                    bar.inc(1);
                    (e.id, name, outcome)
                },
            )
            .collect();
        dats.push(DatReport::tally(file, kind, outcomes, max_failures));
    }
    bar.finish_and_clear();
    let report = CheckReport::new(dir.display().to_string(), dats);
    let mut doc = serde_json::to_value(&report)?;
    // the schema's name for the folder (`dir` is a direction there)
    if let Some(d) = doc.as_object_mut()
        && let Some(dir) = d.remove("dir")
    {
        d.insert("folder".to_owned(), dir);
    }
    crate::report::emit_doc(json, &doc, &report)?;
    anyhow::ensure!(report.passed(), "{}", report.summary());
    Ok(())
}
