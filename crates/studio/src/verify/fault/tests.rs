//! The debug faults change what the analyses see the way their names say.

use super::{Fault, halve_decay, peak_index, stretch_echoes};
use crate::verify::decay::measure_tail;
use crate::verify::echo::{EchoRule, find_echoes};

const FS: f32 = 48_000.0;

#[test]
fn names_round_trip_and_unknown_names_are_errors() {
    for f in Fault::ALL {
        assert_eq!(Fault::parse(f.name()).unwrap(), f);
    }
    let e = Fault::parse("echo-delay-x3").unwrap_err().to_string();
    assert!(
        e.contains("RESOUND_VERIFY_FAULT") && !e.contains('\n'),
        "{e}"
    );
}

#[test]
fn stretching_doubles_the_echo_delays() {
    let mut x = vec![0.0f32; 30_000];
    x[100] = 0.5;
    x[100 + 4800] = 0.1; // 100 ms
    let f = stretch_echoes(&x, peak_index(&x));
    let e = find_echoes(&f, FS, EchoRule::SPEC).unwrap();
    assert_eq!(e.peaks.len(), 1);
    assert!((e.peaks[0].delay_ms - 200.0).abs() < 1e-9);
    assert!((e.peaks[0].level_db - 20.0 * 0.2f64.log10()).abs() < 1e-4);
}

#[test]
fn compressing_halves_the_t30() {
    let n = 96_000;
    let mut state = 1u32;
    let mut x: Vec<f32> = (0..n)
        .map(|i| {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let u = (state >> 8) as f32 / (1u32 << 24) as f32 - 0.5;
            u * 0.2 * 10f32.powf(-3.0 * i as f32 / FS / 0.9)
        })
        .collect();
    // a bare click in the first 5 ms (the click window), as in a render
    for v in &mut x[..480] {
        *v = 0.0;
    }
    x[0] = 1.0;
    let before = measure_tail(&x, &x, FS).unwrap();
    let h = halve_decay(&x, 0);
    let after = measure_tail(&h, &h, FS).unwrap();
    let (b, a) = (before.rt60_s.unwrap(), after.rt60_s.unwrap());
    assert!((a / b - 0.5).abs() < 0.03, "{b} → {a}");
    assert!((after.tail_to_click_db - before.tail_to_click_db).abs() < 0.01);
}
