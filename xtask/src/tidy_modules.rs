//! The house rules ARCHITECTURE.md states, as tests:
//!
//! - no module over `MAX_LINES` (800) lines of code outside its tests, but for the few listed in
//!   `LONG_MODULES` with the reason each is kept whole;
//! - only the engine talks to the mixer: no other workspace crate depends on `resound-mixer`
//!   (normal or build dependency);
//! - bridges never reach into dsp: the engine's bridges (`crates/engine/src/sound/`) turn
//!   decoded bytes and runtime events into play requests and name no `resound_dsp` item; the
//!   signal processing is the mixer's business.

/// The most lines a module may hold before its inline `#[cfg(test)]` block.
#[cfg(test)]
pub const MAX_LINES: usize = 800;

/// Modules allowed past [`MAX_LINES`], and why.
#[cfg(test)]
pub const LONG_MODULES: &[(&str, &str)] = &[
    (
        "crates/acoustics-core/src/ray/dda.rs",
        "the voxel walk and its section skips: one hot loop tuned by instruction counts; \
         splitting it moved code out of the inliner's reach",
    ),
    (
        "crates/engine/src/runtime.rs",
        "the `Engine` facade: every public method with its documentation, and the play path \
         that joins the parts (play, ended voices, the ambient frame); a part that held the \
         play path would import the facade back",
    ),
    (
        "crates/ambient/src/ambient.rs",
        "the retail `Ambient` object, ported function by function next to its addresses",
    ),
];

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::{LONG_MODULES, MAX_LINES};

    /// The library and binary sources of the workspace: `src/` trees under crates, tools and
    /// xtask, test files (`tests.rs`, `tests/` folders) left out.
    fn sources() -> Vec<PathBuf> {
        fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
            let Ok(read) = std::fs::read_dir(dir) else {
                return;
            };
            let mut entries: Vec<PathBuf> = read.flatten().map(|e| e.path()).collect();
            entries.sort();
            for path in entries {
                let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
                if path.is_dir() {
                    if name != "tests" && name != "target" && !name.starts_with('.') {
                        walk(&path, out);
                    }
                } else if name.ends_with(".rs") && name != "tests.rs" {
                    out.push(path);
                }
            }
        }
        let root = crate::workspace_root();
        let mut files = Vec::new();
        for top in ["crates", "tools", "xtask"] {
            let Ok(read) = std::fs::read_dir(root.join(top)) else {
                continue;
            };
            let mut crates: Vec<PathBuf> = read.flatten().map(|e| e.path()).collect();
            crates.sort();
            for krate in crates {
                let src = if top == "xtask" {
                    root.join("xtask/src")
                } else {
                    krate.join("src")
                };
                walk(&src, &mut files);
                if top == "xtask" {
                    break;
                }
            }
        }
        files.dedup();
        assert!(files.len() > 50, "found only {} sources", files.len());
        files
    }

    /// Lines of `text` before an inline test module (`#[cfg(test)]` followed by `mod tests {`).
    fn code_lines(text: &str) -> usize {
        let lines: Vec<&str> = text.lines().collect();
        lines
            .windows(2)
            .position(|w| {
                w[0].trim() == "#[cfg(test)]" && w[1].trim_start().starts_with("mod tests {")
            })
            .unwrap_or(lines.len())
    }

    #[test]
    fn no_module_is_over_the_line_limit_but_the_listed_ones() {
        let root = crate::workspace_root();
        let mut long = Vec::new();
        let mut listed_and_short = Vec::new();
        for file in sources() {
            let rel = file
                .strip_prefix(&root)
                .unwrap_or(&file)
                .to_string_lossy()
                .replace('\\', "/");
            let text = std::fs::read_to_string(&file).unwrap();
            let n = code_lines(&text);
            let listed = LONG_MODULES.iter().any(|(path, _)| *path == rel);
            if n > MAX_LINES && !listed {
                long.push(format!("{rel}: {n} lines"));
            }
            if listed && n <= MAX_LINES {
                listed_and_short.push(rel);
            }
        }
        assert!(
            long.is_empty(),
            "modules over {MAX_LINES} lines (split them by job, or list one in \
             tidy_modules::LONG_MODULES with the reason): {long:#?}"
        );
        assert!(
            listed_and_short.is_empty(),
            "listed in LONG_MODULES but now short enough: take them off: {listed_and_short:?}"
        );
    }

    #[test]
    fn code_lines_stop_at_the_inline_tests() {
        let text = "a\nb\n#[cfg(test)]\nmod tests {\n    x\n}\n";
        assert_eq!(code_lines(text), 2);
        assert_eq!(code_lines("a\n#[cfg(test)]\nmod tests;\nb\n"), 4);
    }

    #[test]
    fn only_the_engine_talks_to_the_mixer() {
        let users: Vec<String> = crate::metadata::workspace_graph()
            .into_iter()
            .filter(|(_, deps)| deps.contains("resound-mixer"))
            .map(|(name, _)| name)
            .collect();
        assert_eq!(
            users,
            ["resound-engine"],
            "crates depending on resound-mixer"
        );
    }

    #[test]
    fn bridges_never_reach_into_dsp() {
        let dir = crate::workspace_root().join("crates/engine/src/sound");
        let mut reaching = Vec::new();
        let mut files = 0;
        for entry in std::fs::read_dir(&dir)
            .expect("crates/engine/src/sound")
            .flatten()
        {
            let path = entry.path();
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            files += 1;
            let text = std::fs::read_to_string(&path).unwrap();
            for (i, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                if code.contains("resound_dsp") || code.contains("crate::dsp") {
                    reaching.push(format!("{}:{}: {}", path.display(), i + 1, line.trim()));
                }
            }
        }
        assert!(files > 0, "no bridge sources in {}", dir.display());
        assert!(
            reaching.is_empty(),
            "the bridges name dsp items (play requests only; the mixer does the signal \
             processing): {reaching:#?}"
        );
    }
}
