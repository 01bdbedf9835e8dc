//! No allocation (and no deallocation) on the audio thread, proved mechanically.
//!
//! This binary installs `assert_no_alloc`'s `AllocDisabler` as the global allocator (process
//! wide, hence its own test binary) with the `warn_*` features, so every (de)allocation inside
//! `assert_no_alloc(..)` is counted. The renderer runs 256 voices with echo taps and reverb
//! sends while the handle changes parameters, replaces tap sets, starts and stops voices, and
//! unloads a sound (its buffer must come back to the game thread, not be freed in `render`).
//! It runs in debug and in release (the dev-dependency turns off `disable_release`).
//!
//! No lock: the renderer holds only `rtrb` ring ends and `triple_buffer` outputs (wait-free);
//! it owns no `Mutex`, and `render` never blocks on the game thread.

// Test helpers outside #[test] fns unwrap too (clippy.toml only covers #[test] bodies).
#![allow(clippy::unwrap_used)]

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use assert_no_alloc::{AllocDisabler, assert_no_alloc, reset_violation_count, violation_count};
use resound_mixer::{
    DirectDelay, MixerHandle, MixerSettings, Pan, PlaySettings, Resampler, SoundData, SoundId,
    Spatial, Tap, Tween, VoiceControl, VoiceId, VoiceParams, build, build_with_hrtf,
};

#[path = "it/hrir.rs"]
mod hrir;

#[global_allocator]
static A: AllocDisabler = AllocDisabler;

const VOICES: usize = 256;

struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 40) as f32) / (1u64 << 24) as f32
    }
}

fn params(rng: &mut Lcg) -> VoiceParams {
    VoiceParams {
        volume: 0.02 + 0.05 * rng.next(),
        range: 100.0,
        distance: 80.0 * rng.next(),
        shelf_gain: 0.2 + 0.8 * rng.next(),
        shelf_hf: rng.next(),
        pan: Pan::EqualPower(2.0 * rng.next() - 1.0),
        sends: [rng.next(), rng.next(), rng.next(), rng.next()],
        // Retuning slots must not allocate either.
        reverb_decay: [0.2 + 3.0 * rng.next(); 3],
        // Binaural renderers glide to a new direction every tick.
        direction: [
            2.0 * rng.next() - 1.0,
            rng.next() - 0.5,
            2.0 * rng.next() - 1.0,
        ],
    }
}

fn taps(rng: &mut Lcg) -> Vec<Tap> {
    (0..6)
        .map(|k| Tap {
            delay: 0.03 + 0.05 * k as f32 + 0.02 * rng.next(),
            level: rng.next(),
            path: 50.0 * rng.next(),
            hf: 0.1 + 0.9 * rng.next(),
            pan: 2.0 * rng.next() - 1.0,
            // Binaural output: taps compete for the renderers beside the voices.
            direction: [2.0 * rng.next() - 1.0, 0.2, 2.0 * rng.next() - 1.0],
        })
        .collect()
}

fn sound(h: &mut MixerHandle, freq: f32, rate: u32, seconds: f32) -> SoundId {
    let n = (seconds * rate as f32) as usize;
    let samples: Arc<[f32]> = (0..n)
        .map(|i| (i as f32 * freq / rate as f32 * std::f32::consts::TAU).sin())
        .collect();
    h.load_sound(SoundData {
        samples,
        sample_rate: rate,
        stereo: None,
    })
    .unwrap()
}

struct Game {
    h: MixerHandle,
    rng: Lcg,
    loops: [SoundId; 2],
    shot: SoundId,
    stereo: SoundId,
    spare: Option<SoundId>,
    voices: Vec<VoiceId>,
    tick: usize,
}

impl Game {
    fn new(h: MixerHandle) -> Self {
        let mut h = h;
        let loops = [
            sound(&mut h, 220.0, 22_050, 0.8),
            sound(&mut h, 330.0, 44_100, 0.6),
        ];
        let shot = sound(&mut h, 500.0, 48_000, 0.4);
        let spare = Some(sound(&mut h, 120.0, 11_025, 1.0));
        let left: Arc<[f32]> = (0..9600).map(|i| (i as f32 * 0.03).sin()).collect();
        let right: Arc<[f32]> = (0..9600).map(|i| (i as f32 * 0.05).sin()).collect();
        let stereo = h
            .load_sound(SoundData::stereo(left, right, 32_000))
            .unwrap();
        Self {
            h,
            rng: Lcg(7),
            loops,
            shot,
            stereo,
            spare,
            voices: Vec::new(),
            tick: 0,
        }
    }

    fn start(&mut self) {
        for i in 0..VOICES - 16 {
            let s = if i % 50 == 0 {
                self.spare.unwrap_or(self.loops[0])
            } else {
                self.loops[i % 2]
            };
            let p = params(&mut self.rng);
            self.voices.push(
                self.h
                    .play(
                        s,
                        PlaySettings {
                            looping: true,
                            params: p,
                            ..PlaySettings::default()
                        },
                    )
                    .unwrap(),
            );
        }
        self.h.flush();
    }

    /// One game tick: new parameters for every voice, new one-shots with taps, stops, an unload.
    fn tick(&mut self) {
        self.tick += 1;
        let ids: Vec<VoiceId> = self
            .voices
            .iter()
            .copied()
            .filter(|v| self.h.is_playing(*v))
            .collect();
        for v in &ids {
            let p = params(&mut self.rng);
            // A voice may end between the two calls (the renderer runs concurrently).
            let _ = self.h.set_params(*v, p);
            // The direct path's delay glides every tick (Doppler), now and then cuts.
            let d = DirectDelay {
                seconds: 0.2 * self.rng.next(),
                glide: 0.01,
                cut: self.rng.next() < 0.05,
            };
            let _ = self.h.set_delay(*v, d);
        }
        for _ in 0..2 {
            let p = params(&mut self.rng);
            if let Ok(v) = self.h.play(
                self.shot,
                PlaySettings {
                    looping: false,
                    params: p,
                    // Heard after its propagation delay, its taps behind it.
                    delay: 0.03 * self.rng.next(),
                    ..PlaySettings::default()
                },
            ) {
                let t = taps(&mut self.rng);
                // Tap sets may be full while old ones drain; that is a typed error, fine here.
                let _ = self.h.set_taps(v, &t);
            }
        }
        if self.tick.is_multiple_of(3) && ids.len() > 10 {
            let v = ids[self.tick % ids.len()];
            // The ring may be full when the game thread outruns the renderer: a typed error.
            let _ = self.h.stop(v);
            let p = params(&mut self.rng);
            if let Ok(n) = self.h.play(
                self.loops[self.tick % 2],
                PlaySettings {
                    looping: true,
                    params: p,
                    ..PlaySettings::default()
                },
            ) {
                self.voices.push(n);
            }
        }
        // The game's controls: tweens of gain and rate, pause and resume, a track's gain, a
        // scheduled stereo voice.
        if let Some(v) = ids.get(self.tick % ids.len().max(1)) {
            let tween = Tween::linear(0.02 * (self.tick % 4) as f32);
            let _ = self.h.tween(*v, VoiceControl::Gain, 0.5, tween);
            let _ = self.h.tween(*v, VoiceControl::Rate, 1.25, tween);
            if self.tick.is_multiple_of(2) {
                let _ = self.h.pause(*v, tween);
            } else {
                let _ = self.h.resume(*v, tween);
            }
        }
        let _ = self
            .h
            .tween_track(1, 0.5 + 0.1 * (self.tick % 5) as f32, Tween::linear(0.03));
        let at = self.h.status().frames_rendered + 700;
        let _ = self.h.play(
            self.stereo,
            PlaySettings {
                stereo: true,
                track: 1,
                start_frame: Some(at),
                ..PlaySettings::default()
            },
        );
        if self.tick == 5
            && let Some(s) = self.spare.take()
        {
            let _ = self.h.unload_sound(s);
        }
        self.h.flush();
    }
}

fn settings() -> MixerSettings {
    let mut s = MixerSettings::default();
    s.capacities.voices = VOICES;
    s.capacities.tap_sets = 16;
    s
}

/// The guard itself works: an allocation inside `assert_no_alloc` is counted.
#[test]
fn the_guard_counts_allocations() {
    reset_violation_count();
    let v = assert_no_alloc(|| Vec::<u64>::with_capacity(16));
    drop(v);
    assert_eq!(violation_count(), 1);
}

/// Game and audio on one thread, alternating: every `render` runs inside `assert_no_alloc`.
#[test]
fn render_never_allocates_single_thread() {
    single_thread(settings());
}

/// The same with the Modern read (sounds raised at load, the 4-point kernel).
#[test]
fn oversampled_render_never_allocates() {
    single_thread(MixerSettings {
        resampler: Resampler::Oversampled,
        ..settings()
    });
}

fn single_thread(settings: MixerSettings) {
    let (h, mut r) = build(settings).unwrap();
    let mut game = Game::new(h);
    game.start();
    let mut buf = vec![0.0f32; 2 * 512];
    reset_violation_count();
    let mut peak = 0.0f32;
    for b in 0..120 {
        if b % 4 == 0 {
            game.tick();
        }
        assert_no_alloc(|| r.render(&mut buf));
        assert!(buf.iter().all(|x| x.is_finite()));
        peak = buf.iter().fold(peak, |m, x| m.max(x.abs()));
    }
    assert_eq!(violation_count(), 0, "the renderer allocated or freed");
    assert!(peak > 0.0);
    let status = game.h.status();
    assert!(status.active_voices as usize > VOICES - 40, "{status:?}");
    assert!(status.busy_reverb_slots == 4);
    // The unloaded sound came back to the game side.
    game.h.collect();
}

/// Binaural output (issue 33): 64 renderers for 256 voices and their echo taps (each with a
/// direction), every direction and level changing every tick (ranking voices and taps together,
/// handovers between binaural and pan, taps routed and unrouted, draining, gliding), one-shots
/// starting and ending: no allocation.
#[test]
fn binaural_render_never_allocates() {
    let s = MixerSettings {
        spatial: Spatial::Binaural,
        binaural_voices: 64,
        ..settings()
    };
    let (h, mut r) = build_with_hrtf(s, hrir::bank(48_000)).unwrap();
    let mut game = Game::new(h);
    game.start();
    let mut buf = vec![0.0f32; 2 * 512];
    reset_violation_count();
    let mut peak = 0.0f32;
    for b in 0..120 {
        if b % 4 == 0 {
            game.tick();
        }
        // Odd call sizes too: the renderers' 128-frame grid is their own.
        let n = if b % 3 == 0 { 2 * 301 } else { buf.len() };
        assert_no_alloc(|| r.render(&mut buf[..n]));
        assert!(buf.iter().all(|x| x.is_finite()));
        peak = buf.iter().fold(peak, |m, x| m.max(x.abs()));
    }
    assert_eq!(violation_count(), 0, "the renderer allocated or freed");
    assert!(peak > 0.0);
}

/// Game and audio on two threads at once, as in the engine.
#[test]
fn render_never_allocates_with_a_concurrent_game_thread() {
    let (h, mut r) = build(settings()).unwrap();
    let mut game = Game::new(h);
    game.start();
    let done = Arc::new(AtomicBool::new(false));
    let done_audio = Arc::clone(&done);
    let audio = std::thread::spawn(move || {
        let mut buf = vec![0.0f32; 2 * 512];
        reset_violation_count();
        let mut finite = true;
        for _ in 0..150 {
            assert_no_alloc(|| r.render(&mut buf));
            finite &= buf.iter().all(|x| x.is_finite());
        }
        done_audio.store(true, Ordering::Release);
        (violation_count(), finite, r)
    });
    while !done.load(Ordering::Acquire) {
        game.tick();
        std::thread::yield_now();
    }
    let (violations, finite, renderer) = audio.join().unwrap();
    assert_eq!(violations, 0, "the renderer allocated or freed");
    assert!(finite);
    // Drop the renderer here, on the game thread.
    drop(renderer);
}
