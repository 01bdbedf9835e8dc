//! Engine benchmarks (issue 10; acoustics §10), on scene C's world (the field, `full` mode):
//!
//! - `update_100_moving`: one `update` (a 50 ms tick) with 100 moving sources of mixed classes
//!   (16 Full with 9 paths, Direct with 1 path, some Free beyond their range, impulsive
//!   one-shots with echo searches), live budgets, the worker's tick run inline on the bench
//!   thread so its CPU time is measured: host scheduling + worker tick + applying results.
//!   Target ≤ 1 ms per tick.
//! - `update_100_moving_maze`: the same with 100 sources walking the corridors of a 64 m
//!   stone maze (a serpentine of four 4 × 3 corridors joined at alternate ends), live budgets
//!   with air paths on ([`Budgets::AIR_CELLS_LIVE`]): most sources are round one to three
//!   corners, so their direct sound is searched through the air. Target ≤ 1 ms per tick.
//! - `render_c_full_2s`: an offline render of scene C (100 loops + 8 clicks) in `full`, from
//!   building the engine to 2 s of audio (synchronous ticks every 2400 frames, inline worker).
//!   Target ≥ 100× real time, i.e. ≤ 20 ms.
//! - `render_c_off_2s`: the same in `off` (the mixer's share: 108 voices, no acoustics).
//!
//! Clock: the thread's on-CPU time (`CLOCK_THREAD_CPUTIME_ID`, `resound_benchclock::Stopwatch`,
//! as the other benches), so a loaded machine does not inflate the figures;
//! `RESOUND_BENCH_WALL=1` for wall time.

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use resound_benchclock::Stopwatch;
use resound_engine::glam::DVec3;
use resound_engine::{Budgets, Engine, Mode, Orientation, Pacing, Source, VoiceHandle};
use resound_studio::scene_render::{self as scene, SceneOptions};
use resound_studio::test_signal::{looped, shot};

fn scene_c(options: &SceneOptions) -> resound_engine::advanced::acoustics::scene::Scene {
    scene::parse(scene::builtin("C").expect("built-in"), &options.model).expect("scene C")
}

struct Moving {
    engine: Engine,
    voices: Vec<(VoiceHandle, f64, f64)>,
    tick: u64,
}

/// 100 sources on circles around the listener over scene C's world.
fn moving() -> Moving {
    let options = SceneOptions {
        mode: Mode::Full,
        ..SceneOptions::default()
    };
    let s = scene_c(&options);
    let materials = resound_engine::advanced::acoustics::MaterialTable::standard();
    let world = s.build_world(&materials, 0).expect("world");
    let mut engine = Engine::builder()
        .mode(Mode::Full)
        .pacing(Pacing::Update)
        .budgets(Budgets::live())
        .inline_worker(true)
        .build()
        .expect("engine");
    engine.world().replace(world);
    engine
        .set_listener(DVec3::new(0.5, 1.5, 0.5), Orientation::default())
        .expect("listener");
    let lp = engine
        .load_mono(Arc::from(looped(48_000)), 48_000)
        .expect("load");
    let sh = engine
        .load_mono(Arc::from(shot(48_000)), 48_000)
        .expect("load");
    let voices = (0..100)
        .map(|i| {
            let radius = 10.0 + 3.5 * f64::from(i);
            let phase = f64::from(i) * 0.37;
            let oneshot = i % 10 == 0;
            let v = engine
                .play(
                    if oneshot { sh } else { lp },
                    Source {
                        position: DVec3::new(
                            radius * phase.cos(),
                            1.5 + f64::from(i % 7) * 4.0,
                            radius * phase.sin(),
                        ),
                        volume: 1.0,
                        range: 256.0,
                        looping: !oneshot,
                        impulsive: oneshot,
                        power: if oneshot { 2.0 } else { 0.0 },
                        ..Source::default()
                    },
                )
                .expect("play");
            (v, radius, phase)
        })
        .collect();
    Moving {
        engine,
        voices,
        tick: 0,
    }
}

/// The maze: a 64 × 5 × 64 block of stone with four corridors along x (z 16k+2 ..= 16k+5)
/// joined at alternate ends (x 58..=61, then 2..=5), one long serpentine.
fn maze_world() -> resound_engine::advanced::acoustics::WorldStore {
    use resound_engine::advanced::acoustics::{Absent, Cell, MaterialTable, WorldStore};
    use resound_engine::glam::IVec3;
    let stone = Cell::solid(MaterialTable::standard().by_name("stone").expect("stone"));
    let mut w = WorldStore::new(Absent::Air);
    let mut fill = |min: [i32; 3], max: [i32; 3], c: Cell| {
        w.fill_box(IVec3::from_array(min), IVec3::from_array(max), c)
            .expect("maze");
    };
    fill([0, -1, 0], [63, 3, 63], stone);
    for k in 0..4 {
        let z = 16 * k + 2;
        fill([2, 0, z], [61, 2, z + 3], Cell::Air);
        if k < 3 {
            let x = if k % 2 == 0 { 58 } else { 2 };
            fill([x, 0, z], [x + 3, 2, z + 19], Cell::Air);
        }
    }
    w
}

/// Where maze source `i` is at time `t`: walking its corridor back and forth.
fn maze_position(i: usize, t: f64) -> DVec3 {
    let leg = (i % 4) as f64;
    let speed = 1.0 + 0.02 * i as f64;
    let u = (i as f64 * 7.3 + t * speed).rem_euclid(2.0 * 56.0);
    let x = 3.5 + if u < 56.0 { u } else { 2.0 * 56.0 - u };
    DVec3::new(x, 1.5, 16.0 * leg + 3.5 + (i % 3) as f64 * 0.5)
}

/// 100 sources walking the maze's corridors, live budgets with air paths.
fn moving_maze() -> Moving {
    let mut engine = Engine::builder()
        .mode(Mode::Full)
        .pacing(Pacing::Update)
        .budgets(Budgets::live().with_air_cells(Budgets::AIR_CELLS_LIVE))
        .inline_worker(true)
        .build()
        .expect("engine");
    engine.world().replace(maze_world());
    engine
        .set_listener(DVec3::new(10.5, 1.5, 3.5), Orientation::default())
        .expect("listener");
    let lp = engine
        .load_mono(Arc::from(looped(48_000)), 48_000)
        .expect("load");
    let voices = (0..100)
        .map(|i| {
            let v = engine
                .play(
                    lp,
                    Source {
                        position: maze_position(i, 0.0),
                        range: 256.0,
                        looping: true,
                        ..Source::default()
                    },
                )
                .expect("play");
            (v, i as f64, 0.0)
        })
        .collect();
    Moving {
        engine,
        voices,
        tick: 0,
    }
}

fn time_maze_updates(m: &mut Moving, iters: u64) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        m.tick += 1;
        let t = m.tick as f64 * 0.05;
        for (i, (v, _, _)) in m.voices.iter().enumerate() {
            let _ = m.engine.set_position(*v, maze_position(i, t));
        }
        let clock = Stopwatch::start();
        m.engine.update(black_box(0.05)).expect("update");
        total += clock.elapsed();
    }
    total
}

fn time_updates(m: &mut Moving, iters: u64) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        m.tick += 1;
        let t = m.tick as f64 * 0.05;
        for (i, (v, r, p)) in m.voices.iter().enumerate() {
            let a = p + t * (0.05 + 0.002 * i as f64);
            let pos = DVec3::new(r * a.cos(), 1.5 + (i % 7) as f64 * 4.0, r * a.sin());
            // One-shots end in the mixer only when rendered; none is rendered here.
            let _ = m.engine.set_position(*v, pos);
        }
        let clock = Stopwatch::start();
        m.engine.update(black_box(0.05)).expect("update");
        total += clock.elapsed();
    }
    total
}

/// Builds scene C in `mode` and renders 2 s, `n` times.
fn time_render_c(mode: Mode, n: u64) -> Duration {
    let options = SceneOptions {
        mode,
        ..SceneOptions::default()
    };
    let s = scene_c(&options);
    let mut out = vec![0.0f32; 2 * 96_000];
    let mut total = Duration::ZERO;
    for _ in 0..n {
        let clock = Stopwatch::start();
        let mut p =
            scene::prepare(&s, &options, Engine::builder().inline_worker(true)).expect("prepare");
        for chunk in out.chunks_mut(2 * 2400) {
            p.engine.render(chunk).expect("render");
        }
        black_box(&out);
        total += clock.elapsed();
    }
    total
}

fn engine(c: &mut Criterion) {
    let mut g = c.benchmark_group("engine");
    let mut m = moving();
    // Warm the caches and classes.
    time_updates(&mut m, 40);
    g.bench_function("update_100_moving", |b| {
        b.iter_custom(|n| time_updates(&mut m, n));
    });
    let st = m.engine.status();
    eprintln!(
        "update_100_moving: {} ticks, max cells/tick occlusion {} echo {}, queue {}, results {}, cache {}/{} hit/miss",
        st.ticks,
        st.max_tick_occlusion_cells,
        st.max_tick_echo_cells,
        st.queue_len,
        st.results_applied,
        st.cache_hits,
        st.cache_misses
    );
    let mut maze = moving_maze();
    time_maze_updates(&mut maze, 40);
    g.bench_function("update_100_moving_maze", |b| {
        b.iter_custom(|n| time_maze_updates(&mut maze, n));
    });
    let st = maze.engine.status();
    eprintln!(
        "update_100_moving_maze: {} ticks, max cells/tick occlusion {} echo {} air {}, air searches {} around {} fallbacks {}, results {}",
        st.ticks,
        st.max_tick_occlusion_cells,
        st.max_tick_echo_cells,
        st.max_tick_air_cells,
        st.air_searches,
        st.air_around,
        st.air_fallbacks,
        st.results_applied,
    );
    g.sample_size(10);
    for (name, mode) in [
        ("render_c_full_2s", Mode::Full),
        ("render_c_off_2s", Mode::Off),
    ] {
        g.bench_function(name, |b| b.iter_custom(|n| time_render_c(mode, n)));
    }
    g.finish();
}

criterion_group!(benches, engine);
criterion_main!(benches);
