//! [`Status`]: the engine's counters (acoustics §3.6), and [`AmbientStatus`], the ambient
//! bridge's as the engine reports them. Budgets count cells; times here are wall-clock
//! telemetry only and never steer the work.

use std::time::Duration;

use crate::device::DeviceStatus;
use crate::sound::{AmbientCounters, CacheStats};

/// Engine counters since it was built (or as of the last tick where stated).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Status {
    /// Acoustic ticks run.
    pub ticks: u64,
    /// Rays (paths) behind the results applied.
    pub rays: u64,
    /// Cells (DDA steps) the worker spent.
    pub cells: u64,
    /// Cells of inline traces on the host.
    pub inline_cells: u64,
    /// Cells the worker's air-path searches spent (sound round corners).
    pub air_cells: u64,
    /// Most air-path cells of one tick.
    pub max_tick_air_cells: u64,
    /// Air-path searches run or answered from the cache.
    pub air_searches: u64,
    /// Results whose direct sound went round through the air (`around`).
    pub air_around: u64,
    /// Air-path searches the budget could not finish: those voices kept today's occlusion.
    pub air_fallbacks: u64,
    /// Occlusion cells of the last worker tick.
    pub last_tick_occlusion_cells: u64,
    /// Echo and room cells of the last worker tick.
    pub last_tick_echo_cells: u64,
    /// Most occlusion cells any tick spent.
    pub max_tick_occlusion_cells: u64,
    /// Most echo and room cells any tick spent.
    pub max_tick_echo_cells: u64,
    /// Worker wall-clock time, total.
    pub worker_time: Duration,
    /// Worker wall-clock time of the last tick.
    pub last_tick_worker_time: Duration,
    /// Jobs queued on the worker after its last tick.
    pub queue_len: usize,
    /// Ticks sent to the worker and not answered yet.
    pub ticks_in_flight: usize,
    /// Result-cache hits (occlusion + echo + room).
    pub cache_hits: u64,
    /// Result-cache misses.
    pub cache_misses: u64,
    /// Results dropped: world changed under them, superseded, or their voice ended.
    pub discarded: u64,
    /// Share of traced cells that went through Unknown, over the results applied (0..1).
    pub unknown_share: f64,
    /// Results applied to voices.
    pub results_applied: u64,
    /// Voices playing (as far as the engine knows).
    pub live_voices: usize,
    /// Voices carrying an echo tap set.
    pub echo_voices: usize,
    /// Master limiter engagements (from the mixer).
    pub limiter_engagements: u64,
    /// Largest output sample so far (from the mixer).
    pub peak: f32,
    /// Voices dropped or stolen by the voice policy.
    pub dropped_voices: u64,
    /// Device buffer under-runs: callbacks that overran their buffer plus under-runs the
    /// backend reported (0 offline).
    pub xruns: u64,
    /// Acoustic worker restarts after a panic (the mix kept its last parameters meanwhile).
    pub worker_restarts: u64,
    /// Frames rendered (offline).
    pub frames_rendered: u64,
    /// The device output (`None` offline): device name, rate, format, callbacks, xruns, late
    /// callbacks, callback load, streams lost, reopens, the last problem.
    pub device: Option<DeviceStatus>,
    /// The ambient bridge's counters (all zero until [`crate::Engine::attach_ambient`]).
    pub ambient: AmbientStatus,
}

/// The ambient runtime's counters as the engine reports them.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct AmbientStatus {
    /// An ambient runtime is attached.
    pub attached: bool,
    /// The bridge's counters (frames, rebuilds, events emitted, plays, the runtime's drops)
    /// with the engine's drops (Wave missing or undecodable, no room, the retail pool full)
    /// moved from `played` to their reasons.
    pub counters: AmbientCounters,
    /// Plays the engine started as voices.
    pub started: u64,
    /// Plays the engine could not start (the mixer refused the voice, a bad source), counted
    /// here.
    pub not_started: u64,
    /// Retail voices playing now.
    pub retail_voices: usize,
    /// Ticks the runtime refused (a listener outside the AC world, a bad clock).
    pub refused_ticks: u64,
    /// The engine's wave cache's counters.
    pub cache: CacheStats,
}

impl AmbientStatus {
    /// Every event the runtime emitted was played by the bridge or counted dropped, and every
    /// play was started or counted not started.
    #[must_use]
    pub fn accounted(&self) -> bool {
        let c = &self.counters;
        c.events == c.played + c.dropped.total() && c.played == self.started + self.not_started
    }
}
