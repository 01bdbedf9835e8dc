//! [`DeviceOutput`]: a source playing on a device; survives device loss and reopens.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::backend::{Backend, BackendStream, StreamEvents};
use super::callback::{Callback, Counters};
use super::config::{DeviceConfig, ResolvedDevice};
#[cfg(feature = "device")]
use super::cpal_backend::CpalBackend;
use super::error::DeviceError;
use super::source::AudioSource;
use super::status::DeviceStatus;

/// Shortest time between two reopen attempts after a loss.
pub const REOPEN_INTERVAL: Duration = Duration::from_secs(1);

/// A source playing on an output device.
///
/// While a stream runs, its callback owns the source. When the stream is lost (the backend's
/// error callback says so), [`poll`](Self::poll) drops the dead stream, which hands the source
/// back; until a reopen succeeds, `poll` renders it into nothing at the device rate (so the
/// mixer keeps draining its command rings and time keeps moving), and tries to reopen at most
/// once per [`REOPEN_INTERVAL`]: first the same device, then (if it was named) the default.
/// It never panics and never waits on the audio thread.
pub struct DeviceOutput<S: AudioSource> {
    backend: Box<dyn Backend>,
    device: ResolvedDevice,
    counters: Arc<Counters>,
    stream: Option<Running<S>>,
    /// The source while no stream holds it.
    idle: Option<S>,
    /// A dead stream's ring, until its source arrives.
    returning: Option<rtrb::Consumer<S>>,
    discard: Box<[f32]>,
    idle_since: Option<Instant>,
    /// Nanosecond·Hz remainder of the frames owed to the discard render.
    owed: u128,
    next_reopen: Option<Instant>,
    last_attempt: Option<Instant>,
    lost: u64,
    reopen_attempts: u64,
    reopens: u64,
    discarded_frames: u64,
    last_error: Option<String>,
    /// Opened with [`DeviceOutput::open_paused_with`] and not yet [`play`](DeviceOutput::play)ed.
    paused: bool,
}

struct Running<S: AudioSource> {
    stream: Box<dyn BackendStream>,
    events: StreamEvents,
    home: rtrb::Consumer<S>,
}

impl<S: AudioSource> std::fmt::Debug for DeviceOutput<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeviceOutput")
            .field("device", &self.device)
            .field("running", &self.stream.is_some())
            .finish_non_exhaustive()
    }
}

impl<S: AudioSource> DeviceOutput<S> {
    /// Starts `source` on `device` (from [`resolve`](super::resolve)) through cpal. The source
    /// must render at `device.sample_rate`. Only with the `device` feature.
    #[cfg(feature = "device")]
    pub fn open(device: ResolvedDevice, source: S) -> Result<Self, DeviceError> {
        Self::open_with(Box::new(CpalBackend::new()), device, source)
    }

    /// Starts `source` on `device` (resolved by the same `backend`).
    pub fn open_with(
        backend: Box<dyn Backend>,
        device: ResolvedDevice,
        source: S,
    ) -> Result<Self, DeviceError> {
        let mut out = Self::open_paused_with(backend, device, source)?;
        out.play()?;
        Ok(out)
    }

    /// Opens `device` (resolved by the same `backend`) for `source` without starting it: the
    /// device is open (an unopenable one fails here) but no callback runs, and nothing is
    /// rendered, until [`play`](Self::play). A host sets up what the first buffer must hold
    /// first (sample-exact starts).
    pub fn open_paused_with(
        backend: Box<dyn Backend>,
        device: ResolvedDevice,
        source: S,
    ) -> Result<Self, DeviceError> {
        let mut out = DeviceOutput {
            backend,
            discard: vec![0.0; 2 * device.chunk_frames.max(1)].into_boxed_slice(),
            device,
            counters: Arc::new(Counters::default()),
            stream: None,
            idle: None,
            returning: None,
            idle_since: None,
            owed: 0,
            next_reopen: None,
            last_attempt: None,
            lost: 0,
            reopen_attempts: 0,
            reopens: 0,
            discarded_frames: 0,
            last_error: None,
            paused: true,
        };
        let device = out.device.clone();
        match out.start(&device, source) {
            Ok(()) => Ok(out),
            Err((e, _source)) => Err(e),
        }
    }

    /// Starts the callbacks of a paused output (a no-op once playing).
    ///
    /// # Errors
    /// [`DeviceError::Open`] if the stream cannot start; the output then counts it lost and
    /// reopens from the next [`poll`](Self::poll) on, as after a loss.
    pub fn play(&mut self) -> Result<(), DeviceError> {
        if !self.paused {
            return Ok(());
        }
        self.paused = false;
        let Some(r) = self.stream.as_mut() else {
            return Ok(());
        };
        match r.stream.play() {
            Ok(()) => Ok(()),
            Err(e) => {
                r.events.lost(super::LossKind::Backend);
                self.last_error = Some(e.to_string());
                Err(e)
            }
        }
    }

    /// Whether the output was opened paused and has not been started yet.
    pub fn is_paused(&self) -> bool {
        self.paused
    }

    /// The device playing (or last played), as resolved.
    pub fn device(&self) -> &ResolvedDevice {
        &self.device
    }

    /// The sample rate the source renders at (fixed for the output's life).
    pub fn sample_rate(&self) -> u32 {
        self.device.sample_rate
    }

    /// Whether a stream is running.
    pub fn is_running(&self) -> bool {
        self.stream.is_some()
    }

    fn start(
        &mut self,
        device: &ResolvedDevice,
        source: S,
    ) -> Result<(), (DeviceError, Option<S>)> {
        let (mut cb, mut home) = Callback::new(
            source,
            device.channels,
            device.sample_rate,
            device.chunk_frames,
            Arc::clone(&self.counters),
        );
        let events = StreamEvents::new(Arc::clone(&self.counters));
        let render = Box::new(move |b: super::OutBuffer<'_>| cb.fill(b));
        let opened = self.backend.open(device, render, events.clone());
        let opened = match opened {
            Ok(mut stream) if !self.paused => match stream.play() {
                Ok(()) => Ok(stream),
                Err(e) => {
                    drop(stream);
                    Err(e)
                }
            },
            other => other,
        };
        match opened {
            Ok(stream) => {
                self.stream = Some(Running {
                    stream,
                    events,
                    home,
                });
                Ok(())
            }
            // The backend dropped the callback: the source is back in the ring.
            Err(e) => match home.pop() {
                Ok(s) => Err((e, Some(s))),
                Err(_) => {
                    // A backend that keeps a callback it failed to start: wait for it.
                    self.returning = Some(home);
                    Err((e, None))
                }
            },
        }
    }

    /// Call from the game loop (`now` is the loop's clock): notices a lost stream, keeps the
    /// source rendering into nothing meanwhile, and reopens at most once a second. Never
    /// blocks beyond dropping a dead stream (which joins its finished thread) and opening a
    /// device.
    pub fn poll(&mut self, now: Instant) {
        if let Some(kind) = self.stream.as_ref().and_then(|r| r.events.lost_kind())
            && let Some(r) = self.stream.take()
        {
            self.lost += 1;
            self.last_error = Some(format!("{} stream lost: {}", self.device.id, kind.phrase()));
            let Running { stream, home, .. } = r;
            drop(stream);
            self.returning = Some(home);
            self.idle_since = Some(now);
            self.owed = 0;
            // At once, unless the last attempt was less than a second ago.
            self.next_reopen = Some(
                self.last_attempt
                    .map_or(now, |t| (t + REOPEN_INTERVAL).max(now)),
            );
        }
        if self.stream.is_some() {
            return;
        }
        if self.idle.is_none()
            && let Some(home) = self.returning.as_mut()
            && let Ok(s) = home.pop()
        {
            self.idle = Some(s);
            self.returning = None;
        }
        self.render_into_nothing(now);
        if self.next_reopen.is_some_and(|t| now >= t) {
            self.next_reopen = Some(now + REOPEN_INTERVAL);
            self.last_attempt = Some(now);
            self.reopen();
        }
    }

    fn render_into_nothing(&mut self, now: Instant) {
        let since = self.idle_since.replace(now).unwrap_or(now);
        let Some(source) = self.idle.as_mut() else {
            return;
        };
        let rate = u128::from(self.device.sample_rate);
        // At most one second per poll: a stalled game loop does not cost a burst of rendering.
        let ns = now
            .saturating_duration_since(since)
            .as_nanos()
            .min(1_000_000_000);
        self.owed += ns * rate;
        let mut frames = (self.owed / 1_000_000_000) as usize;
        self.owed %= 1_000_000_000;
        self.discarded_frames += frames as u64;
        let chunk = self.discard.len() / 2;
        while frames > 0 {
            let n = frames.min(chunk);
            source.render(&mut self.discard[..2 * n]);
            frames -= n;
        }
    }

    fn reopen(&mut self) {
        let Some(source) = self.idle.take() else {
            self.last_error = Some(format!(
                "{} stream lost; its source has not come back yet",
                self.device.id
            ));
            return;
        };
        let mut source = source;
        let mut tries = vec![self.device.requested.name.clone()];
        if tries[0].is_some() {
            tries.push(None);
        }
        for name in tries {
            self.reopen_attempts += 1;
            let want = DeviceConfig {
                name,
                sample_rate: Some(self.device.sample_rate),
                buffer_frames: self.device.buffer_frames,
                sample_format: None,
            };
            let resolved = match self.backend.resolve(&want) {
                Ok(r) if r.sample_rate == self.device.sample_rate => r,
                Ok(r) => {
                    self.last_error = Some(format!(
                        "reopen: {} offers {} Hz, the source renders {} Hz",
                        r.id, r.sample_rate, self.device.sample_rate
                    ));
                    continue;
                }
                Err(e) => {
                    self.last_error = Some(format!("reopen: {e}"));
                    continue;
                }
            };
            let resolved = ResolvedDevice {
                chunk_frames: self.device.chunk_frames,
                requested: self.device.requested.clone(),
                ..resolved
            };
            match self.start(&resolved, source) {
                Ok(()) => {
                    self.device = resolved;
                    self.reopens += 1;
                    self.idle_since = None;
                    self.next_reopen = None;
                    return;
                }
                Err((e, s)) => {
                    self.last_error = Some(format!("reopen: {e}"));
                    match s {
                        Some(s) => source = s,
                        None => return,
                    }
                }
            }
        }
        self.idle = Some(source);
    }

    /// A snapshot of the output's state and the callback's counters.
    pub fn status(&self) -> DeviceStatus {
        let c = &self.counters;
        let frames = c.frames.load(Ordering::Relaxed);
        let busy = c.busy_ns.load(Ordering::Relaxed) as f64;
        let played_ns = frames as f64 * 1e9 / f64::from(self.device.sample_rate.max(1));
        DeviceStatus {
            host: self.device.host.clone(),
            device: self.device.id.clone(),
            sample_rate: self.device.sample_rate,
            channels: self.device.channels,
            format: self.device.format,
            buffer_frames: self
                .stream
                .as_ref()
                .and_then(|r| r.stream.buffer_frames())
                .or(self.device.buffer_frames),
            running: self.stream.is_some(),
            callbacks: c.callbacks.load(Ordering::Relaxed),
            frames,
            xruns: c.xruns.load(Ordering::Relaxed),
            late: c.late.load(Ordering::Relaxed),
            device_xruns: c.device_xruns.load(Ordering::Relaxed),
            max_callback_us: c.max_callback_ns.load(Ordering::Relaxed) / 1000,
            load: if played_ns > 0.0 {
                busy / played_ns
            } else {
                0.0
            },
            lost: self.lost,
            reopen_attempts: self.reopen_attempts,
            reopens: self.reopens,
            discarded_frames: self.discarded_frames,
            last_error: self.last_error.clone(),
        }
    }

    /// Stops the stream and returns the source (`None` if a dead stream still holds it).
    pub fn close(mut self) -> Option<S> {
        if let Some(r) = self.stream.take() {
            let Running {
                stream, mut home, ..
            } = r;
            drop(stream);
            return home.pop().ok();
        }
        if let Some(s) = self.idle.take() {
            return Some(s);
        }
        self.returning.as_mut().and_then(|h| h.pop().ok())
    }
}
