//! Check rows and tables.

use super::{Check, Rule, markdown_table, num, text_table};

#[test]
fn rules_judge_numbers() {
    assert!(
        Rule::Abs {
            expected: -5.4,
            tol: 1.0
        }
        .passes(-6.3)
    );
    assert!(
        !Rule::Abs {
            expected: -5.4,
            tol: 1.0
        }
        .passes(-6.5)
    );
    assert!(
        Rule::Rel {
            expected: 1.67,
            frac: 0.35
        }
        .passes(1.1)
    );
    assert!(
        !Rule::Rel {
            expected: 1.67,
            frac: 0.35
        }
        .passes(1.0)
    );
    assert!(
        Rule::Between {
            lo: f64::NEG_INFINITY,
            hi: -60.0
        }
        .passes(f64::NEG_INFINITY)
    );
    assert!(
        !Rule::Between {
            lo: -55.0,
            hi: -30.0
        }
        .passes(-18.0)
    );
    for r in [
        Rule::Abs {
            expected: 0.0,
            tol: 1.0,
        },
        Rule::Rel {
            expected: 1.0,
            frac: 0.5,
        },
        Rule::Between {
            lo: f64::NEG_INFINITY,
            hi: f64::INFINITY,
        },
    ] {
        assert!(!r.passes(f64::NAN), "{r:?}");
    }
}

#[test]
fn a_missing_measurement_fails_and_prints_a_dash() {
    let c = Check::number(
        "R",
        "RT60 s",
        Rule::Rel {
            expected: 1.67,
            frac: 0.35,
        },
        None,
        2,
    );
    assert!(!c.pass);
    assert_eq!(c.measured, "—");
    assert_eq!(c.tolerance, "±35 %");
    assert_eq!(super::percent(0.005 * 100.0), "±0.5 %");
    assert_eq!(num(Some(f64::NEG_INFINITY), 1), "−∞");
}

#[test]
fn tables_hold_every_row_aligned_and_mark_failures() {
    let rows = vec![
        Check::number(
            "W2",
            "< 300 Hz ratio dB",
            Rule::Abs {
                expected: -5.4,
                tol: 1.0,
            },
            Some(-5.35),
            1,
        ),
        Check::equal("C", "output hash", "00ff", "00fe"),
    ];
    let text = text_table(&rows);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4);
    assert!(lines[2].ends_with("pass") && lines[3].ends_with("FAIL"));
    // the result column starts at the same place on every line
    let col = lines[0].find("result").unwrap();
    assert!(lines[2..].iter().all(|l| l.chars().count() >= col));
    assert_eq!(lines[2].char_indices().nth(col).map(|(_, c)| c), Some('p'));
    let md = markdown_table(&rows);
    assert!(
        md.contains("| W2 | < 300 Hz ratio dB | -5.4 | -5.3 | ±1.0 | pass |"),
        "{md}"
    );
    assert!(md.contains("**FAIL**"));
}
