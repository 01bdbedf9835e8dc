//! The wave cache against a real mixer: loaded once, hits and misses counted, the byte cap
//! holds under churn, sounds voices hold (acquired, not yet released) are never unloaded, bad
//! waves are remembered.

#![allow(
    clippy::unwrap_used,
    reason = "test helpers unwrap known-good fixtures"
)]

use std::io::Cursor;

use resound_ambient::DatSource;
use resound_datformat::container::DatReader;
use resound_datformat::record::Wave;
use resound_engine::sound::{CacheError, DecodeLimits, MemoryWaves, WaveCache};
use resound_fixture as fixture;
use resound_mixer::{Capacities, MixerHandle, MixerSettings, SoundId, build};

fn mixer(sounds: usize) -> (MixerHandle, resound_mixer::MixerRenderer) {
    build(MixerSettings {
        capacities: Capacities {
            sounds,
            ..Capacities::default()
        },
        ..MixerSettings::default()
    })
    .unwrap()
}

/// Short fixture waves (1/10 length) in a memory source; their cached sizes in bytes.
fn short_waves() -> (MemoryWaves, Vec<(u32, usize)>) {
    let waves: Vec<Wave> = fixture::WAVES
        .iter()
        .map(|s| fixture::wave(s, 0.1))
        .collect();
    let sizes = waves
        .iter()
        .map(|w| (w.id, w.decode_pcm_f32().unwrap().len() * 4))
        .collect();
    (MemoryWaves::new(waves), sizes)
}

#[test]
fn loaded_once_then_hits() {
    let (mut h, _r) = mixer(64);
    let (mut src, sizes) = short_waves();
    let mut cache = WaveCache::new(1 << 30, DecodeLimits::default());
    let id = sizes[3].0;
    let a = cache.get(id, &mut src, &mut h).unwrap();
    let b = cache.get(id, &mut src, &mut h).unwrap();
    assert_eq!(a, b);
    assert_eq!(src.loads, 1, "read once");
    let s = cache.stats();
    assert_eq!(
        (s.misses, s.hits, s.entries, s.bytes),
        (1, 1, 1, sizes[3].1)
    );
    // the mixer holds exactly the decoded buffer
    let data = h.sound_data(a.sound).unwrap();
    assert_eq!(data.samples.len(), a.frames);
    assert_eq!(data.sample_rate, fixture::WAVES[3].sample_rate);
    assert_eq!(cache.peek(id), Some(a));
}

#[test]
fn byte_cap_holds_under_churn_and_never_unloads_a_playing_sound() {
    let (mut h, mut r) = mixer(64);
    let mut out = vec![0.0f32; 128];
    let (mut src, sizes) = short_waves();
    let largest = sizes.iter().map(|s| s.1).max().unwrap();
    let cap = largest * 3;
    let mut cache = WaveCache::new(cap, DecodeLimits::default());
    // (wave, sound) of the voices "playing", each holding a reference
    let mut playing: Vec<(u32, SoundId)> = Vec::new();
    let mut x: u64 = 12_345;
    let mut full = 0;
    for step in 0..2_000 {
        x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let (id, _) = sizes[(x >> 33) as usize % sizes.len()];
        match cache.get(id, &mut src, &mut h) {
            Ok(w) => {
                // a few sounds "play" for a while
                if step % 2 == 0 {
                    assert!(cache.acquire(id));
                    playing.push((id, w.sound));
                }
            }
            Err(CacheError::Full { .. }) => full += 1,
            Err(e) => panic!("{e}"),
        }
        if step % 3 == 0 && !playing.is_empty() {
            let (wave, _) = playing.remove(0);
            cache.release(wave);
        }
        let s = cache.stats();
        assert!(s.bytes <= cap, "step {step}: {} > {cap}", s.bytes);
        // every sound marked playing is still loaded in the mixer
        for (wave, sound) in &playing {
            assert!(
                h.sound_data(*sound).is_some(),
                "step {step}: a playing sound was unloaded"
            );
            assert!(cache.users(*wave) > 0);
        }
        let sum: usize = cache.sounds().map(|(_, w)| w.bytes).sum();
        assert_eq!(sum, s.bytes);
        // the renderer hands unloaded buffers back (as it does every audio block)
        h.flush();
        r.render(&mut out);
    }
    let s = cache.stats();
    assert!(s.peak_bytes <= cap);
    assert!(s.evictions > 100, "{s:?}");
    assert_eq!(s.full, full);
    assert!(
        full > 0,
        "the churn never met a cache whose waves were all playing"
    );
    assert_eq!(s.hits + s.misses, 2_000);
    assert_eq!(s.misses as usize, src.loads);
    eprintln!("cache churn: cap {cap} B, {s:?}");
}

#[test]
fn full_when_everything_loaded_is_playing() {
    let (mut h, _r) = mixer(64);
    let (mut src, sizes) = short_waves();
    let cap = sizes[0].1 + sizes[1].1;
    let mut cache = WaveCache::new(cap, DecodeLimits::default());
    let a = cache.get(sizes[0].0, &mut src, &mut h).unwrap();
    let b = cache.get(sizes[1].0, &mut src, &mut h).unwrap();
    assert!(cache.acquire(sizes[0].0) && cache.acquire(sizes[1].0));
    let bigger = sizes
        .iter()
        .find(|s| s.1 > 0 && s.0 != sizes[0].0 && s.0 != sizes[1].0)
        .unwrap();
    let err = cache.get(bigger.0, &mut src, &mut h).unwrap_err();
    assert!(matches!(err, CacheError::Full { .. }), "{err}");
    assert!(!err.is_permanent());
    assert_eq!(cache.stats().bytes, cap);
    assert!(h.sound_data(a.sound).is_some() && h.sound_data(b.sound).is_some());
    // once one stops, the same request succeeds by unloading it
    cache.release(sizes[0].0);
    assert_eq!((cache.users(sizes[0].0), cache.users(sizes[1].0)), (0, 1));
    let c = cache.get(bigger.0, &mut src, &mut h);
    if bigger.1 <= sizes[0].1 {
        c.unwrap();
        assert!(cache.peek(sizes[0].0).is_none());
    }
    // a wave larger than the whole cap is refused and remembered
    let mut tiny = WaveCache::new(16, DecodeLimits::default());
    let err = tiny.get(sizes[0].0, &mut src, &mut h).unwrap_err();
    assert!(matches!(err, CacheError::TooLarge { .. }));
    let loads = src.loads;
    assert!(tiny.get(sizes[0].0, &mut src, &mut h).is_err());
    assert_eq!(src.loads, loads);
}

#[test]
fn bad_and_missing_waves_are_read_once_and_counted() {
    let (mut h, _r) = mixer(64);
    let (mut src, _) = short_waves();
    src.insert(Wave {
        id: 0x0A00_0BAD,
        header: vec![2, 0, 1, 0, 0x22, 0x56, 0, 0, 0, 0, 0, 0, 2, 0, 4, 0],
        data: vec![0; 100],
    });
    let mut cache = WaveCache::new(1 << 30, DecodeLimits::default());
    for _ in 0..3 {
        let e = cache.get(0x0A00_0BAD, &mut src, &mut h).unwrap_err();
        assert!(matches!(e, CacheError::Decode { .. }), "{e}");
        assert_eq!(e.to_string(), "wave 0x0a000bad could not be decoded");
        let e = cache.get(0x0A00_0F0F, &mut src, &mut h).unwrap_err();
        assert!(matches!(e, CacheError::Missing { .. }));
    }
    assert_eq!(src.loads, 2);
    let s = cache.stats();
    assert_eq!(
        (s.decode_failures, s.misses, s.known_failures, s.bytes),
        (1, 2, 4, 0)
    );
}

#[test]
fn mixer_sound_slots_full_unloads_the_least_recently_used() {
    let (mut h, mut r) = mixer(2);
    let (mut src, sizes) = short_waves();
    let mut cache = WaveCache::new(1 << 30, DecodeLimits::default());
    let a = cache.get(sizes[0].0, &mut src, &mut h).unwrap();
    let _b = cache.get(sizes[1].0, &mut src, &mut h).unwrap();
    cache.get(sizes[0].0, &mut src, &mut h).unwrap(); // a is now the most recent
    // both mixer slots are taken: b (least recent) is unloaded; its slot comes back from the
    // renderer asynchronously, so this request fails as "no room" and a later one succeeds
    let err = cache.get(sizes[2].0, &mut src, &mut h).unwrap_err();
    assert!(
        matches!(err, CacheError::Load { .. }) && !err.is_permanent(),
        "{err}"
    );
    assert!(cache.peek(sizes[1].0).is_none());
    assert!(cache.peek(sizes[0].0).is_some(), "only one wave unloaded");
    let mut out = vec![0.0; 256];
    r.render(&mut out);
    h.flush();
    let c = cache.get(sizes[2].0, &mut src, &mut h).unwrap();
    assert_eq!(
        h.sound_data(a.sound).map(|d| d.samples.len()),
        Some(a.frames)
    );
    assert!(h.sound_data(c.sound).is_some());
    assert_eq!(cache.stats().evictions, 1);
}

#[test]
fn waves_come_from_the_portal_dat() {
    let world = fixture::write_world_with(&fixture::FixtureOptions::compact()).unwrap();
    let mut portal = DatSource::new(DatReader::new(Cursor::new(world.portal)).unwrap());
    let (mut h, _r) = mixer(64);
    let mut cache = WaveCache::new(1 << 30, DecodeLimits::default());
    for spec in &fixture::WAVES {
        let w = cache.get(spec.id, &mut portal, &mut h).unwrap();
        assert_eq!(w.sample_rate, spec.sample_rate);
        assert_eq!(w.channels, 1);
    }
    assert_eq!(portal.loads, fixture::WAVES.len());
    assert_eq!(cache.stats().entries, fixture::WAVES.len());
}
