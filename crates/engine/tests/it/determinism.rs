//! Offline renders depend on nothing but the inputs (acoustics §3.5): scene C (100 loops +
//! 8 clicks) rendered with different frames-per-tick pacing and an artificially delayed worker
//! is byte-identical.

use std::time::Duration;

use resound_engine::glam::DVec3;
use resound_engine::{Engine, EngineBuilder, Mode, Orientation};
use resound_studio::scene_render::{self as scene, SceneOptions};

use crate::common::hash;

fn render_c(
    builder: EngineBuilder,
    chunk: usize,
    seconds: f64,
) -> (Vec<f32>, resound_engine::Status) {
    let options = SceneOptions {
        mode: Mode::Full,
        ..SceneOptions::default()
    };
    let text = scene::builtin("C").unwrap();
    let s = scene::parse(text, &options.model).unwrap();
    let mut p = scene::prepare(&s, &options, builder).unwrap();
    assert_eq!(p.voices, 108);
    let frames = (seconds * 48_000.0) as usize;
    let mut out = vec![0.0f32; 2 * frames];
    let mut at = 0;
    for c in out.chunks_mut(2 * chunk) {
        // The host moves the listener every 0.25 s (12 000 frames, a multiple of every chunk
        // size used), so the worker re-traces while the render runs.
        if at % MOVE_EVERY == 0 {
            let x = 0.5 + 6.0 * (at / MOVE_EVERY) as f64;
            p.engine
                .set_listener(DVec3::new(x, 1.5, 0.5), Orientation::default())
                .unwrap();
        }
        p.engine.update(c.len() as f64 / 96_000.0).unwrap();
        p.engine.render(c).unwrap();
        at += c.len() / 2;
    }
    (out, p.engine.status())
}

const MOVE_EVERY: usize = 12_000;

#[test]
fn scene_c_is_identical_across_pacing_and_a_slow_worker() {
    let (a, sa) = render_c(Engine::builder(), 2400, 1.5);
    let (b, sb) = render_c(
        Engine::builder().worker_delay(Duration::from_millis(3)),
        1000,
        1.5,
    );
    let (c, _) = render_c(Engine::builder().inline_worker(true), 600, 1.5);
    assert!(a.iter().any(|x| *x != 0.0));
    assert_eq!(hash(&a), hash(&b), "pacing 2400 vs 1000 + slow worker");
    assert_eq!(
        hash(&a),
        hash(&c),
        "worker thread vs inline worker, pacing 600"
    );
    assert_eq!(sa.cells, sb.cells);
    assert_eq!(sa.results_applied, sb.results_applied);
    // The worker did re-trace while the listener moved.
    assert!(sa.results_applied >= 100, "{sa:?}");
}
