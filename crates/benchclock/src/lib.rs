//! The benches' clock: the bench thread's CPU time, for every criterion bench in the workspace.
//!
//! Why not wall time: the build machine is a shared VM with 2 cores, usually loaded several
//! times over by other builds. Wall time then mostly measures how long the bench thread waited
//! for a core, and figures swing with the load. The thread's on-CPU time
//! (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`, in ns) counts only the time the thread ran, so a
//! figure survives a loaded machine. It still counts what the load does to caches and
//! frequency, and it misses time spent in other threads: benches that time a worker run its
//! work inline on the bench thread.
//!
//! Set `RESOUND_BENCH_WALL=1` to time in wall-clock time instead ([`wall_requested`]); where
//! the thread clock cannot be read (not Unix, or the call fails) wall time is used too.
//!
//! Two ways in:
//! - [`Stopwatch`], for `Bencher::iter_custom`: start it around exactly the part to time and
//!   sum the [`Stopwatch::elapsed`] durations;
//! - [`ThreadCpuTime`], a criterion [`Measurement`]:
//!   `Criterion::default().with_measurement(ThreadCpuTime::new())` times whole iterations.
//!
//! Dev-only: benches take it as a dev-dependency; it is not published.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use criterion::Throughput;
use criterion::measurement::{Measurement, ValueFormatter};

/// The environment variable that switches the benches to wall-clock time (any value).
pub const WALL_ENV: &str = "RESOUND_BENCH_WALL";

/// True if [`WALL_ENV`] is set: time in wall-clock time. Read once per process.
#[must_use]
pub fn wall_requested() -> bool {
    static WALL: OnceLock<bool> = OnceLock::new();
    *WALL.get_or_init(|| std::env::var_os(WALL_ENV).is_some())
}

/// The calling thread's CPU time in ns, or `None` where it cannot be read.
#[cfg(unix)]
#[allow(unsafe_code)] // one libc call; std has no thread CPU clock
#[must_use]
pub fn thread_cpu_ns() -> Option<u64> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant libc defines.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    (rc == 0).then(|| ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64)
}

/// The calling thread's CPU time in ns, or `None` where it cannot be read (here: never).
#[cfg(not(unix))]
#[must_use]
pub fn thread_cpu_ns() -> Option<u64> {
    None
}

/// The thread's CPU time now, unless wall time was asked for or the clock cannot be read.
fn cpu_now() -> Option<u64> {
    if wall_requested() {
        None
    } else {
        thread_cpu_ns()
    }
}

/// A stopwatch on the thread's on-CPU time (or wall time, see the crate docs), for
/// `iter_custom`: start it where the timed part begins, read it where it ends.
#[derive(Clone, Copy, Debug)]
pub struct Stopwatch {
    start: Start,
}

#[derive(Clone, Copy, Debug)]
enum Start {
    /// Thread CPU time at the start (ns).
    Cpu(u64),
    /// Wall time at the start.
    Wall(Instant),
}

impl Stopwatch {
    /// Starts timing now.
    #[must_use]
    pub fn start() -> Self {
        let start = match cpu_now() {
            Some(ns) => Start::Cpu(ns),
            None => Start::Wall(Instant::now()),
        };
        Self { start }
    }

    /// The time since [`Stopwatch::start`], on the clock it started on.
    #[must_use]
    pub fn elapsed(&self) -> Duration {
        match self.start {
            Start::Wall(t) => t.elapsed(),
            Start::Cpu(ns) => {
                Duration::from_nanos(thread_cpu_ns().unwrap_or(ns).saturating_sub(ns))
            }
        }
    }
}

/// A criterion measurement of the bench thread's CPU time in ns (or wall time, see the crate
/// docs), reported as a duration scaled to ns, µs, ms or s.
#[derive(Clone, Copy, Debug)]
pub struct ThreadCpuTime {
    origin: Instant,
    cpu: bool,
}

impl Default for ThreadCpuTime {
    fn default() -> Self {
        Self::new()
    }
}

impl ThreadCpuTime {
    /// Chooses the clock once: the thread CPU clock unless wall time was asked for or the
    /// clock cannot be read.
    #[must_use]
    pub fn new() -> Self {
        Self {
            origin: Instant::now(),
            cpu: cpu_now().is_some(),
        }
    }

    fn now(&self) -> u64 {
        if self.cpu
            && let Some(ns) = thread_cpu_ns()
        {
            return ns;
        }
        u64::try_from(self.origin.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }
}

impl Measurement for ThreadCpuTime {
    type Intermediate = u64;
    type Value = Duration;

    fn start(&self) -> u64 {
        self.now()
    }
    fn end(&self, start: u64) -> Duration {
        Duration::from_nanos(self.now().saturating_sub(start))
    }
    fn add(&self, a: &Duration, b: &Duration) -> Duration {
        *a + *b
    }
    fn zero(&self) -> Duration {
        Duration::ZERO
    }
    fn to_f64(&self, value: &Duration) -> f64 {
        value.as_nanos() as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        &NsFormatter
    }
}

/// Scales ns to ns, µs, ms or s; throughputs per second.
struct NsFormatter;

impl ValueFormatter for NsFormatter {
    fn scale_values(&self, typical: f64, values: &mut [f64]) -> &'static str {
        let (div, unit) = if typical < 1e3 {
            (1.0, "ns")
        } else if typical < 1e6 {
            (1e3, "µs")
        } else if typical < 1e9 {
            (1e6, "ms")
        } else {
            (1e9, "s")
        };
        for v in values.iter_mut() {
            *v /= div;
        }
        unit
    }

    fn scale_throughputs(
        &self,
        _typical: f64,
        throughput: &Throughput,
        values: &mut [f64],
    ) -> &'static str {
        let n = match throughput {
            Throughput::Elements(n) | Throughput::Bytes(n) | Throughput::BytesDecimal(n) => {
                *n as f64
            }
            Throughput::ElementsAndBytes { elements, .. } => *elements as f64,
            Throughput::Bits(n) => *n as f64,
        };
        for v in values.iter_mut() {
            *v = n * 1e3 / *v; // per ns → M per s
        }
        "Melem/s"
    }

    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "ns"
    }
}

#[cfg(test)]
mod tests {
    use super::{Stopwatch, ThreadCpuTime, thread_cpu_ns};
    use criterion::measurement::Measurement;
    use std::time::Duration;

    fn spin() -> u64 {
        (0..2_000_000u64).fold(0, |a, i| std::hint::black_box(a ^ i.wrapping_mul(31)))
    }

    #[cfg(unix)]
    #[test]
    fn the_thread_clock_reads_and_advances() {
        let a = thread_cpu_ns().expect("CLOCK_THREAD_CPUTIME_ID is readable");
        spin();
        let b = thread_cpu_ns().expect("CLOCK_THREAD_CPUTIME_ID is readable");
        assert!(b > a, "{a} -> {b}");
    }

    #[test]
    fn sleeping_costs_no_cpu_time() {
        if super::wall_requested() || thread_cpu_ns().is_none() {
            return;
        }
        let watch = Stopwatch::start();
        std::thread::sleep(Duration::from_millis(30));
        assert!(watch.elapsed() < Duration::from_millis(20));
    }

    #[test]
    fn the_measurement_counts_work() {
        let m = ThreadCpuTime::new();
        let start = m.start();
        spin();
        let took = m.end(start);
        assert!(took > Duration::ZERO);
        assert_eq!(m.add(&took, &m.zero()), took);
        assert_eq!(m.to_f64(&Duration::from_micros(3)), 3000.0);
    }
}
