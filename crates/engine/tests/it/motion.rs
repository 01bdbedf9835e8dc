//! Moving sources (acoustics §8): re-traced every `clamp(distance/200 s, 0.1, 1.0)`, at once on a
//! > 10 % distance change, never when nothing moves.

use std::sync::Arc;

use resound_engine::glam::DVec3;
use resound_engine::{Engine, Mode, Orientation, Source};
use resound_studio::test_signal::looped;

fn setup() -> (Engine, [resound_engine::VoiceHandle; 3]) {
    let mut e = Engine::builder().mode(Mode::Direct).build().unwrap();
    e.set_listener(DVec3::new(0.5, 1.5, 0.5), Orientation::default())
        .unwrap();
    let s = e.load_mono(Arc::from(looped(48_000)), 48_000).unwrap();
    let mut play = |p: DVec3| {
        e.play(
            s,
            Source {
                position: p,
                looping: true,
                ..Source::default()
            },
        )
        .unwrap()
    };
    let still = play(DVec3::new(100.5, 1.5, 0.5));
    let circling = play(DVec3::new(0.5, 1.5, 100.5));
    let flyby = play(DVec3::new(-100.5, 1.5, 0.5));
    (e, [still, circling, flyby])
}

#[test]
fn retrace_follows_distance_and_motion() {
    let (mut e, [still, circling, flyby]) = setup();
    let tf = e.tick_frames() as usize;
    e.render_frames(tf).unwrap();
    let base = |e: &Engine, v| e.voice_acoustics(v).unwrap().results;
    let (s0, c0, f0) = (base(&e, still), base(&e, circling), base(&e, flyby));
    for t in 1..=40u32 {
        // On a circle of radius 100 around the listener: the distance stays the same.
        let a = f64::from(t) * 0.002;
        e.set_position(
            circling,
            DVec3::new(0.5 + 100.0 * a.sin(), 1.5, 0.5 + 100.0 * a.cos()),
        )
        .unwrap();
        e.render_frames(tf).unwrap();
    }
    // Nothing moved: no re-trace.
    assert_eq!(base(&e, still), s0);
    // 100 blocks: every 0.5 s = 10 ticks → 4 re-traces in 40 ticks.
    let c = base(&e, circling) - c0;
    assert!((3..=5).contains(&c), "circling re-traced {c} times");
    assert_eq!(base(&e, flyby), f0);
    // A fly-by: 100 → 80 blocks (20 %) re-traces at the next tick, not on the timer.
    e.set_position(flyby, DVec3::new(-80.5, 1.5, 0.5)).unwrap();
    e.render_frames(tf).unwrap();
    assert_eq!(base(&e, flyby), f0 + 1);
}
