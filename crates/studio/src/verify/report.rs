//! The report: the check tables as text on stdout and as `DIR/report.md` with the pictures.

use std::fmt::Write as _;
use std::path::Path;

use super::check::{markdown_table, text_table};
use super::run::Outcome;

/// Facts about the run the report opens with.
pub struct RunInfo<'a> {
    /// `own` or `spr`.
    pub model: &'a str,
    /// The debug fault switched on, if any.
    pub fault: Option<&'a str>,
    /// Sample rate, Hz.
    pub sample_rate: u32,
    /// Number of renders.
    pub renders: usize,
    /// Total seconds (renders, analyses, pictures).
    pub total_s: f64,
}

/// The tables as plain text.
pub fn text(outcome: &Outcome) -> String {
    let mut s = String::new();
    for (name, rows) in &outcome.sections {
        let _ = writeln!(s, "\n{name}\n");
        s.push_str(&text_table(rows));
    }
    s
}

fn summary(outcome: &Outcome) -> (usize, usize) {
    let total = outcome.rows().count();
    let failed = outcome.rows().filter(|c| c.fails()).count();
    (total, failed)
}

/// One line: how many rows passed.
pub fn verdict(outcome: &Outcome) -> String {
    let (total, failed) = summary(outcome);
    if failed == 0 {
        format!("verify: all {total} checks passed")
    } else {
        format!("verify: {failed} of {total} checks FAILED")
    }
}

/// Writes `out/report.md`.
pub fn write_markdown(out: &Path, outcome: &Outcome, info: &RunInfo<'_>) -> anyhow::Result<()> {
    let mut s = String::new();
    let _ = writeln!(s, "# Resound verify report\n");
    let _ = writeln!(s, "{}\n", verdict(outcome));
    let _ = writeln!(
        s,
        "Model `{}`, {} Hz, f32 offline render through `resound-engine`; {} renders in {:.1} s (wall clock, rendered in parallel), {:.1} s in all.",
        info.model, info.sample_rate, info.renders, outcome.render_s, info.total_s
    );
    if let Some(f) = info.fault {
        let _ = writeln!(
            s,
            "\n**Debug fault `{f}` switched on** (`RESOUND_VERIFY_FAULT`): failures below are expected."
        );
    }
    let _ = writeln!(
        s,
        "\nSpec: `acoustics.md` §4–§6 \"Offline check\" tables and tolerances, §9 scenes and signals. \
         Bands and echoes on the mono mix (L+R)/2. Bands: one real FFT of the whole render. Echoes: |x| peaks \
         more than 20 ms after the direct peak, above −40 dB re it, merged within 5 ms. Reverb figures on \
         the energy of both channels (L² + R² per frame), so they do not move with the source's pan (G and R \
         have the source straight to the listener's left, T centred). RT60: Schroeder T30 \
         (2 × the time between the −5 and −35 dB crossings of the backward-integrated energy) of the tail \
         from 5 ms after the direct peak, the tail being the late reverb alone (the `full` render minus the \
         `reflect` render of the same scene: discrete echoes are checked as echoes, not counted as tail); \
         tail/click: tail energy over the first 5 ms of the `full` render."
    );
    if info.model == "spr" {
        let _ = writeln!(
            s,
            "\nModel `spr`: stage 3 is checked against SPR's own slot model, not the own model's §6 table \
             (SPR measures no space). Its predicted RT60 is the §6 EDC reading of its sends **with the \
             per-slot output gains** as the bus applies them; tail/click is expected at \
             Σ(send·slot gain)² over the dry distance gain², ±3 dB; no sends: below −60 dB. The own \
             model's prediction (and the §6 \"by sends\" column) leaves the slot gains out."
        );
    }
    for (name, rows) in &outcome.sections {
        let _ = writeln!(s, "\n## {name}\n");
        s.push_str(&markdown_table(rows));
    }
    if !outcome.pictures.is_empty() {
        let _ = writeln!(s, "\n## Pictures\n");
        for (path, sentence) in &outcome.pictures {
            let rel = path.strip_prefix(out).unwrap_or(path).display().to_string();
            let _ = writeln!(s, "- [`{rel}`]({rel}): {sentence}");
        }
        for (path, _) in &outcome.pictures {
            let rel = path.strip_prefix(out).unwrap_or(path).display().to_string();
            let _ = writeln!(s, "\n![{rel}]({rel})");
        }
    }
    if !outcome.wavs.is_empty() {
        let _ = writeln!(s, "\n## Renders (f32 WAV)\n");
        for path in &outcome.wavs {
            let rel = path.strip_prefix(out).unwrap_or(path).display().to_string();
            let _ = writeln!(s, "- `{rel}`");
        }
    }
    let path = out.join("report.md");
    std::fs::write(&path, s).map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
}
