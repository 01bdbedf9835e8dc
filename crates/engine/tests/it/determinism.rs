//! Offline renders depend on nothing but the inputs (acoustics §3.5): scene C (100 loops +
//! 8 clicks) rendered with different frames-per-tick pacing and an artificially delayed worker
//! is byte-identical.

use std::time::Duration;

use resound_engine::scene::{self, SceneOptions};
use resound_engine::{Engine, EngineBuilder, Mode};

use crate::common::hash;

fn render_c(builder: EngineBuilder, chunk: usize, seconds: f64) -> (Vec<f32>, resound_engine::Status) {
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
    for c in out.chunks_mut(2 * chunk) {
        p.engine.update(c.len() as f64 / 96_000.0).unwrap();
        p.engine.render(c).unwrap();
    }
    (out, p.engine.status())
}

#[test]
fn scene_c_is_identical_across_pacing_and_a_slow_worker() {
    let (a, sa) = render_c(Engine::builder(), 2400, 1.5);
    let (b, sb) = render_c(
        Engine::builder().worker_delay(Duration::from_millis(3)),
        1000,
        1.5,
    );
    let (c, _) = render_c(Engine::builder().inline_worker(true), 4801, 1.5);
    assert!(a.iter().any(|x| *x != 0.0));
    assert_eq!(hash(&a), hash(&b), "pacing 2400 vs 1000 + slow worker");
    assert_eq!(hash(&a), hash(&c), "worker thread vs inline worker, pacing 4801");
    assert_eq!(sa.cells, sb.cells);
    assert_eq!(sa.results_applied, sb.results_applied);
    // The 8 clicks got echo sets: at most 8 echo voices.
    assert!(sa.results_applied >= 108, "{sa:?}");
}
