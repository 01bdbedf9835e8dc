//! [`Playback`]: a written tour WAV played on the sound card, streamed from its file (an
//! [`resound_engine::device::AudioSource`] that reads a lock-free ring a feeder thread fills
//! from the file), and [`play_live`], which finds the device and plays it to the end. Memory
//! is the ring (half a second), whatever the tour's length.

use std::fs::File;
use std::io::BufReader;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use resound_engine::device::{AudioSource, DeviceConfig, DeviceError, DeviceOutput, resolve};
use rtrb::{Consumer, Producer, RingBuffer};

/// Plays interleaved stereo from a ring as it arrives, then silence; the frames played are
/// readable from any thread through [`Playback::position`]. The audio thread only copies out
/// of the ring (no lock, no allocation); a frame not yet fed is played as silence and not
/// counted.
pub struct Playback {
    ring: Consumer<f32>,
    at: Arc<AtomicUsize>,
}

impl Playback {
    /// A source over the consuming end of a ring of interleaved stereo, and the counter of
    /// frames it has played.
    #[must_use]
    pub fn new(ring: Consumer<f32>) -> (Self, Arc<AtomicUsize>) {
        let at = Arc::new(AtomicUsize::new(0));
        (
            Self {
                ring,
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
        // whole frames only
        let n = self.ring.slots().min(out.len()) & !1;
        let mut copied = 0;
        if let Ok(chunk) = self.ring.read_chunk(n) {
            let (a, b) = chunk.as_slices();
            out[..a.len()].copy_from_slice(a);
            out[a.len()..a.len() + b.len()].copy_from_slice(b);
            copied = a.len() + b.len();
            chunk.commit_all();
        }
        out[copied..].fill(0.0);
        self.at.fetch_add(copied / 2, Ordering::Relaxed);
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

/// Why live playback failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LiveError {
    /// The WAV could not be opened or is not 32-bit float stereo.
    #[error("{0}")]
    File(String),
    /// A device resolved but its stream failed to open.
    #[error(transparent)]
    Device(#[from] DeviceError),
}

/// The feeder: reads the file's samples into the ring until the end, an error, or the player
/// gone; counts the frames it fed and says when it is done.
struct Feeder {
    fed: Arc<AtomicU64>,
    done: Arc<AtomicBool>,
    thread: JoinHandle<()>,
}

fn feed(mut reader: hound::WavReader<BufReader<File>>, mut ring: Producer<f32>, fed: &AtomicU64) {
    let mut block = Vec::with_capacity(4096);
    let mut samples = reader.samples::<f32>();
    loop {
        block.clear();
        for s in samples.by_ref().take(4096) {
            match s {
                Ok(s) => block.push(s),
                Err(_) => break,
            }
        }
        block.truncate(block.len() & !1);
        if block.is_empty() {
            return;
        }
        let mut rest = &block[..];
        while !rest.is_empty() {
            if ring.is_abandoned() {
                return;
            }
            let (pushed, left) = ring.push_partial_slice(rest);
            fed.fetch_add(pushed.len() as u64 / 2, Ordering::Relaxed);
            rest = left;
            if !rest.is_empty() {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
    }
}

impl Feeder {
    fn start(reader: hound::WavReader<BufReader<File>>, ring: Producer<f32>) -> Self {
        let fed = Arc::new(AtomicU64::new(0));
        let done = Arc::new(AtomicBool::new(false));
        let (f, d) = (Arc::clone(&fed), Arc::clone(&done));
        let thread = std::thread::spawn(move || {
            feed(reader, ring, &f);
            d.store(true, Ordering::Release);
        });
        Self { fed, done, thread }
    }
}

/// Opens a tour WAV (32-bit float stereo) for playback: its reader, rate and frames.
fn open(wav: &Path) -> Result<(hound::WavReader<BufReader<File>>, u32, u64), LiveError> {
    let shown = wav.display();
    let reader =
        hound::WavReader::open(wav).map_err(|e| LiveError::File(format!("{shown}: {e}")))?;
    let spec = reader.spec();
    if spec.channels != 2
        || spec.sample_format != hound::SampleFormat::Float
        || spec.bits_per_sample != 32
    {
        return Err(LiveError::File(format!(
            "{shown} is not 32-bit float stereo"
        )));
    }
    let frames = u64::from(reader.duration());
    Ok((reader, spec.sample_rate, frames))
}

/// Plays the tour WAV `wav` (32-bit float stereo, as `resound demo` writes it) on the default
/// device at its rate, streamed from the file, calling `progress` with the frames played about
/// every 50 ms until the end.
///
/// # Errors
/// [`LiveError::File`] when the WAV cannot be opened or is not float stereo;
/// [`LiveError::Device`] when a device resolved but its stream failed to open.
pub fn play_live(wav: &Path, progress: &mut dyn FnMut(u64)) -> Result<Live, LiveError> {
    let (reader, rate, total) = open(wav)?;
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
    // half a second of stereo
    let (producer, consumer) = RingBuffer::new(rate as usize);
    let feeder = Feeder::start(reader, producer);
    let (source, at) = Playback::new(consumer);
    let mut output = DeviceOutput::open(device, source)?;
    loop {
        output.poll(Instant::now());
        let played = Playback::position(&at) as u64;
        progress(played.min(total));
        let fed_all =
            feeder.done.load(Ordering::Acquire) && played >= feeder.fed.load(Ordering::Relaxed);
        if played >= total || fed_all {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let status = output.status().to_string();
    // The ring's consumer goes with the output: the feeder sees it abandoned and ends.
    drop(output);
    let _ = feeder.thread.join();
    Ok(Live::Played(status))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn playback_streams_a_written_wav_through_its_ring_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.wav");
        let frames = 10_000u32;
        let samples: Vec<f32> = (0..2 * frames).map(|i| i as f32 / 65_536.0).collect();
        crate::wav_write::write_wav(&path, &samples, 2, 48_000, crate::wav_write::WavFormat::F32)
            .unwrap();
        let (reader, rate, total) = open(&path).unwrap();
        assert_eq!((rate, total), (48_000, u64::from(frames)));
        // a ring much shorter than the file: the feeder waits for the player
        let (producer, consumer) = RingBuffer::new(512);
        let feeder = Feeder::start(reader, producer);
        let (mut source, at) = Playback::new(consumer);
        let mut played = Vec::new();
        let mut out = [0.0f32; 256];
        while (Playback::position(&at) as u64) < total {
            let before = Playback::position(&at);
            source.render(&mut out);
            let n = 2 * (Playback::position(&at) - before);
            played.extend_from_slice(&out[..n]);
            assert!(out[n..].iter().all(|s| *s == 0.0));
            if n == 0 {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        assert_eq!(played, samples);
        feeder.thread.join().unwrap();
        assert!(feeder.done.load(Ordering::Acquire));
        assert_eq!(feeder.fed.load(Ordering::Relaxed), total);
        let Err(err) = open(dir.path().join("absent.wav").as_path()) else {
            panic!("an absent file opened");
        };
        assert!(err.to_string().contains("absent.wav"), "{err}");
    }
}
