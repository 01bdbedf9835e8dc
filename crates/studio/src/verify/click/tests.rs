//! The click measure on a step, a ramp and a jump.

use super::click_step;
use resound_engine::advanced::dsp::analysis::sine;

#[test]
fn a_step_from_silence_is_its_height() {
    let mut x = vec![0.0f32; 4000];
    for v in &mut x[1000..] {
        *v = 0.25;
    }
    let c = click_step(&x, 1000, 200, 500).unwrap();
    assert_eq!(c.at_change, 0.25);
    assert_eq!(c.before, 0.0);
    assert_eq!(c.settled, 0.0);
    assert_eq!(c.excess_db(), f64::INFINITY);
}

#[test]
fn a_ramped_gain_change_adds_no_step_and_a_jump_does() {
    let fs = 48_000.0;
    let s = sine(200.0, 0.5, fs, 48_000);
    let change = 24_000;
    // gain 0.55 → 1 over 80 ms (linear), as a smoothed shelf would
    let ramp: Vec<f32> = s
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let t = ((i as f32 - change as f32) / 3840.0).clamp(0.0, 1.0);
            v * (0.55 + 0.45 * t)
        })
        .collect();
    let c = click_step(&ramp, change, 960, 16_800).unwrap();
    assert!(c.excess_db() < 0.5, "{}", c.excess_db());
    // the same change as a jump, at a sample where the sine is near its peak
    let change = 24_000 + 60;
    let jump: Vec<f32> = s
        .iter()
        .enumerate()
        .map(|(i, v)| if i < change { 0.55 * v } else { *v })
        .collect();
    let c = click_step(&jump, change, 960, 16_800).unwrap();
    assert!(c.excess_db() > 15.0, "{}", c.excess_db());
}

#[test]
fn windows_outside_the_signal_give_none() {
    let x = vec![0.0f32; 100];
    assert!(click_step(&x, 5, 10, 20).is_none());
    assert!(click_step(&x, 50, 10, 60).is_none());
    assert!(click_step(&x, 50, 0, 20).is_none());
    assert!(click_step(&x, 50, 10, 5).is_none());
    assert!(click_step(&x, 50, 10, 20).is_some());
}
