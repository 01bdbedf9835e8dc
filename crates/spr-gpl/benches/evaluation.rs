// SPDX-License-Identifier: GPL-3.0-only
//! One SPR sound evaluation (9-path occlusion + 32 rays × 4 bounces + shared airspace) in the
//! R (room) and G (gorge) scenes of `acoustics.md` §9 (SPR `SoundPhysics.java`
//! `evaluateEnvironment` at `ca0f8fe`).

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};
use resound_acoustics::scene::Scene;
use resound_acoustics::{AcousticModel, Budget, Mode};
use resound_spr::SprModel;

fn bench(c: &mut Criterion) {
    let model = SprModel::default();
    let mut group = c.benchmark_group("spr_evaluation");
    for name in ["R", "G"] {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../acoustics-core/scenes")
            .join(format!("{name}.json"));
        let Ok(text) = std::fs::read_to_string(&path) else {
            eprintln!("scene {} missing; skipped", path.display());
            continue;
        };
        let Ok(scene) = Scene::from_json(&text, model.materials()) else {
            eprintln!("scene {name} does not parse; skipped");
            continue;
        };
        let (Ok(world), Ok(request)) = (scene.build_world(model.materials(), 0), scene.request())
        else {
            eprintln!("scene {name} does not build; skipped");
            continue;
        };
        let snapshot = world.snapshot();
        if let Ok(r) = model.evaluate(&snapshot, &request, Mode::Full, &mut Budget::unlimited()) {
            eprintln!(
                "scene {name}: casts {}, cells {}, occ {:.3}, gain {:.4}, sends {:?}",
                r.telemetry.rays, r.telemetry.cells, r.occ, r.gain, r.sends
            );
        }
        group.bench_function(format!("full_{name}"), |b| {
            b.iter(|| {
                let mut budget = Budget::unlimited();
                black_box(model.evaluate(&snapshot, black_box(&request), Mode::Full, &mut budget))
            });
        });
        group.bench_function(format!("direct_{name}"), |b| {
            b.iter(|| {
                let mut budget = Budget::unlimited();
                black_box(model.direct(&snapshot, black_box(&request), &mut budget))
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
