//! Bad input: typed errors or defined results, never a panic.

use glam::{DVec3, IVec3};
use proptest::prelude::*;
use resound_acoustics::ray::dda::{WalkEnd, walk};
use resound_acoustics::scene::{Scene, SceneError};
use resound_acoustics::{
    Absent, AcousticModel, Budget, Cell, Mode, OwnModel, RequestError, SoundRequest, WorldStore,
};

use crate::common::world;

#[test]
fn non_finite_positions_are_errors() {
    let (_, w) = world("W1");
    let model = OwnModel::default();
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let req = SoundRequest::new(DVec3::new(bad, 1.0, 0.0), DVec3::new(60.5, 1.5, 0.5));
        for mode in [Mode::Direct, Mode::Reflect, Mode::Full] {
            assert_eq!(
                model.evaluate(&w, &req, mode, &mut Budget::unlimited()),
                Err(RequestError::NonFinite("source"))
            );
        }
        let req = SoundRequest::new(DVec3::new(0.5, 1.0, 0.0), DVec3::new(60.5, bad, 0.5));
        assert_eq!(
            model.direct(&w, &req, &mut Budget::unlimited()),
            Err(RequestError::NonFinite("listener"))
        );
    }
    let far = SoundRequest::new(DVec3::splat(1e12), DVec3::ZERO);
    assert_eq!(
        model.direct(&w, &far, &mut Budget::unlimited()),
        Err(RequestError::OutOfWorld("source"))
    );
    let mut r = SoundRequest::new(DVec3::ZERO, DVec3::ONE);
    r.range = 0.0;
    assert_eq!(
        model.direct(&w, &r, &mut Budget::unlimited()),
        Err(RequestError::BadRange)
    );
    let stats = walk(
        &w,
        DVec3::NAN,
        DVec3::X,
        10.0,
        &mut Budget::unlimited(),
        |_| resound_acoustics::ray::dda::Flow::Continue,
    );
    assert_eq!(stats.end, WalkEnd::LeftWorld);
}

#[test]
fn listener_inside_rock_gives_a_defined_result() {
    let mut w = WorldStore::new(Absent::Air);
    w.fill_box(
        IVec3::new(-20, -20, -20),
        IVec3::new(20, 20, 20),
        Cell::solid(Default::default()),
    )
    .unwrap();
    let req = SoundRequest::new(DVec3::new(0.5, 0.5, 0.5), DVec3::new(10.5, 0.5, 0.5));
    let r = OwnModel::default()
        .evaluate(&w, &req, Mode::Full, &mut Budget::unlimited())
        .unwrap();
    // 10 cells between (source cell excluded, listener cell counted).
    assert_eq!(r.occ, 10.0);
    assert!(r.taps.is_empty());
    assert!(r.space.enclosure > 0.99 && r.gain.is_finite() && r.hf.is_finite());
}

#[test]
fn empty_worlds_give_open_results() {
    let req = SoundRequest::new(DVec3::new(0.5, 1.5, 0.5), DVec3::new(100.5, 1.5, 0.5));
    for absent in [Absent::Air, Absent::Unknown] {
        let w = WorldStore::new(absent);
        let r = OwnModel::default()
            .evaluate(&w, &req, Mode::Full, &mut Budget::unlimited())
            .unwrap();
        assert_eq!((r.occ, r.gain, r.hf), (0.0, 1.0, 1.0));
        assert!(r.taps.is_empty());
        assert_eq!(r.wet, 0.0);
        assert_eq!(r.telemetry.met_unknown, absent == Absent::Unknown);
    }
}

#[test]
fn bad_scene_files_are_typed_errors() {
    let m = resound_acoustics::MaterialTable::standard();
    let base = |boxes: &str| {
        format!(r#"{{"boxes":[{boxes}],"source":[0.5,1.5,0.5],"listener":[9.5,1.5,0.5]}}"#)
    };
    let inverted = base(r#"{"min":[5,0,0],"max":[4,0,0],"material":"stone"}"#);
    assert!(matches!(
        Scene::from_json(&inverted, &m),
        Err(SceneError::InvertedBox { index: 0, .. })
    ));
    let unknown = base(r#"{"min":[0,0,0],"max":[4,0,0],"material":"unobtainium"}"#);
    assert!(matches!(
        Scene::from_json(&unknown, &m),
        Err(SceneError::UnknownMaterial { index: 0, .. })
    ));
    let huge = base(
        r#"{"min":[-100000,-100000,-100000],"max":[100000,100000,100000],"material":"stone"}"#,
    );
    assert!(matches!(
        Scene::from_json(&huge, &m),
        Err(SceneError::TooLarge)
    ));
    assert!(matches!(
        Scene::from_json("{\"boxes\":[", &m),
        Err(SceneError::Json(_))
    ));
    assert!(Scene::from_json(&base("").replace("[0.5,1.5,0.5]", "[0.5,1e999,0.5]"), &m).is_err());
    let typo = base("").replace("\"source\"", "\"sorce\"");
    assert!(matches!(
        Scene::from_json(&typo, &m),
        Err(SceneError::Json(_))
    ));
    let bad_mode = base("").replace("\"boxes\"", "\"mode\":\"loud\",\"boxes\"");
    assert!(matches!(
        Scene::from_json(&bad_mode, &m),
        Err(SceneError::BadOption { what: "mode", .. })
    ));
    let out = base(r#"{"min":[300000000,0,0],"max":[300000001,0,0],"material":"stone"}"#);
    let s = Scene::from_json(&out, &m).unwrap();
    assert!(matches!(s.build_world(&m, 0), Err(SceneError::Edit { .. })));
}

#[test]
fn budget_is_never_exceeded() {
    let (scene, w) = world("G");
    let model = OwnModel::default();
    for limit in [0u64, 1, 10, 100, 1000] {
        let mut b = Budget::new(limit);
        let r = model
            .evaluate(&w, &scene.request().unwrap(), Mode::Full, &mut b)
            .unwrap();
        assert!(b.used() <= limit);
        assert_eq!(r.telemetry.cells, b.used());
        assert!(r.telemetry.budget_exhausted);
    }
}

proptest! {
    #[test]
    fn arbitrary_requests_never_panic(
        sx in -1e3f64..1e3, sy in -50f64..50.0, sz in -1e3f64..1e3,
        lx in -1e3f64..1e3, ly in -50f64..50.0, lz in -1e3f64..1e3,
        range in 1f64..1e4, budget in 0u64..20_000,
    ) {
        let (_, w) = world("R");
        let req = SoundRequest { range, ..SoundRequest::new(DVec3::new(sx, sy, sz), DVec3::new(lx, ly, lz)) };
        let mut b = Budget::new(budget);
        let r = OwnModel::default().evaluate(&w, &req, Mode::Full, &mut b).unwrap();
        prop_assert!(b.used() <= budget);
        prop_assert!(r.occ >= 0.0 && r.gain > 0.0 && r.gain <= 1.0 && r.hf >= 0.0 && r.hf <= 1.0);
        prop_assert!(r.taps.len() <= 6);
        prop_assert!(r.sends.iter().all(|s| s.is_finite() && *s >= 0.0));
    }
}

proptest! {
    #[test]
    fn arbitrary_scene_boxes_never_panic(
        boxes in prop::collection::vec(
            ((-1000i32..1000, -1000i32..1000, -1000i32..1000), (-40i32..40, -40i32..40, -40i32..40), 0usize..5),
            0..6,
        ),
    ) {
        let names = ["stone", "air", "unknown", "nope", "wool"];
        let list: Vec<String> = boxes
            .iter()
            .map(|&((x, y, z), (dx, dy, dz), m)| {
                format!(
                    r#"{{"min":[{x},{y},{z}],"max":[{},{},{}],"material":"{}"}}"#,
                    x + dx,
                    y + dy,
                    z + dz,
                    names[m]
                )
            })
            .collect();
        let text = format!(r#"{{"boxes":[{}],"source":[0.5,1.5,0.5],"listener":[9.5,1.5,0.5]}}"#, list.join(","));
        let m = resound_acoustics::MaterialTable::standard();
        if let Ok(scene) = Scene::from_json(&text, &m) {
            let w = scene.build_world(&m, 0).unwrap();
            let r = OwnModel::default()
                .evaluate(&w, &scene.request().unwrap(), Mode::Full, &mut Budget::new(100_000))
                .unwrap();
            prop_assert!(r.gain.is_finite() && r.hf.is_finite());
        }
    }
}

#[test]
fn scene_boxes_at_the_i32_limits_are_typed_errors() {
    // Each side 2^32 cells: the cell count overflowed u64 (debug panic) before.
    let m = resound_acoustics::MaterialTable::standard();
    let text = r#"{"boxes":[{"min":[-2147483648,-2147483648,-2147483648],"max":[2147483647,2147483647,2147483647],"material":"stone"}],"source":[0.5,1.5,0.5],"listener":[9.5,1.5,0.5]}"#;
    assert!(matches!(
        Scene::from_json(text, &m),
        Err(SceneError::TooLarge)
    ));
}

#[test]
fn scene_allocation_is_bounded_by_section_count_not_only_cells() {
    // A one-cell-thick slab of 2^28 cells cuts 2^20 sections, each stored as 4096 cells
    // (8 KiB): 8 GiB from a 100-byte file. It must be refused before anything is built.
    let m = resound_acoustics::MaterialTable::standard();
    let text = r#"{"boxes":[{"min":[0,0,0],"max":[0,16383,16383],"material":"stone"}],"source":[0.5,1.5,0.5],"listener":[9.5,1.5,0.5]}"#;
    assert!(matches!(
        Scene::from_json(text, &m),
        Err(SceneError::TooManyCutSections(n)) if n == 1 << 20
    ));
    // The same number of cells as whole sections is cheap (uniform sections) and accepted.
    let whole = r#"{"boxes":[{"min":[0,0,0],"max":[1023,1023,255],"material":"stone"}],"source":[0.5,1.5,0.5],"listener":[9.5,1.5,0.5]}"#;
    let s = Scene::from_json(whole, &m).unwrap();
    let w = s.build_world(&m, 0).unwrap();
    assert_eq!(w.section_count(), 64 * 64 * 16);
}

#[test]
fn injected_planes_with_bad_values_do_not_panic() {
    let (scene, w) = world("F");
    let mut model = OwnModel::default();
    model.extra_planes = vec![
        resound_acoustics::Plane {
            axis: 7,
            coord: 0,
            normal_sign: 1,
        },
        resound_acoustics::Plane {
            axis: 1,
            coord: i32::MIN,
            normal_sign: 1,
        },
    ];
    let r = model
        .reflections(&w, &scene.request().unwrap(), &mut Budget::unlimited())
        .unwrap();
    assert!(r.taps.is_empty());
}

/// Issue 9 item 4: a scene error formats its cause or exposes it, never both.
#[test]
fn scene_errors_say_their_cause_once() {
    use std::error::Error as _;
    let m = resound_acoustics::MaterialTable::standard();
    let base =
        |b: &str| format!(r#"{{"boxes":[{b}],"source":[0.5,1.5,0.5],"listener":[60.5,1.5,0.5]}}"#);
    let out = base(r#"{"min":[300000000,0,0],"max":[300000001,0,0],"material":"stone"}"#);
    let errors = [
        Scene::from_json(&out, &m)
            .unwrap()
            .build_world(&m, 0)
            .unwrap_err(),
        Scene::from_json("{\"boxes\":[", &m).unwrap_err(),
        Scene::from_json(&base("").replace("0.5,1.5", "0.5,1e999"), &m).unwrap_err(),
    ];
    for err in errors {
        let text = err.to_string();
        if let Some(source) = err.source() {
            assert!(
                !text.contains(&source.to_string()),
                "{text:?} repeats its source"
            );
        }
        // The store's message appears once in the box error.
        assert!(
            text.matches("outside the supported world").count() <= 1,
            "{text}"
        );
    }
}

/// Issue 9 item 8: an unknown option value lists the allowed ones.
#[test]
fn bad_option_values_list_the_allowed_ones() {
    let m = resound_acoustics::MaterialTable::standard();
    let base = r#"{"boxes":[],"source":[0.5,1.5,0.5],"listener":[60.5,1.5,0.5]"#;
    let cases = [
        (",\"paths\":4}", "bad paths value (allowed: 1, 9)"),
        (
            ",\"mode\":\"loud\"}",
            "bad mode value (allowed: off, direct, reflect, full)",
        ),
        (
            ",\"absent\":\"void\"}",
            "bad absent value (allowed: air, unknown)",
        ),
        (
            ",\"inject_planes\":[{\"axis\":\"w\",\"coord\":1}]}",
            "bad plane axis value (allowed: x, y, z)",
        ),
    ];
    for (tail, want) in cases {
        let err = Scene::from_json(&format!("{base}{tail}"), &m).unwrap_err();
        assert_eq!(err.to_string(), want);
    }
}
