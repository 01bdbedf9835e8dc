//! The engine's counters as one line of text each: [`Status`] (and its live line for
//! `resound play`) and [`AmbientStatus`]. Their JSON forms live with the tools
//! (`resound-studio`'s `describe`), so the runtime carries no JSON library.

use std::fmt;

use crate::status::{AmbientStatus, Status};

impl Status {
    /// The live status line of `resound play`: time played, voices, acoustic cost (cells traced
    /// in all and in the last tick, worker time), then the device's own line (rate, format,
    /// callbacks, xruns, late callbacks, load, losses and the last problem).
    #[must_use]
    pub fn live_line(&self, frames: u64, rate: u32) -> String {
        let device = self
            .device
            .as_ref()
            .map_or_else(String::new, ToString::to_string);
        format!(
            "{:.2} s  voices {}  cells {} (last tick {})  worker {:.2} ms  | {device}",
            frames as f64 / f64::from(rate.max(1)),
            self.live_voices,
            self.cells + self.inline_cells,
            self.last_tick_occlusion_cells + self.last_tick_echo_cells,
            self.worker_time.as_secs_f64() * 1e3,
        )
    }
}

impl fmt::Display for Status {
    /// One line: `N ticks, … xruns N`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self;
        write!(
            f,
            "{} ticks, {} rays, {} worker cells (max/tick occlusion {}, echo {}), {} inline cells, worker {:.2} ms, queue {}, cache {}/{} hit/miss, discarded {}, unknown {:.1} %, voices {}, limiter {}, peak {:.3}, dropped {}, xruns {}",
            s.ticks,
            s.rays,
            s.cells,
            s.max_tick_occlusion_cells,
            s.max_tick_echo_cells,
            s.inline_cells,
            s.worker_time.as_secs_f64() * 1e3,
            s.queue_len,
            s.cache_hits,
            s.cache_misses,
            s.discarded,
            s.unknown_share * 100.0,
            s.live_voices,
            s.limiter_engagements,
            s.peak,
            s.dropped_voices,
            s.xruns
        )
    }
}

impl fmt::Display for AmbientStatus {
    /// One line: frames, rebuilds, events, plays, drops, voices started.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = &self.counters;
        write!(
            f,
            "{} frames, {} rebuilds, {} events, {} played, {} dropped ({} pool full), {} started, {} not started",
            c.frames,
            c.rebuilds,
            c.events,
            c.played,
            c.dropped.total(),
            c.dropped.pool_full,
            self.started,
            self.not_started
        )
    }
}
