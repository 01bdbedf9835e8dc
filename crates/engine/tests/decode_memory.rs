//! Sound loading holds what the sound needs, not what it declares: an MP3 over the frame cap
//! is refused from its frame headers before a sample exists; a WAV is decoded into at most
//! two buffers of its size; the wave cache refuses a Wave whose record declares more than its
//! byte cap without reading it, and one that would decode past the cap without decoding it.
//! Its own binary: it installs a global allocator that measures the peak of live bytes on
//! the armed thread.

#![allow(clippy::unwrap_used, reason = "test fixtures are known good")]

use std::io::Cursor;

use resound_ambient::DatSource;
use resound_datformat::container::{DatKind, DatReader, DatWriter, EntryOptions};
use resound_datformat::record::{Record, Wave};
use resound_engine::sound::{
    CacheError, DEFAULT_MAX_FRAMES, DecodeError, DecodeLimits, WaveCache, decode_mp3, mp3_frames,
};
use resound_engine::{Engine, Mode};
use resound_mixer::{MixerSettings, build};

#[global_allocator]
static ALLOCATOR: resound_testalloc::Probe = resound_testalloc::Probe;

/// Runs `f` with this thread's requests counted; returns its result and the peak of bytes
/// live at once during it.
fn peak<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let (out, usage) = resound_testalloc::on_this_thread(f);
    (out, usage.peak)
}

/// `frames` MPEG-1 Layer III frames, 32 kbit/s, 48 kHz, mono, no CRC: 96 bytes each (a
/// 4-byte header, then zero side information and main data: silence), 1152 samples each.
fn silent_mp3(frames: usize) -> Vec<u8> {
    let mut frame = [0u8; 96];
    frame[..4].copy_from_slice(&[0xFF, 0xFB, 0x14, 0xC0]);
    frame.repeat(frames)
}

#[test]
fn an_mp3_over_the_frame_cap_is_refused_before_its_samples_exist() {
    // One frame more than the cap holds: 5.6 MB that would decode to 256 MiB of f32.
    let frames = DEFAULT_MAX_FRAMES / 1152 + 1;
    let mp3 = silent_mp3(frames);
    assert_eq!(mp3.len(), 5_592_480);
    let limits = DecodeLimits::default();
    let (result, bytes) = peak(|| decode_mp3(&mp3, &limits));
    let err = result.unwrap_err();
    assert_eq!(
        err,
        DecodeError::TooLong {
            max_frames: DEFAULT_MAX_FRAMES
        }
    );
    assert_eq!(
        err.to_string(),
        "the sound has more than 67108864 frames (the decode frame cap)"
    );
    // The stream copied once for the demuxer and its buffers; before, 256 MiB of samples.
    eprintln!(
        "mp3 over the cap: {} input bytes, peak {bytes} bytes live",
        mp3.len()
    );
    assert!(bytes < 2 * mp3.len() + (1 << 20), "peak {bytes} bytes live");
}

#[test]
fn an_mp3_under_the_cap_decodes_to_the_frames_it_declares() {
    let mp3 = silent_mp3(40);
    let limits = DecodeLimits::default();
    let declared = mp3_frames(&mp3, &limits).unwrap();
    assert_eq!(declared, 40 * 1152);
    let sound = decode_mp3(&mp3, &limits).unwrap();
    assert_eq!((sound.sample_rate, sound.channels), (48_000, 1));
    assert!(sound.frames() <= declared && sound.frames() >= declared - 2 * 1152);
    assert!(sound.samples.iter().all(|s| *s == 0.0));
    let cap = DecodeLimits {
        max_frames: 39 * 1152,
    };
    assert_eq!(
        mp3_frames(&mp3, &cap),
        Err(DecodeError::TooLong {
            max_frames: 39 * 1152
        })
    );
}

#[test]
fn a_wav_file_is_loaded_in_two_buffers_of_its_samples() {
    // 4 Mi frames of 8-bit mono: a 4 MiB file whose samples are 16 MiB of f32.
    let frames = 4 << 20;
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: 48_000,
        bits_per_sample: 8,
        sample_format: hound::SampleFormat::Int,
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.wav");
    let mut w = hound::WavWriter::create(&path, spec).unwrap();
    for i in 0..frames {
        w.write_sample(((i % 200) as i16 - 100) as i8).unwrap();
    }
    w.finalize().unwrap();
    let mut engine = Engine::builder().mode(Mode::Off).build().unwrap();
    let (sound, bytes) = peak(|| engine.load_file(&path));
    let sound = sound.unwrap();
    assert_eq!(engine.sound_length(sound), Some(frames as f64 / 48_000.0));
    let samples = frames * 4;
    eprintln!("wav: {frames} frames of 8-bit mono, peak {bytes} bytes live");
    // The file, the decoded samples and the mixer's copy; before, a third buffer (the mono
    // copy of a mono sound) on top.
    assert!(
        bytes < frames + 2 * samples + (2 << 20),
        "peak {bytes} bytes live"
    );
}

/// A portal dat holding `wave`, compressed.
fn portal(wave: &Wave) -> Vec<u8> {
    let mut w = DatWriter::new(DatKind::Portal, 1024).unwrap();
    let options = EntryOptions {
        compress: true,
        ..EntryOptions::default()
    };
    w.insert(wave.id, &wave.to_bytes().unwrap(), options)
        .unwrap();
    w.finish()
}

/// 16-bit mono PCM at 22 050 Hz, every sample `level`.
fn pcm16(id: u32, frames: usize, level: i16) -> Wave {
    Wave {
        id,
        header: resound_fixture::wave_format_ex(1, 22_050, 16).to_vec(),
        data: level.to_le_bytes().repeat(frames),
    }
}

#[test]
fn the_wave_cache_refuses_a_declared_size_over_its_cap_without_reading_it() {
    let (mut mixer, _renderer) = build(MixerSettings::default()).unwrap();
    // 4 Mi frames: an 8 MiB record in a small compressed entry, against a 1 MiB cap.
    let wave = pcm16(0x0A00_0001, 4 << 20, 1000);
    let dat = portal(&wave);
    assert!(dat.len() < 100_000, "{}", dat.len());
    let mut source = DatSource::new(DatReader::new(Cursor::new(dat)).unwrap());
    let mut cache = WaveCache::new(1 << 20, DecodeLimits::default());
    let (result, bytes) = peak(|| cache.get(wave.id, &mut source, &mut mixer));
    let err = result.unwrap_err();
    assert!(matches!(err, CacheError::Declared { .. }), "{err}");
    assert_eq!(
        err.to_string(),
        format!(
            "wave 0x0a000001 declares {} bytes, more than 1048576 (the wave cache's byte cap)",
            wave.to_bytes().unwrap().len()
        )
    );
    assert!(err.is_permanent());
    assert_eq!(source.loads, 0, "the record is never read");
    assert!(bytes < 256 << 10, "peak {bytes} bytes live");
    // remembered: not even its size is read again
    assert!(cache.get(wave.id, &mut source, &mut mixer).is_err());
    assert_eq!(cache.stats().known_failures, 1);
}

#[test]
fn the_wave_cache_refuses_a_wave_decoding_past_its_cap_before_decoding_it() {
    let (mut mixer, _renderer) = build(MixerSettings::default()).unwrap();
    // 384 Ki frames: a 768 KiB record under the 1 MiB cap that decodes to 1.5 MiB of f32.
    let frames = 384 << 10;
    let wave = pcm16(0x0A00_0002, frames, -1000);
    let mut source = DatSource::new(DatReader::new(Cursor::new(portal(&wave))).unwrap());
    let mut cache = WaveCache::new(1 << 20, DecodeLimits::default());
    let (result, bytes) = peak(|| cache.get(wave.id, &mut source, &mut mixer));
    let err = result.unwrap_err();
    assert_eq!(
        err.to_string(),
        "wave 0x0a000002 needs 1572864 bytes, more than 1048576 (the wave cache's byte cap)"
    );
    assert!(matches!(err, CacheError::TooLarge { .. }));
    assert_eq!(source.loads, 1);
    // The record read (its buffer grown to 1 MiB) and parsed (768 KiB), never its 1.5 MiB
    // of samples (and their mono copy) on top.
    assert!(bytes < (5 << 19), "peak {bytes} bytes live");
    // A wave that fits loads.
    let small = pcm16(0x0A00_0003, 1000, 500);
    let mut source = DatSource::new(DatReader::new(Cursor::new(portal(&small))).unwrap());
    let cached = cache.get(small.id, &mut source, &mut mixer).unwrap();
    assert_eq!((cached.frames, cached.bytes), (1000, 4000));
}

#[test]
fn counted_frames_bound_the_decoded_ones_under_mutation() {
    // A real encoder's stream (Xing/LAME frame, delay and padding) and the hand-built one,
    // each mutated 1 500 times (seeded): never a panic, and whenever both succeed the count
    // from the frame headers is at least what the decoder gives.
    let real: &[u8] = include_bytes!("data/tone_440hz_mono_22050.mp3");
    let limits = DecodeLimits::default();
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let (mut both, mut refused) = (0, 0);
    for base in [real.to_vec(), silent_mp3(30)] {
        if let (Ok(n), Ok(d)) = (mp3_frames(&base, &limits), decode_mp3(&base, &limits)) {
            assert!(d.frames() <= n, "{} decoded > {n} counted", d.frames());
        }
        for _ in 0..1500 {
            let mut b = base.clone();
            for _ in 0..1 + next() % 4 {
                let at = (next() % b.len() as u64) as usize;
                match next() % 3 {
                    0 => b[at] ^= 1 << (next() % 8),
                    1 => b[at] = next() as u8,
                    _ => b.truncate(at.max(1)),
                }
            }
            match (mp3_frames(&b, &limits), decode_mp3(&b, &limits)) {
                (Ok(n), Ok(d)) => {
                    both += 1;
                    assert!(d.frames() <= n, "{} decoded > {n} counted", d.frames());
                }
                _ => refused += 1,
            }
        }
    }
    eprintln!("mp3 mutations: {both} decoded, {refused} refused");
    assert!(
        both > 100 && refused > 10,
        "{both} decoded, {refused} refused"
    );
}
