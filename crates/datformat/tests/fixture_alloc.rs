//! The fixture corruption routines under a counting global allocator: reading a damaged dat
//! must never make a single allocation larger than the damaged file.
//!
//! A dedicated test binary because a global allocator is process-wide (the `it` binary's
//! container tests install their own).

#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a failed unwrap is a failed test"
)]

#[path = "it/fixture/corrupt.rs"]
mod corrupt;

/// The counting allocator.
#[allow(
    unsafe_code,
    reason = "a GlobalAlloc impl is unsafe by definition; it only forwards"
)]
mod alloc_probe {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::cell::Cell;

    thread_local! {
        static ARMED: Cell<bool> = const { Cell::new(false) };
        static LARGEST: Cell<usize> = const { Cell::new(0) };
    }

    /// Forwards to [`System`]; records the largest request made while armed on this thread.
    pub struct Probe;

    fn note(size: usize) {
        // `const` thread-locals of `Copy` types never allocate and have no destructor.
        let _ = ARMED.try_with(|armed| {
            if armed.get() {
                let _ = LARGEST.try_with(|l| l.set(l.get().max(size)));
            }
        });
    }

    // SAFETY: every method forwards its arguments unchanged to `System`, which upholds the
    // GlobalAlloc contract; `note` only touches thread-local integers.
    unsafe impl GlobalAlloc for Probe {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            note(layout.size());
            // SAFETY: the caller's layout, passed on unchanged.
            unsafe { System.alloc(layout) }
        }

        unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
            note(layout.size());
            // SAFETY: the caller's layout, passed on unchanged.
            unsafe { System.alloc_zeroed(layout) }
        }

        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            note(new_size);
            // SAFETY: `ptr`/`layout` come from this allocator, i.e. from `System`.
            unsafe { System.realloc(ptr, layout, new_size) }
        }

        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            // SAFETY: `ptr`/`layout` come from this allocator, i.e. from `System`.
            unsafe { System.dealloc(ptr, layout) }
        }
    }

    #[global_allocator]
    static GLOBAL: Probe = Probe;

    /// Runs `f`; returns its result and the largest single allocation it made.
    pub fn measure(f: &mut dyn FnMut() -> usize) -> (usize, Option<usize>) {
        LARGEST.with(|l| l.set(0));
        ARMED.with(|a| a.set(true));
        let out = f();
        ARMED.with(|a| a.set(false));
        (out, Some(LARGEST.with(Cell::get)))
    }
}

#[test]
fn the_probe_sees_allocations() {
    let (_, largest) = alloc_probe::measure(&mut || std::hint::black_box(vec![0u8; 123_456]).len());
    assert_eq!(largest, Some(123_456));
}

#[test]
fn truncated_dats_allocate_within_the_file_size() {
    corrupt::truncations(alloc_probe::measure);
}

#[test]
fn flipped_dats_allocate_within_the_file_size() {
    corrupt::random_flips(alloc_probe::measure);
}

#[test]
fn all_ones_counts_allocate_within_the_file_size() {
    corrupt::all_ones(alloc_probe::measure);
}
