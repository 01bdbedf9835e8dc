//! The master section: the 4-slot reverb bus fed by the voices' sends (each slot tuned to the
//! decay its voices report), and the peak limiter.

use resound_dsp::{DECAY_BANDS, PeakLimiter, REVERB_SLOTS, ReverbBus, ReverbBusSettings};

use crate::params::SENDS;

/// Reverb bus + limiter; buffers allocated in [`Master::new`] only.
#[derive(Debug)]
pub(crate) struct Master {
    bus: ReverbBus,
    limiter: PeakLimiter,
    limiter_enabled: bool,
}

impl Master {
    pub(crate) fn new(
        sample_rate: f32,
        max_block: usize,
        reverb: ReverbBusSettings,
        limiter: bool,
    ) -> Self {
        let mut bus = ReverbBus::new(reverb);
        bus.prepare(sample_rate, max_block);
        let mut lim = PeakLimiter::default();
        lim.prepare(sample_rate, max_block);
        Self {
            bus,
            limiter: lim,
            limiter_enabled: limiter,
        }
    }

    /// Adds the bus output (sends → slots) into the mix, then limits the mix in place.
    pub(crate) fn process(
        &mut self,
        bus_in: &[Vec<f32>; SENDS],
        left: &mut [f32],
        right: &mut [f32],
    ) {
        let n = left.len().min(right.len());
        let inputs: [&[f32]; REVERB_SLOTS] = std::array::from_fn(|k| &bus_in[k][..n]);
        self.bus.mix(inputs, left, right);
        if self.limiter_enabled {
            self.limiter.process(left, right);
        }
    }

    /// Tunes slot `k` to `decays` (s per band; see `ReverbBus::set_slot_decays`).
    pub(crate) fn set_slot_decays(&mut self, k: usize, decays: [f32; DECAY_BANDS]) {
        self.bus.set_slot_decays(k, decays);
    }

    /// The decays slot `k` renders now (s per band).
    #[cfg(test)]
    pub(crate) fn slot_decays(&self, k: usize) -> [f32; DECAY_BANDS] {
        self.bus.slot_decays(k).unwrap_or([0.0; DECAY_BANDS])
    }

    /// The nominal decays of slot `k` (all 4 slots exist).
    pub(crate) fn nominal_decays(&self, k: usize) -> [f32; DECAY_BANDS] {
        self.bus.nominal_decays(k).unwrap_or([1.0; DECAY_BANDS])
    }

    /// Limiter engagements since the mixer was built.
    pub(crate) fn engagements(&self) -> u64 {
        self.limiter.engagements()
    }

    /// Reverb slots currently running (not idle).
    pub(crate) fn busy_slots(&self) -> u32 {
        (0..REVERB_SLOTS)
            .filter(|&k| !self.bus.slot_is_idle(k))
            .count() as u32
    }

    /// Zeroes the reverb tails (stop_all).
    pub(crate) fn reset_bus(&mut self) {
        self.bus.reset();
    }
}
