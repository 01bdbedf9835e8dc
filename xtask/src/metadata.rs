//! `cargo metadata` for the tidy tests: run once per question, parsed to JSON, and the
//! workspace's dependency graph built from it.

use std::collections::{BTreeMap, BTreeSet};

/// `cargo metadata --format-version 1 --offline ARGS` in the workspace root, parsed.
///
/// # Panics
/// When cargo does not run or its output is not JSON (a test failure with cargo's message).
pub fn cargo_metadata(args: &[&str]) -> serde_json::Value {
    let out = std::process::Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--offline"])
        .args(args)
        .current_dir(crate::workspace_root())
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("metadata JSON")
}

/// Workspace package → its normal and build dependencies (by package name; dev-dependencies
/// left out, since tests may reach anywhere).
pub fn workspace_graph() -> BTreeMap<String, BTreeSet<String>> {
    let doc = cargo_metadata(&["--no-deps"]);
    let mut graph = BTreeMap::new();
    for package in doc["packages"].as_array().expect("packages") {
        let name = package["name"].as_str().expect("name").to_string();
        let deps = package["dependencies"]
            .as_array()
            .expect("dependencies")
            .iter()
            .filter(|d| d["kind"].as_str() != Some("dev"))
            .map(|d| d["name"].as_str().expect("dep name").to_string())
            .collect();
        graph.insert(name, deps);
    }
    graph
}
