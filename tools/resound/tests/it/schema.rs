//! The CLI's one JSON schema (`docs/json.md`, issue 29): every command that takes `--json` is
//! run on the fixture world and its document is checked against the machine-readable blocks of
//! the doc — every key documented, quantity keys with their unit suffix, ids as hex strings,
//! one shape per concept, each command's documented keys present — and a failure with `--json`
//! is one `{"error": …}` object on stderr with the plain exit code.

#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a failed unwrap is a failed test"
)]

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

const DOC: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/json.md"));

const WALK: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../crates/ambient/examples-data/walk.json"
);

/// Kinds whose key must end in `_kind`.
const UNITS: &[&str] = &["s", "ms", "m", "hz", "db", "bytes"];

/// Bare names of quantities: never a key (they need a unit suffix).
const BARE: &[&str] = &[
    "time",
    "distance",
    "decay",
    "size",
    "rate",
    "seconds",
    "delay",
    "range",
    "origin",
    "path_len",
    "duration",
    "sample_rate",
    "effective_decay",
    "min_dist",
    "max_dist",
];

/// The doc's machine-readable blocks.
struct Schema {
    keys: BTreeMap<String, String>,
    /// concept → (where, required keys)
    shapes: Vec<(String, Vec<String>, Vec<String>)>,
    commands: BTreeMap<String, Vec<String>>,
}

fn block<'a>(name: &str) -> impl Iterator<Item = Vec<&'a str>> + use<'a> {
    let start = DOC
        .find(&format!("```{name}\n"))
        .unwrap_or_else(|| panic!("docs/json.md has no {name} block"));
    let body = &DOC[start..];
    let body = &body[body.find('\n').unwrap() + 1..];
    let body = &body[..body.find("```").unwrap()];
    body.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().collect())
}

fn schema() -> Schema {
    let keys = block("schema-keys")
        .map(|w| (w[0].to_owned(), w[1].to_owned()))
        .collect();
    let shapes = block("schema-shapes")
        .map(|w| {
            let places = w[1].split(',').map(str::to_owned).collect();
            let required = w[2..].iter().map(|k| (*k).to_owned()).collect();
            (w[0].to_owned(), places, required)
        })
        .collect();
    let commands = block("schema-commands")
        .map(|w| {
            let keys = w[1..].iter().map(|k| (*k).to_owned()).collect();
            (w[0].to_owned(), keys)
        })
        .collect();
    Schema {
        keys,
        shapes,
        commands,
    }
}

fn is_hex_id(v: &Value) -> bool {
    v.as_str().is_some_and(|s| {
        s.len() == 10
            && s.starts_with("0x")
            && s[2..]
                .chars()
                .all(|c| c.is_ascii_digit() || ('A'..='F').contains(&c))
    })
}

/// `v` is `null`, a value `ok` accepts, or a (nested) list of them.
fn all(v: &Value, ok: &dyn Fn(&Value) -> bool) -> bool {
    match v {
        Value::Null => true,
        Value::Array(items) => items.iter().all(|x| all(x, ok)),
        x => ok(x),
    }
}

impl Schema {
    /// Every way `doc` breaks the schema, one line each (`at` names where).
    fn check(&self, doc: &Value, at: &str) -> Vec<String> {
        let mut errors = Vec::new();
        if !doc.is_object() {
            errors.push(format!("{at}: the top level is not an object"));
        }
        self.walk(doc, at, &mut errors);
        errors
    }

    fn walk(&self, v: &Value, at: &str, errors: &mut Vec<String>) {
        match v {
            Value::Array(items) => {
                for (i, x) in items.iter().enumerate() {
                    self.walk(x, &format!("{at}[{i}]"), errors);
                }
            }
            Value::Object(map) => {
                for (key, x) in map {
                    let here = format!("{at}.{key}");
                    if key == "record" {
                        record_ids(x, &here, errors);
                        continue;
                    }
                    self.key(key, x, &here, errors);
                    self.shape(key, x, &here, errors);
                    self.walk(x, &here, errors);
                }
            }
            _ => {}
        }
    }

    fn key(&self, key: &str, v: &Value, at: &str, errors: &mut Vec<String>) {
        if BARE.contains(&key) {
            errors.push(format!("{at}: a quantity without its unit suffix"));
        }
        let Some(kind) = self.keys.get(key) else {
            errors.push(format!("{at}: key not documented in docs/json.md"));
            return;
        };
        let suffix = UNITS.iter().find(|u| key.ends_with(&format!("_{u}")));
        if let Some(u) = suffix
            && kind != u
        {
            errors.push(format!("{at}: the key says {u}, the doc says {kind}"));
        }
        if (key == "id" || key.ends_with("_id")) && kind != "id" {
            errors.push(format!("{at}: an id key documented as {kind}"));
        }
        let ok = match kind.as_str() {
            k if UNITS.contains(&k) => {
                if suffix.is_none() {
                    errors.push(format!("{at}: a quantity in {k} without the _{k} suffix"));
                }
                all(v, &Value::is_number)
            }
            "id" => v.is_null() || is_hex_id(v),
            "ids" => v.as_array().is_some_and(|l| l.iter().all(is_hex_id)),
            "ratio" => all(v, &Value::is_number),
            "count" => all(v, &|x| x.is_i64() || x.is_u64()),
            "text" => v.is_null() || v.is_string(),
            "flag" => v.is_null() || v.is_boolean(),
            "object" => v.is_null() || v.is_object(),
            "list" => v.is_null() || v.is_array(),
            other => {
                errors.push(format!("{at}: unknown kind {other} in docs/json.md"));
                true
            }
        };
        if !ok {
            errors.push(format!("{at}: {v} is not of kind {kind}"));
        }
    }

    fn shape(&self, key: &str, v: &Value, at: &str, errors: &mut Vec<String>) {
        for (concept, places, required) in &self.shapes {
            for place in places {
                let objects: Vec<&Value> = if place.strip_suffix("[]") == Some(key) {
                    v.as_array().map(|l| l.iter().collect()).unwrap_or_default()
                } else if place == key {
                    vec![v]
                } else {
                    continue;
                };
                for o in objects.into_iter().filter_map(Value::as_object) {
                    for k in required {
                        if !o.contains_key(k) {
                            errors.push(format!("{at}: a {concept} without {k}"));
                        }
                    }
                }
            }
        }
    }

    /// `doc` of `command` in the schema, with the command's documented keys.
    fn assert_command(&self, command: &str, doc: &Value) {
        let mut errors = self.check(doc, command);
        let keys = self
            .commands
            .get(command)
            .unwrap_or_else(|| panic!("docs/json.md documents no command {command}"));
        for k in keys {
            if doc.get(k).is_none() {
                errors.push(format!("{command}: documented key {k} missing"));
            }
        }
        assert!(errors.is_empty(), "{}", errors.join("\n"));
    }
}

/// Inside a dat record: `id` and `*_id` are hex strings.
fn record_ids(v: &Value, at: &str, errors: &mut Vec<String>) {
    match v {
        Value::Array(items) => items.iter().for_each(|x| record_ids(x, at, errors)),
        Value::Object(map) => {
            for (k, x) in map {
                if (k == "id" || k.ends_with("_id")) && !all(x, &is_hex_id) {
                    errors.push(format!("{at}.{k}: {x} is not a hex id"));
                }
                record_ids(x, &format!("{at}.{k}"), errors);
            }
        }
        _ => {}
    }
}

fn resound(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_resound"))
        .args(args)
        .output()
        .expect("the resound binary runs")
}

/// Runs a `--json` command that succeeds; its document.
fn doc(args: &[&str]) -> Value {
    let out = resound(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

fn world() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    assert!(
        resound(&["fixture", "write", dir.path().to_str().unwrap()])
            .status
            .success()
    );
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn the_checker_catches_what_the_schema_forbids() {
    let schema = schema();
    let bad = [
        (r#"{"time": 1.0}"#, "unit suffix"),
        (r#"{"cell_id": 2847146021}"#, "not of kind id"),
        (r#"{"cell_id": "0xa9b40025"}"#, "not of kind id"),
        (r#"{"land_blocks": [2830368767]}"#, "not of kind ids"),
        (r#"{"brand_new": 3}"#, "not documented"),
        (r#"{"taps": [{"delay_ms": 1.0}]}"#, "a tap without path_m"),
        (r#"{"written": [{"file": "a.wav"}]}"#, "without path"),
        (r#"{"record": {"stb_id": 12}}"#, "not a hex id"),
        (r#"[1, 2]"#, "not an object"),
    ];
    for (text, needle) in bad {
        let errors = schema.check(&serde_json::from_str(text).unwrap(), "t");
        assert!(
            errors.iter().any(|e| e.contains(needle)),
            "{text}: {errors:?}"
        );
    }
    let good = r#"{"position": {"cell_id": "0xA9B40025", "origin_m": [1.0, 2.0, 3.0]}}"#;
    assert_eq!(
        schema.check(&serde_json::from_str(good).unwrap(), "t"),
        Vec::<String>::new()
    );
}

#[test]
fn the_doc_documents_units_consistently() {
    let schema = schema();
    for (key, kind) in &schema.keys {
        assert!(!BARE.contains(&key.as_str()), "{key} is a bare quantity");
        if UNITS.contains(&kind.as_str()) {
            assert!(key.ends_with(&format!("_{kind}")), "{key} is in {kind}");
        }
    }
    for (concept, _, required) in &schema.shapes {
        for k in required {
            assert!(schema.keys.contains_key(k), "{concept}: {k} undocumented");
        }
    }
    for (command, keys) in &schema.commands {
        for k in keys {
            assert!(schema.keys.contains_key(k), "{command}: {k} undocumented");
        }
    }
}

#[test]
fn every_json_command_follows_the_schema() {
    let schema = schema();
    let w = world();
    let dir = w.path();
    let out = tempfile::tempdir().unwrap();
    let (portal, cell) = (dir.join("client_portal.dat"), dir.join("client_cell_1.dat"));
    let fixture_dir = out.path().join("fixture");
    schema.assert_command(
        "fixture-write",
        &doc(&["fixture", "write", s(&fixture_dir), "--json"]),
    );
    for dat in [&portal, &cell] {
        let listing = doc(&["dat", "ls", s(dat), "--json"]);
        schema.assert_command("dat-ls", &listing);
        // one dump per record type
        let mut seen = std::collections::BTreeSet::new();
        for e in listing["entries"].as_array().unwrap() {
            if seen.insert(e["record_type"].as_str().unwrap().to_owned()) {
                let id = e["id"].as_str().unwrap();
                schema.assert_command("dat-dump", &doc(&["dat", "dump", s(dat), id, "--json"]));
            }
        }
        assert!(seen.len() >= 3, "{seen:?}");
    }
    schema.assert_command("dat-check", &doc(&["dat", "check", s(dir), "--json"]));
    let ambient = ["ambient", "--dat-dir", s(dir)];
    let with = |extra: &[&str]| -> Vec<String> {
        ambient
            .iter()
            .chain(extra)
            .map(|x| (*x).to_owned())
            .collect()
    };
    let run = |args: Vec<String>| doc(&args.iter().map(String::as_str).collect::<Vec<_>>());
    schema.assert_command(
        "ambient-at",
        &run(with(&["--at", "0xA9B40025:96,96,70", "--json"])),
    );
    let walk = run(with(&["--walk", WALK, "--json"]));
    schema.assert_command("ambient-walk", &walk);
    assert!(walk["entries"].as_array().unwrap().len() > 2);
    let wav = out.path().join("w.wav");
    for policy in ["retail16", "modern"] {
        let args = ["--walk", WALK, "--seconds", "3", "--out", s(&wav)];
        let mut args = with(&args);
        args.extend(["--policy".into(), policy.into(), "--json".into()]);
        schema.assert_command("ambient-out", &run(args));
    }
    let at_out = ["--at", "0xA9B40025:96,96,70", "--seconds", "2", "--out"];
    let mut args = with(&at_out);
    args.extend([s(&wav).to_owned(), "--json".into()]);
    schema.assert_command("ambient-out", &run(args));
    for scene in ["G", "R", "W2"] {
        schema.assert_command(
            "acoustics-scene",
            &doc(&["acoustics", "--scene", scene, "--json"]),
        );
    }
    let terrain = doc(&[
        "acoustics",
        "--dat-dir",
        s(dir),
        "--listener",
        "0xA9B40025:96,96,70",
        "--source",
        "0xA9B40025:110,110,70",
        "--json",
    ]);
    schema.assert_command("acoustics-terrain", &terrain);
    assert_eq!(terrain["ac_listener"]["cell_id"], "0xA9B40025");
    let rendered = out.path().join("r.wav");
    for scene in ["G", "R"] {
        let args = ["render", scene, "--seconds", "0.5", "--out", s(&rendered)];
        let mut args = args.to_vec();
        args.push("--json");
        let d = doc(&args);
        schema.assert_command("render", &d);
        assert!(!d["taps"].as_array().unwrap().is_empty() || scene != "G");
        // The propagation delay at the start: distance / 343 m/s (mode full), and the factor.
        let delay = d["direct"]["delay_ms"].as_f64().unwrap();
        let distance = d["distance_m"].as_f64().unwrap();
        let path = d["direct"]["path_m"].as_f64().unwrap_or(distance);
        assert!((delay - path / 343.0 * 1e3).abs() < 1e-3, "{delay} {path}");
        assert!(delay > 0.0);
        assert_eq!(d["direct"]["doppler"].as_f64(), Some(1.0));
    }
    schema.assert_command("devices", &doc(&["devices", "--json"]));
    let demo_dir = out.path().join("demo");
    schema.assert_command(
        "demo",
        &doc(&["demo", "--seconds", "3", "--out", s(&demo_dir), "--json"]),
    );
    // play needs an audio device: its document where one opens, a failure document where not
    let played = resound(&["play", "G", "--seconds", "0.1", "--json"]);
    if played.status.success() {
        schema.assert_command("play", &serde_json::from_slice(&played.stdout).unwrap());
    } else {
        assert_eq!(played.status.code(), Some(3));
        failure_document(&played);
    }
}

/// Asserts stderr is one `{"error": "…"}` object (and stdout empty).
fn failure_document(out: &Output) -> String {
    let err = String::from_utf8(out.stderr.clone()).unwrap();
    assert_eq!(err.trim_end().lines().count(), 1, "{err:?}");
    let doc: Value = serde_json::from_str(&err).unwrap_or_else(|e| panic!("{err:?}: {e}"));
    let map = doc.as_object().unwrap();
    assert_eq!(map.len(), 1, "{err}");
    assert!(out.stdout.is_empty());
    let line = map["error"].as_str().unwrap().to_owned();
    assert!(!line.is_empty() && !line.starts_with("error:"), "{line:?}");
    line
}

#[test]
fn a_failure_with_json_is_one_error_object_with_the_same_exit_code() {
    let w = world();
    let portal = w.path().join("client_portal.dat");
    // a missing entry: exit 1, plain and as JSON
    let args = ["dat", "dump", s(&portal), "0x99"];
    let plain = resound(&args);
    assert_eq!(plain.status.code(), Some(1));
    let json = resound(&[&args[..], &["--json"]].concat());
    assert_eq!(json.status.code(), Some(1));
    let line = failure_document(&json);
    let plain_line = String::from_utf8(plain.stderr).unwrap();
    assert_eq!(plain_line.trim_end(), format!("error: {line}"));
    // a usage error: exit 2
    let usage = resound(&["acoustics", "--json", "--mode", "loud", "--scene", "G"]);
    assert_eq!(usage.status.code(), Some(2));
    assert!(failure_document(&usage).contains("--mode"));
    // a bad scene file
    let bad = w.path().join("bad.json");
    std::fs::write(&bad, "{").unwrap();
    let out = resound(&["acoustics", "--scene", s(&bad), "--json"]);
    assert_eq!(out.status.code(), Some(1));
    failure_document(&out);
}

#[test]
fn ids_are_read_as_hex_or_decimal() {
    let w = world();
    let portal = w.path().join("client_portal.dat");
    let hex = doc(&["dat", "dump", s(&portal), "0x0A000101", "--json"]);
    let dec = doc(&["dat", "dump", s(&portal), "167772417", "--json"]);
    assert_eq!(hex, dec);
    assert_eq!(hex["id"], "0x0A000101");
    assert_eq!(hex["record"]["id"], "0x0A000101");
}

#[test]
fn no_debug_text_in_text_output() {
    let out = tempfile::tempdir().unwrap();
    let wav = out.path().join("r.wav");
    for args in [
        vec!["render", "G", "--seconds", "0.5", "--out", s(&wav)],
        vec!["acoustics", "--scene", "G"],
    ] {
        let o = resound(&args);
        assert!(o.status.success(), "{args:?}");
        let text = String::from_utf8(o.stdout).unwrap();
        for debug in ["Some(", "None", "Full", "Direct)"] {
            assert!(!text.contains(debug), "{args:?}: {debug} in {text}");
        }
    }
}
