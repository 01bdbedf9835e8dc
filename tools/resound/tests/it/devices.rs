//! `resound devices`: lists the output devices; where none can be opened, one line and no ALSA
//! noise on stderr. ALSA is pointed at a test configuration through `HOME/.asoundrc` or
//! `ALSA_CONFIG_PATH`, so the tests do not depend on the machine's sound cards.

// Test helpers outside #[test] fns unwrap too (clippy.toml only covers #[test] bodies).
#![allow(clippy::unwrap_used)]
#![cfg(target_os = "linux")]

use std::process::{Command, Output};

fn devices(home_rc: Option<&str>, config: Option<&str>, json: bool) -> Output {
    let home = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_resound"));
    cmd.arg("devices").env("HOME", home.path());
    if json {
        cmd.arg("--json");
    }
    if let Some(rc) = home_rc {
        let rc = rc.replace("{dir}", home.path().to_str().unwrap());
        std::fs::write(home.path().join(".asoundrc"), rc).unwrap();
    }
    match config {
        Some(c) => {
            let path = home.path().join("asound.conf");
            std::fs::write(&path, c).unwrap();
            cmd.env("ALSA_CONFIG_PATH", path);
        }
        None => {
            cmd.env_remove("ALSA_CONFIG_PATH");
        }
    }
    cmd.output().unwrap()
}

/// A whole ALSA configuration whose only PCM is a card that is not there (without silencing,
/// ALSA prints `confmisc.c:165:(snd_config_get_card) Cannot get card index for nosuch`).
const NOTHING_WORKS: &str = "pcm.!default { type hw card nosuch }\n";

#[test]
fn no_openable_device_is_one_line_and_a_quiet_stderr() {
    let out = devices(None, Some(NOTHING_WORKS), false);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(stderr, "", "ALSA noise reached stderr");
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    assert!(
        stdout.starts_with(
            "no audio output device can be opened (ALSA: default: device not available"
        ),
        "{stdout}"
    );
}

#[test]
fn no_openable_device_in_json() {
    let out = devices(None, Some(NOTHING_WORKS), true);
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["usable"], 0);
    let list = doc["devices"].as_array().unwrap();
    assert!(list.iter().all(|d| d["reason"].is_string()), "{doc}");
    assert!(
        list.iter()
            .any(|d| d["selector"] == "default" && d["default"] == true)
    );
}

/// The stock configuration naming a card that is not there (ALSA would print five lines of
/// `parse_card`/`snd_func_*` errors). On a machine without sound cards (CI) only `null` opens,
/// and it plays nowhere; a machine with cards lists them too.
const MISSING_CARD: &str = "pcm.!default \"sysdefault:CARD=nosuch\"\n";

#[test]
fn a_missing_default_card_is_one_line_without_alsa_noise() {
    let out = devices(Some(MISSING_CARD), None, false);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    let why = "device not available; parse_card: cannot find card 'nosuch'";
    if stdout.lines().count() == 1 {
        assert_eq!(
            stdout,
            format!("no audio output device can be opened (ALSA: default: {why})\n")
        );
    } else {
        // Real cards on this machine: the default is still listed with its reason.
        let default = stdout.lines().find(|l| l.starts_with("default")).unwrap();
        assert!(
            default.ends_with(&format!("cannot be opened: {why}")),
            "{stdout}"
        );
    }
}

#[test]
fn a_missing_default_card_in_json_lists_the_reason_and_the_null_device() {
    let out = devices(Some(MISSING_CARD), None, true);
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let list = doc["devices"].as_array().unwrap();
    let default = list.iter().find(|d| d["selector"] == "default").unwrap();
    let why = default["reason"].as_str().unwrap();
    assert!(why.contains("cannot find card 'nosuch'"), "{why}");
    let null = list.iter().find(|d| d["selector"] == "null").unwrap();
    assert_eq!(null["discards"], true);
    let usable = list
        .iter()
        .filter(|d| d["reason"].is_null() && d["discards"] == false)
        .count();
    assert_eq!(doc["usable"], usable);
}

#[test]
fn an_openable_default_shows_its_default_config() {
    let rc =
        "pcm.!default { type file  slave.pcm \"null\"  file \"{dir}/c.raw\"  format \"raw\" }\n";
    let out = devices(Some(rc), None, true);
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let default = doc["devices"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["default"] == true)
        .unwrap()
        .clone();
    assert_eq!(default["host"], "ALSA");
    assert_eq!(default["channels"], 2);
    assert!(
        default["sample_rate_hz"].as_u64().unwrap() >= 8_000,
        "{default}"
    );
    assert!(["f32", "i16", "u16", "i32"].contains(&default["format"].as_str().unwrap()));
    assert!(doc["usable"].as_u64().unwrap() >= 1);
}
