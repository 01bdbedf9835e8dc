//! Each picture draws (TrueType text included) into a PNG of the expected size.

use super::{DecayCurve, SpectrumSeries, decay, echogram, spectra};
use crate::verify::echo::EchoPeak;
use crate::verify::spectrum::SpectrumPoint;

fn png_size(path: &std::path::Path) -> (u32, u32) {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
    let w = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let h = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    (w, h)
}

#[test]
fn spectra_echograms_and_decays_draw() {
    let dir = tempfile::tempdir().unwrap();
    let pts: Vec<SpectrumPoint> = (0..60)
        .map(|i| SpectrumPoint {
            freq_hz: 20.0 * 1.12f64.powi(i),
            level_db: -f64::from(i),
        })
        .collect();
    let p = dir.path().join("s.png");
    spectra(
        &p,
        "spectra",
        &[SpectrumSeries {
            label: "a".into(),
            points: &pts,
        }],
        24_000.0,
    )
    .unwrap();
    assert_eq!(png_size(&p), super::SIZE);

    let env: Vec<(f64, f64)> = (0..1000)
        .map(|i| (f64::from(i) * 0.25, -f64::from(i) * 0.1))
        .collect();
    let p = dir.path().join("e.png");
    echogram(
        &p,
        "echo",
        &env,
        &[158.9],
        &[EchoPeak {
            delay_ms: 158.9,
            level_db: -20.0,
        }],
        -40.0,
        20.0,
    )
    .unwrap();
    assert_eq!(png_size(&p), super::SIZE);

    let edc: Vec<(f64, f64)> = (0..1000)
        .map(|i| (f64::from(i) * 0.001, -f64::from(i) * 0.06))
        .collect();
    let p = dir.path().join("d.png");
    decay(
        &p,
        "decay",
        &[DecayCurve {
            label: "x".into(),
            points: &edc,
            t30: Some((0.083, 0.583)),
        }],
    )
    .unwrap();
    assert_eq!(png_size(&p), super::SIZE);
}

#[test]
fn a_spectrum_with_nothing_in_it_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("s.png");
    assert!(spectra(&p, "t", &[], 24_000.0).is_err());
}
