//! [`Probe`]: the `GlobalAlloc` that forwards to the system allocator and counts.

use std::alloc::{GlobalAlloc, Layout, System};

use crate::counters;

/// Forwards every request unchanged to [`System`] and counts it (see the crate's docs).
///
/// Counting never allocates: the per-thread counters are `const` thread-locals of plain
/// integers (no destructor), the process-wide ones are atomics.
#[derive(Debug, Clone, Copy, Default)]
pub struct Probe;

// SAFETY: every method forwards its arguments unchanged to `System`, which upholds the
// `GlobalAlloc` contract; the counting touches only integers.
#[allow(
    unsafe_code,
    reason = "a GlobalAlloc impl is unsafe by definition; this one only forwards"
)]
unsafe impl GlobalAlloc for Probe {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        counters::allocated(layout.size());
        // SAFETY: the caller's layout, passed on unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        counters::allocated(layout.size());
        // SAFETY: the caller's layout, passed on unchanged.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // The new block is counted before the old one is freed: a move holds both.
        counters::allocated(new_size);
        counters::freed(layout.size());
        // SAFETY: `ptr` and `layout` come from this allocator, that is from `System`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        counters::freed(layout.size());
        // SAFETY: `ptr` came from `System` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}
