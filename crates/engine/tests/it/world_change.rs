//! The acoustics follow the world the host presents (acoustics §3.4): removing W2's wall stops
//! the muffling within one tick; an Unknown section becoming resident updates within 40 ticks
//! with nothing moving; a result that met Unknown is re-traced without any change or motion.

use std::sync::Arc;

use resound_engine::advanced::acoustics::{Absent, Cell, WorldStore};
use resound_engine::glam::{DVec3, IVec3};
use resound_engine::{Engine, Mode, Orientation, Source};
use resound_studio::scene_render::{self as scene, SceneOptions};
use resound_studio::test_signal::{Signal, looped};

fn options(signal: Signal) -> SceneOptions {
    SceneOptions {
        mode: Mode::Direct,
        signal,
        ..SceneOptions::default()
    }
}

#[test]
fn removing_the_wall_stops_the_muffling_within_one_tick() {
    let o = options(Signal::Loop);
    let s = scene::parse(scene::builtin("W2").unwrap(), &o.model).unwrap();
    let mut p = scene::prepare(&s, &o, Engine::builder()).unwrap();
    let v = p.source.unwrap();
    let tf = p.engine.tick_frames() as usize;
    // Ten ticks with the wall, then half a tick.
    p.engine.render_frames(10 * tf + tf / 2).unwrap();
    let a = p.engine.voice_acoustics(v).unwrap();
    assert!((a.applied.hf - (-6.0f32).exp()).abs() < 1e-4, "{a:?}");
    assert!(a.applied.gain < 0.6);
    // Mid-tick the host removes the wall.
    p.engine
        .world()
        .fill_box(IVec3::new(30, 0, -16), IVec3::new(31, 15, 15), Cell::Air)
        .unwrap();
    let tick_before = p.engine.tick();
    // The rest of this tick plus one frame: the next tick has run.
    p.engine.render_frames(tf - tf / 2 + 1).unwrap();
    assert_eq!(p.engine.tick(), tick_before + 1);
    let b = p.engine.voice_acoustics(v).unwrap();
    assert_eq!(b.applied.gain, 1.0, "{b:?}");
    assert_eq!(b.applied.hf, 1.0);
    assert_eq!(b.applied_tick, Some(tick_before));
}

#[test]
fn unknown_sections_becoming_resident_update_within_40_ticks() {
    let o = options(Signal::Loop);
    let s = scene::parse(scene::builtin("U").unwrap(), &o.model).unwrap();
    let mut p = scene::prepare(&s, &o, Engine::builder()).unwrap();
    let v = p.source.unwrap();
    let tf = p.engine.tick_frames() as usize;
    let mut updated_at = None;
    for tick in 0..60u64 {
        p.advance_world(&s, tick).unwrap();
        p.engine.render_frames(tf).unwrap();
        let a = p.engine.voice_acoustics(v).unwrap();
        let r = a.result.unwrap();
        if tick == 0 {
            assert_eq!(r.occ, 0.0);
            assert!(r.telemetry.met_unknown);
        }
        if r.occ == 2.0 && updated_at.is_none() {
            updated_at = Some(tick);
        }
    }
    let t = updated_at.expect("occ 2 once resident");
    assert!((20..20 + 40).contains(&t), "updated at tick {t}");
    assert!(p.engine.status().unknown_share > 0.0);
}

#[test]
fn a_trace_that_met_unknown_is_redone_with_nothing_moving() {
    // Absent sections read Unknown; nothing changes and nothing moves.
    let mut e = Engine::builder().mode(Mode::Direct).build().unwrap();
    e.world().replace(WorldStore::new(Absent::Unknown));
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
    let tf = e.tick_frames() as usize;
    e.render_frames(tf).unwrap();
    // Offline the voice started at its inline evaluation, which met Unknown.
    let first = e.voice_acoustics(v).unwrap();
    assert_eq!(first.results, 0);
    assert!(first.result.unwrap().telemetry.met_unknown);
    e.render_frames(40 * tf).unwrap();
    let later = e.voice_acoustics(v).unwrap();
    assert!(later.results >= 1, "re-traced within 40 ticks: {later:?}");
}
