//! Scene JSON round trips bit for bit: a scene written with serde_json reads back with the same
//! f64 positions. The `scene_json` fuzz target found a listener coordinate the default float
//! parser read 1 ulp off (`5.980082166329765e197`); the workspace enables `float_roundtrip`.

use resound_acoustics::MaterialTable;
use resound_acoustics::scene::Scene;

fn scene_at(listener: [f64; 3]) -> Scene {
    let text = format!(
        "{{\"boxes\": [], \"source\": [0.0, 0.0, 3.7548121362309023e-308], \"listener\": {}}}",
        serde_json::to_string(&listener).unwrap()
    );
    Scene::from_json(&text, &MaterialTable::standard()).unwrap()
}

fn round_trips(scene: &Scene) {
    let text = serde_json::to_string(scene).unwrap();
    let back = Scene::from_json(&text, &MaterialTable::standard()).unwrap();
    assert_eq!(&back, scene, "{text}");
}

#[test]
fn the_fuzzer_found_coordinate_round_trips() {
    let s = scene_at([0.0, 0.0, 5.980_082_166_329_765e197]);
    assert_eq!(
        s.listener[2].to_bits(),
        5.980_082_166_329_765e197f64.to_bits()
    );
    round_trips(&s);
}

#[test]
fn ten_thousand_random_coordinates_round_trip() {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..10_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let v = f64::from_bits(x);
        if v.is_finite() {
            round_trips(&scene_at([v, -v, v / 3.0]));
        }
    }
}
