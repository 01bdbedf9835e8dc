//! The check table: one row per measured quantity (scene, quantity, expected, measured,
//! tolerance, pass/fail), printed as text and as Markdown.

use std::fmt::Write as _;

/// How a measured number is judged.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rule {
    /// `|measured − expected| ≤ tol`.
    Abs {
        /// Expected value.
        expected: f64,
        /// Allowed absolute difference.
        tol: f64,
    },
    /// `|measured − expected| ≤ frac·|expected|`.
    Rel {
        /// Expected value.
        expected: f64,
        /// Allowed relative difference (0.35 = 35 %).
        frac: f64,
    },
    /// `lo ≤ measured ≤ hi` (either end may be infinite).
    Between {
        /// Lower limit.
        lo: f64,
        /// Upper limit.
        hi: f64,
    },
}

impl Rule {
    /// Whether `measured` passes (NaN never does).
    pub fn passes(&self, measured: f64) -> bool {
        match *self {
            Rule::Abs { expected, tol } => (measured - expected).abs() <= tol,
            Rule::Rel { expected, frac } => (measured - expected).abs() <= frac * expected.abs(),
            Rule::Between { lo, hi } => lo <= measured && measured <= hi,
        }
    }
}

/// One row of the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    /// Scene id (`W2`, `G`, …), with the mode when a scene is rendered in several.
    pub scene: String,
    /// What was measured, with its unit.
    pub quantity: String,
    /// Expected value as printed.
    pub expected: String,
    /// Measured value as printed.
    pub measured: String,
    /// Tolerance as printed.
    pub tolerance: String,
    /// Whether the row passes.
    pub pass: bool,
    /// Whether a failure fails the run (a spec "target" is reported, not gated).
    pub gate: bool,
}

/// A number for the table: `decimals` places, `−∞`/`+∞` spelled out, `—` for none.
pub fn num(v: Option<f64>, decimals: usize) -> String {
    match v {
        None => "—".to_string(),
        Some(x) if x == f64::NEG_INFINITY => "−∞".to_string(),
        Some(x) if x == f64::INFINITY => "+∞".to_string(),
        Some(x) if x.is_nan() => "NaN".to_string(),
        Some(x) => format!("{x:.decimals$}"),
    }
}

impl Check {
    /// A numeric row judged by `rule`; a missing measurement fails.
    pub fn number(
        scene: &str,
        quantity: &str,
        rule: Rule,
        measured: Option<f64>,
        decimals: usize,
    ) -> Check {
        let (expected, tolerance) = match rule {
            Rule::Abs { expected, tol } => (
                num(Some(expected), decimals),
                format!("±{}", num(Some(tol), decimals)),
            ),
            Rule::Rel { expected, frac } => (num(Some(expected), decimals), percent(frac * 100.0)),
            Rule::Between { lo, hi } => (
                format!("{} … {}", num(Some(lo), decimals), num(Some(hi), decimals)),
                "range".to_string(),
            ),
        };
        Check {
            scene: scene.to_string(),
            quantity: quantity.to_string(),
            expected,
            measured: num(measured, decimals),
            tolerance,
            pass: measured.is_some_and(|m| rule.passes(m)),
            gate: true,
        }
    }

    /// A row that passes when `measured` equals `expected` exactly (hashes, counts, lists).
    pub fn equal(scene: &str, quantity: &str, expected: &str, measured: &str) -> Check {
        Check {
            scene: scene.to_string(),
            quantity: quantity.to_string(),
            expected: expected.to_string(),
            measured: measured.to_string(),
            tolerance: "exact".to_string(),
            pass: expected == measured,
            gate: true,
        }
    }

    /// A row for something that could not be measured at all (the render failed): it fails.
    pub fn failed(scene: &str, quantity: &str, why: &str) -> Check {
        Check {
            scene: scene.to_string(),
            quantity: quantity.to_string(),
            expected: "a render".to_string(),
            measured: why.to_string(),
            tolerance: "—".to_string(),
            pass: false,
            gate: true,
        }
    }

    /// The same row as a target that is reported but does not fail the run.
    pub fn target(self) -> Check {
        Check {
            tolerance: format!("{} (target)", self.tolerance),
            gate: false,
            ..self
        }
    }

    /// True when the row fails the run.
    pub fn fails(&self) -> bool {
        self.gate && !self.pass
    }

    /// The result column.
    pub fn result(&self) -> &'static str {
        match (self.pass, self.gate) {
            (true, _) => "pass",
            (false, true) => "FAIL",
            (false, false) => "off target",
        }
    }

    fn cells(&self) -> [&str; 6] {
        [
            &self.scene,
            &self.quantity,
            &self.expected,
            &self.measured,
            &self.tolerance,
            self.result(),
        ]
    }
}

const HEADER: [&str; 6] = [
    "scene",
    "quantity",
    "expected",
    "measured",
    "tolerance",
    "result",
];

/// The rows as an aligned plain-text table.
pub fn text_table(rows: &[Check]) -> String {
    let mut widths = HEADER.map(|h| h.chars().count());
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row.cells()) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: [&str; 6]| {
        let mut s = String::new();
        for (i, (cell, w)) in cells.iter().zip(widths).enumerate() {
            if i > 0 {
                s.push_str("  ");
            }
            s.push_str(cell);
            if i + 1 < cells.len() {
                s.extend(std::iter::repeat_n(' ', w - cell.chars().count()));
            }
        }
        s.push('\n');
        s
    };
    let mut out = line(HEADER);
    let dashes: Vec<String> = widths.iter().map(|&w| "-".repeat(w)).collect();
    out.push_str(&dashes.join("  "));
    out.push('\n');
    for row in rows {
        out.push_str(&line(row.cells()));
    }
    out
}

/// The rows as a Markdown table.
pub fn markdown_table(rows: &[Check]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "| {} |", HEADER.join(" | "));
    let _ = writeln!(out, "|{}", "---|".repeat(HEADER.len()));
    for row in rows {
        let cells = row.cells().map(|c| c.replace('|', "\\|"));
        let mut cells = cells.to_vec();
        if row.fails() {
            cells[5] = "**FAIL**".to_string();
        }
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    out
}

/// A relative tolerance as text: whole percents as `±10 %`, others with one decimal (`±0.5 %`).
fn percent(p: f64) -> String {
    if (p - p.round()).abs() < 1e-9 {
        format!("±{p:.0} %")
    } else {
        format!("±{p:.1} %")
    }
}

#[cfg(test)]
mod tests;
