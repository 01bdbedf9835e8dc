//! Unit tests of `voice_pool`, each named after the retail function it checks.
use super::*;

/// `SoundManager::PlaySoundInternal` @ 0x0054FEC0: 16 voices; the 17th simultaneous sound is
/// dropped (every recorded priority is 0.0, so the strict steal test never passes) and does not
/// move the cursor; a finished voice is reused in ring order.
#[test]
fn play_sound_internal_voice_pool() {
    let mut p = VoicePool::new();
    for i in 0..16 {
        assert_eq!(p.play_sound_internal(0.0, 10.0), Some(i));
    }
    assert_eq!(p.playing(1.0), 16);
    assert_eq!(p.cursor(), 0);
    assert_eq!(
        p.play_sound_internal(1.0, 10.0),
        None,
        "the 17th is dropped"
    );
    assert_eq!(p.cursor(), 0, "a drop does not move the cursor");
    // slot 5 finishes early: the ring scan from the cursor finds it
    p.slots[5].playing_until = Some(2.0);
    assert_eq!(p.play_sound_internal(3.0, 1.0), Some(5));
    assert_eq!(p.cursor(), 6);
    assert_eq!(p.slots()[5].start_time, 3.0);
    // at t = 11 everything but slot 5 (until 4) has stopped: the scan starts at the cursor (6)
    assert_eq!(p.play_sound_internal(11.0, 1.0), Some(6));
    assert_eq!(p.play_sound_internal(11.0, 1.0), Some(7));
}

/// `PlaySoundInternal` pass 1: a slot with no DirectSound buffer counts as free (the field
/// Hex-Rays labels `priority` is the buffer pointer at +4).
#[test]
fn play_sound_internal_no_buffer_is_free() {
    let mut p = VoicePool::new();
    for _ in 0..16 {
        p.play_sound_internal(0.0, 100.0);
    }
    p.drop_buffer(9);
    assert_eq!(p.play_sound_internal(1.0, 1.0), Some(9));
}

/// Pass 2 with explicit priorities (not retail's data path): the first strictly lower slot in
/// ring order is stolen; an equal priority never is.
#[test]
fn claim_steals_strictly_lower_priority() {
    let mut p = VoicePool::new();
    for i in 0..16 {
        p.claim(0.0, 100.0, if i == 3 || i == 12 { 0.2 } else { 0.5 });
    }
    assert_eq!(p.claim(1.0, 1.0, 0.2), None);
    assert_eq!(p.claim(1.0, 1.0, 0.3), Some(3));
    assert_eq!(p.claim(1.0, 1.0, 0.3), Some(12));
    assert_eq!(p.claim(1.0, 1.0, f32::NAN), None);
}

/// `SoundManager::PlaySoundInternal` @ 0x0054FEC0 pass 1 with several finished slots: the
/// ring scan from the cursor takes them in order, each claim moving the cursor past it; once
/// they are used up the next sound is dropped again.
#[test]
fn play_sound_internal_reuses_finished_slots_in_ring_order() {
    let mut p = VoicePool::new();
    for i in 0..16 {
        let duration = if i == 3 || i == 9 { 0.05 } else { 2.0 };
        assert_eq!(p.play_sound_internal(0.0, duration), Some(i));
    }
    assert_eq!(p.playing(0.1), 14);
    assert_eq!(p.play_sound_internal(0.1, 2.0), Some(3));
    assert_eq!(p.cursor(), 4);
    assert_eq!(p.play_sound_internal(0.1, 2.0), Some(9));
    assert_eq!(p.cursor(), 10);
    assert_eq!(p.play_sound_internal(0.1, 2.0), None);
    assert_eq!(p.cursor(), 10);
}

/// The pool is plain data a host may keep on any thread.
#[test]
fn voice_pool_is_send_and_sync() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<VoicePool>();
}

/// `PlaySoundInternal` with the end reported by the caller: a slot plays until its voice ends,
/// whatever the clock says, and is then reused in ring order.
#[test]
fn play_sound_internal_until_the_voice_ends() {
    let mut p = VoicePool::new();
    for i in 0..16 {
        assert_eq!(p.play_until_ended(0.0), Some(i));
    }
    assert_eq!(p.playing(1e9), 16);
    assert_eq!(p.play_until_ended(1e9), None, "the 17th is dropped");
    p.voice_ended(3);
    p.voice_ended(99); // no such slot: nothing happens
    assert_eq!(p.playing(1e9), 15);
    assert_eq!(p.play_until_ended(5.0), Some(3));
    assert_eq!(p.cursor(), 4);
    assert_eq!(p.slots()[3].start_time, 5.0);
}
