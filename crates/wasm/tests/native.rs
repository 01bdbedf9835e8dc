//! The crate's renders, run natively, against the tools' renders of the same inputs: the
//! ambient from a dat folder on disk (`resound ambient --out`, the acoustic worker on its
//! thread) and scene G as `resound render` makes it. The Node test (`cargo xtask web-test`)
//! then holds the WebAssembly build to these same bytes.

use resound_engine::{Mode, VoicePolicy};
use resound_studio::scene_render::{self, SceneOptions};
use resound_studio::test_signal::Signal;
use resound_studio::walk_render::render_ambient_walk;
use resound_wasm::{
    Dats, EXAMPLE_WALK, Hearing, Live, parse_walk, render_ambient_at, render_scene, render_walk,
    standing_walk,
};

fn bits(x: &[f32]) -> Vec<u32> {
    x.iter().map(|v| v.to_bits()).collect()
}

/// `seconds` of `walk` as `resound ambient --walk --out` renders it, from a dat folder.
fn tool_walk(walk_json: &str, seconds: f64) -> Vec<f32> {
    tool_walk_as(walk_json, seconds, VoicePolicy::Retail16)
}

/// `seconds` of `walk` as the tool renders it with `policy` (modern: `full` over the terrain).
fn tool_walk_as(walk_json: &str, seconds: f64, policy: VoicePolicy) -> Vec<f32> {
    let dir = tempfile::tempdir().expect("a temporary folder");
    resound_fixture::write_world()
        .write_to(dir.path())
        .map_err(|(p, e)| format!("{}: {e}", p.display()))
        .expect("the fixture dats written");
    let walk = parse_walk(walk_json).expect("a walk");
    let r = render_ambient_walk(dir.path(), &walk, seconds, policy, Default::default())
        .expect("the tool's walk renderer");
    let mut out = Vec::new();
    r.render(&mut |b: &[f32]| {
        out.extend_from_slice(b);
        Ok::<(), resound_studio::walk_render::WalkRenderError>(())
    })
    .expect("the tool's walk");
    out
}

#[test]
fn the_ambient_at_a_position_is_the_tools_render() {
    let at = "0xA9B40025:96,96,70";
    let ours = render_ambient_at(&Dats::fixture(), at, 6.0, Hearing::Retail).unwrap();
    let walk = standing_walk(at).unwrap();
    let json = serde_json::to_string(&walk).unwrap();
    let tool = tool_walk(&json, 6.0);
    assert_eq!(ours.len(), 2 * 6 * 48_000);
    assert!(ours.iter().filter(|v| **v != 0.0).count() > 48_000);
    assert!(bits(&ours) == bits(&tool), "the in-memory render differs");
}

#[test]
fn the_example_walk_is_the_tools_render() {
    let ours = render_walk(
        &Dats::fixture(),
        &parse_walk(EXAMPLE_WALK).unwrap(),
        25.0,
        Hearing::Retail,
    )
    .unwrap();
    let tool = tool_walk(EXAMPLE_WALK, 25.0);
    assert_eq!(ours.len(), 2 * 25 * 48_000);
    assert!(ours.iter().any(|v| *v != 0.0));
    assert!(bits(&ours) == bits(&tool), "the in-memory walk differs");
}

#[test]
fn scene_g_is_the_tools_render() {
    let ours = render_scene("G", Mode::Reflect, 1.0).unwrap();
    let opts = SceneOptions {
        mode: Mode::Reflect,
        signal: Signal::Click,
        seconds: 1.0,
        rate: 48_000,
        limiter: false,
        ..SceneOptions::default()
    };
    let scene =
        scene_render::parse(resound_wasm::builtin_scene("G").unwrap(), &opts.model).unwrap();
    let tool = scene_render::render(&scene, &opts, &mut |_, _| {}).unwrap();
    assert_eq!(ours.len(), tool.samples.len());
    // The direct click and the two wall echoes (158.9 and 242.1 ms after it) are there.
    let loud = |from: f64, to: f64| {
        let (a, b) = ((from * 48_000.0) as usize, (to * 48_000.0) as usize);
        ours[2 * a..2 * b]
            .iter()
            .fold(0.0f32, |m, v| m.max(v.abs()))
    };
    assert!(loud(0.0, 0.15) > 0.01);
    assert!(loud(0.2, 0.35) > 0.001);
    assert!(bits(&ours) == bits(&tool.samples), "scene G differs");
}

#[test]
fn the_live_walk_in_walk_frames_is_the_offline_walk() {
    let dats = Dats::fixture();
    let walk = parse_walk(EXAMPLE_WALK).unwrap();
    let offline = render_walk(&dats, &walk, 8.0, Hearing::Retail).unwrap();
    let first = resound_wasm::fixture_position(480.0, 480.0);
    let mut live = Live::new(dats, Hearing::Retail, &first).unwrap();
    live.start_walk(walk).unwrap();
    // 30 walk frames a second at 48 kHz: 1 600 stereo frames a step.
    let mut out = Vec::new();
    let mut block = vec![0.0f32; 2 * 1600];
    for _ in 0..240 {
        live.step(&mut block).unwrap();
        out.extend_from_slice(&block);
    }
    assert!(live.readout().contains("\"voices\""));
    assert!(bits(&out) == bits(&offline), "the live walk differs");
}

#[test]
fn bad_input_is_one_line_of_error() {
    let dats = Dats::fixture();
    let e = render_ambient_at(&dats, "nowhere", 1.0, Hearing::Retail).unwrap_err();
    assert!(e.to_string().starts_with("position: "), "{e}");
    let junk = Dats {
        portal: std::sync::Arc::from(vec![1u8, 2, 3]),
        cell: std::sync::Arc::clone(&dats.cell),
    };
    let e = render_ambient_at(&junk, "0xA9B40025:96,96,70", 1.0, Hearing::Retail).unwrap_err();
    assert!(e.to_string().starts_with("client_portal.dat: "), "{e}");
    assert!(Hearing::parse("loud").is_err());
    assert!(render_scene("nope", Mode::Off, 1.0).is_err());
    assert!(render_scene("G", Mode::Off, f64::NAN).is_err());
    let e = render_walk(
        &dats,
        &parse_walk(EXAMPLE_WALK).unwrap(),
        1e9,
        Hearing::Retail,
    );
    assert!(e.unwrap_err().to_string().contains("at most 600 s"));
    assert!(parse_walk("{\"waypoints\": 3}").is_err());
    let e = Hearing::parse("loud").unwrap_err();
    assert_eq!(
        e.to_string(),
        "mode \"loud\" is not off, direct, reflect or full"
    );
}

#[test]
fn a_modern_walk_traces_the_terrain_as_the_tool_does() {
    // `full` over the dats' terrain, attached from the bytes: the tool's modern walk (terrain
    // attached from the folder), bit for bit.
    let ours = render_walk(
        &Dats::fixture(),
        &parse_walk(EXAMPLE_WALK).unwrap(),
        10.0,
        Hearing::Modern(Mode::Full),
    )
    .unwrap();
    let tool = tool_walk_as(EXAMPLE_WALK, 10.0, VoicePolicy::Modern);
    assert_eq!(ours.len(), 2 * 10 * 48_000);
    assert!(ours.iter().any(|v| *v != 0.0));
    let first = ours
        .iter()
        .zip(&tool)
        .position(|(a, b)| a.to_bits() != b.to_bits());
    assert_eq!(first, None, "first differing sample of {}", ours.len());
}
