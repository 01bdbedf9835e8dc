//! Traversal, occlusion, echo and room costs (spec §10; issue 4 targets).
//!
//! Timed in thread CPU time (`resound_benchclock::ThreadCpuTime`, ns on CPU) rather than wall
//! time: the bench machine is shared (2 cores, load ~12 during development), so wall time mostly
//! measures waiting for a core. `RESOUND_BENCH_WALL=1`, or a platform without the thread clock,
//! times in wall time.

use std::hint::black_box;

use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use glam::{DVec3, IVec3};
use resound_acoustics::queue::{Evaluator, Job, QueueSettings};
use resound_acoustics::ray::dda::{Flow, walk, walk_solid};
use resound_acoustics::scene::Scene;
use resound_acoustics::{
    Absent, AcousticModel, Budget, Cell, MaterialTable, Mode, OwnModel, Paths, SoundRequest,
    WorldStore,
};
use resound_benchclock::ThreadCpuTime;

fn scene(text: &str) -> (Scene, WorldStore) {
    let m = MaterialTable::standard();
    let s = Scene::from_json(text, &m).expect("scene");
    let w = s.build_world(&m, 0).expect("world");
    (s, w)
}

/// 128³ blocks where every section is Mixed (one leaves cell per 8³), so a ray walks every cell.
fn dense_world() -> WorldStore {
    let m = MaterialTable::standard();
    let leaves = m.by_name("leaves").expect("leaves");
    let mut w = WorldStore::new(Absent::Air);
    for x in (0..128).step_by(8) {
        for y in (0..128).step_by(8) {
            for z in (0..128).step_by(8) {
                w.set_cell(IVec3::new(x, y, z), Cell::solid(leaves))
                    .expect("edit");
            }
        }
    }
    w
}

fn benches(c: &mut Criterion<ThreadCpuTime>) {
    let dense = dense_world();
    let origin = DVec3::new(0.3, 0.6, 0.2);
    let dir = DVec3::new(1.0, 0.83, 0.61).normalize();
    let cells = walk(&dense, origin, dir, 150.0, &mut Budget::unlimited(), |_| {
        Flow::Continue
    })
    .cells;
    let mut g = c.benchmark_group("dense_traversal");
    g.sampling_mode(SamplingMode::Flat);
    g.throughput(Throughput::Elements(cells));
    g.bench_function("walk_mixed_sections", |b| {
        b.iter(|| {
            walk(
                black_box(&dense),
                origin,
                dir,
                150.0,
                &mut Budget::unlimited(),
                |_| Flow::Continue,
            )
        })
    });
    g.bench_function("walk_solid_mixed_sections", |b| {
        b.iter(|| {
            walk_solid(
                black_box(&dense),
                origin,
                dir,
                150.0,
                &mut Budget::unlimited(),
                |_| Flow::Continue,
            )
        })
    });
    g.finish();

    let mut c = c.benchmark_group("cost");
    c.sampling_mode(SamplingMode::Flat);
    // Absent sections read as air; 4096 stored ground sections (y = -1) keep the map realistic.
    let mut empty = WorldStore::new(Absent::Air);
    empty
        .fill_box(
            IVec3::new(-512, -16, -512),
            IVec3::new(511, -1, 511),
            Cell::solid(Default::default()),
        )
        .expect("ground");
    c.bench_function("empty_512_block_ray", |b| {
        b.iter(|| {
            walk(
                black_box(&empty),
                origin,
                dir,
                512.0,
                &mut Budget::unlimited(),
                |_| Flow::Continue,
            )
        })
    });

    // Issue 16's worst case: a 512-block ray along the ground, through sections that hold
    // the ground's bumps (a 1-cell stone every 6 blocks on the ground at y = -1), so every
    // section it crosses is Mixed (stored sparsely: the bumps over an air fill). `walk_solid`
    // crosses such a section in one step when no bump lies in the box of the ray's cells there
    // (issue 16); this ray, one block above the bumps, meets none.
    let mut bumpy = empty.clone();
    for x in (-512..512).step_by(6) {
        for z in (-512..512).step_by(6) {
            bumpy
                .set_cell(IVec3::new(x, 0, z), Cell::solid(Default::default()))
                .expect("bump");
        }
    }
    let along = DVec3::new(1.0, 0.0, 0.6).normalize();
    let ground_origin = DVec3::new(-255.5, 1.5, -150.3);
    c.bench_function("ground_512_block_ray", |b| {
        b.iter(|| {
            walk_solid(
                black_box(&bumpy),
                ground_origin,
                along,
                512.0,
                &mut Budget::unlimited(),
                |_| Flow::Continue,
            )
        })
    });

    // The same ray through the bump layer (y = 0.5): the box of its cells in a section holds
    // bumps, so every section is walked cell by cell (the cost of the cell walk itself).
    let low_origin = DVec3::new(-255.5, 0.5, -150.3);
    c.bench_function("ground_512_block_ray_through_bumps", |b| {
        b.iter(|| {
            walk_solid(
                black_box(&bumpy),
                low_origin,
                along,
                512.0,
                &mut Budget::unlimited(),
                |_| Flow::Continue,
            )
        })
    });

    let model = OwnModel::default();
    let (gs, gw) = scene(include_str!("../scenes/G.json"));
    let greq = gs.request().expect("request");
    c.bench_function("echo_search_gorge", |b| {
        b.iter(|| model.reflections(black_box(&gw), &greq, &mut Budget::unlimited()))
    });
    let (fs, fw) = scene(include_str!("../scenes/F.json"));
    let freq = fs.request().expect("request");
    c.bench_function("echo_search_field", |b| {
        b.iter(|| model.reflections(black_box(&fw), &freq, &mut Budget::unlimited()))
    });

    let (rs, rw) = scene(include_str!("../scenes/R.json"));
    let rreq = rs.request().expect("request");
    c.bench_function("echo_search_room", |b| {
        b.iter(|| model.reflections(black_box(&rw), &rreq, &mut Budget::unlimited()))
    });
    let listener_only = SoundRequest {
        measure_source_space: false,
        ..rreq
    };
    c.bench_function("room_measurement_room", |b| {
        b.iter(|| model.room(black_box(&rw), &listener_only, &mut Budget::unlimited()))
    });
    for (name, text) in [
        ("tunnel", include_str!("../scenes/T.json")),
        ("gorge", include_str!("../scenes/G.json")),
        ("field", include_str!("../scenes/F.json")),
    ] {
        let (s, w) = scene(text);
        let req = SoundRequest {
            measure_source_space: false,
            ..s.request().expect("request")
        };
        c.bench_function(format!("room_measurement_{name}"), |b| {
            b.iter(|| model.room(black_box(&w), &req, &mut Budget::unlimited()))
        });
    }

    // Room measurement of both the listener's and the source's space (issue 16).
    for (name, text) in [
        ("room", include_str!("../scenes/R.json")),
        ("gorge", include_str!("../scenes/G.json")),
        ("field", include_str!("../scenes/F.json")),
    ] {
        let (s, w) = scene(text);
        let req = SoundRequest {
            measure_source_space: true,
            ..s.request().expect("request")
        };
        c.bench_function(format!("room_measurement_both_spaces_{name}"), |b| {
            b.iter(|| model.room(black_box(&w), &req, &mut Budget::unlimited()))
        });
    }

    let (ws, ww) = scene(include_str!("../scenes/W2.json"));
    let wreq = SoundRequest {
        paths: Paths::Nine,
        ..ws.request().expect("request")
    };
    c.bench_function("occlusion_9_paths_w2", |b| {
        b.iter(|| model.direct(black_box(&ww), &wreq, &mut Budget::unlimited()))
    });

    // Scene C: 100 loops + 8 clicks through the queue, fresh caches, until drained.
    let (cs, cw) = scene(include_str!("../scenes/C.json"));
    let listener = DVec3::from_array(cs.listener);
    let jobs: Vec<Job> = cs
        .voices
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let click = v.kind == "click";
            let source = DVec3::from_array(v.position);
            Job {
                id: i as u64,
                request: SoundRequest {
                    source,
                    listener,
                    range: v.range,
                    paths: if click { Paths::Nine } else { Paths::One },
                    measure_source_space: click,
                },
                mode: Mode::Full,
                loudness: v.volume * (1.0 - (source - listener).length() / v.range).max(0.0),
                impulsive: click,
                echo: click,
            }
        })
        .collect();
    c.bench_function("queue_scene_c_108_voices", |b| {
        b.iter(|| {
            let mut ev = Evaluator::new(OwnModel::default(), QueueSettings::default());
            for j in &jobs {
                ev.enqueue(*j).expect("valid job");
            }
            while ev.queued() > 0 {
                black_box(ev.run_tick(&cw));
            }
        })
    });
    c.finish();
}

criterion_group! {
    name = trace;
    // Flat sampling, 20 equal samples: chosen when the clock was /proc schedstat, which advanced
    // only at scheduler updates, so each sample had to span many; kept so figures compare.
    config = Criterion::default()
        .with_measurement(ThreadCpuTime::new())
        .sample_size(20);
    targets = benches
}
criterion_main!(trace);
