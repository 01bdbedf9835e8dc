//! [`TestBackend`]: a backend whose stream a test drives by hand and breaks on purpose.
//!
//! The stream's callback is the same one the cpal backend runs; [`TestControl::pump`] calls it
//! once with a buffer allocated at open, so a test can run it under an allocation guard.

use std::sync::{Arc, Mutex, MutexGuard};

use super::backend::{Backend, BackendStream, LossKind, RenderFn, StreamEvents};
use super::callback::OutBuffer;
use super::config::{DeviceConfig, DeviceInfo, ResolvedDevice, SampleFormat};
use super::error::DeviceError;

/// A fake device: fixed rate, channels, format and buffer size; it opens while available.
pub struct TestBackend {
    state: Arc<Mutex<State>>,
}

/// The test's side of a [`TestBackend`]: pump buffers, break the stream, unplug the device.
#[derive(Clone)]
pub struct TestControl {
    state: Arc<Mutex<State>>,
}

struct State {
    available: bool,
    rate: u32,
    channels: u16,
    format: SampleFormat,
    frames: usize,
    opens: u32,
    stream: Option<(u64, RenderFn, StreamEvents)>,
    /// Whether the held stream plays (its callback runs only then).
    playing: bool,
    next_id: u64,
    f32s: Vec<f32>,
    i16s: Vec<i16>,
    u16s: Vec<u16>,
}

fn lock(m: &Mutex<State>) -> MutexGuard<'_, State> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl TestBackend {
    /// A device at `rate` Hz with `channels` channels of `format`, `frames` frames per buffer.
    pub fn new(
        rate: u32,
        channels: u16,
        format: SampleFormat,
        frames: usize,
    ) -> (TestBackend, TestControl) {
        let n = frames * usize::from(channels);
        let state = Arc::new(Mutex::new(State {
            available: true,
            rate,
            channels,
            format,
            frames,
            opens: 0,
            stream: None,
            playing: false,
            next_id: 0,
            f32s: vec![0.0; n],
            i16s: vec![0; n],
            u16s: vec![0; n],
        }));
        (
            TestBackend {
                state: Arc::clone(&state),
            },
            TestControl { state },
        )
    }
}

impl TestControl {
    /// Runs the stream's callback once on a buffer allocated at open; `false` when no stream
    /// runs (none opened, not playing yet, or it was failed or dropped). Allocation-free.
    pub fn pump(&self) -> bool {
        let mut s = lock(&self.state);
        let State {
            stream,
            format,
            f32s,
            i16s,
            u16s,
            playing,
            ..
        } = &mut *s;
        let Some((_, render, events)) = stream.as_mut() else {
            return false;
        };
        if !*playing {
            return false;
        }
        if events.lost_kind().is_some() {
            return false;
        }
        match format {
            SampleFormat::F32 => render(OutBuffer::F32(f32s)),
            SampleFormat::I16 => render(OutBuffer::I16(i16s)),
            SampleFormat::U16 => render(OutBuffer::U16(u16s)),
        }
        true
    }

    /// The last buffer pumped, as f32 (i16 and u16 scaled back to ±1).
    pub fn last_buffer(&self) -> Vec<f32> {
        let s = lock(&self.state);
        match s.format {
            SampleFormat::F32 => s.f32s.clone(),
            SampleFormat::I16 => s.i16s.iter().map(|x| f32::from(*x) / 32_767.0).collect(),
            SampleFormat::U16 => s
                .u16s
                .iter()
                .map(|x| (f32::from(*x) - 32_768.0) / 32_767.0)
                .collect(),
        }
    }

    /// The last buffer pumped, raw i16 samples (for an i16 device).
    pub fn last_i16(&self) -> Vec<i16> {
        lock(&self.state).i16s.clone()
    }

    /// The last buffer pumped, raw u16 samples (for a u16 device).
    pub fn last_u16(&self) -> Vec<u16> {
        lock(&self.state).u16s.clone()
    }

    /// Breaks the running stream as a device loss would: its error side reports `why`.
    pub fn fail(&self, why: LossKind) {
        if let Some((_, _, events)) = lock(&self.state).stream.as_ref() {
            events.lost(why);
        }
    }

    /// Plugs the device in or out: opens fail while it is out.
    pub fn set_available(&self, available: bool) {
        lock(&self.state).available = available;
    }

    /// Streams opened so far.
    pub fn opens(&self) -> u32 {
        lock(&self.state).opens
    }

    /// Whether the held stream plays (opened, and `play` was called).
    pub fn is_playing(&self) -> bool {
        let s = lock(&self.state);
        s.stream.is_some() && s.playing
    }

    /// Whether a stream's callback is held (opened and not yet dropped).
    pub fn has_stream(&self) -> bool {
        lock(&self.state).stream.is_some()
    }
}

impl Backend for TestBackend {
    fn host(&self) -> String {
        "test".into()
    }

    fn resolve(&mut self, config: &DeviceConfig) -> Result<ResolvedDevice, DeviceError> {
        let s = lock(&self.state);
        if !s.available {
            return Err(DeviceError::Open {
                host: "test".into(),
                device: "default".into(),
                reason: "device not available".into(),
            });
        }
        if let Some(r) = config.sample_rate.filter(|r| *r != s.rate) {
            return Err(DeviceError::Unsupported {
                device: "default".into(),
                what: format!("{r} Hz"),
            });
        }
        Ok(ResolvedDevice {
            host: "test".into(),
            name: "Test device".into(),
            id: "default".into(),
            is_default: true,
            sample_rate: s.rate,
            channels: s.channels,
            format: s.format,
            buffer_frames: Some(s.frames as u32),
            chunk_frames: config.buffer_frames.map_or(s.frames, |b| b as usize),
            requested: config.clone(),
        })
    }

    fn open(
        &mut self,
        _device: &ResolvedDevice,
        render: RenderFn,
        events: StreamEvents,
    ) -> Result<Box<dyn BackendStream>, DeviceError> {
        let mut s = lock(&self.state);
        if !s.available {
            drop(s);
            drop(render);
            return Err(DeviceError::Open {
                host: "test".into(),
                device: "default".into(),
                reason: "device not available".into(),
            });
        }
        s.opens += 1;
        s.next_id += 1;
        let id = s.next_id;
        s.stream = Some((id, render, events));
        s.playing = false;
        Ok(Box::new(TestStream {
            id,
            frames: s.frames as u32,
            state: Arc::clone(&self.state),
        }))
    }

    fn list(&mut self) -> Result<Vec<DeviceInfo>, DeviceError> {
        Ok(Vec::new())
    }
}

/// A test stream; dropping it drops its callback (which hands the source back).
struct TestStream {
    id: u64,
    frames: u32,
    state: Arc<Mutex<State>>,
}

impl BackendStream for TestStream {
    fn play(&mut self) -> Result<(), DeviceError> {
        let mut s = lock(&self.state);
        if s.stream.as_ref().is_some_and(|(id, _, _)| *id == self.id) {
            s.playing = true;
        }
        Ok(())
    }

    fn buffer_frames(&self) -> Option<u32> {
        Some(self.frames)
    }
}

impl Drop for TestStream {
    fn drop(&mut self) {
        let taken = {
            let mut s = lock(&self.state);
            if s.stream.as_ref().is_some_and(|(id, _, _)| *id == self.id) {
                s.stream.take()
            } else {
                None
            }
        };
        drop(taken);
    }
}
