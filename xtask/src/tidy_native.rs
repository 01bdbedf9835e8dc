//! The fresh-machine guarantee as a test: xtask, and the engine and the Bevy plugin without
//! their default features, link no system library.
//!
//! A crate that links a native library declares it with a `links` key in its manifest
//! (`alsa-sys` → `asound`, `yeslogic-fontconfig-sys` → `fontconfig`, `freetype-sys` →
//! `freetype`, …), and its build script fails where the library's headers are missing. xtask
//! must build on a machine with nothing but the Rust toolchain, because it is what installs
//! those headers; a game server or an offline tool must be able to link the engine with
//! `default-features = false` on such a machine too. `cargo metadata` tells which packages have
//! a `links` key; `cargo tree` tells which packages each build pulls in (with its own feature
//! resolution, normal and build dependencies, on this host).

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    /// This machine's target triple (`rustc -vV`'s `host:` line).
    fn host() -> String {
        let out = std::process::Command::new("rustc")
            .arg("-vV")
            .output()
            .expect("rustc -vV runs");
        let text = String::from_utf8_lossy(&out.stdout);
        text.lines()
            .find_map(|l| l.strip_prefix("host: "))
            .expect("rustc -vV prints the host")
            .trim()
            .to_owned()
    }

    /// Every package built on this host that declares `links`: `name version` → the library.
    fn linking_packages() -> BTreeMap<String, String> {
        let doc = crate::metadata::cargo_metadata(&["--locked", "--filter-platform", &host()]);
        let mut linking = BTreeMap::new();
        for pkg in doc["packages"].as_array().expect("packages") {
            if let Some(lib) = pkg["links"].as_str() {
                let name = pkg["name"].as_str().unwrap_or_default();
                let version = pkg["version"].as_str().unwrap_or_default();
                linking.insert(format!("{name} {version}"), lib.to_owned());
            }
        }
        linking
    }

    /// The packages (`name version`) a build of `package` with `features` compiles: normal and
    /// build dependencies, features resolved as `cargo build -p package features` would.
    fn closure(package: &str, features: &[&str]) -> Vec<String> {
        let mut cmd = std::process::Command::new(env!("CARGO"));
        cmd.args(["tree", "--locked", "--offline", "-p", package])
            .args(features)
            .args(["-e", "normal,build", "--prefix", "none", "--format", "{p}"])
            .current_dir(crate::workspace_root());
        let out = cmd.output().expect("cargo tree runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut names: Vec<String> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|line| {
                let mut words = line.split_whitespace();
                let name = words.next()?;
                let version = words.next()?.trim_start_matches('v');
                Some(format!("{name} {version}"))
            })
            .collect();
        names.sort();
        names.dedup();
        names
    }

    /// The packages of `closure` that link a system library, as `name version (links lib)`.
    fn native_in(closure: &[String], linking: &BTreeMap<String, String>) -> Vec<String> {
        closure
            .iter()
            .filter_map(|p| linking.get(p).map(|lib| format!("{p} (links {lib})")))
            .collect()
    }

    /// A headless Bevy server or test links the plugin with `default-features = false`: no
    /// sound card, no system library (Bevy's own crates included).
    #[test]
    fn the_bevy_plugin_without_default_features_links_nothing_native() {
        let linking = linking_packages();
        let plugin = closure("bevy_resound", &["--no-default-features"]);
        assert!(
            plugin.iter().any(|p| p.starts_with("bevy_ecs ")),
            "cargo tree found no dependencies of bevy_resound: {plugin:?}"
        );
        let native = native_in(&plugin, &linking);
        assert!(
            native.is_empty(),
            "bevy_resound with default-features = false must build with no system library, \
             but its dependencies link: {native:?}"
        );
    }

    #[test]
    fn xtask_links_nothing_native() {
        let linking = linking_packages();
        let xtask = closure("xtask", &[]);
        assert!(
            xtask.iter().any(|p| p.starts_with("anyhow ")),
            "cargo tree found no dependencies of xtask: {xtask:?}"
        );
        let native = native_in(&xtask, &linking);
        assert!(
            native.is_empty(),
            "xtask must build with nothing but the Rust toolchain (it installs the system \
             prerequisites), but its dependencies link system libraries: {native:?}; run what \
             needs them as a `resound` subcommand instead"
        );
    }

    #[test]
    fn the_engine_without_default_features_links_nothing_native() {
        let linking = linking_packages();
        let engine = closure("resound-engine", &["--no-default-features"]);
        assert!(
            engine.iter().any(|p| p.starts_with("resound-mixer ")),
            "cargo tree found no dependencies of resound-engine: {engine:?}"
        );
        let native = native_in(&engine, &linking);
        assert!(
            native.is_empty(),
            "resound-engine with default-features = false must build with no system library, \
             but its dependencies link: {native:?}; put them behind the `device` feature"
        );
    }

    /// The runtime carries no tool code: no plotting and no JSON library in the engine's build
    /// (the studio has them).
    #[test]
    fn the_engine_builds_without_plotting_or_json() {
        let engine = closure("resound-engine", &[]);
        let tools: Vec<&String> = engine
            .iter()
            .filter(|p| p.starts_with("plotters ") || p.starts_with("serde_json "))
            .collect();
        assert!(
            tools.is_empty(),
            "resound-engine's build pulls in tool crates: {tools:?}"
        );
    }

    /// The check sees what it must: the engine with its default features links ALSA on Linux.
    #[test]
    #[cfg(target_os = "linux")]
    fn the_engine_with_its_device_feature_links_alsa() {
        let linking = linking_packages();
        let engine = closure("resound-engine", &[]);
        let native = native_in(&engine, &linking);
        assert!(
            native.iter().any(|p| p.starts_with("alsa-sys ")),
            "expected alsa-sys in the engine's default build, found {native:?}"
        );
    }
}
