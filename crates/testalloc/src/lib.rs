//! The tests' counting allocator, for the test binaries that prove a path allocates nothing
//! (the audio callback, the processors after `prepare`) or that its memory follows its input
//! (parsers fed hostile sizes, worlds built from scenes).
//!
//! A global allocator is process-wide, so each such test lives in its own test binary and
//! installs [`Probe`] there:
//!
//! ```
//! #[global_allocator]
//! static ALLOCATOR: resound_testalloc::Probe = resound_testalloc::Probe;
//!
//! fn main() {
//!     let (v, usage) = resound_testalloc::on_this_thread(|| vec![0u8; 4096]);
//!     assert_eq!((v.len(), usage.allocations, usage.largest), (4096, 1, 4096));
//! }
//! ```
//!
//! Two ways to measure, each giving a [`Usage`]:
//! - [`on_this_thread`]: only the calling thread's requests count, so tests running in
//!   parallel in the same binary do not land in each other's window;
//! - [`whole_process`]: every thread's requests count (an engine's worker, Bevy's systems);
//!   measurements of this kind take turns.
//!
//! Dev-only: tests take it as a dev-dependency; it is not published.

mod counters;
mod probe;
mod usage;

pub use probe::Probe;
pub use usage::{Usage, on_this_thread, whole_process};
