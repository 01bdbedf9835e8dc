//! Finding a top-level key's value in JSON text without building anything: a byte scanner that
//! steps over strings (with their escapes), numbers, literals and nested brackets.

use std::ops::Range;

/// The byte range of the value of `key` in the top-level object of `text` (the last one if the
/// key repeats, as serde keeps the last); `None` when `text` is not an object this scanner can
/// step through, or has no such key.
pub fn top_level_value(text: &str, key: &str) -> Option<Range<usize>> {
    let b = text.as_bytes();
    let mut at = skip_ws(b, 0);
    if b.get(at) != Some(&b'{') {
        return None;
    }
    at = skip_ws(b, at + 1);
    let mut found = None;
    if b.get(at) == Some(&b'}') {
        return None;
    }
    loop {
        let key_end = string_end(b, at)?;
        let name = &text[at + 1..key_end - 1];
        at = skip_ws(b, key_end);
        if b.get(at) != Some(&b':') {
            return None;
        }
        let start = skip_ws(b, at + 1);
        let end = value_end(b, start)?;
        if name == key {
            found = Some(start..end);
        }
        at = skip_ws(b, end);
        match b.get(at) {
            Some(b',') => at = skip_ws(b, at + 1),
            Some(b'}') => return found,
            _ => return None,
        }
    }
}

fn skip_ws(b: &[u8], mut at: usize) -> usize {
    while matches!(b.get(at), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        at += 1;
    }
    at
}

/// The end (one past the closing quote) of the string starting at `at`.
fn string_end(b: &[u8], at: usize) -> Option<usize> {
    if b.get(at) != Some(&b'"') {
        return None;
    }
    let mut i = at + 1;
    loop {
        match b.get(i)? {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
}

/// The end of the value starting at `at`: a string, or everything up to the bracket that
/// closes the one opened here, or a bare number or literal.
fn value_end(b: &[u8], at: usize) -> Option<usize> {
    match b.get(at)? {
        b'"' => string_end(b, at),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut i = at;
            loop {
                match b.get(i)? {
                    b'"' => {
                        i = string_end(b, i)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(i + 1);
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
        }
        _ => {
            let mut i = at;
            while b
                .get(i)
                .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'+' | b'.'))
            {
                i += 1;
            }
            (i > at).then_some(i)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_value_of_a_top_level_key_only() {
        let text = r#" { "a": {"expected": 1}, "s": "x\"}]", "expected" : [1, [2, {"k": "]"}], 3e5] , "z": null }"#;
        let r = top_level_value(text, "expected").unwrap();
        assert_eq!(&text[r], r#"[1, [2, {"k": "]"}], 3e5]"#);
        let r = top_level_value(text, "z").unwrap();
        assert_eq!(&text[r], "null");
        assert_eq!(top_level_value(text, "k"), None);
        assert_eq!(
            top_level_value(r#"{"expected": -1.5e3}"#, "expected"),
            Some(13..19)
        );
    }

    #[test]
    fn text_that_is_not_an_object_is_left_alone() {
        for text in [
            "",
            "[1]",
            "{",
            r#"{"a" 1}"#,
            r#"{"a": [1}"#,
            r#"{"a": "x"#,
            "{} x",
            "{\"a\":1,}",
        ] {
            assert_eq!(top_level_value(text, "a"), None, "{text}");
        }
    }

    /// A deterministic random JSON value (xorshift), nested up to `depth`.
    fn value(seed: &mut u64, depth: u32) -> serde_json::Value {
        let mut next = || {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            *seed
        };
        let pick = next() % if depth == 0 { 4 } else { 6 };
        let n = next();
        match pick {
            0 => serde_json::Value::Null,
            1 => serde_json::json!(f64::from(n as u32) / 7.0 - 1e5),
            2 => serde_json::json!(n % 2 == 0),
            3 => {
                let chars = ['a', '"', '\\', '}', ']', '{', '[', ',', ':', 'é', '\n', ' '];
                let text: String = (0..n % 9)
                    .map(|i| chars[((n >> (i * 4)) % chars.len() as u64) as usize])
                    .collect();
                serde_json::Value::String(text)
            }
            4 => serde_json::Value::Array((0..n % 5).map(|_| value(seed, depth - 1)).collect()),
            _ => serde_json::Value::Object(
                (0..n % 5)
                    .map(|i| (format!("k{i}"), value(seed, depth - 1)))
                    .collect(),
            ),
        }
    }

    #[test]
    fn every_key_of_random_documents_is_found_at_its_value() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for round in 0..2000 {
            let mut doc = serde_json::Map::new();
            for k in 0..(round % 6) {
                doc.insert(format!("key{k}"), value(&mut seed, 3));
            }
            let doc = serde_json::Value::Object(doc);
            for text in [doc.to_string(), serde_json::to_string_pretty(&doc).unwrap()] {
                for (key, expected) in doc.as_object().unwrap() {
                    let r = top_level_value(&text, key).unwrap_or_else(|| panic!("{text}"));
                    let found: serde_json::Value = serde_json::from_str(&text[r]).unwrap();
                    assert_eq!(&found, expected, "{text}");
                }
                assert_eq!(top_level_value(&text, "absent"), None);
                // any cut of the text is stepped through without a panic
                for cut in (0..text.len())
                    .filter(|&c| text.is_char_boundary(c))
                    .step_by(7)
                {
                    let _ = top_level_value(&text[..cut], "key0");
                }
            }
        }
    }
}
