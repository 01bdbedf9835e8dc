//! 100 moving sources never exceed the per-tick cell budgets, the queue drains and `status()`
//! shows it (acoustics §3.3); of 100 shots only the 8 loudest get echo sets (§5); live pacing
//! applies results at the start of the next `update`.

use std::sync::Arc;

use resound_engine::advanced::acoustics::Cell;
use resound_engine::glam::{DVec3, IVec3};
use resound_engine::{Budgets, Class, Engine, Mode, Orientation, Pacing, Source, VoiceHandle};
use resound_studio::test_signal::{looped, shot};

fn field(e: &mut Engine) {
    let table = resound_engine::advanced::acoustics::MaterialTable::standard();
    let default = table.by_name("default").unwrap();
    let stone = table.by_name("stone").unwrap();
    let mut w = e.world();
    w.fill_box(
        IVec3::new(-150, -1, -150),
        IVec3::new(149, -1, 149),
        Cell::solid(default),
    )
    .unwrap();
    // Some walls so the traces cost cells.
    for k in 0..6 {
        let x = -100 + 40 * k;
        w.fill_box(
            IVec3::new(x, 0, -60),
            IVec3::new(x + 1, 12, 60),
            Cell::solid(stone),
        )
        .unwrap();
    }
}

fn position(i: usize, t: f64) -> DVec3 {
    let a = i as f64 * 0.7 + t * (0.2 + 0.01 * i as f64);
    let r = 20.0 + (i % 10) as f64 * 12.0;
    DVec3::new(r * a.cos(), 1.5 + (i % 5) as f64 * 6.0, r * a.sin())
}

#[test]
fn hundred_moving_sources_stay_within_budgets_and_the_queue_drains() {
    let budgets = Budgets::live();
    let mut e = Engine::builder()
        .mode(Mode::Full)
        .pacing(Pacing::Update)
        .budgets(budgets)
        .build()
        .unwrap();
    field(&mut e);
    e.set_listener(DVec3::new(0.5, 1.5, 0.5), Orientation::default())
        .unwrap();
    let s = e.load_mono(Arc::from(looped(48_000)), 48_000).unwrap();
    let voices: Vec<VoiceHandle> = (0..100)
        .map(|i| {
            e.play(
                s,
                Source {
                    position: position(i, 0.0),
                    volume: 0.2 + 0.008 * i as f32,
                    range: 256.0,
                    looping: true,
                    ..Source::default()
                },
            )
            .unwrap()
        })
        .collect();
    let mut out = vec![0.0f32; 2 * 2400];
    let mut max_queue = 0;
    for tick in 0..60 {
        for (i, v) in voices.iter().enumerate() {
            e.set_position(*v, position(i, tick as f64 * 0.05)).unwrap();
        }
        e.update(0.05).unwrap();
        e.settle().unwrap();
        e.render(&mut out).unwrap();
        let s = e.status();
        assert!(
            s.last_tick_occlusion_cells <= budgets.occlusion_cells,
            "{s:?}"
        );
        assert!(s.last_tick_echo_cells <= budgets.echo_cells, "{s:?}");
        max_queue = max_queue.max(s.queue_len);
    }
    let moving = e.status();
    assert!(moving.max_tick_occlusion_cells <= budgets.occlusion_cells);
    assert!(moving.max_tick_echo_cells <= budgets.echo_cells);
    assert!(moving.max_tick_occlusion_cells > 0);
    assert!(moving.cells > 0 && moving.rays > 0);
    // Classes: 16 Full, the rest Direct.
    let full = voices
        .iter()
        .filter(|v| e.voice_acoustics(**v).unwrap().class == Some(Class::Full))
        .count();
    assert_eq!(full, 16);
    // Motion stops: the queue drains.
    for _ in 0..40 {
        e.update(0.05).unwrap();
        e.settle().unwrap();
        e.render(&mut out).unwrap();
    }
    let still = e.status();
    assert_eq!(still.queue_len, 0, "{still:?}");
    assert_eq!(still.live_voices, 100);
    eprintln!("max queue while moving {max_queue}; {still:?}");
}

#[test]
fn only_the_eight_loudest_of_100_shots_get_echoes() {
    let mut e = Engine::builder().mode(Mode::Reflect).build().unwrap();
    field(&mut e);
    // A wall behind the listener to reflect from.
    let table = resound_engine::advanced::acoustics::MaterialTable::standard();
    let stone = table.by_name("stone").unwrap();
    e.world()
        .fill_box(
            IVec3::new(-150, 0, 100),
            IVec3::new(149, 20, 103),
            Cell::solid(stone),
        )
        .unwrap();
    e.set_listener(DVec3::new(0.5, 1.5, 40.5), Orientation::default())
        .unwrap();
    let s = e.load_mono(Arc::from(shot(48_000)), 48_000).unwrap();
    let voices: Vec<(VoiceHandle, f32)> = (0..100)
        .map(|i| {
            let volume = 0.5 + 0.005 * i as f32;
            let v = e
                .play(
                    s,
                    Source {
                        position: DVec3::new(
                            -20.0 + (i % 10) as f64 * 4.0,
                            1.5,
                            60.0 + (i / 10) as f64,
                        ),
                        volume,
                        range: 256.0,
                        impulsive: true,
                        ..Source::default()
                    },
                )
                .unwrap();
            (v, volume)
        })
        .collect();
    e.render_frames(2400 * 3).unwrap();
    let echo: Vec<usize> = voices
        .iter()
        .enumerate()
        .filter(|(_, (v, _))| e.voice_acoustics(*v).unwrap().echo)
        .map(|(i, _)| i)
        .collect();
    assert_eq!(echo.len(), 8, "{echo:?}");
    // The loudest are the last ones (volume rises with i; distances are similar).
    assert!(echo.iter().all(|i| *i >= 80), "{echo:?}");
    assert!(e.status().echo_voices <= 8);
}

#[test]
fn live_results_apply_at_the_next_update() {
    let mut e = Engine::builder()
        .mode(Mode::Direct)
        .pacing(Pacing::Update)
        .build()
        .unwrap();
    let table = resound_engine::advanced::acoustics::MaterialTable::standard();
    let stone = table.by_name("stone").unwrap();
    e.world()
        .fill_box(
            IVec3::new(30, 0, -16),
            IVec3::new(30, 15, 15),
            Cell::solid(stone),
        )
        .unwrap();
    e.set_listener(DVec3::new(60.5, 1.5, 0.5), Orientation::default())
        .unwrap();
    let s = e.load_mono(Arc::from(looped(48_000)), 48_000).unwrap();
    let v = e
        .play(
            s,
            Source {
                position: DVec3::new(0.5, 1.5, 0.5),
                looping: true,
                range: 128.0,
                ..Source::default()
            },
        )
        .unwrap();
    // The inline 1-path trace already muffles the new voice before its first buffer.
    let a = e.voice_acoustics(v).unwrap();
    assert!((a.applied.hf - (-3.0f32).exp()).abs() < 1e-4, "{a:?}");
    assert_eq!(a.results, 0);
    e.update(0.05).unwrap(); // sends the job to the worker thread
    // However long the worker has had, nothing applies before the next update.
    std::thread::sleep(std::time::Duration::from_secs(1));
    assert_eq!(e.voice_acoustics(v).unwrap().results, 0);
    e.update(0.05).unwrap(); // applies the finished result first
    let b = e.voice_acoustics(v).unwrap();
    assert_eq!(b.results, 1);
    assert_eq!(b.class, Some(Class::Full));
}
