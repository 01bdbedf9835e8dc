//! The probe installed, as the workspace's test binaries install it.

#![allow(
    clippy::unwrap_used,
    reason = "tests: a failed unwrap is a failed test"
)]

use std::hint::black_box;

use resound_testalloc::{Probe, on_this_thread, whole_process};

#[global_allocator]
static ALLOCATOR: Probe = Probe;

#[test]
fn a_thread_measure_counts_requests_frees_the_largest_and_the_peak() {
    let ((), usage) = on_this_thread(|| {
        let a = black_box(vec![0u8; 1000]);
        let b = black_box(vec![0u8; 3000]);
        drop(a);
        let c = black_box(vec![0u8; 500]);
        drop((b, c));
    });
    assert_eq!(usage.allocations, 3);
    assert_eq!(usage.frees, 3);
    assert_eq!(usage.largest, 3000);
    assert_eq!(usage.peak, 4000);
    assert_eq!(usage.calls(), 6);
}

#[test]
fn a_thread_measure_does_not_count_other_threads() {
    let ((), usage) = on_this_thread(|| {
        std::thread::scope(|s| {
            s.spawn(|| drop(black_box(vec![0u8; 1 << 20])));
        });
    });
    // Spawning a thread allocates a little on this thread; the megabyte was the other's.
    assert!(usage.largest < 1 << 20, "{usage:?}");
}

#[test]
fn a_measure_that_allocates_nothing_reads_zero() {
    let mut v = Vec::with_capacity(16);
    let ((), usage) = on_this_thread(|| {
        for i in 0..16 {
            v.push(i);
        }
    });
    assert_eq!(usage.calls(), 0);
}

#[test]
fn a_process_measure_counts_other_threads() {
    let ((), usage) = whole_process(|| {
        std::thread::scope(|s| {
            s.spawn(|| drop(black_box(vec![0u8; 1 << 20])));
        });
    });
    assert!(usage.largest >= 1 << 20, "{usage:?}");
    assert!(usage.peak >= 1 << 20, "{usage:?}");
}

#[test]
fn a_panicking_measure_disarms() {
    let caught = std::panic::catch_unwind(|| on_this_thread(|| panic!("inside")));
    assert!(caught.is_err());
    let big = black_box(vec![0u8; 1 << 16]);
    drop(big);
    let ((), usage) = on_this_thread(|| ());
    assert_eq!(usage, Default::default());
}
