//! Decoding real bytes: the fixture's Wave records (8- and 16-bit PCM at 11 025, 22 050 and
//! 44 100 Hz), hand-built WAV files of every supported width, stereo waves, two real MP3 files
//! (made with LAME, `tests/data/README.md`), and corrupt or truncated inputs (typed errors).

#![allow(
    clippy::unwrap_used,
    reason = "test helpers unwrap known-good fixtures"
)]

use std::io::Cursor;

use resound_datformat::record::Wave;
use resound_engine::sound::{
    DecodeError, DecodeLimits, DecodedSound, decode_mp3, decode_wav, decode_wave,
};
use resound_fixture as fixture;

const MONO_MP3: &[u8] = include_bytes!("../data/tone_440hz_mono_22050.mp3");
const STEREO_MP3: &[u8] = include_bytes!("../data/tone_440_660hz_stereo_44100.mp3");

fn limits() -> DecodeLimits {
    DecodeLimits::default()
}

/// A WAVEFORMATEX of 18 bytes.
fn format_ex(tag: u16, channels: u16, rate: u32, bits: u16) -> Vec<u8> {
    let block = channels * bits.div_ceil(8);
    let mut h = Vec::new();
    h.extend_from_slice(&tag.to_le_bytes());
    h.extend_from_slice(&channels.to_le_bytes());
    h.extend_from_slice(&rate.to_le_bytes());
    h.extend_from_slice(&rate.wrapping_mul(u32::from(block)).to_le_bytes());
    h.extend_from_slice(&block.to_le_bytes());
    h.extend_from_slice(&bits.to_le_bytes());
    h.extend_from_slice(&0u16.to_le_bytes());
    h
}

fn wave(tag: u16, channels: u16, rate: u32, bits: u16, data: Vec<u8>) -> Wave {
    Wave {
        id: 0x0A00_0F00,
        header: format_ex(tag, channels, rate, bits),
        data,
    }
}

/// Writes a WAV with hound.
fn wav_bytes<S: hound::Sample + Copy>(spec: hound::WavSpec, samples: &[S]) -> Vec<u8> {
    let mut cur = Cursor::new(Vec::new());
    let mut w = hound::WavWriter::new(&mut cur, spec).unwrap();
    for s in samples {
        w.write_sample(*s).unwrap();
    }
    w.finalize().unwrap();
    cur.into_inner()
}

fn int_spec(channels: u16, rate: u32, bits: u16) -> hound::WavSpec {
    hound::WavSpec {
        channels,
        sample_rate: rate,
        bits_per_sample: bits,
        sample_format: hound::SampleFormat::Int,
    }
}

/// Zero crossings (rising) per second of one channel, from 10 % to 90 % of the sound.
fn frequency(samples: &[f32], channels: usize, channel: usize, rate: u32) -> f64 {
    let x: Vec<f32> = samples.chunks_exact(channels).map(|f| f[channel]).collect();
    let (a, b) = (x.len() / 10, x.len() * 9 / 10);
    let rising = x[a..b]
        .windows(2)
        .filter(|w| w[0] < 0.0 && w[1] >= 0.0)
        .count();
    rising as f64 * f64::from(rate) / (b - a) as f64
}

fn rms(samples: &[f32], channels: usize, channel: usize) -> f64 {
    let x: Vec<f64> = samples
        .chunks_exact(channels)
        .map(|f| f64::from(f[channel]))
        .collect();
    let (a, b) = (x.len() / 10, x.len() * 9 / 10);
    (x[a..b].iter().map(|v| v * v).sum::<f64>() / (b - a) as f64).sqrt()
}

#[test]
fn every_fixture_wave_decodes_at_its_rate_and_length() {
    let mut widths = std::collections::BTreeSet::new();
    let mut rates = std::collections::BTreeSet::new();
    for spec in &fixture::WAVES {
        let w = fixture::wave(spec, 1.0);
        let d = decode_wave(&w, &limits()).unwrap();
        assert_eq!(d.sample_rate, spec.sample_rate, "{}", spec.name);
        assert_eq!(d.channels, 1);
        let expect = (spec.seconds * f64::from(spec.sample_rate)).round() as usize;
        assert!(
            d.frames().abs_diff(expect) <= 1,
            "{}: {} frames, expected {expect}",
            spec.name,
            d.frames()
        );
        // the same samples as the record's own PCM decoder
        assert_eq!(d.samples, w.decode_pcm_f32().unwrap(), "{}", spec.name);
        assert!(
            d.samples.iter().any(|s| s.abs() > 0.01),
            "{} is silent",
            spec.name
        );
        assert_eq!(d.to_sound_data().samples.len(), d.frames());
        widths.insert(spec.bits_per_sample);
        rates.insert(spec.sample_rate);
    }
    assert_eq!(widths.into_iter().collect::<Vec<_>>(), [8, 16]);
    assert_eq!(
        rates.into_iter().collect::<Vec<_>>(),
        [11_025, 22_050, 44_100]
    );
}

#[test]
fn wave_pcm_values_8_bit_unsigned_and_16_bit_signed() {
    let d = decode_wave(&wave(1, 1, 8_000, 8, vec![0, 128, 255, 64]), &limits()).unwrap();
    assert_eq!(d.samples, [-1.0, 0.0, 127.0 / 128.0, -0.5]);
    let data = [i16::MIN, 0, i16::MAX, 16_384]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let d = decode_wave(&wave(1, 1, 96_000, 16, data), &limits()).unwrap();
    assert_eq!(d.samples, [-1.0, 0.0, 32_767.0 / 32_768.0, 0.5]);
    assert_eq!(d.sample_rate, 96_000);
}

#[test]
fn stereo_wave_keeps_both_channels_and_downmixes_every_frame() {
    // L = +0.5, R = −0.25 for 1000 frames, 16-bit at 22 050 Hz
    let data: Vec<u8> = (0..1000)
        .flat_map(|_| {
            let mut f = 16_384i16.to_le_bytes().to_vec();
            f.extend_from_slice(&(-8_192i16).to_le_bytes());
            f
        })
        .collect();
    let d = decode_wave(&wave(1, 2, 22_050, 16, data), &limits()).unwrap();
    assert_eq!((d.channels, d.frames(), d.samples.len()), (2, 1000, 2000));
    assert_eq!(&d.samples[..4], &[0.5, -0.25, 0.5, -0.25]);
    let mono = d.to_mono();
    assert_eq!(mono.len(), 1000, "no frame dropped");
    assert!(mono.iter().all(|s| *s == 0.125));
    // 8-bit stereo too
    let d = decode_wave(&wave(1, 2, 11_025, 8, vec![255, 0, 128, 128]), &limits()).unwrap();
    assert_eq!(d.frames(), 2);
    assert_eq!(d.to_mono(), [(127.0 / 128.0 - 1.0) / 2.0, 0.0]);
}

#[test]
fn hand_built_wav_files_of_every_width() {
    // 16-bit stereo
    let spec = int_spec(2, 44_100, 16);
    let bytes = wav_bytes(spec, &[16_384i16, -16_384, 8_192, 0]);
    let d = decode_wav(&bytes, &limits()).unwrap();
    assert_eq!((d.sample_rate, d.channels, d.frames()), (44_100, 2, 2));
    assert_eq!(d.samples, [0.5, -0.5, 0.25, 0.0]);
    assert_eq!(d.to_mono(), [0.0, 0.125]);
    // 8-bit mono (unsigned on disk)
    let d = decode_wav(
        &wav_bytes(int_spec(1, 8_000, 8), &[-128i8, 0, 64]),
        &limits(),
    )
    .unwrap();
    assert_eq!(d.samples, [-1.0, 0.0, 0.5]);
    // 24-bit
    let d = decode_wav(
        &wav_bytes(int_spec(1, 48_000, 24), &[-8_388_608i32, 4_194_304]),
        &limits(),
    )
    .unwrap();
    assert_eq!(d.samples, [-1.0, 0.5]);
    // 32-bit int
    let d = decode_wav(
        &wav_bytes(int_spec(2, 32_000, 32), &[i32::MIN, 1 << 30]),
        &limits(),
    )
    .unwrap();
    assert_eq!(d.samples, [-1.0, 0.5]);
    // 32-bit float
    let fspec = hound::WavSpec {
        sample_format: hound::SampleFormat::Float,
        ..int_spec(1, 22_050, 32)
    };
    let d = decode_wav(&wav_bytes(fspec, &[0.25f32, -0.75]), &limits()).unwrap();
    assert_eq!(d.samples, [0.25, -0.75]);
    // a fixture Wave exported as a WAV file decodes to the same samples
    let w = fixture::wave(&fixture::WAVES[0], 0.1);
    assert_eq!(
        decode_wav(&w.to_wav_bytes(), &limits()).unwrap(),
        decode_wave(&w, &limits()).unwrap()
    );
}

fn check_mono_mp3(d: &DecodedSound) {
    assert_eq!((d.sample_rate, d.channels), (22_050, 1));
    // 0.5 s of audio plus the encoder's delay and padding (at most a few 576-sample granules)
    assert!(
        (11_025..=11_025 + 4 * 576).contains(&d.frames()),
        "{} frames",
        d.frames()
    );
    let f = frequency(&d.samples, 1, 0, d.sample_rate);
    assert!((f - 440.0).abs() < 8.0, "{f} Hz");
    let r = rms(&d.samples, 1, 0);
    assert!((r - 0.5 / 2f64.sqrt()).abs() < 0.05, "rms {r}");
}

#[test]
fn real_mp3_mono_decodes_to_its_tone() {
    let d = decode_mp3(MONO_MP3, &limits()).unwrap();
    check_mono_mp3(&d);
}

#[test]
fn real_mp3_stereo_keeps_its_channels() {
    let d = decode_mp3(STEREO_MP3, &limits()).unwrap();
    assert_eq!((d.sample_rate, d.channels), (44_100, 2));
    assert!((13_230..=13_230 + 4 * 1152).contains(&d.frames()));
    let (l, r) = (
        frequency(&d.samples, 2, 0, 44_100),
        frequency(&d.samples, 2, 1, 44_100),
    );
    assert!(
        (l - 440.0).abs() < 8.0 && (r - 660.0).abs() < 8.0,
        "{l} / {r} Hz"
    );
    assert_eq!(d.to_mono().len(), d.frames());
}

#[test]
fn mp3_inside_a_wave_record_with_tag_0x55() {
    // MPEGLAYER3WAVEFORMAT: the 18-byte WAVEFORMATEX with cbSize 12 and its 12 extra bytes.
    let mut header = format_ex(0x55, 1, 22_050, 0);
    header[16..18].copy_from_slice(&12u16.to_le_bytes());
    header.extend_from_slice(&[1, 0, 2, 0, 0, 0, 0x90, 0, 1, 0, 0x71, 5]);
    assert_eq!(header.len(), 30);
    let w = Wave {
        id: 0x0A00_0393,
        header,
        data: MONO_MP3.to_vec(),
    };
    assert_eq!(w.mp3_bytes(), Some(MONO_MP3));
    let d = decode_wave(&w, &limits()).unwrap();
    check_mono_mp3(&d);
    assert_eq!(d, decode_mp3(MONO_MP3, &limits()).unwrap());
}

#[test]
fn bad_wave_records_give_typed_errors() {
    let ok = || wave(1, 1, 22_050, 16, vec![0; 64]);
    let mut w = ok();
    w.header.truncate(10);
    assert_eq!(
        decode_wave(&w, &limits()),
        Err(DecodeError::HeaderTooShort { len: 10 })
    );
    assert_eq!(
        decode_wave(&wave(2, 1, 22_050, 4, vec![0; 64]), &limits()),
        Err(DecodeError::UnsupportedFormat(2))
    );
    for bits in [0, 4, 12, 24, 32] {
        assert!(matches!(
            decode_wave(&wave(1, 1, 22_050, bits, vec![0; 64]), &limits()),
            Err(DecodeError::UnsupportedBits { bits: b, .. }) if b == bits
        ));
    }
    for ch in [0, 3, 6] {
        assert_eq!(
            decode_wave(&wave(1, ch, 22_050, 16, vec![0; 64]), &limits()),
            Err(DecodeError::UnsupportedChannels(ch))
        );
    }
    for rate in [0, 384_001, u32::MAX] {
        assert_eq!(
            decode_wave(&wave(1, 1, rate, 16, vec![0; 64]), &limits()),
            Err(DecodeError::SampleRate(rate))
        );
    }
    assert_eq!(
        decode_wave(&wave(1, 1, 22_050, 16, vec![]), &limits()),
        Err(DecodeError::Empty)
    );
    // one byte of a 16-bit sample: no whole frame
    assert_eq!(
        decode_wave(&wave(1, 1, 22_050, 16, vec![7]), &limits()),
        Err(DecodeError::Empty)
    );
    // too long for the limit
    let small = DecodeLimits { max_frames: 31 };
    assert_eq!(
        decode_wave(&ok(), &small),
        Err(DecodeError::TooLong { max_frames: 31 })
    );
    assert!(decode_wave(&ok(), &DecodeLimits { max_frames: 32 }).is_ok());
    // a limit beyond the mixer's is clamped below MAX_SOUND_FRAMES
    assert!(
        DecodeLimits {
            max_frames: usize::MAX
        }
        .frame_cap()
            < resound_mixer::MAX_SOUND_FRAMES
    );
    // an MP3 Wave whose data is not MPEG audio
    let mut header = format_ex(0x55, 1, 22_050, 0);
    header.extend_from_slice(&[0; 12]);
    let w = Wave {
        id: 1,
        header,
        data: vec![0x11; 500],
    };
    assert!(decode_wave(&w, &limits()).is_err());
}

#[test]
fn bad_wav_files_give_typed_errors() {
    let good = wav_bytes(int_spec(2, 44_100, 16), &[1000i16; 400]);
    // every truncation: a typed error (short header) or Truncated, never a panic
    for n in 0..good.len() {
        let r = decode_wav(&good[..n], &limits());
        assert!(r.is_err(), "prefix {n} decoded");
    }
    // the data chunk claims more than the file holds
    let cut = &good[..good.len() - 6];
    assert_eq!(decode_wav(cut, &limits()), Err(DecodeError::Truncated));
    assert!(matches!(
        decode_wav(b"RIFF\x04\0\0\0WAVX", &limits()),
        Err(DecodeError::MalformedWav(_))
    ));
    assert!(decode_wav(b"not a wav file at all, just some text", &limits()).is_err());
    // three channels
    let three = wav_bytes(int_spec(3, 44_100, 16), &[0i16; 30]);
    assert_eq!(
        decode_wav(&three, &limits()),
        Err(DecodeError::UnsupportedChannels(3))
    );
    // a NaN sample in a float file
    let fspec = hound::WavSpec {
        sample_format: hound::SampleFormat::Float,
        ..int_spec(1, 22_050, 32)
    };
    assert_eq!(
        decode_wav(&wav_bytes(fspec, &[0.0f32, f32::NAN]), &limits()),
        Err(DecodeError::NonFiniteSample { index: 1 })
    );
    // too long
    assert_eq!(
        decode_wav(&good, &DecodeLimits { max_frames: 100 }),
        Err(DecodeError::TooLong { max_frames: 100 })
    );
    // no samples
    assert_eq!(
        decode_wav(&wav_bytes::<i16>(int_spec(1, 8_000, 16), &[]), &limits()),
        Err(DecodeError::Empty)
    );
    // every single-byte corruption of a header byte: no panic
    for i in 0..44 {
        let mut b = good.clone();
        b[i] ^= 0xA5;
        let _ = decode_wav(&b, &limits());
    }
    // random multi-byte corruptions of the header and random cuts: a result or a typed error
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for _ in 0..3_000 {
        let mut b = good.clone();
        for _ in 0..1 + next() % 4 {
            let at = (next() % 48) as usize;
            b[at] = next() as u8;
        }
        let cut = b.len() - (next() % 64) as usize;
        if let Ok(d) = decode_wav(&b[..cut], &limits()) {
            assert!(d.samples.iter().all(|s| s.is_finite()));
            assert!((1..=2).contains(&d.channels) && d.sample_rate > 0);
        }
    }
}

#[test]
fn corrupt_and_truncated_mp3_never_panic() {
    assert_eq!(decode_mp3(&[], &limits()), Err(DecodeError::Empty));
    assert!(decode_mp3(&[0u8; 4096], &limits()).is_err());
    assert!(decode_mp3(b"ID3 this is not an mp3", &limits()).is_err());
    // prefixes: shorter than one frame is an error; longer decodes what is there
    let first_ok = (0..MONO_MP3.len())
        .step_by(17)
        .find(|&n| decode_mp3(&MONO_MP3[..n], &limits()).is_ok());
    let first_ok = first_ok.unwrap();
    assert!(first_ok > 0);
    for n in (first_ok..MONO_MP3.len()).step_by(97) {
        let d = decode_mp3(&MONO_MP3[..n], &limits()).unwrap();
        assert!(d.frames() > 0 && d.frames() <= 11_025 + 4 * 576);
    }
    // byte flips across the stream (a simple deterministic generator)
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..300 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let mut b = MONO_MP3.to_vec();
        let at = (x as usize) % b.len();
        b[at] ^= (x >> 32) as u8 | 1;
        if let Ok(d) = decode_mp3(&b, &limits()) {
            assert!(d.samples.iter().all(|s| s.is_finite()));
        }
    }
    // the frame cap holds while decoding
    assert_eq!(
        decode_mp3(MONO_MP3, &DecodeLimits { max_frames: 2000 }),
        Err(DecodeError::TooLong { max_frames: 2000 })
    );
}
