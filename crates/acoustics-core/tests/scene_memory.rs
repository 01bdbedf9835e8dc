//! Memory per scene (issue 9 item 10): a valid scene of 65 536 one-cell boxes, each in its own
//! section, stays within 10× the scene file's size while it is parsed and built (it took
//! 65 536 × 8 KiB = 512 MiB when every touched section was stored cell by cell).
//!
//! A dedicated test binary because the counting allocator (`resound_testalloc::Probe`) is
//! process-wide.

#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a failed unwrap is a failed test"
)]

use resound_acoustics::scene::Scene;
use resound_acoustics::{Cell, MaterialTable, WorldProbe};

#[global_allocator]
static ALLOCATOR: resound_testalloc::Probe = resound_testalloc::Probe;

#[test]
fn many_one_cell_boxes_in_separate_sections_stay_within_ten_times_the_scene() {
    // 64 × 32 × 32 sections, one stone cell in each (at a different place per section).
    let mut boxes = Vec::with_capacity(65_536);
    for i in 0..65_536i32 {
        let (sx, sy, sz) = (i % 64, (i / 64) % 32, i / 2048);
        let c = [
            sx * 16 + i % 16,
            sy * 16 + (i / 16) % 16,
            sz * 16 + (i / 256) % 16,
        ];
        boxes.push(format!(
            "{{\"min\": [{}, {}, {}], \"max\": [{}, {}, {}], \"material\": \"stone\"}}",
            c[0], c[1], c[2], c[0], c[1], c[2]
        ));
    }
    let text = format!(
        "{{\"boxes\":[{}],\"source\":[0.5,600.5,0.5],\"listener\":[60.5,600.5,0.5]}}",
        boxes.join(",")
    );
    drop(boxes);
    assert!(text.len() > 4_000_000, "{}", text.len());
    let materials = MaterialTable::standard();
    let (world, usage) = resound_testalloc::whole_process(|| {
        let scene = Scene::from_json(&text, &materials).unwrap();
        scene.build_world(&materials, 0).unwrap()
    });
    let used = usage.peak;
    eprintln!("peak {used} bytes for a scene of {} bytes", text.len());
    assert!(
        used <= 10 * text.len(),
        "peak {used} bytes for a scene of {} bytes",
        text.len()
    );
    // The world is what the scene says.
    assert_eq!(world.section_count(), 65_536);
    let stone = materials.by_name("stone").unwrap();
    assert_eq!(world.cell(glam::IVec3::new(0, 0, 0)), Cell::solid(stone));
    assert_eq!(world.cell(glam::IVec3::new(1, 0, 0)), Cell::Air);
    assert_eq!(
        world.cell(glam::IVec3::new(16 + 1, 0, 0)),
        Cell::solid(stone)
    );
}
