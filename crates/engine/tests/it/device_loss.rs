//! Device loss through the test backend: the stream fails mid-stream, the output reports it,
//! keeps rendering its source into nothing, reopens at most once a second, and the source
//! carries on where it was. Also the callback's format and channel conversions and chunking.

// Test helpers outside #[test] fns unwrap too (clippy.toml only covers #[test] bodies).
#![allow(clippy::unwrap_used)]

use std::time::{Duration, Instant};

use resound_engine::device::{
    AudioSource, Backend, DeviceConfig, DeviceOutput, LossKind, SampleFormat, TestBackend,
    TestControl,
};

/// Frame `n` of the stream is `(n, -n)` (exact in f32 below 2^24).
struct Counter(u32);

impl AudioSource for Counter {
    fn render(&mut self, out: &mut [f32]) {
        for f in out.chunks_exact_mut(2) {
            f[0] = self.0 as f32;
            f[1] = -(self.0 as f32);
            self.0 += 1;
        }
    }
}

fn open(
    channels: u16,
    format: SampleFormat,
    frames: usize,
    config: DeviceConfig,
) -> (DeviceOutput<Counter>, TestControl) {
    let (mut backend, ctl) = TestBackend::new(48_000, channels, format, frames);
    let device = backend.resolve(&config).unwrap();
    let out = DeviceOutput::open_with(Box::new(backend), device, Counter(0)).unwrap();
    (out, ctl)
}

#[test]
fn a_stream_lost_mid_stream_is_reported_kept_and_reopened() {
    let (mut out, ctl) = open(2, SampleFormat::F32, 256, DeviceConfig::default());
    for _ in 0..4 {
        assert!(ctl.pump());
    }
    let s = out.status();
    assert_eq!((s.callbacks, s.frames, s.lost), (4, 1024, 0));
    assert!(s.running);
    assert_eq!(ctl.last_buffer()[..2], [768.0, -768.0]);

    // The device goes away mid-stream.
    ctl.fail(LossKind::DeviceNotAvailable);
    ctl.set_available(false);
    assert!(!ctl.pump(), "a dead stream runs no callback");
    let t0 = Instant::now();
    out.poll(t0);
    let s = out.status();
    assert!(!s.running);
    assert_eq!((s.lost, s.reopen_attempts, s.reopens), (1, 1, 0));
    assert!(
        !ctl.has_stream(),
        "the dead stream (and its callback) was dropped"
    );
    let err = s.last_error.clone().unwrap();
    assert!(
        err.starts_with("reopen: no audio output device could be opened"),
        "{err}"
    );
    assert!(!err.contains('\n'));
    assert!(s.to_string().contains("lost 1 time(s)"), "{s}");

    // Half a second later: rendered into nothing, no new attempt (at most one a second).
    out.poll(t0 + Duration::from_millis(500));
    let s = out.status();
    assert_eq!(s.reopen_attempts, 1);
    assert_eq!(s.discarded_frames, 24_000);
    out.poll(t0 + Duration::from_millis(1000));
    assert_eq!(out.status().reopen_attempts, 2);

    // The device comes back: the next attempt (not before a second has passed) reopens it.
    ctl.set_available(true);
    out.poll(t0 + Duration::from_millis(1500));
    assert_eq!(out.status().reopen_attempts, 2);
    assert!(!out.is_running());
    out.poll(t0 + Duration::from_millis(2000));
    let s = out.status();
    assert_eq!((s.reopen_attempts, s.reopens, ctl.opens()), (3, 1, 2));
    assert!(s.running);
    assert_eq!(s.discarded_frames, 96_000);
    assert_eq!(s.sample_rate, 48_000);

    // The source carried on: no frame lost, none repeated.
    assert!(ctl.pump());
    let next = 1024.0 + 96_000.0;
    assert_eq!(
        ctl.last_buffer()[..4],
        [next, -next, next + 1.0, -(next + 1.0)]
    );
    assert_eq!(out.status().frames, 1024 + 256);

    // Polling a healthy stream does nothing; closing hands the source back.
    out.poll(t0 + Duration::from_secs(10));
    assert_eq!(out.status().reopen_attempts, 3);
    let source = out.close().unwrap();
    assert_eq!(source.0, 1024 + 96_000 + 256);
    assert!(!ctl.has_stream());
}

#[test]
fn a_device_that_never_comes_back_costs_one_attempt_a_second() {
    let (mut out, ctl) = open(2, SampleFormat::F32, 128, DeviceConfig::default());
    ctl.fail(LossKind::Backend);
    ctl.set_available(false);
    let t0 = Instant::now();
    for ms in (0..10_000).step_by(50) {
        out.poll(t0 + Duration::from_millis(ms));
    }
    let s = out.status();
    assert_eq!(s.reopen_attempts, 10);
    assert_eq!(s.lost, 1);
    // 9.95 s of render into nothing (each poll renders the time since the previous one).
    assert_eq!(s.discarded_frames, 477_600);
    assert!(s.last_error.unwrap().contains("device not available"));
}

#[test]
fn mono_is_the_mean_of_left_and_right() {
    let (_out, ctl) = open(1, SampleFormat::F32, 64, DeviceConfig::default());
    assert!(ctl.pump());
    assert!(ctl.last_buffer().iter().all(|x| *x == 0.0));
    let (_out, ctl) = open(1, SampleFormat::I16, 64, DeviceConfig::default());
    assert!(ctl.pump());
    assert!(ctl.last_i16().iter().all(|x| *x == 0));
}

#[test]
fn more_than_two_channels_get_the_pair_then_silence() {
    let (_out, ctl) = open(6, SampleFormat::U16, 32, DeviceConfig::default());
    assert!(ctl.pump());
    let raw = ctl.last_u16();
    assert_eq!(raw.len(), 6 * 32);
    // Frame 0 is (0, -0): silence everywhere; frame 1 is (1, -1): full scale both ways.
    assert!(raw[..6].iter().all(|x| *x == 32_768));
    assert_eq!(raw[6..12], [65_535, 1, 32_768, 32_768, 32_768, 32_768]);
    assert!(
        raw.chunks_exact(6)
            .all(|f| f[2..].iter().all(|x| *x == 32_768))
    );
}

#[test]
fn a_device_buffer_longer_than_the_scratch_is_rendered_in_chunks() {
    // Scratch of 100 frames, device buffers of 256: three renders per callback, in order.
    let config = DeviceConfig {
        buffer_frames: Some(100),
        ..DeviceConfig::default()
    };
    let (out, ctl) = open(2, SampleFormat::F32, 256, config);
    assert_eq!(out.device().chunk_frames, 100);
    for k in 0..3 {
        assert!(ctl.pump());
        let buf = ctl.last_buffer();
        for (i, f) in buf.chunks_exact(2).enumerate() {
            let n = (256 * k + i) as f32;
            assert_eq!(f, [n, -n]);
        }
    }
}

/// Sleeps in `render` (test only): the callback then runs longer than its buffer lasts.
struct Slow(Duration);

impl AudioSource for Slow {
    fn render(&mut self, out: &mut [f32]) {
        std::thread::sleep(self.0);
        out.fill(0.0);
    }
}

#[test]
fn the_callback_counts_its_overruns_and_late_starts() {
    // 256 frames at 48 kHz last 5.3 ms; the source takes at least 8 ms.
    let (mut backend, ctl) = TestBackend::new(48_000, 2, SampleFormat::F32, 256);
    let device = backend.resolve(&DeviceConfig::default()).unwrap();
    let out =
        DeviceOutput::open_with(Box::new(backend), device, Slow(Duration::from_millis(8))).unwrap();
    assert!(ctl.pump());
    assert!(ctl.pump());
    let s = out.status();
    assert_eq!((s.callbacks, s.xruns), (2, 2));
    // The second started about 8 ms (1.5 buffers) after the first: not surely late. A third
    // started 28 ms after the second is.
    std::thread::sleep(Duration::from_millis(20));
    assert!(ctl.pump());
    let s = out.status();
    assert!(s.late >= 1, "{s}");
    assert!(s.max_callback_us >= 8_000, "{s}");
    assert!(s.load > 1.0, "{s}");
}

#[test]
fn the_output_can_move_to_another_thread() {
    fn send<T: Send>() {}
    send::<DeviceOutput<resound_engine::advanced::mixer::MixerRenderer>>();
    send::<TestControl>();
}

#[test]
fn a_stream_that_dies_again_at_once_waits_a_second_for_its_next_reopen() {
    let (mut out, ctl) = open(2, SampleFormat::F32, 128, DeviceConfig::default());
    let t0 = Instant::now();
    ctl.fail(LossKind::StreamInvalidated);
    out.poll(t0);
    assert_eq!((out.status().reopens, ctl.opens()), (1, 2));
    // The new stream dies 100 ms later: no reopen before t0 + 1 s.
    ctl.fail(LossKind::DeviceNotAvailable);
    out.poll(t0 + Duration::from_millis(100));
    out.poll(t0 + Duration::from_millis(900));
    let s = out.status();
    assert_eq!((s.lost, s.reopen_attempts, s.running), (2, 1, false));
    out.poll(t0 + Duration::from_millis(1000));
    let s = out.status();
    assert_eq!((s.reopen_attempts, s.reopens, s.running), (2, 2, true));
    assert_eq!(s.discarded_frames, 43_200);
}
