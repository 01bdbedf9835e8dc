//! Mixer benchmarks (acoustics §10): 48 kHz, 512-frame buffers, one thread.
//!
//! - `plain_100`: 100 looping voices at 22.05 kHz (resampled), no shelf, no sends;
//! - `shelf_100` / `sends_100` / `shelf_sends_100`: the same with the occlusion shelf active,
//!   4 reverb sends (bus included), or both;
//! - `oneshots_8` / `oneshots_8_taps_6`: 8 one-shots without / with 6 echo taps each
//!   (the difference is the tap cost);
//! - `reverb_bus_4_busy`: the `resound_dsp::ReverbBus` as the mixer drives it, 4 slots busy;
//! - `kira_100`: kira 0.12 (`MockBackend`) mixing the same 100 looping voices.
//!
//! Each measurement renders one 512-frame buffer; scenes are rebuilt (untimed) every 1000
//! buffers so one-shots never run out.
//!
//! Clock: the shared 2-core build machine is usually loaded several times over, which inflates
//! wall-clock times by the time the bench thread waits for a core. On Unix the benches
//! therefore report the thread's **on-CPU time** (`CLOCK_THREAD_CPUTIME_ID`); set
//! `RESOUND_BENCH_WALL=1` for wall-clock time.

use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use resound_dsp::{REVERB_SLOTS, ReverbBus, ReverbBusSettings};
use resound_mixer::{
    MixerRenderer, MixerSettings, Pan, PlaySettings, SoundData, Tap, VoiceParams, build,
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
                })
                .expect("load");
            for i in 0..8 {
                let v = h
                    .play(
                        s,
                        PlaySettings {
                            looping: false,
                            params: params(i, false, false),
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

/// A stopwatch on the thread's on-CPU time (or wall time, see the module docs).
struct Clock {
    wall: Option<Instant>,
    cpu: u64,
}

fn cpu_ns() -> Option<u64> {
    if std::env::var_os("RESOUND_BENCH_WALL").is_some() {
        return None;
    }
    thread_cpu_ns()
}

/// The calling thread's CPU time in ns.
#[allow(unsafe_code)] // one libc call; std has no thread CPU clock
fn thread_cpu_ns() -> Option<u64> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant libc defines.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    (rc == 0).then(|| ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64)
}

impl Clock {
    fn start() -> Self {
        match cpu_ns() {
            Some(cpu) => Self { wall: None, cpu },
            None => Self {
                wall: Some(Instant::now()),
                cpu: 0,
            },
        }
    }

    fn elapsed(&self) -> Duration {
        match self.wall {
            Some(t) => t.elapsed(),
            None => Duration::from_nanos(cpu_ns().unwrap_or(self.cpu).saturating_sub(self.cpu)),
        }
    }
}

fn time_scene(scene: Scene, iters: u64) -> Duration {
    let mut buf = vec![0.0f32; 2 * BLOCK];
    let mut total = Duration::ZERO;
    let mut left = iters;
    while left > 0 {
        let n = left.min(REBUILD_EVERY);
        let mut r = build_scene(scene);
        let t = Clock::start();
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

fn time_kira(iters: u64) -> Duration {
    let mut total = Duration::ZERO;
    let mut left = iters;
    while left > 0 {
        let n = left.min(REBUILD_EVERY);
        let mut m = kira_manager();
        let t = Clock::start();
        for _ in 0..n {
            let b = m.backend_mut();
            b.on_start_processing();
            b.process();
        }
        total += t.elapsed();
        left -= n;
    }
    total
}

fn mixer(c: &mut Criterion) {
    let mut g = c.benchmark_group("mixer");
    g.bench_function("plain_100", |b| {
        b.iter_custom(|n| time_scene(Scene::Plain, n))
    });
    g.bench_function("shelf_100", |b| {
        b.iter_custom(|n| time_scene(Scene::ShelfOnly, n))
    });
    g.bench_function("sends_100", |b| {
        b.iter_custom(|n| time_scene(Scene::SendsOnly, n))
    });
    g.bench_function("shelf_sends_100", |b| {
        b.iter_custom(|n| time_scene(Scene::ShelfSends, n))
    });
    g.bench_function("oneshots_8", |b| {
        b.iter_custom(|n| time_scene(Scene::OneShots { taps: false }, n))
    });
    g.bench_function("oneshots_8_taps_6", |b| {
        b.iter_custom(|n| time_scene(Scene::OneShots { taps: true }, n))
    });
    g.bench_function("reverb_bus_4_busy", |b| {
        let mut bus = ReverbBus::new(ReverbBusSettings::default());
        bus.prepare(FS as f32, BLOCK);
        let input: Vec<f32> = tone(440.0, FS, 0.1).iter().take(BLOCK).copied().collect();
        let (mut l, mut r) = (vec![0.0f32; BLOCK], vec![0.0f32; BLOCK]);
        b.iter_custom(|n| {
            let t = Clock::start();
            for _ in 0..n {
                let inputs: [&[f32]; REVERB_SLOTS] = [&input, &input, &input, &input];
                bus.mix(black_box(inputs), &mut l, &mut r);
                black_box((&l, &r));
            }
            t.elapsed()
        });
    });
    g.bench_function("kira_100", |b| b.iter_custom(time_kira));
    g.finish();
}

criterion_group!(benches, mixer);
criterion_main!(benches);
