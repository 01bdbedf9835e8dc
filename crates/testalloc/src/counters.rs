//! The counters behind [`crate::Probe`]: per thread while armed, and process-wide always.

use std::cell::Cell;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// One set of counts: requests, frees, the largest request, live bytes and their peak.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Counts {
    pub(crate) allocations: u64,
    pub(crate) frees: u64,
    pub(crate) largest: usize,
    pub(crate) live: usize,
    pub(crate) peak: usize,
}

impl Counts {
    const ZERO: Self = Self {
        allocations: 0,
        frees: 0,
        largest: 0,
        live: 0,
        peak: 0,
    };

    fn allocated(&mut self, size: usize) {
        self.allocations += 1;
        self.largest = self.largest.max(size);
        self.live += size;
        self.peak = self.peak.max(self.live);
    }

    fn freed(&mut self, size: usize) {
        self.frees += 1;
        // Bytes allocated before the measurement began may be freed during it: never below
        // zero, so the peak can only overstate what the measured code held.
        self.live = self.live.saturating_sub(size);
    }
}

thread_local! {
    static ARMED: Cell<bool> = const { Cell::new(false) };
    static THREAD: Cell<Counts> = const { Cell::new(Counts::ZERO) };
}

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);
static FREES: AtomicU64 = AtomicU64::new(0);
static LARGEST: AtomicUsize = AtomicUsize::new(0);
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

/// Counts a request of `size` bytes.
pub(crate) fn allocated(size: usize) {
    ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    LARGEST.fetch_max(size, Ordering::Relaxed);
    let live = LIVE.fetch_add(size, Ordering::Relaxed) + size;
    PEAK.fetch_max(live, Ordering::Relaxed);
    on_thread(|c| c.allocated(size));
}

/// Counts a free of `size` bytes.
pub(crate) fn freed(size: usize) {
    FREES.fetch_add(1, Ordering::Relaxed);
    LIVE.fetch_sub(size, Ordering::Relaxed);
    on_thread(|c| c.freed(size));
}

fn on_thread(f: impl FnOnce(&mut Counts)) {
    // `try_with`: the allocator runs while thread-locals are torn down too.
    if ARMED.try_with(Cell::get).unwrap_or(false) {
        let _ = THREAD.try_with(|cell| {
            let mut counts = cell.get();
            f(&mut counts);
            cell.set(counts);
        });
    }
}

/// Arms this thread's counters from zero.
pub(crate) fn arm_thread() {
    THREAD.with(|c| c.set(Counts::ZERO));
    ARMED.with(|a| a.set(true));
}

/// Disarms this thread's counters and returns them.
pub(crate) fn disarm_thread() -> Counts {
    ARMED.with(|a| a.set(false));
    THREAD.with(Cell::get)
}

/// Restarts the process-wide largest request and peak from now; returns the counts at the
/// start (the peak field holds the bytes live now).
pub(crate) fn restart_process() -> Counts {
    LARGEST.store(0, Ordering::Relaxed);
    let live = LIVE.load(Ordering::Relaxed);
    PEAK.store(live, Ordering::Relaxed);
    read_process()
}

/// The process-wide counts now.
pub(crate) fn read_process() -> Counts {
    Counts {
        allocations: ALLOCATIONS.load(Ordering::Relaxed),
        frees: FREES.load(Ordering::Relaxed),
        largest: LARGEST.load(Ordering::Relaxed),
        live: LIVE.load(Ordering::Relaxed),
        peak: PEAK.load(Ordering::Relaxed),
    }
}
