//! Tests of the load-time oversampler: factors, kept frames, DC gain, clean raised sines.

use super::*;
use crate::analysis::{sine, worst_image_db};

#[test]
fn factors_reach_the_target_rate() {
    assert_eq!(factor_for(11_025), 4);
    assert_eq!(factor_for(22_050), 2);
    assert_eq!(factor_for(44_100), 1);
    assert_eq!(factor_for(48_000), 1);
    assert_eq!(factor_for(8_000), 8);
    assert_eq!(factor_for(1_000), MAX_FACTOR);
    assert_eq!(factor_for(0), 1);
}

#[test]
fn original_frames_are_kept_exactly() {
    let x = sine(3_000.0, 0.7, 11_025.0, 500);
    let y = oversample(&x, 4);
    assert_eq!(y.len(), 2_000);
    for (k, v) in x.iter().enumerate() {
        assert_eq!(y[4 * k].to_bits(), v.to_bits(), "frame {k}");
    }
    assert_eq!(oversample(&x, 1), x);
}

#[test]
fn dc_passes_at_unit_gain_inside_the_buffer() {
    let y = oversample(&[0.5; 200], 4);
    for v in &y[4 * 40..4 * 160] {
        assert!((v - 0.5).abs() < 1e-6, "{v}");
    }
}

#[test]
fn raised_sines_are_clean_and_flat() {
    // A 4 kHz sine at 11.025 kHz raised ×4: its image at 7.025 kHz (and every other) is gone.
    for hz in [1_000.0f32, 4_000.0, 4_900.0] {
        let x = sine(hz, 0.5, 11_025.0, 11_025 * 3);
        let y = oversample(&x, 4);
        let mid = &y[20_000..y.len() - 20_000];
        let (worst, at) = worst_image_db(mid, 44_100.0, (hz, hz));
        assert!(worst < -80.0, "{hz} Hz: image {worst} dB at {at} Hz");
        let rms = crate::analysis::rms(mid);
        let db = 20.0 * (rms / (0.5 / 2f32.sqrt())).log10();
        assert!(db.abs() < 0.02, "{hz} Hz: level {db} dB");
    }
}

#[test]
fn above_the_band_is_stopped() {
    // 6.2 kHz exceeds the 11.025 kHz rate's Nyquist: as sampled it is an alias at 4.825 kHz
    // whose own image lies at 6.2 kHz; only the in-band alias survives the filter.
    let x = sine(4_825.0, 0.5, 11_025.0, 11_025 * 3);
    let y = oversample(&x, 4);
    let (worst, at) = worst_image_db(&y[20_000..y.len() - 20_000], 44_100.0, (4_825.0, 4_825.0));
    assert!(worst < -70.0, "image {worst} dB at {at} Hz");
}
