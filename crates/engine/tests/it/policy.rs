//! Voice policies: `Retail16` drops the 17th voice (counted, typed error); `Modern` steals the
//! quietest voice (counted). Event layers share one acoustic result.

use std::sync::Arc;

use resound_engine::glam::DVec3;
use resound_engine::{Capacities, Engine, Mode, PlayError, Source, VoicePolicy};
use resound_studio::test_signal::{looped, shot};

fn looping(x: f64, volume: f32) -> Source {
    Source {
        position: DVec3::new(x, 1.5, 0.5),
        volume,
        looping: true,
        ..Source::default()
    }
}

#[test]
fn retail16_drops_the_17th_voice() {
    let mut e = Engine::builder()
        .voice_policy(VoicePolicy::Retail16)
        .build()
        .unwrap();
    let s = e.load_mono(Arc::from(looped(48_000)), 48_000).unwrap();
    for i in 0..16 {
        e.play(s, looping(f64::from(i), 0.5)).unwrap();
    }
    assert_eq!(e.play(s, looping(0.0, 1.0)), Err(PlayError::VoiceLimit));
    let st = e.status();
    assert_eq!(st.live_voices, 16);
    assert_eq!(st.dropped_voices, 1);
    e.render_frames(4800).unwrap();
    assert_eq!(e.status().live_voices, 16);
}

#[test]
fn modern_steals_the_quietest_voice() {
    let caps = Capacities {
        voices: 4,
        ..Capacities::default()
    };
    let mut e = Engine::builder().capacities(caps).build().unwrap();
    let s = e.load_mono(Arc::from(looped(48_000)), 48_000).unwrap();
    let v: Vec<_> = [0.9, 0.1, 0.5, 0.7]
        .iter()
        .map(|vol| e.play(s, looping(5.0, *vol)).unwrap())
        .collect();
    let new = e.play(s, looping(5.0, 0.8)).unwrap();
    assert!(!e.is_playing(v[1]), "the quietest (0.1) was stolen");
    for h in [v[0], v[2], v[3], new] {
        assert!(e.is_playing(h));
    }
    let st = e.status();
    assert_eq!(st.dropped_voices, 1);
    assert_eq!(st.live_voices, 4);
}

#[test]
fn layers_of_one_event_share_one_result() {
    let mut e = Engine::builder().mode(Mode::Reflect).build().unwrap();
    let s = e.load_mono(Arc::from(shot(48_000)), 48_000).unwrap();
    let layer = |x: f64| Source {
        position: DVec3::new(x, 1.5, 0.5),
        impulsive: true,
        event: Some(7),
        ..Source::default()
    };
    let a = e.play(s, layer(20.0)).unwrap();
    let b = e.play(s, layer(20.0)).unwrap();
    e.render_frames(2400).unwrap();
    // The event moves: one job (the lead's), its result applied to both layers.
    for v in [a, b] {
        e.set_position(v, DVec3::new(40.0, 1.5, 0.5)).unwrap();
    }
    e.render_frames(2 * 2400).unwrap();
    let (ra, rb) = (e.voice_acoustics(a).unwrap(), e.voice_acoustics(b).unwrap());
    assert_eq!(ra.results, rb.results);
    assert!(ra.results >= 1);
    assert_eq!(ra.result, rb.result);
}
