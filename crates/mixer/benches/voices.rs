//! Mixer benchmarks (acoustics §10): 48 kHz, 512-frame buffers, one thread.
//!
//! `mixer/settled/*`: the parameters never change while timing (the smoothers settle and the
//! renderer takes its fast paths):
//! - `plain_100`: 100 looping voices of one 22.05 kHz sound, no shelf, no sends;
//! - `shelf_100` / `sends_100` / `shelf_sends_100`: the same with the occlusion shelf active,
//!   4 reverb sends (bus included), or both;
//! - `oneshots_8` / `oneshots_8_taps_6`: 8 one-shots without / with 6 fixed echo taps each;
//! - `kira_100`: kira 0.12 (`MockBackend`) mixing the same 100 looping voices.
//!
//! `mixer/motion/*`: what a game does (issue 16). 100 distinct sounds (different lengths and
//! tones) at 11 025, 22 050 and 44 100 Hz, started at seeded random offsets; before **every**
//! buffer every voice gets new volume and pan (and shelf and sends where the scene has them),
//! so every smoothing ramp is always running. Only the render is timed (the game-thread
//! `set_params`/`flush` are not):
//! - `plain_100`, `shelf_100`, `sends_100`, `shelf_sends_100` as above;
//! - `oneshots_8` / `oneshots_8_taps_6`: 8 distinct one-shots under motion, without / with 6
//!   echo taps each whose delays move 0.25 ms every buffer (a 10 ms triangle, so taps keep
//!   cross-fading to new delays as the 3 ms match rule hands them over) and whose levels move;
//! - `plain_100_modern`, `shelf_sends_100_modern`, `oneshots_8_taps_6_modern`: the same with
//!   the Modern read (`Resampler::Oversampled`: the sounds raised at load to ≥ 44.1 kHz, read
//!   with the 4-point kernel; voices and taps);
//! - every motion scene's voices also play behind a propagation delay (50–52 ms) that glides to
//!   a new value before every buffer (issue 31: the read rate changes, as under Doppler);
//! - `kira_100`: kira with the same 100 sounds, offsets and per-buffer volume, pan and a ±6 %
//!   playback-rate change (Doppler), 10 ms tweens (the length of a buffer and a half);
//! - `firewheel_100`: Firewheel 0.14 (a sampler and a basic spatial node per voice, driven
//!   offline through `FirewheelProcessor::process`) with the same sounds, offsets and
//!   per-buffer volume, side and a ±6 % playback-speed change (Doppler); it resamples
//!   linearly (`benches/peers/firewheel.rs`);
//! - `binaural_100`: the 100 voices through `Spatial::Binaural` (the IRCAM set), every voice
//!   binaural, its direction anywhere on the sphere and new every buffer;
//! - `binaural_100_taps_3` / `binaural_100_taps_3_all`: 100 one-shots (the 8 long sounds) with
//!   3 echo taps each, binaural, every voice's and tap's direction new every buffer; voices and
//!   taps share 100 renderers (the loudest binaural, the rest panned) / each of the 400 has its
//!   own (rebuilt every 400 buffers).
//!
//! Also `reverb_bus_4_busy`: the `resound_dsp::ReverbBus` as the mixer drives it, 4 slots busy.
//!
//! Scenes are rebuilt (untimed) every 1000 buffers so one-shots never run out.
//!
//! Clock: the shared 2-core build machine is usually loaded several times over, which inflates
//! wall-clock times by the time the bench thread waits for a core. On Unix the benches
//! therefore report the thread's **on-CPU time** (`CLOCK_THREAD_CPUTIME_ID`, through
//! `resound_benchclock::Stopwatch`); set `RESOUND_BENCH_WALL=1` for wall-clock time.
//!
//! Kernels: on a CPU with AVX2 the dsp kernels run their AVX2 versions (`resound_dsp::simd`);
//! set `RESOUND_BENCH_BASELINE=1` to time the x86-64 baseline (SSE2) versions instead (same
//! output bits, see the mixer's `render_under_motion_is_identical_with_and_without_avx2`).

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};

#[path = "peers/firewheel.rs"]
mod firewheel;
use resound_benchclock::Stopwatch;
use resound_dsp::{REVERB_SLOTS, ReverbBus, ReverbBusSettings};
use resound_mixer::{
    DirectDelay, MixerHandle, MixerRenderer, MixerSettings, Pan, PlaySettings, Resampler,
    SoundData, SoundId, Spatial, Tap, VoiceId, VoiceParams, build, build_with_hrtf,
};

const FS: u32 = 48_000;
const BLOCK: usize = 512;
const VOICES: usize = 100;
const REBUILD_EVERY: u64 = 1000;

fn tone(freq: f32, rate: u32, seconds: f32) -> Arc<[f32]> {
    let n = (seconds * rate as f32) as usize;
    (0..n)
        .map(|i| 0.5 * (std::f32::consts::TAU * freq * i as f32 / rate as f32).sin())
        .collect()
}

#[derive(Clone, Copy)]
enum Scene {
    Plain,
    ShelfOnly,
    SendsOnly,
    ShelfSends,
    OneShots { taps: bool },
}

fn params(i: usize, shelf: bool, sends: bool) -> VoiceParams {
    let pan = Pan::EqualPower((i as f32 / VOICES as f32) * 2.0 - 1.0);
    let mut p = VoiceParams {
        volume: 0.01,
        pan,
        ..VoiceParams::default()
    };
    if shelf {
        p.shelf_gain = 0.6;
        p.shelf_hf = 0.05;
    }
    if sends {
        p.sends = [0.2, 0.3, 0.1, 0.05];
    }
    p
}

fn build_scene(scene: Scene) -> MixerRenderer {
    let (mut h, mut r) = build(MixerSettings::default()).expect("settings");
    match scene {
        Scene::Plain | Scene::ShelfOnly | Scene::SendsOnly | Scene::ShelfSends => {
            let s = h
                .load_sound(SoundData {
                    samples: tone(220.0, 22_050, 1.3),
                    sample_rate: 22_050,
                    stereo: None,
                })
                .expect("load");
            for i in 0..VOICES {
                let shelf = matches!(scene, Scene::ShelfOnly | Scene::ShelfSends);
                let sends = matches!(scene, Scene::SendsOnly | Scene::ShelfSends);
                let p = params(i, shelf, sends);
                h.play(
                    s,
                    PlaySettings {
                        looping: true,
                        params: p,
                        ..PlaySettings::default()
                    },
                )
                .expect("play");
            }
        }
        Scene::OneShots { taps } => {
            let s = h
                .load_sound(SoundData {
                    samples: tone(330.0, 22_050, 12.0),
                    sample_rate: 22_050,
                    stereo: None,
                })
                .expect("load");
            for i in 0..8 {
                let v = h
                    .play(
                        s,
                        PlaySettings {
                            looping: false,
                            params: params(i, false, false),
                            ..PlaySettings::default()
                        },
                    )
                    .expect("play");
                if taps {
                    let set: Vec<Tap> = (0..6)
                        .map(|k| Tap {
                            delay: 0.04 + 0.045 * k as f32,
                            level: 0.3,
                            path: 10.0,
                            hf: 0.5,
                            pan: (k as f32 / 3.0) - 1.0,
                            direction: [0.0; 3],
                        })
                        .collect();
                    h.set_taps(v, &set).expect("taps");
                }
            }
        }
    }
    h.flush();
    // Warm up past the tap fade-in and the first sends so the measured state is steady.
    let mut buf = vec![0.0f32; 2 * BLOCK];
    for _ in 0..20 {
        r.render(&mut buf);
    }
    // The handle is dropped here; the renderer keeps running on its own.
    r
}

fn time_scene(scene: Scene, iters: u64) -> Duration {
    let mut buf = vec![0.0f32; 2 * BLOCK];
    let mut total = Duration::ZERO;
    let mut left = iters;
    while left > 0 {
        let n = left.min(REBUILD_EVERY);
        let mut r = build_scene(scene);
        let t = Stopwatch::start();
        for _ in 0..n {
            r.render(black_box(&mut buf));
        }
        total += t.elapsed();
        left -= n;
    }
    total
}

fn kira_manager() -> kira::AudioManager<kira::backend::mock::MockBackend> {
    use kira::sound::static_sound::{StaticSoundData, StaticSoundSettings};
    use kira::{AudioManager, AudioManagerSettings, Frame};
    let settings = AudioManagerSettings {
        internal_buffer_size: BLOCK,
        backend_settings: kira::backend::mock::MockBackendSettings { sample_rate: FS },
        ..AudioManagerSettings::default()
    };
    let mut m = AudioManager::<kira::backend::mock::MockBackend>::new(settings).expect("kira");
    let frames: Arc<[Frame]> = tone(220.0, 22_050, 1.3)
        .iter()
        .map(|s| Frame::from_mono(*s))
        .collect();
    let data = StaticSoundData {
        sample_rate: 22_050,
        frames,
        settings: StaticSoundSettings::new().loop_region(..).volume(-40.0),
        slice: None,
    };
    for i in 0..VOICES {
        let d = data.clone().panning((i as f32 / VOICES as f32) * 2.0 - 1.0);
        std::mem::forget(m.play(d).expect("play"));
    }
    m.backend_mut().on_start_processing();
    m.backend_mut().process();
    m
}

/// One 512-frame buffer of kira's mock backend.
fn kira_block(m: &mut kira::AudioManager<kira::backend::mock::MockBackend>) {
    let b = m.backend_mut();
    b.on_start_processing();
    b.process();
}

fn time_kira(iters: u64) -> Duration {
    let mut total = Duration::ZERO;
    let mut left = iters;
    while left > 0 {
        let n = left.min(REBUILD_EVERY);
        let mut m = kira_manager();
        let t = Stopwatch::start();
        for _ in 0..n {
            kira_block(&mut m);
        }
        total += t.elapsed();
        left -= n;
    }
    total
}

/// A small seeded LCG (deterministic, no dependency): uniform in `0..1`.
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

/// The rates of the motion scenes' sounds, in turn.
const RATES: [u32; 3] = [11_025, 22_050, 44_100];

/// Samples and their rate.
type Sound = (Arc<[f32]>, u32);

/// Sound `i` of the motion scenes (built once, shared by every rebuild).
fn distinct_sound(i: usize, long: bool) -> Sound {
    static SOUNDS: std::sync::OnceLock<[Vec<Sound>; 2]> = std::sync::OnceLock::new();
    let all = SOUNDS.get_or_init(|| {
        [false, true].map(|long| {
            let n = if long { 8 } else { VOICES };
            (0..n).map(|i| make_distinct_sound(i, long)).collect()
        })
    });
    all[usize::from(long)][i].clone()
}

/// Sound `i` of the motion scenes: a distinct two-partial tone at `RATES[i % 3]`, 1.0–1.99 s
/// long (`long`: 12 s, for one-shots).
fn make_distinct_sound(i: usize, long: bool) -> Sound {
    let rate = RATES[i % RATES.len()];
    let seconds = if long {
        12.0
    } else {
        1.0 + (i % 100) as f32 * 0.01
    };
    let f = 110.0 + 7.3 * i as f32;
    let n = (seconds * rate as f32) as usize;
    let samples = (0..n)
        .map(|k| {
            let t = k as f32 / rate as f32;
            0.4 * (std::f32::consts::TAU * f * t).sin()
                + 0.1 * (std::f32::consts::TAU * 2.9 * f * t).sin()
        })
        .collect();
    (samples, rate)
}

/// Seeded start offsets in output frames (0..1 s), one per voice.
fn start_offsets(n: usize, seed: u64) -> Vec<usize> {
    let mut rng = Lcg(seed);
    (0..n).map(|_| (rng.next() * FS as f32) as usize).collect()
}

#[derive(Clone, Copy)]
struct Motion {
    shelf: bool,
    sends: bool,
    oneshots: bool,
    taps: bool,
    /// `Spatial::Binaural` with the IRCAM set, every voice binaural, every direction moving.
    binaural: bool,
    /// The Modern read (`Resampler::Oversampled`: sounds raised at load, 4-point kernel).
    modern: bool,
    /// Binaural echo taps: 100 one-shots (the 8 long sounds) with 3 taps each, every tap's
    /// direction moving every block, voices and taps sharing this many renderers (0: another
    /// scene).
    tap_budget: usize,
}

/// A motion scene: the renderer, the handle that moves it, its voices and the motion state.
struct Moving {
    h: MixerHandle,
    r: MixerRenderer,
    voices: Vec<VoiceId>,
    motion: Motion,
    rng: Lcg,
    block: u64,
}

fn build_motion(motion: Motion) -> Moving {
    let (mut h, mut r) = if motion.binaural {
        let set = resound_dsp::hrtf::HrirSet::ircam_1040(FS as f32).expect("IRCAM set");
        let settings = MixerSettings {
            spatial: Spatial::Binaural,
            binaural_voices: if motion.tap_budget > 0 {
                motion.tap_budget
            } else {
                VOICES
            },
            capacities: resound_mixer::Capacities {
                // A tap set per voice in the tap scenes.
                tap_sets: if motion.tap_budget > 0 { VOICES } else { 16 },
                ..resound_mixer::Capacities::default()
            },
            ..MixerSettings::default()
        };
        build_with_hrtf(settings, Arc::new(resound_dsp::hrtf::HrtfBank::new(set)))
            .expect("settings")
    } else {
        let resampler = if motion.modern {
            Resampler::Oversampled
        } else {
            Resampler::Linear
        };
        build(MixerSettings {
            resampler,
            ..MixerSettings::default()
        })
        .expect("settings")
    };
    let count = if motion.oneshots { 8 } else { VOICES };
    let long = motion.oneshots || motion.tap_budget > 0;
    let sounds: Vec<SoundId> = (0..count)
        .map(|i| {
            let (samples, sample_rate) = distinct_sound(if long { i % 8 } else { i }, long);
            h.load_sound(SoundData {
                samples,
                sample_rate,
                stereo: None,
            })
            .expect("load")
        })
        .collect();
    // Start the voices at their offsets: the one with the largest offset first, rendering the
    // frames between starts, so voice i has played `offsets[i]` frames when timing begins.
    let offsets = start_offsets(count, 7);
    let mut order: Vec<usize> = (0..count).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(offsets[i]));
    let mut voices = vec![None; count];
    let mut buf = vec![0.0f32; 2 * BLOCK];
    let mut rng = Lcg(11);
    for (k, &i) in order.iter().enumerate() {
        let p = motion_params(&mut rng, motion);
        let v = h
            .play(
                sounds[i],
                PlaySettings {
                    looping: !long,
                    params: p,
                    delay: 0.05,
                    ..PlaySettings::default()
                },
            )
            .expect("play");
        if motion.taps {
            h.set_taps(v, &moving_taps(0, i, motion.tap_budget > 0))
                .expect("taps");
        }
        voices[i] = Some(v);
        h.flush();
        let next = order.get(k + 1).map_or(0, |&j| offsets[j]);
        let mut gap = offsets[i] - next;
        while gap > 0 {
            let n = gap.min(BLOCK);
            r.render(&mut buf[..2 * n]);
            gap -= n;
        }
    }
    let mut m = Moving {
        h,
        r,
        voices: voices
            .into_iter()
            .map(|v| v.expect("every voice started"))
            .collect(),
        motion,
        rng,
        block: 0,
    };
    // Warm up past the tap fade-in so the measured state is the moving steady state.
    for _ in 0..20 {
        m.step();
        motion_block(&mut m.r, &mut buf);
    }
    m
}

/// New parameters for one voice: every value moves every buffer.
fn motion_params(rng: &mut Lcg, m: Motion) -> VoiceParams {
    let mut p = VoiceParams {
        volume: 0.005 + 0.01 * rng.next(),
        pan: Pan::EqualPower(2.0 * rng.next() - 1.0),
        ..VoiceParams::default()
    };
    if m.shelf {
        p.shelf_gain = 0.3 + 0.7 * rng.next();
        p.shelf_hf = 0.02 + 0.9 * rng.next();
    }
    if m.binaural {
        // Anywhere on the sphere, a new direction every block.
        p.direction = [
            2.0 * rng.next() - 1.0,
            2.0 * rng.next() - 1.0,
            2.0 * rng.next() - 1.0,
        ];
    }
    if m.sends {
        p.sends = [
            0.3 * rng.next(),
            0.3 * rng.next(),
            0.2 * rng.next(),
            0.1 * rng.next(),
        ];
    }
    p
}

/// Voice `i`'s 6 taps at buffer `block`: delays 40 ms + 45 ms·k plus a 0..10 ms triangle that
/// moves 0.25 ms per buffer, levels moving too. `binaural`: the first 3, each with a direction
/// turning 3° per buffer round the head.
fn moving_taps(block: u64, i: usize, binaural: bool) -> Vec<Tap> {
    let phase = (block + 7 * i as u64) % 80;
    let tri = if phase < 40 { phase } else { 80 - phase } as f32 * 0.000_25;
    (0..if binaural { 3 } else { 6 })
        .map(|k| {
            let a = (block as f32 * 3.0 + 37.0 * i as f32 + 120.0 * k as f32).to_radians();
            Tap {
                delay: 0.04 + 0.045 * k as f32 + tri,
                level: 0.25 + 0.05 * ((block as usize + k) % 3) as f32,
                path: 10.0,
                hf: 0.5,
                pan: (k as f32 / 3.0) - 1.0,
                direction: if binaural {
                    [a.sin(), 0.2, -a.cos()]
                } else {
                    [0.0; 3]
                },
            }
        })
        .collect()
}

impl Moving {
    /// The game's tick before a buffer: new parameters (and taps) for every voice.
    fn step(&mut self) {
        self.block += 1;
        for (i, v) in self.voices.iter().enumerate() {
            let p = motion_params(&mut self.rng, self.motion);
            self.h.set_params(*v, p).expect("params");
            // The direct path's propagation delay glides every buffer (issue 31): 50–52 ms,
            // 0.1 ms per buffer (a source moving at 3.2 m/s, the read rate ±0.9 %).
            let phase = (self.block + 7 * i as u64) % 40;
            let tri = if phase < 20 { phase } else { 40 - phase } as f32;
            let d = DirectDelay {
                seconds: 0.05 + 0.000_1 * tri,
                glide: BLOCK as f32 / FS as f32,
                cut: false,
            };
            self.h.set_delay(*v, d).expect("delay");
            if self.motion.taps {
                self.h
                    .set_taps(*v, &moving_taps(self.block, i, self.motion.tap_budget > 0))
                    .expect("taps");
            }
        }
        self.h.flush();
    }
}

/// One block of a moving scene (the warm-up's and the timed ones), kept out of line so that
/// `cargo xtask instructions` can count the instructions of exactly these renders (not the ones
/// that start the voices at their offsets).
#[inline(never)]
fn motion_block(r: &mut MixerRenderer, buf: &mut [f32]) {
    r.render(buf);
}

fn time_motion(motion: Motion, iters: u64) -> Duration {
    let mut buf = vec![0.0f32; 2 * BLOCK];
    let mut total = Duration::ZERO;
    let mut left = iters;
    // The tap scenes' one-shots (12 s, up to 1 s played at the start) outlive 400 blocks.
    let every = if motion.tap_budget > 0 {
        400
    } else {
        REBUILD_EVERY
    };
    while left > 0 {
        let n = left.min(every);
        let mut m = build_motion(motion);
        for _ in 0..n {
            m.step();
            let t = Stopwatch::start();
            motion_block(&mut m.r, black_box(&mut buf));
            total += t.elapsed();
        }
        left -= n;
    }
    total
}

/// kira playing the motion scenes' 100 sounds from the same offsets, with handles to move them.
fn kira_motion() -> (
    kira::AudioManager<kira::backend::mock::MockBackend>,
    Vec<kira::sound::static_sound::StaticSoundHandle>,
) {
    use kira::sound::PlaybackPosition;
    use kira::sound::static_sound::{StaticSoundData, StaticSoundSettings};
    use kira::{AudioManager, AudioManagerSettings, Frame};
    let settings = AudioManagerSettings {
        internal_buffer_size: BLOCK,
        backend_settings: kira::backend::mock::MockBackendSettings { sample_rate: FS },
        ..AudioManagerSettings::default()
    };
    let mut m = AudioManager::<kira::backend::mock::MockBackend>::new(settings).expect("kira");
    let offsets = start_offsets(VOICES, 7);
    let mut handles = Vec::with_capacity(VOICES);
    for (i, off) in offsets.iter().enumerate() {
        let (samples, rate) = distinct_sound(i, false);
        let frames: Arc<[Frame]> = samples.iter().map(|s| Frame::from_mono(*s)).collect();
        let len = frames.len();
        // The same source position the staggered start gives our voice.
        let at = (*off as u64 * u64::from(rate) / u64::from(FS)) as usize % len;
        let data = StaticSoundData {
            sample_rate: rate,
            frames,
            settings: StaticSoundSettings::new()
                .loop_region(..)
                .volume(-40.0)
                .start_position(PlaybackPosition::Samples(at)),
            slice: None,
        };
        handles.push(m.play(data).expect("play"));
    }
    m.backend_mut().on_start_processing();
    m.backend_mut().process();
    (m, handles)
}

fn time_kira_motion(iters: u64) -> Duration {
    use kira::{Decibels, Panning, StartTime, Tween};
    let tween = Tween {
        start_time: StartTime::Immediate,
        duration: Duration::from_millis(10),
        easing: kira::Easing::Linear,
    };
    let mut total = Duration::ZERO;
    let mut left = iters;
    let mut rng = Lcg(11);
    while left > 0 {
        let n = left.min(REBUILD_EVERY);
        let (mut m, mut handles) = kira_motion();
        for _ in 0..n {
            for h in &mut handles {
                // The same volume range as ours (0.005..0.015 linear) and any pan.
                let v = 0.005 + 0.01 * rng.next();
                h.set_volume(Decibels(20.0 * v.log10()), tween);
                h.set_panning(Panning(2.0 * rng.next() - 1.0), tween);
                // The Doppler the moving Resound voices get: the rate within ±6 %.
                h.set_playback_rate(1.0 + 0.06 * (2.0 * f64::from(rng.next()) - 1.0), tween);
            }
            let t = Stopwatch::start();
            kira_block(&mut m);
            total += t.elapsed();
        }
        left -= n;
    }
    total
}

fn mixer(c: &mut Criterion) {
    if std::env::var_os("RESOUND_BENCH_BASELINE").is_some() {
        resound_dsp::simd::set_avx2_enabled(false);
    }
    eprintln!(
        "kernels: {}",
        if resound_dsp::simd::avx2() {
            "AVX2"
        } else {
            "baseline"
        }
    );
    let mut g = c.benchmark_group("mixer");
    let still = |shelf, sends| Motion {
        shelf,
        sends,
        oneshots: false,
        taps: false,
        binaural: false,
        modern: false,
        tap_budget: 0,
    };
    let modern = |m: Motion| Motion { modern: true, ..m };
    for (name, m) in [
        ("motion/plain_100_modern", modern(still(false, false))),
        ("motion/shelf_sends_100_modern", modern(still(true, true))),
        ("motion/plain_100", still(false, false)),
        ("motion/shelf_100", still(true, false)),
        ("motion/sends_100", still(false, true)),
        ("motion/shelf_sends_100", still(true, true)),
        (
            "motion/binaural_100",
            Motion {
                binaural: true,
                ..still(false, false)
            },
        ),
    ] {
        g.bench_function(name, |b| b.iter_custom(|n| time_motion(m, n)));
    }
    // Binaural echo taps: 100 one-shots with 3 taps each (every direction moving every block),
    // voices and taps sharing 100 renderers (loudest first), and every one of the 400 its own.
    for (name, budget) in [
        ("motion/binaural_100_taps_3", VOICES),
        ("motion/binaural_100_taps_3_all", 4 * VOICES),
    ] {
        let m = Motion {
            taps: true,
            binaural: true,
            tap_budget: budget,
            ..still(false, false)
        };
        g.bench_function(name, |b| b.iter_custom(|n| time_motion(m, n)));
    }
    g.bench_function("motion/oneshots_8_taps_6_modern", |b| {
        let m = Motion {
            shelf: false,
            sends: false,
            oneshots: true,
            taps: true,
            binaural: false,
            modern: true,
            tap_budget: 0,
        };
        b.iter_custom(|n| time_motion(m, n))
    });
    for taps in [false, true] {
        let m = Motion {
            shelf: false,
            sends: false,
            oneshots: true,
            taps,
            binaural: false,
            modern: false,
            tap_budget: 0,
        };
        let name = if taps {
            "motion/oneshots_8_taps_6"
        } else {
            "motion/oneshots_8"
        };
        g.bench_function(name, |b| b.iter_custom(|n| time_motion(m, n)));
    }
    g.bench_function("motion/kira_100", |b| b.iter_custom(time_kira_motion));
    let peak = firewheel::warm_peak();
    assert!(peak > 1.0e-4, "the Firewheel graph is silent (peak {peak})");
    g.bench_function("motion/firewheel_100", |b| {
        b.iter_custom(firewheel::time_motion)
    });
    g.bench_function("settled/plain_100", |b| {
        b.iter_custom(|n| time_scene(Scene::Plain, n))
    });
    g.bench_function("settled/shelf_100", |b| {
        b.iter_custom(|n| time_scene(Scene::ShelfOnly, n))
    });
    g.bench_function("settled/sends_100", |b| {
        b.iter_custom(|n| time_scene(Scene::SendsOnly, n))
    });
    g.bench_function("settled/shelf_sends_100", |b| {
        b.iter_custom(|n| time_scene(Scene::ShelfSends, n))
    });
    g.bench_function("settled/oneshots_8", |b| {
        b.iter_custom(|n| time_scene(Scene::OneShots { taps: false }, n))
    });
    g.bench_function("settled/oneshots_8_taps_6", |b| {
        b.iter_custom(|n| time_scene(Scene::OneShots { taps: true }, n))
    });
    g.bench_function("settled/kira_100", |b| b.iter_custom(time_kira));
    g.bench_function("reverb_bus_4_busy", |b| {
        let mut bus = ReverbBus::new(ReverbBusSettings::default());
        bus.prepare(FS as f32, BLOCK);
        let input: Vec<f32> = tone(440.0, FS, 0.1).iter().take(BLOCK).copied().collect();
        let (mut l, mut r) = (vec![0.0f32; BLOCK], vec![0.0f32; BLOCK]);
        b.iter_custom(|n| {
            let t = Stopwatch::start();
            for _ in 0..n {
                let inputs: [&[f32]; REVERB_SLOTS] = [&input, &input, &input, &input];
                bus.mix(black_box(inputs), &mut l, &mut r);
                black_box((&l, &r));
            }
            t.elapsed()
        });
    });
    g.finish();
}

criterion_group!(benches, mixer);
criterion_main!(benches);
