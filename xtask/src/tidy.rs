//! Tidy checks that run as ordinary `#[test]`s, so a plain `cargo test` enforces policy.
//!
//! - every Rust source file opens with a `//!` module doc (after an SPDX line in the GPL crate);
//! - GPL licence headers appear only in `crates/spr-gpl`;
//! - no default feature of any member turns `spr-gpl` on.

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(read) = std::fs::read_dir(dir) else {
            return;
        };
        let mut entries: Vec<_> = read.filter_map(Result::ok).map(|e| e.path()).collect();
        entries.sort();
        for path in entries {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if path.is_dir() {
                if name != "target" && !name.starts_with('.') {
                    rust_files(&path, out);
                }
            } else if name.ends_with(".rs") {
                out.push(path);
            }
        }
    }

    fn sources() -> Vec<PathBuf> {
        let root = crate::workspace_root();
        let mut files = Vec::new();
        for top in ["crates", "tools", "xtask"] {
            rust_files(&root.join(top), &mut files);
        }
        assert!(
            !files.is_empty(),
            "no sources found under {}",
            root.display()
        );
        files
    }

    #[test]
    fn every_file_opens_with_a_module_doc() {
        let mut missing = Vec::new();
        for file in sources() {
            let text = std::fs::read_to_string(&file).unwrap();
            let first = text
                .lines()
                .find(|l| !l.trim().is_empty() && !l.starts_with("// SPDX-License-Identifier"))
                .unwrap_or("");
            if !first.starts_with("//!") {
                missing.push(file.display().to_string());
            }
        }
        assert!(
            missing.is_empty(),
            "files without a leading //! doc: {missing:#?}"
        );
    }

    /// The SPDX line every GPL file opens with (built so this file does not carry it).
    fn gpl_spdx() -> String {
        format!(
            "// SPDX-License-Identifier: {}",
            concat!("GPL", "-3.0-only")
        )
    }

    #[test]
    fn gpl_headers_only_in_the_gpl_crate() {
        let gpl_dir = crate::workspace_root().join("crates").join("spr-gpl");
        let mut wrong = Vec::new();
        for file in sources() {
            if file.starts_with(&gpl_dir) {
                let text = std::fs::read_to_string(&file).unwrap();
                if !text.starts_with(&gpl_spdx()) {
                    wrong.push(format!("{} lacks its SPDX line", file.display()));
                }
                continue;
            }
            let text = std::fs::read_to_string(&file).unwrap();
            if text.contains(&gpl_spdx()) {
                wrong.push(format!("{} carries a GPL header", file.display()));
            }
        }
        assert!(wrong.is_empty(), "{wrong:#?}");
    }

    #[test]
    fn no_member_enables_spr_gpl_by_default() {
        let root = crate::workspace_root();
        for manifest in ["crates/engine/Cargo.toml", "tools/resound/Cargo.toml"] {
            let text = std::fs::read_to_string(root.join(manifest)).unwrap();
            for line in text.lines() {
                let line = line.trim();
                if line.starts_with("default") && line.contains('=') {
                    assert!(
                        !line.contains("spr-gpl"),
                        "{manifest}: `{line}` turns spr-gpl on"
                    );
                }
            }
        }
    }
}
