//! T30 and tail/click on decaying noise with a known RT60.

use super::measure_tail;

const FS: f32 = 48_000.0;

/// A click of 1.0 at sample 0, then from 5 ms on uniform noise whose amplitude falls 60 dB in
/// `rt60` seconds.
fn click_and_decay(rt60: f64, level: f32, seconds: f64) -> Vec<f32> {
    let n = (seconds * f64::from(FS)) as usize;
    let mut state = 0x9E37_79B9u32;
    let mut x: Vec<f32> = (0..n)
        .map(|i| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            let u = (state as f64 / u32::MAX as f64) * 2.0 - 1.0;
            let t = i as f64 / f64::from(FS);
            (u * 10f64.powf(-3.0 * t / rt60)) as f32 * level
        })
        .collect();
    for v in &mut x[..240] {
        *v = 0.0;
    }
    x[0] = 1.0;
    x
}

#[test]
fn decaying_noise_gives_its_rt60() {
    for rt60 in [0.3, 0.8, 1.4] {
        let x = click_and_decay(rt60, 0.2, 2.5 * rt60);
        let tail = measure_tail(&x, &x, FS).unwrap();
        let got = tail.rt60_s.unwrap();
        assert!(
            (got / rt60 - 1.0).abs() < 0.05,
            "RT60 {rt60}: measured {got}"
        );
        // the crossings the plot draws agree with the T30
        let (t5, t35) = (
            tail.crossing_s(-5.0, FS).unwrap(),
            tail.crossing_s(-35.0, FS).unwrap(),
        );
        assert!((2.0 * (t35 - t5) - got).abs() < 1e-4);
    }
}

#[test]
fn tail_to_click_is_the_energy_ratio() {
    // click energy 1 (one sample of 1.0); the tail: 100 samples of 0.1 → energy 1 → 0 dB
    let mut x = vec![0.0f32; 2000];
    x[10] = 1.0;
    for v in &mut x[10 + 240..10 + 340] {
        *v = 0.1;
    }
    let tail = measure_tail(&x, &x, FS).unwrap();
    assert_eq!(tail.direct_index, 10);
    assert_eq!(tail.tail_start, 250);
    assert!(
        tail.tail_to_click_db.abs() < 1e-5,
        "{}",
        tail.tail_to_click_db
    );
    // 10 samples of 0.01 → energy 1e-3 → −30 dB
    let mut y = vec![0.0f32; 2000];
    y[0] = 1.0;
    for v in &mut y[300..310] {
        *v = 0.01;
    }
    let t = measure_tail(&y, &y, FS).unwrap();
    assert!((t.tail_to_click_db + 30.0).abs() < 1e-3);
}

#[test]
fn the_tail_can_come_from_a_separate_signal() {
    let x = click_and_decay(0.8, 0.2, 2.0);
    let mut dry = vec![0.0f32; x.len()];
    dry[0] = 1.0;
    let late: Vec<f32> = x.iter().zip(&dry).map(|(a, b)| a - b).collect();
    let joint = measure_tail(&x, &x, FS).unwrap();
    let split = measure_tail(&x, &late, FS).unwrap();
    assert_eq!(joint.rt60_s, split.rt60_s);
    assert!((joint.tail_to_click_db - split.tail_to_click_db).abs() < 1e-9);
}

#[test]
fn a_silent_tail_has_no_rt60() {
    let mut x = vec![0.0f32; 4800];
    x[0] = 0.5;
    let tail = measure_tail(&x, &x, FS).unwrap();
    assert_eq!(tail.rt60_s, None);
    assert_eq!(tail.tail_to_click_db, f64::NEG_INFINITY);
    assert!(measure_tail(&[0.0; 10], &[0.0; 10], FS).is_none());
}

#[test]
fn slot_mix_rt60_reads_the_edc() {
    use super::slot_mix_rt60;
    // one slot: its own decay time
    let one = slot_mix_rt60(&[(0.0, 0.15), (0.7, 0.55), (0.0, 1.68), (0.0, 4.142)]).unwrap();
    assert!((one - 0.55).abs() < 1e-3, "{one}");
    // two slots: between them; §6 R "by sends" 1.67 s from a_lo 0.4832 (0.55 s), a_hi 0.8755
    // (1.68 s)
    let r = slot_mix_rt60(&[(0.0, 0.15), (0.4832, 0.55), (0.8755, 1.68), (0.0, 4.142)]).unwrap();
    assert!((r - 1.67).abs() < 0.01, "{r}");
    assert_eq!(slot_mix_rt60(&[(0.0, 0.15); 4]), None);
}

#[test]
fn slot_mix_tail_to_click_counts_sends_gains_and_distance() {
    use super::slot_mix_tail_to_click_db;
    // §6 tunnel at this geometry: sends (0, 1.5024, 0.3061, 0), gains 0.3/0.5 × 0.595,
    // distance gain 1 − 16/256: about −10.4 dB.
    let gains = [0.2, 0.3, 0.5, 0.4].map(|g| g * 0.595);
    let db = slot_mix_tail_to_click_db(&[0.0, 1.5024, 0.3061, 0.0], &gains, 1.0 - 16.0 / 256.0);
    assert!((db + 10.4).abs() < 0.05, "{db}");
    assert_eq!(
        slot_mix_tail_to_click_db(&[0.0; 4], &gains, 0.9),
        f64::NEG_INFINITY
    );
}
