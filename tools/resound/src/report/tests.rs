//! Tests of the one-line error report.
use super::*;

#[test]
fn repeated_causes_are_said_once() {
    let inner = std::io::Error::other("number out of range at line 1 column 9");
    let err =
        anyhow::Error::new(inner).context("scene JSON: number out of range at line 1 column 9");
    assert_eq!(
        one_line(&err),
        "scene JSON: number out of range at line 1 column 9"
    );
}

#[test]
fn causes_are_joined_on_one_line() {
    let err = anyhow::anyhow!("bad byte\nat offset 7").context("reading Region 0x13000000");
    assert_eq!(
        one_line(&err),
        "reading Region 0x13000000: bad byte at offset 7"
    );
}

#[test]
fn escapes_are_removed() {
    assert_eq!(plain("\u{1b}[1mbold\u{1b}[0m text\t\u{7}"), "bold text");
}
