//! A criterion measurement of the benchmark thread's CPU time (Linux `schedstat`).

use std::time::{Duration, Instant};

use criterion::Throughput;
use criterion::measurement::{Measurement, ValueFormatter};

/// Thread CPU time in ns from `/proc/thread-self/schedstat`, or wall time if unavailable.
pub struct CpuTime {
    origin: Instant,
    schedstat: bool,
}

impl Default for CpuTime {
    fn default() -> Self {
        Self::new()
    }
}

impl CpuTime {
    /// Probes the clock source once.
    pub fn new() -> Self {
        Self {
            origin: Instant::now(),
            schedstat: read_schedstat().is_some(),
        }
    }

    fn now(&self) -> u64 {
        if self.schedstat
            && let Some(ns) = read_schedstat()
        {
            return ns;
        }
        u64::try_from(self.origin.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }
}

fn read_schedstat() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

impl Measurement for CpuTime {
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
