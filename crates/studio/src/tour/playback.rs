//! [`Playback`]: a rendered tour played on the sound card (an
//! [`resound_engine::device::AudioSource`] that reads a finished buffer), and
//! [`play_live`], which finds the device and plays it to the end.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use resound_engine::device::{AudioSource, DeviceConfig, DeviceError, DeviceOutput, resolve};

/// Plays interleaved stereo from the start, then silence; the frames played are readable from
/// any thread through [`Playback::position`].
pub struct Playback {
    samples: Arc<[f32]>,
    at: Arc<AtomicUsize>,
}

impl Playback {
    /// A source over `samples` and the counter of frames it has played.
    #[must_use]
    pub fn new(samples: Arc<[f32]>) -> (Self, Arc<AtomicUsize>) {
        let at = Arc::new(AtomicUsize::new(0));
        (
            Self {
                samples,
                at: Arc::clone(&at),
            },
            at,
        )
    }

    /// Frames played so far.
    #[must_use]
    pub fn position(counter: &AtomicUsize) -> usize {
        counter.load(Ordering::Relaxed)
    }
}

impl AudioSource for Playback {
    fn render(&mut self, out: &mut [f32]) {
        let frame = self.at.load(Ordering::Relaxed);
        let start = (2 * frame).min(self.samples.len());
        let n = out.len().min(self.samples.len() - start);
        out[..n].copy_from_slice(&self.samples[start..start + n]);
        out[n..].fill(0.0);
        self.at.store(frame + out.len() / 2, Ordering::Relaxed);
    }
}

/// How live playback went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Live {
    /// The whole tour played on this device; its final status line.
    Played(String),
    /// No device could play it (one line saying why); nothing played.
    NoDevice(String),
}

/// Plays `samples` (interleaved stereo at `rate`) on the default device at that rate, calling
/// `progress` with the frames played about every 50 ms until the end.
///
/// # Errors
/// [`DeviceError`] when a device resolved but its stream failed to open.
pub fn play_live(
    samples: Arc<[f32]>,
    rate: u32,
    progress: &mut dyn FnMut(u64),
) -> Result<Live, DeviceError> {
    let config = DeviceConfig {
        sample_rate: Some(rate),
        ..DeviceConfig::default()
    };
    let device = match resolve(&config) {
        Ok(d) if d.sample_rate == rate => d,
        Ok(d) => {
            let why = format!("{} runs at {} Hz, not {rate} Hz", d.name, d.sample_rate);
            return Ok(Live::NoDevice(why));
        }
        Err(e) => return Ok(Live::NoDevice(e.to_string())),
    };
    let total = (samples.len() / 2) as u64;
    let (source, at) = Playback::new(samples);
    let mut output = DeviceOutput::open(device, source)?;
    loop {
        output.poll(Instant::now());
        let played = Playback::position(&at) as u64;
        progress(played.min(total));
        if played >= total {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Ok(Live::Played(output.status().to_string()))
}
