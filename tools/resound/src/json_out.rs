//! The one JSON schema of the CLI (`docs/json.md`): every `--json` document passes through
//! [`normalize`] before it is printed, so the documents the lower crates serialize (a dat
//! listing, an ambient rebuild, a walk log) come out with the same keys as the ones the CLI
//! builds itself: ids as `"0x0A000101"` strings, quantity keys with their unit suffix, one
//! shape per concept.

use serde_json::{Map, Value};

/// Keys renamed wherever they occur (outside a dat record): the lower crates' names on the
/// left, the schema's on the right.
const RENAMES: &[(&str, &str)] = &[
    ("objcell_id", "cell_id"),
    ("cell", "cell_id"),
    ("origin", "origin_m"),
    ("player_pos", "player_position"),
    ("min_dist", "min_distance_m"),
    ("max_dist", "max_distance_m"),
    ("time", "time_s"),
    ("distance", "distance_m"),
    ("db", "gain_db"),
    ("ambient_sound_id", "ambient_sound_index"),
    ("size", "size_bytes"),
    ("file_size", "file_size_bytes"),
    ("block_size", "block_size_bytes"),
    ("offset", "offset_bytes"),
    ("raw_date", "raw_date_s"),
    ("sample_rate", "sample_rate_hz"),
    ("center_landblock", "center_landblock_id"),
];

/// Keys whose values are dat ids (one, or a list): written as `"0xXXXXXXXX"`.
const ID_KEYS: &[&str] = &[
    "id",
    "cell_id",
    "stb_id",
    "wave_id",
    "region_id",
    "missing_stb_id",
    "center_landblock_id",
    "land_blocks",
    "missing_land_blocks",
];

/// Keys left out: the schema has one spelling of an id (`id_hex` duplicated `id`).
const DROPPED: &[&str] = &["id_hex"];

/// The key under which a dat record is printed with the file format's own field names
/// (DatReaderWriter's, snake_case); inside it only ids change (`id`, `*_id` → hex).
pub const RECORD_KEY: &str = "record";

/// `id` as the schema writes every id: `0x` and eight upper-case hex digits.
#[must_use]
pub fn hex(id: u32) -> String {
    format!("0x{id:08X}")
}

/// A file a command wrote, the schema's one shape for it: `{path, format}`.
#[must_use]
pub fn written(path: &std::path::Path, format: &str) -> Value {
    serde_json::json!({ "path": path.display().to_string(), "format": format })
}

/// The `--json` error document: `{"error": "…"}`.
#[must_use]
pub fn error_doc(line: &str) -> String {
    serde_json::json!({ "error": line }).to_string()
}

/// Rewrites `doc` into the schema (see the module docs); a top-level array becomes
/// `{"entries": [...]}` so the top level is always an object.
#[must_use]
pub fn normalize(doc: Value) -> Value {
    let doc = match doc {
        Value::Array(list) => serde_json::json!({ "entries": list }),
        other => other,
    };
    fix(doc, 0)
}

fn id_value(v: Value) -> Value {
    match v {
        Value::Number(n) => match n.as_u64().and_then(|x| u32::try_from(x).ok()) {
            Some(id) => Value::String(hex(id)),
            None => Value::Number(n),
        },
        Value::Array(list) => Value::Array(list.into_iter().map(id_value).collect()),
        other => other,
    }
}

fn fix(v: Value, depth: usize) -> Value {
    match v {
        Value::Array(list) => Value::Array(list.into_iter().map(|x| fix(x, depth + 1)).collect()),
        Value::Object(map) => {
            let mut out = Map::with_capacity(map.len());
            for (key, value) in map {
                if DROPPED.contains(&key.as_str()) {
                    continue;
                }
                if key == RECORD_KEY {
                    out.insert(key, record_ids(value));
                    continue;
                }
                let key = match RENAMES.iter().find(|(from, _)| *from == key) {
                    Some((_, to)) => (*to).to_owned(),
                    // an error inside a document is a reason; `error` is the failure document's
                    None if key == "error" && depth > 0 => "reason".to_owned(),
                    None => key,
                };
                // `dat check`'s per-dat counts: `entries` is the schema's list of entries
                let key = if key == "entries" && value.is_object() {
                    "tally".to_owned()
                } else {
                    key
                };
                let value = if ID_KEYS.contains(&key.as_str()) {
                    id_value(value)
                } else if key == "outcome" {
                    outcome(value)
                } else {
                    value
                };
                out.insert(key, fix(value, depth + 1));
            }
            Value::Object(out)
        }
        other => other,
    }
}

/// An ambient event's outcome is tagged `outcome` inside itself: the tag becomes `action`.
fn outcome(v: Value) -> Value {
    match v {
        Value::Object(mut map) => {
            if let Some(tag) = map.remove("outcome") {
                map.insert("action".to_owned(), tag);
            }
            Value::Object(map)
        }
        other => other,
    }
}

/// A dat record: field names kept; `id` and `*_id` integers written as hex.
fn record_ids(v: Value) -> Value {
    match v {
        Value::Array(list) => Value::Array(list.into_iter().map(record_ids).collect()),
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| {
                    let v = if k == "id" || k.ends_with("_id") {
                        id_value(v)
                    } else {
                        record_ids(v)
                    };
                    (k, v)
                })
                .collect(),
        ),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_become_hex_and_keys_get_units() {
        let doc = serde_json::json!({
            "position": { "objcell_id": 2847146021_u32, "origin": [96.0, 96.0, 70.0] },
            "land_blocks": [2830368767_u32],
            "events": [{ "time": 1.5, "outcome": { "outcome": "play", "db": -12 } }],
            "record": { "id": 318767104, "stb_id": 536870929, "square_length": 24.0 },
        });
        let out = normalize(doc);
        assert_eq!(out["position"]["cell_id"], "0xA9B40025");
        assert_eq!(out["position"]["origin_m"][2], 70.0);
        assert_eq!(out["land_blocks"][0], "0xA8B3FFFF");
        assert_eq!(out["events"][0]["time_s"], 1.5);
        assert_eq!(out["events"][0]["outcome"]["action"], "play");
        assert_eq!(out["events"][0]["outcome"]["gain_db"], -12);
        assert_eq!(out["record"]["id"], "0x13000000");
        assert_eq!(out["record"]["stb_id"], "0x20000011");
        assert_eq!(out["record"]["square_length"], 24.0);
    }

    #[test]
    fn a_top_level_list_becomes_an_object() {
        let out = normalize(serde_json::json!([1, 2]));
        assert_eq!(out, serde_json::json!({ "entries": [1, 2] }));
    }
}
