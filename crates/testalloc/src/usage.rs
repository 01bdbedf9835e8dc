//! [`Usage`] and the two ways to measure it.

use std::sync::Mutex;

use crate::counters;

/// What a measured closure asked of the allocator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Usage {
    /// Requests for memory (`alloc`, `alloc_zeroed`, `realloc`).
    pub allocations: u64,
    /// Frees (`dealloc`, and the old block of a `realloc`).
    pub frees: u64,
    /// The largest single request, in bytes.
    pub largest: usize,
    /// The most bytes held at once above what was held when the measurement began.
    pub peak: usize,
}

impl Usage {
    /// Allocator calls of any kind: requests plus frees.
    #[must_use]
    pub fn calls(&self) -> u64 {
        self.allocations + self.frees
    }
}

/// Disarms the thread when the measured closure returns or unwinds.
struct Armed;

impl Drop for Armed {
    fn drop(&mut self) {
        let _ = counters::disarm_thread();
    }
}

/// Runs `f` with this thread's requests counted (other threads' are not) and returns its
/// result with the [`Usage`]. Frees of memory allocated before `f` began count as frees but
/// never take the held bytes below zero, so `peak` can only overstate.
pub fn on_this_thread<T>(f: impl FnOnce() -> T) -> (T, Usage) {
    counters::arm_thread();
    let guard = Armed;
    let out = f();
    drop(guard);
    let c = counters::disarm_thread();
    let usage = Usage {
        allocations: c.allocations,
        frees: c.frees,
        largest: c.largest,
        peak: c.peak,
    };
    (out, usage)
}

/// Measurements of the whole process take turns.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Runs `f` with every thread's requests counted and returns its result with the [`Usage`].
/// Whole-process measurements in the same binary run one at a time; anything else running
/// meanwhile (another test on another thread) is counted too, so a binary using this keeps
/// its other tests allocation-quiet or runs single-threaded.
pub fn whole_process<T>(f: impl FnOnce() -> T) -> (T, Usage) {
    let _turn = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let start = counters::restart_process();
    let out = f();
    let end = counters::read_process();
    let usage = Usage {
        allocations: end.allocations - start.allocations,
        frees: end.frees - start.frees,
        largest: end.largest,
        peak: end.peak.saturating_sub(start.peak),
    };
    (out, usage)
}

#[cfg(test)]
mod tests {
    use super::*;

    // The library's own tests run under the system allocator (no `Probe` installed): the
    // counters stay at zero, which is what these check. The counting itself is exercised by
    // the test binaries that install `Probe` (tests/probe.rs).
    #[test]
    fn without_the_probe_nothing_is_counted() {
        let (v, usage) = on_this_thread(|| vec![1u8; 1000]);
        assert_eq!(v.len(), 1000);
        assert_eq!(usage, Usage::default());
    }
}
