//! The architecture checks itself: crate layering from `cargo metadata`, and the crate list in
//! `ARCHITECTURE.md` against the workspace.
//!
//! An arrow that points the wrong way (a layer depending on one above it, the mixer on ambient,
//! the parser on the fixture world) fails `cargo xtask test`. A new workspace crate must be given
//! its place in `ALLOWED` and a row in `ARCHITECTURE.md`.

/// Each workspace package and the workspace packages it may depend on (normal and build
/// dependencies; dev-dependencies are free, since tests may reach anywhere).
#[cfg(test)]
pub const ALLOWED: &[(&str, &[&str])] = &[
    ("resound-datformat", &[]),
    ("resound-fixture", &["resound-datformat"]),
    ("resound-ambient", &["resound-datformat"]),
    ("resound-acoustics", &[]),
    ("resound-spr", &["resound-acoustics"]),
    ("resound-dsp", &[]),
    ("resound-mixer", &["resound-dsp"]),
    (
        "resound-engine",
        &[
            "resound-datformat",
            "resound-ambient",
            "resound-acoustics",
            "resound-spr",
            "resound-dsp",
            "resound-mixer",
        ],
    ),
    ("resound-benchclock", &[]),
    ("resound-testalloc", &[]),
    // The demo tour, one copy for the tools and the browser: the engine's public API and the
    // fixture's script and signals.
    ("resound-tour", &["resound-engine", "resound-fixture"]),
    (
        "resound-studio",
        &["resound-engine", "resound-fixture", "resound-tour"],
    ),
    // The C ABI: a thin layer over the engine's public API and nothing else.
    ("resound-capi", &["resound-engine"]),
    // The Bevy plugin: the engine's public API and Bevy, nothing beneath.
    ("bevy_resound", &["resound-engine"]),
    // The WebAssembly bindings: the engine's public API, and the fixture world written in
    // memory for a page without dats; the demo tour.
    (
        "resound-wasm",
        &["resound-engine", "resound-fixture", "resound-tour"],
    ),
    (
        "resound",
        &["resound-engine", "resound-fixture", "resound-studio"],
    ),
    // A thin driver: it runs what needs the workspace through `cargo` (tidy_native).
    ("xtask", &[]),
];

/// External crates only one package may use (the device layer lives in the engine).
#[cfg(test)]
pub const ONLY_IN: &[(&str, &str)] = &[("cpal", "resound-engine"), ("alsa", "resound-engine")];

#[cfg(test)]
mod tests {
    use super::{ALLOWED, ONLY_IN};
    use std::collections::{BTreeMap, BTreeSet};

    fn graph() -> BTreeMap<String, BTreeSet<String>> {
        crate::metadata::workspace_graph()
    }

    #[test]
    fn every_arrow_points_down_the_stack() {
        let graph = graph();
        let allowed: BTreeMap<&str, &[&str]> = ALLOWED.iter().copied().collect();
        let members: BTreeSet<&str> = graph.keys().map(String::as_str).collect();
        let mut wrong = Vec::new();
        for (package, deps) in &graph {
            let Some(may) = allowed.get(package.as_str()) else {
                wrong.push(format!("{package} has no place in tidy_layers::ALLOWED"));
                continue;
            };
            for dep in deps {
                if members.contains(dep.as_str()) && !may.contains(&dep.as_str()) {
                    wrong.push(format!("{package} must not depend on {dep}"));
                }
            }
        }
        assert!(wrong.is_empty(), "{wrong:#?}");
    }

    /// dsp stays a leaf: `wide` (portable SIMD on stable), and for the binaural renderer the
    /// kept crates of CRATES.md: `realfft` and `rustfft` (partitioned convolution), `rubato` (resampling
    /// HRIR sets to the mix rate), `sofar` (AES69 SOFA files) and, behind the `hrtf-default`
    /// feature, `firewheel-ircam-hrtf` (the default HRIR set's data); `libm` (the pan law's sine
    /// and cosine with the same bits on every target). Nothing else.
    #[test]
    fn dsp_depends_on_nothing_but_its_kept_crates() {
        const KEPT: &[&str] = &[
            "wide",
            "realfft",
            "rustfft",
            "rubato",
            "sofar",
            "firewheel-ircam-hrtf",
            "libm",
        ];
        let graph = graph();
        let deps = graph.get("resound-dsp").expect("resound-dsp is a member");
        assert!(deps.iter().all(|d| KEPT.contains(&d.as_str())), "{deps:?}");
    }

    #[test]
    fn device_crates_only_in_the_engine() {
        let graph = graph();
        for (dep, only) in ONLY_IN {
            for (package, deps) in &graph {
                assert!(
                    package == only || !deps.contains(*dep),
                    "{package} depends on {dep}; only {only} may"
                );
            }
        }
    }

    /// The `| folder | package | …` rows of the repository's `ARCHITECTURE.md` (the crate table:
    /// rows whose folder is under `crates/` or `tools/`, or is `xtask` or `docs`).
    fn documented_packages() -> BTreeSet<String> {
        let text = std::fs::read_to_string(crate::workspace_root().join("ARCHITECTURE.md"))
            .expect("ARCHITECTURE.md");
        text.lines()
            .filter(|l| {
                ["| `crates/", "| `tools/", "| `xtask`", "| `docs`"]
                    .iter()
                    .any(|p| l.starts_with(p))
            })
            .filter_map(|l| l.split('|').nth(2))
            .map(|c| c.trim().trim_matches('`').to_string())
            .filter(|p| p != "—" && !p.is_empty())
            .collect()
    }

    #[test]
    fn architecture_md_lists_exactly_the_workspace_crates() {
        let members: BTreeSet<String> = graph().into_keys().collect();
        assert_eq!(documented_packages(), members);
    }

    #[test]
    fn architecture_md_names_the_seams() {
        let text = std::fs::read_to_string(crate::workspace_root().join("ARCHITECTURE.md"))
            .expect("ARCHITECTURE.md");
        for seam in [
            "SoundTableSource",
            "LandBlockSource",
            "WorldProbe",
            "MixerRenderer::render",
        ] {
            assert!(
                text.contains(seam),
                "ARCHITECTURE.md does not name the seam {seam}"
            );
        }
    }
}
