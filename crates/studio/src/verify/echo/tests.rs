//! Echo peaks on clicks at known delays.

use super::{EchoRule, envelope_db, find_echoes};

const FS: f32 = 48_000.0;

fn at_ms(x: &mut [f32], ms: f64, v: f32) -> usize {
    let i = (ms * f64::from(FS) / 1000.0).round() as usize;
    x[i] = v;
    i
}

#[test]
fn two_clicks_at_known_delays_are_found_and_nothing_else() {
    let mut x = vec![0.0f32; 24_000];
    let d = at_ms(&mut x, 2.0, -0.5); // direct (negative: |x| counts)
    at_ms(&mut x, 2.0 + 10.0, 0.3); // < 20 ms after the direct: ignored
    let e1 = at_ms(&mut x, 2.0 + 158.9, 0.12);
    at_ms(&mut x, 2.0 + 161.0, 0.05); // within 5 ms of e1: merged into it
    let e2 = at_ms(&mut x, 2.0 + 242.1, -0.09);
    at_ms(&mut x, 2.0 + 300.0, 0.004); // −42 dB: below the threshold
    let found = find_echoes(&x, FS, EchoRule::SPEC).unwrap();
    assert_eq!(found.direct_index, d);
    let delays: Vec<f64> = found.peaks.iter().map(|p| p.delay_ms).collect();
    let want = [(e1 - d) as f64 / 48.0, (e2 - d) as f64 / 48.0];
    assert_eq!(delays.len(), 2, "{delays:?}");
    for (g, w) in delays.iter().zip(want) {
        assert!((g - w).abs() < 1e-9, "{g} vs {w}");
    }
    assert!((delays[0] - 158.9).abs() < 0.03 && (delays[1] - 242.1).abs() < 0.03);
    assert!((found.peaks[0].level_db - 20.0 * (0.12f64 / 0.5).log10()).abs() < 1e-4);
}

#[test]
fn peaks_more_than_5_ms_apart_stay_apart() {
    let mut x = vec![0.0f32; 12_000];
    at_ms(&mut x, 0.0, 1.0);
    at_ms(&mut x, 50.0, 0.1);
    at_ms(&mut x, 56.0, 0.2);
    let found = find_echoes(&x, FS, EchoRule::SPEC).unwrap();
    assert_eq!(found.peaks.len(), 2);
    // and 4 ms apart: one echo, at the larger sample
    let mut y = vec![0.0f32; 12_000];
    at_ms(&mut y, 0.0, 1.0);
    at_ms(&mut y, 50.0, 0.1);
    at_ms(&mut y, 54.0, 0.2);
    let found = find_echoes(&y, FS, EchoRule::SPEC).unwrap();
    assert_eq!(found.peaks.len(), 1);
    assert!((found.peaks[0].delay_ms - 54.0).abs() < 1e-9);
}

#[test]
fn a_decaying_ringing_after_an_echo_is_one_echo() {
    // a one-pole-smeared echo (like a tap through its air filter) stays one peak
    let mut x = vec![0.0f32; 12_000];
    at_ms(&mut x, 0.0, 1.0);
    let i = at_ms(&mut x, 80.0, 0.2);
    for k in 1..400 {
        x[i + k] = 0.2 * 0.98f32.powi(k as i32);
    }
    let found = find_echoes(&x, FS, EchoRule::SPEC).unwrap();
    assert_eq!(found.peaks.len(), 1);
}

#[test]
fn silence_has_no_direct_sound() {
    assert!(find_echoes(&[0.0; 100], FS, EchoRule::SPEC).is_none());
    assert!(find_echoes(&[], FS, EchoRule::SPEC).is_none());
}

#[test]
fn the_envelope_starts_at_the_direct_peak_at_0_db() {
    let mut x = vec![0.0f32; 4800];
    at_ms(&mut x, 10.0, 0.5);
    at_ms(&mut x, 40.0, 0.05);
    let found = find_echoes(&x, FS, EchoRule::SPEC).unwrap();
    let env = envelope_db(&x, FS, &found, 1.0);
    assert_eq!(env[0], (0.0, 0.0));
    assert!((env[30].1 + 20.0).abs() < 1e-6 && (env[30].0 - 30.0).abs() < 1e-9);
    assert_eq!(env[5].1, f64::NEG_INFINITY);
}

#[test]
fn an_echo_a_little_louder_than_the_direct_sound_is_still_an_echo() {
    // A click behind a fractional propagation delay (its peak spread over two samples by the
    // read) followed by a strong echo read at another fraction: scene E2's render.
    let mut x = vec![0.0f32; 24_000];
    let d = at_ms(&mut x, 87.5, 0.121);
    at_ms(&mut x, 87.5 + 0.02, 0.09);
    let e1 = at_ms(&mut x, 87.5 + 51.4, 0.1244);
    let e2 = at_ms(&mut x, 87.5 + 242.1, 0.0166);
    let found = find_echoes(&x, FS, EchoRule::SPEC).unwrap();
    assert_eq!(found.direct_index, d);
    let delays: Vec<f64> = found.peaks.iter().map(|p| p.delay_ms).collect();
    assert_eq!(
        delays,
        [(e1 - d) as f64 / 48.0, (e2 - d) as f64 / 48.0],
        "{delays:?}"
    );
    // but a sound more than 6 dB under the loudest is not the direct one
    let mut y = vec![0.0f32; 24_000];
    at_ms(&mut y, 10.0, 0.04);
    let d = at_ms(&mut y, 40.0, 0.5);
    assert_eq!(find_echoes(&y, FS, EchoRule::SPEC).unwrap().direct_index, d);
}
