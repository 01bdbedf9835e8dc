//! Master peak limiter.

use resound_dsp::PeakLimiter;
use resound_dsp::analysis::sine;

#[test]
fn output_never_exceeds_the_ceiling_and_engagements_are_counted() {
    let mut lim = PeakLimiter::new(0.9, 0.05);
    let mut l = sine(200.0, 0.5, 48_000.0, 48_000);
    let mut r = l.clone();
    // Two loud bursts separated by a long quiet stretch.
    for x in &mut l[4800..9600] {
        *x *= 4.0;
    }
    for x in &mut r[30_000..31_000] {
        *x *= 3.0;
    }
    lim.process(&mut l, &mut r);
    assert!(l.iter().chain(&r).all(|x| x.abs() <= 0.9));
    assert_eq!(lim.engagements(), 2);
    assert!((lim.peak() - 2.0).abs() < 0.01, "{}", lim.peak());
    assert_eq!(lim.take_stats().0, 2);
    assert_eq!(lim.engagements(), 0);
    // Below the ceiling nothing changes (once released).
    lim.reset();
    let quiet = sine(200.0, 0.5, 48_000.0, 4800);
    let (mut a, mut b) = (quiet.clone(), quiet.clone());
    lim.process(&mut a, &mut b);
    assert!(a == quiet, "a quiet signal was changed");
    assert_eq!(lim.engagements(), 0);
}

#[test]
fn non_finite_input_gives_finite_output() {
    let mut lim = PeakLimiter::default();
    let mut x = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 0.5, 1e30, 0.1];
    lim.process_interleaved(&mut x);
    assert!(x.iter().all(|v| v.is_finite() && v.abs() <= lim.ceiling()));
    let mut odd = [2.0f32, 0.0, 3.0];
    lim.process_interleaved(&mut odd);
    assert!(odd.iter().all(|v| v.abs() <= lim.ceiling()));
}

#[test]
fn gain_releases_back_to_exactly_one() {
    let mut lim = PeakLimiter::new(0.5, 0.01);
    let (mut l, mut r) = (vec![1.0f32; 10], vec![0.0f32; 10]);
    lim.process(&mut l, &mut r);
    assert!((lim.gain() - 0.5).abs() < 1e-6);
    let (mut l, mut r) = (vec![0.1f32; 48_000], vec![0.0f32; 48_000]);
    lim.process(&mut l, &mut r);
    assert_eq!(lim.gain(), 1.0);
    assert_eq!(*l.last().unwrap(), 0.1);
}
