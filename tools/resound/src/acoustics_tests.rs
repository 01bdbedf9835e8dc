//! Tests of `resound acoustics` on the shipped scenes.

use std::path::PathBuf;

use super::{Args, ModelName, evaluate, to_json};

fn args(scene: &str, mode: Option<&str>) -> Args {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../crates/acoustics-core/scenes")
        .join(format!("{scene}.json"));
    Args {
        scene: path,
        mode: mode.map(str::to_owned),
        model: ModelName::Own,
        paths: None,
        tick: 0,
        json: true,
    }
}

#[test]
fn gorge_json_has_the_two_taps_and_the_room() {
    let e = evaluate(&args("G", None)).unwrap();
    let doc = to_json(&e.scene, e.model, e.mode, e.paths, &e.outcome);
    let taps = doc["taps"].as_array().unwrap();
    let ms: Vec<f64> = taps
        .iter()
        .map(|t| t["delay_ms"].as_f64().unwrap())
        .collect();
    assert_eq!(ms.len(), 2);
    assert!(
        (ms[0] - 158.9).abs() < 0.05 && (ms[1] - 242.1).abs() < 0.05,
        "{ms:?}"
    );
    assert!((doc["room"]["enclosure"].as_f64().unwrap() - 0.094).abs() < 0.01);
    assert!(doc["cells_visited"].as_u64().unwrap() > 0);
}

#[test]
fn modes_paths_and_ticks() {
    let e = evaluate(&args("G", Some("direct"))).unwrap();
    assert!(e.outcome.echo.is_none() && e.outcome.room.is_none());
    let mut a = args("D", None);
    a.paths = Some(1);
    assert_eq!(evaluate(&a).unwrap().outcome.direct.occ, 1.0);
    a.paths = Some(9);
    assert_eq!(evaluate(&a).unwrap().outcome.direct.occ, 0.0);
    a.paths = Some(4);
    assert!(evaluate(&a).is_err());
    let mut u = args("U", None);
    assert!(evaluate(&u).unwrap().outcome.direct.telemetry.met_unknown);
    u.tick = 20;
    assert_eq!(evaluate(&u).unwrap().outcome.direct.occ, 2.0);
}

#[cfg(not(feature = "spr-gpl"))]
#[test]
fn spr_without_the_feature_is_a_clear_error() {
    let mut a = args("W1", None);
    a.model = ModelName::Spr;
    let err = evaluate(&a).err().unwrap().to_string();
    assert!(
        err.contains("GNU GPL version 3") && err.contains("--features spr-gpl"),
        "{err}"
    );
}

#[test]
fn missing_file_is_an_error() {
    assert!(evaluate(&args("no-such-scene", None)).is_err());
}
