//! The offline render path's audio side never allocates or frees (acoustics §7, as
//! `crates/mixer/tests/no_alloc.rs` proves for the mixer alone).
//!
//! This binary installs `assert_no_alloc`'s `AllocDisabler` as the global allocator (with the
//! `warn_*` features, so violations are counted). The engine runs scene C in `full` mode —
//! acoustic ticks, results applied, taps, sends, voices ending — and every mixer render call the
//! engine makes runs inside `assert_no_alloc` through the builder's audio guard. The acoustic
//! ticks themselves (host and worker) may allocate; they run outside the guard.

#![allow(clippy::unwrap_used)]

use std::sync::atomic::{AtomicUsize, Ordering};

use assert_no_alloc::{AllocDisabler, assert_no_alloc, reset_violation_count, violation_count};
use resound_engine::{Engine, Mode};
use resound_studio::scene_render::{self as scene, SceneOptions};

#[global_allocator]
static A: AllocDisabler = AllocDisabler;

static GUARDED: AtomicUsize = AtomicUsize::new(0);

fn guarded(f: &mut dyn FnMut()) {
    GUARDED.fetch_add(1, Ordering::Relaxed);
    assert_no_alloc(f);
}

#[test]
fn the_guard_counts_allocations() {
    reset_violation_count();
    let v = assert_no_alloc(|| Vec::<u64>::with_capacity(16));
    drop(v);
    assert_eq!(violation_count(), 1);
}

#[test]
fn offline_render_audio_side_never_allocates() {
    let options = SceneOptions {
        mode: Mode::Full,
        ..SceneOptions::default()
    };
    let s = scene::parse(scene::builtin("C").unwrap(), &options.model).unwrap();
    let mut p = scene::prepare(
        &s,
        &options,
        Engine::builder().audio_guard(guarded).inline_worker(true),
    )
    .unwrap();
    let mut buf = vec![0.0f32; 2 * 1000];
    reset_violation_count();
    for i in 0..150 {
        if i == 40 {
            p.engine.set_mode(Mode::Direct);
        }
        if i == 80 {
            p.engine.set_mode(Mode::Full);
        }
        p.engine.update(1000.0 / 48_000.0).unwrap();
        p.engine.render(&mut buf).unwrap();
        assert!(buf.iter().all(|x| x.is_finite()));
    }
    assert_eq!(violation_count(), 0, "the audio side allocated or freed");
    // Every render chunk went through the guard (one or more per call, split at ticks).
    assert!(GUARDED.load(Ordering::Relaxed) >= 150);
    let st = p.engine.status();
    assert!(st.results_applied > 100, "{st:?}");
    assert!(st.peak > 0.0);
}
