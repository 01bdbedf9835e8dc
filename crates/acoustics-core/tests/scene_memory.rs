//! Memory per scene (issue 9 item 10): a valid scene of 65 536 one-cell boxes, each in its own
//! section, stays within 10× the scene file's size while it is parsed and built (it took
//! 65 536 × 8 KiB = 512 MiB when every touched section was stored cell by cell).
//!
//! A dedicated test binary because the counting allocator is process-wide.

#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a failed unwrap is a failed test"
)]

use resound_acoustics::scene::Scene;
use resound_acoustics::{Cell, MaterialTable, WorldProbe};

/// The counting allocator: live bytes and their peak.
#[allow(
    unsafe_code,
    reason = "a GlobalAlloc impl is unsafe by definition; it only forwards"
)]
mod counting {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::sync::atomic::{AtomicUsize, Ordering};

    static LIVE: AtomicUsize = AtomicUsize::new(0);
    static PEAK: AtomicUsize = AtomicUsize::new(0);

    /// Forwards to [`System`], counting live bytes.
    pub struct Counting;

    fn grew(by: usize) {
        let now = LIVE.fetch_add(by, Ordering::Relaxed) + by;
        PEAK.fetch_max(now, Ordering::Relaxed);
    }

    fn shrank(by: usize) {
        LIVE.fetch_sub(by, Ordering::Relaxed);
    }

    /// Starts a measurement: the peak restarts from the bytes live now.
    pub fn reset() -> usize {
        let live = LIVE.load(Ordering::Relaxed);
        PEAK.store(live, Ordering::Relaxed);
        live
    }

    /// The peak of live bytes since [`reset`].
    pub fn peak() -> usize {
        PEAK.load(Ordering::Relaxed)
    }

    // SAFETY: every method forwards its arguments unchanged to `System`, which upholds the
    // GlobalAlloc contract; the counters are plain atomics.
    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            grew(layout.size());
            // SAFETY: the caller's layout, passed on unchanged.
            unsafe { System.alloc(layout) }
        }

        unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
            grew(layout.size());
            // SAFETY: the caller's layout, passed on unchanged.
            unsafe { System.alloc_zeroed(layout) }
        }

        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            grew(new_size);
            shrank(layout.size());
            // SAFETY: `ptr`/`layout` come from this allocator, i.e. from `System`.
            unsafe { System.realloc(ptr, layout, new_size) }
        }

        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            shrank(layout.size());
            // SAFETY: `ptr`/`layout` come from this allocator, i.e. from `System`.
            unsafe { System.dealloc(ptr, layout) }
        }
    }
}

#[global_allocator]
static ALLOC: counting::Counting = counting::Counting;

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
    let before = counting::reset();
    let scene = Scene::from_json(&text, &materials).unwrap();
    let world = scene.build_world(&materials, 0).unwrap();
    let used = counting::peak() - before;
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
