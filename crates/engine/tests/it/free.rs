//! The Free class (acoustics §3.3): beyond 512 blocks no tracing; the mixer explicitly gets
//! `gain = 1`, `hf = air(d)`, no sends and no taps, even behind a wall (no stale wall).

use resound_engine::glam::DVec3;
use resound_engine::{Class, Engine, Mode};

#[test]
fn far_voices_are_free_with_air_absorption_only() {
    // Air paths off: the wall (32 × 16 in the open) is the muffler under test; with them on the
    // sound would go round it.
    let mut e = Engine::builder()
        .mode(Mode::Full)
        .air_paths(false)
        .build()
        .unwrap();
    let v = crate::common::loop_behind_a_wall(&mut e, 300, 600.5, 1000.0);
    e.render_frames(3 * 2400).unwrap();
    let a = e.voice_acoustics(v).unwrap();
    assert_eq!(a.class, Some(Class::Free));
    assert_eq!(a.applied.gain, 1.0);
    let air = 0.994f64.powf(600.0 - 500.0) as f32;
    assert!((a.applied.hf - air).abs() < 1e-5, "{a:?}");
    assert_eq!(a.applied.sends, [0.0; 4]);
    assert!(a.applied.taps.is_empty());
    // Coming closer than 496 blocks, it is traced again: the wall muffles it.
    e.set_position(v, DVec3::new(400.5, 1.5, 0.5)).unwrap();
    e.render_frames(2 * 2400).unwrap();
    let b = e.voice_acoustics(v).unwrap();
    assert_ne!(b.class, Some(Class::Free));
    assert!(b.applied.hf < 0.01, "{b:?}");
}
