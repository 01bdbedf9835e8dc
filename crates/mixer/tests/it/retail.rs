//! The retail 16-voice pool: the 17th simultaneous sound is dropped; finished slots are reused
//! in ring order from the cursor.

use resound_mixer::retail::{RETAIL_VOICES, RetailPlay, RetailVoicePool};

use crate::common::{FS, load, mixer, render, sine};

#[test]
fn seventeenth_sound_is_dropped() {
    let (mut h, mut r) = mixer();
    let long = load(&mut h, sine(300.0, FS, 2.0, 0.0), FS);
    let mut pool = RetailVoicePool::new();
    for i in 0..RETAIL_VOICES {
        match pool.play(&mut h, long, -6, 0).unwrap() {
            RetailPlay::Played { slot, .. } => assert_eq!(slot, i),
            RetailPlay::Dropped => panic!("sound {i} dropped"),
        }
    }
    assert_eq!(pool.cursor(), 0);
    assert_eq!(pool.play(&mut h, long, 0, 0).unwrap(), RetailPlay::Dropped);
    assert_eq!(pool.cursor(), 0, "a dropped sound leaves the cursor");
    render(&mut r, 4800);
    assert_eq!(pool.busy(&mut h), 16);
    assert_eq!(h.status().active_voices, 16);
}

#[test]
fn finished_slots_are_reused_from_the_cursor() {
    let (mut h, mut r) = mixer();
    let long = load(&mut h, sine(300.0, FS, 2.0, 0.0), FS);
    let short = load(&mut h, sine(300.0, FS, 0.05, 0.0), FS);
    let mut pool = RetailVoicePool::new();
    // Slots 0..16: slot 3 and slot 9 get the short sound.
    for i in 0..RETAIL_VOICES {
        let s = if i == 3 || i == 9 { short } else { long };
        pool.play(&mut h, s, -10, 5).unwrap();
    }
    render(&mut r, 4800); // the short ones end
    // Cursor is at 0: the scan finds slot 3 first, then 9.
    assert!(matches!(
        pool.play(&mut h, long, -10, 0).unwrap(),
        RetailPlay::Played { slot: 3, .. }
    ));
    assert_eq!(pool.cursor(), 4);
    assert!(matches!(
        pool.play(&mut h, long, -10, 0).unwrap(),
        RetailPlay::Played { slot: 9, .. }
    ));
    assert_eq!(
        pool.play(&mut h, long, -10, 0).unwrap(),
        RetailPlay::Dropped
    );
}

#[test]
fn retail_levels_are_integer_db_with_the_directsound_pan() {
    let (mut h, mut r) = mixer_no_limiter();
    let dc: std::sync::Arc<[f32]> = vec![0.5f32; 4800].into();
    let s = load(&mut h, dc, FS);
    let mut pool = RetailVoicePool::new();
    pool.play(&mut h, s, -12, 6).unwrap();
    let (l, rr) = render(&mut r, 1000);
    let db = |x: f32| 20.0 * (x / 0.5).log10();
    // Positive pan attenuates the left channel by |pan| dB; the level is −12 dB.
    assert!((db(rr[500]) + 12.0).abs() < 1e-3, "right {}", db(rr[500]));
    assert!((db(l[500]) + 18.0).abs() < 1e-3, "left {}", db(l[500]));
}

fn mixer_no_limiter() -> (resound_mixer::MixerHandle, resound_mixer::MixerRenderer) {
    crate::common::mixer_with(|s| s.limiter = false)
}
