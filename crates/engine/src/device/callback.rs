//! The callback body: render the source, convert, count. Allocation-, lock- and wait-free.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use super::convert::{DeviceSample, write_frames};
use super::source::AudioSource;

/// One device buffer, in the device's sample format (interleaved, the device's channel count).
#[derive(Debug)]
pub enum OutBuffer<'a> {
    /// 32-bit float samples.
    F32(&'a mut [f32]),
    /// Signed 16-bit samples.
    I16(&'a mut [i16]),
    /// Unsigned 16-bit samples.
    U16(&'a mut [u16]),
}

/// Counters the callback bumps and the game thread reads (relaxed atomics, lock-free).
#[derive(Debug, Default)]
pub(crate) struct Counters {
    pub callbacks: AtomicU64,
    pub frames: AtomicU64,
    /// Callbacks that ran longer than their buffer lasts.
    pub xruns: AtomicU64,
    /// Callbacks that started more than 1.5 buffers after the previous one started.
    pub late: AtomicU64,
    /// Underruns the backend reported.
    pub device_xruns: AtomicU64,
    /// Time spent inside callbacks, ns.
    pub busy_ns: AtomicU64,
    /// Longest callback, ns.
    pub max_callback_ns: AtomicU64,
}

/// Owns the source while a stream runs; dropping it (wherever the backend drops its callback)
/// hands the source back to the game thread through a one-slot wait-free ring.
struct SourceSlot<S: AudioSource> {
    source: Option<S>,
    back: rtrb::Producer<S>,
}

impl<S: AudioSource> Drop for SourceSlot<S> {
    fn drop(&mut self) {
        if let Some(s) = self.source.take() {
            // The ring has one slot per stream and only this slot pushes: it cannot be full.
            let _ = self.back.push(s);
        }
    }
}

/// The device callback: owns the source and a scratch buffer sized at open.
///
/// [`Callback::fill`] is the whole body the backend runs per device buffer.
pub struct Callback<S: AudioSource> {
    slot: SourceSlot<S>,
    scratch: Box<[f32]>,
    channels: usize,
    rate: u32,
    counters: Arc<Counters>,
    last: Option<(Instant, u64)>,
    /// Whether ALSA's complaints on this (the audio) thread are dropped yet.
    quiet: bool,
}

impl<S: AudioSource> Callback<S> {
    /// A callback rendering `source` for a device of `channels` channels at `rate` Hz, in
    /// chunks of at most `chunk_frames` frames. Returns it and the ring the source comes back
    /// through when the callback is dropped.
    pub(crate) fn new(
        source: S,
        channels: u16,
        rate: u32,
        chunk_frames: usize,
        counters: Arc<Counters>,
    ) -> (Self, rtrb::Consumer<S>) {
        let (back, home) = rtrb::RingBuffer::new(1);
        let cb = Callback {
            slot: SourceSlot {
                source: Some(source),
                back,
            },
            scratch: vec![0.0; 2 * chunk_frames.max(1)].into_boxed_slice(),
            channels: usize::from(channels),
            rate: rate.max(1),
            counters,
            last: None,
            quiet: false,
        };
        (cb, home)
    }

    /// Fills one device buffer: renders the source, converts it to the device's format and
    /// channels, and counts the callback's timing. Never allocates, locks or waits.
    pub fn fill(&mut self, out: OutBuffer<'_>) {
        if !self.quiet {
            // First run, on the audio thread: a dying device's complaints stay off the
            // terminal (a thread-local store in alsa-lib; nothing allocated).
            #[cfg(feature = "device")]
            super::quiet::silence_this_thread();
            self.quiet = true;
        }
        let start = Instant::now();
        let frames = match out {
            OutBuffer::F32(b) => self.fill_as(b),
            OutBuffer::I16(b) => self.fill_as(b),
            OutBuffer::U16(b) => self.fill_as(b),
        };
        self.count(start, frames);
    }

    fn fill_as<T: DeviceSample>(&mut self, out: &mut [T]) -> u64 {
        let ch = self.channels;
        if ch == 0 {
            return 0;
        }
        let frames = out.len() / ch;
        let (body, tail) = out.split_at_mut(frames * ch);
        tail.fill(T::SILENCE);
        let Some(source) = self.slot.source.as_mut() else {
            body.fill(T::SILENCE);
            return frames as u64;
        };
        let chunk = self.scratch.len() / 2;
        for dev in body.chunks_mut(chunk * ch) {
            let n = dev.len() / ch;
            let stereo = &mut self.scratch[..2 * n];
            source.render(stereo);
            write_frames(stereo, dev, ch);
        }
        frames as u64
    }

    fn count(&mut self, start: Instant, frames: u64) {
        let c = &self.counters;
        let took = start.elapsed().as_nanos() as u64;
        let lasts = frames.saturating_mul(1_000_000_000) / u64::from(self.rate);
        c.callbacks.fetch_add(1, Ordering::Relaxed);
        c.frames.fetch_add(frames, Ordering::Relaxed);
        c.busy_ns.fetch_add(took, Ordering::Relaxed);
        c.max_callback_ns.fetch_max(took, Ordering::Relaxed);
        if took > lasts {
            c.xruns.fetch_add(1, Ordering::Relaxed);
        }
        if let Some((prev, prev_lasts)) = self.last {
            let gap = start.saturating_duration_since(prev).as_nanos() as u64;
            if gap > prev_lasts + prev_lasts / 2 {
                c.late.fetch_add(1, Ordering::Relaxed);
            }
        }
        self.last = Some((start, lasts));
    }
}
