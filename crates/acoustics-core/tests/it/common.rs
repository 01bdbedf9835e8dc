//! Scene loading helpers.

use resound_acoustics::scene::Scene;
use resound_acoustics::{MaterialTable, WorldStore};

/// Loads a shipped scene by name (`scenes/NAME.json`).
pub fn scene(name: &str) -> Scene {
    let path = format!("{}/scenes/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    Scene::from_json(&text, &MaterialTable::standard()).unwrap()
}

/// Builds the world of a shipped scene at tick 0.
pub fn world(name: &str) -> (Scene, WorldStore) {
    let s = scene(name);
    let w = s.build_world(&MaterialTable::standard(), 0).unwrap();
    (s, w)
}

/// Relative closeness.
pub fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * b.abs().max(1e-12)
}
