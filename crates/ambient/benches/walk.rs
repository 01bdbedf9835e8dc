//! Criterion bench of a long scripted walk (issue 9, item 2): the poses of 100 000 waypoints
//! over 72 000 s at the walk's 30 frames per second (2 160 001 frames), through the segment
//! cursor. Scanning the waypoints from the start each frame took about 35 minutes.

#![allow(clippy::unwrap_used, reason = "bench setup from constants")]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use resound_ambient::CellId;
use resound_ambient::walk::{Walk, Waypoint};

const WAYPOINTS: u32 = 100_000;
const SECONDS: f64 = 72_000.0;

/// A zigzag through the 64 land cells of one block, a waypoint every 0.72 s.
fn long_walk() -> Walk {
    let waypoints = (0..WAYPOINTS)
        .map(|i| Waypoint {
            t: f64::from(i) * SECONDS / f64::from(WAYPOINTS),
            cell: CellId(0xA9B4_0001 + (i % 64)),
            origin: [
                (i % 64 / 8) as f32 * 24.0 + 12.0,
                (i % 8) as f32 * 24.0 + 12.0,
                50.0,
            ],
            seen_outside: false,
            heading: None,
            teleport: false,
        })
        .collect();
    Walk {
        frame_rate: 30.0,
        camera_offset: [0.0, -4.0, 2.0],
        waypoints,
    }
}

fn bench_walk_poses(c: &mut Criterion) {
    let walk = long_walk();
    walk.validate().unwrap();
    let frames = (SECONDS * walk.frame_rate) as u64;
    let mut group = c.benchmark_group("walk");
    group.sample_size(10);
    group.bench_function("poses_100k_waypoints_72000_s", |b| {
        b.iter(|| {
            let mut cursor = walk.cursor().unwrap();
            let mut sum = 0.0_f32;
            for i in 0..=frames {
                let pose = cursor.pose(i as f64 / walk.frame_rate);
                sum += pose.player.position.origin.x;
            }
            black_box(sum)
        });
    });
    group.finish();
}

criterion_group!(benches, bench_walk_poses);
criterion_main!(benches);
