//! Live pacing with a slow worker: the host never waits, results apply at the start of a later
//! `update`, and a result for a job the host has since replaced is dropped (counted), so the
//! voice ends at the acoustics of its latest position.

use std::sync::Arc;
use std::time::Duration;

use resound_engine::advanced::acoustics::Cell;
use resound_engine::glam::{DVec3, IVec3};
use resound_engine::{Engine, Mode, Orientation, Pacing, Source};
use resound_studio::test_signal::looped;

#[test]
fn superseded_results_are_dropped_and_the_latest_wins() {
    let mut e = Engine::builder()
        .mode(Mode::Direct)
        .pacing(Pacing::Update)
        .worker_delay(Duration::from_millis(15))
        .build()
        .unwrap();
    let table = resound_engine::advanced::acoustics::MaterialTable::standard();
    let stone = table.by_name("stone").unwrap();
    // A wall between listener and source for x < 0 only.
    e.world()
        .fill_box(
            IVec3::new(-64, 0, 10),
            IVec3::new(-1, 15, 10),
            Cell::solid(stone),
        )
        .unwrap();
    e.set_listener(DVec3::new(0.5, 1.5, 0.5), Orientation::default())
        .unwrap();
    let s = e.load_mono(Arc::from(looped(48_000)), 48_000).unwrap();
    let v = e
        .play(
            s,
            Source {
                position: DVec3::new(-40.0, 1.5, 30.0),
                looping: true,
                ..Source::default()
            },
        )
        .unwrap();
    // The source jumps every tick (> 10 % distance change: a job every tick) faster than the
    // worker answers (15 ms per tick; the host ticks every 4 ms); it ends in the open (x > 0).
    let mut i = 0u32;
    loop {
        let x = (-40.0 + 3.0 * f64::from(i)).min(40.0);
        let z = if i.is_multiple_of(2) { 30.0 } else { 60.0 };
        e.set_position(v, DVec3::new(x, 1.5, z)).unwrap();
        e.update(0.05).unwrap();
        std::thread::sleep(Duration::from_millis(4));
        i += 1;
        if (i >= 30 && e.status().discarded > 0) || i >= 400 {
            break;
        }
    }
    e.settle().unwrap();
    let st = e.status();
    assert!(st.discarded > 0, "superseded results dropped: {st:?}");
    assert!(st.results_applied >= 1);
    let a = e.voice_acoustics(v).unwrap();
    let r = a.result.unwrap();
    assert_eq!(r.occ, 0.0, "the latest position is in the open");
    assert_eq!(a.applied.hf, r.hf);
    // The mix went on the whole time.
    assert!(e.render_frames(2400).unwrap().iter().any(|x| *x != 0.0));
}

#[test]
fn the_engine_moves_between_threads() {
    fn is_send<T: Send>() {}
    is_send::<Engine>();
    let e = Engine::builder().build().unwrap();
    let e = std::thread::spawn(move || e).join().unwrap();
    drop(e);
}
