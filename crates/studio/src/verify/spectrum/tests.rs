//! Band energies and spectra on signals with known answers.

use super::{band_energies, band_ratios_db, ratio_db, smoothed_spectrum};
use resound_engine::advanced::dsp::analysis::sine;
use resound_engine::advanced::dsp::shelf::OcclusionShelf;

const FS: f32 = 48_000.0;

/// One sine per band, on exact FFT bins (1 s at 48 kHz: 1 Hz bins).
fn four_sines(amps: [f32; 4]) -> Vec<f32> {
    let freqs = [100.0, 800.0, 3000.0, 10_000.0];
    let mut x = vec![0.0f32; FS as usize];
    for (f, a) in freqs.iter().zip(amps) {
        for (s, v) in x.iter_mut().zip(sine(*f, a, FS, FS as usize)) {
            *s += v;
        }
    }
    x
}

#[test]
fn sines_in_each_band_give_their_amplitude_ratios() {
    let open = four_sines([1.0, 1.0, 1.0, 1.0]);
    let wall = four_sines([0.5, 0.4, 0.1, 0.01]);
    let got = band_ratios_db(&wall, &open, FS).unwrap();
    let want = [0.5f64, 0.4, 0.1, 0.01].map(|a| 20.0 * a.log10());
    for b in 0..4 {
        assert!(
            (got[b] - want[b]).abs() < 0.02,
            "band {b}: {} vs {}",
            got[b],
            want[b]
        );
    }
}

#[test]
fn band_energies_sum_to_the_signal_energy() {
    let x = four_sines([0.3, 0.2, 0.7, 0.1]);
    let total: f64 = x.iter().map(|&v| f64::from(v) * f64::from(v)).sum();
    let bands = band_energies(&x, FS).unwrap();
    assert!((bands.iter().sum::<f64>() - total).abs() < 1e-6 * total);
    // each sine of amplitude a carries a²/2 per sample
    for (b, a) in [0.3f64, 0.2, 0.7, 0.1].iter().enumerate() {
        let want = a * a / 2.0 * f64::from(FS);
        assert!((bands[b] - want).abs() < 1e-3 * want, "band {b}");
    }
}

#[test]
fn off_bin_sines_still_land_in_their_band() {
    // 0.7 s, so 440 and 7000 Hz are not on bins: leakage must stay well under 1 dB.
    let n = 33_600;
    let a = sine(440.0, 1.0, FS, n);
    let b: Vec<f32> = sine(7000.0, 1.0, FS, n);
    let mix: Vec<f32> = a.iter().zip(&b).map(|(x, y)| x + 0.1 * y).collect();
    let e = band_energies(&mix, FS).unwrap();
    let low = 10.0 * (e[1] / (0.5 * n as f64)).log10();
    let high = 10.0 * (e[3] / (0.005 * n as f64)).log10();
    assert!(low.abs() < 0.1 && high.abs() < 0.5, "{low} {high}");
}

/// The §4 W2 table, "model, this signal": the §9 shot behind the shelf with the 2-block
/// targets (`gain = exp(−6)^0.1`, `hf = exp(−6)`).
#[test]
fn the_shot_behind_the_w2_shelf_gives_the_spec_band_table() {
    let shot = crate::test_signal::shot(48_000);
    for (k, want) in [
        (1.0, [-2.8, -5.2, -18.3, -28.8]),
        (2.0, [-5.4, -7.7, -20.1, -39.6]),
        (3.0, [-8.0, -10.3, -22.6, -42.0]),
    ] {
        let cutoff = (-3.0f64 * k).exp();
        let mut shelf = OcclusionShelf::new();
        shelf.prepare(FS, shot.len());
        shelf.set_immediate(cutoff.powf(0.1) as f32, cutoff as f32);
        let mut wall = shot.clone();
        shelf.process(&mut wall);
        let got = band_ratios_db(&wall, &shot, FS).unwrap();
        for b in 0..4 {
            assert!(
                (got[b] - want[b]).abs() < 0.5,
                "{k} blocks, band {b}: {} vs {}",
                got[b],
                want[b]
            );
        }
    }
}

#[test]
fn ratio_db_spells_out_silence() {
    assert_eq!(ratio_db(0.0, 1.0), f64::NEG_INFINITY);
    assert_eq!(ratio_db(1.0, 0.0), f64::INFINITY);
    assert!((ratio_db(10.0, 1.0) - 10.0).abs() < 1e-12);
}

#[test]
fn empty_signals_and_bad_rates_are_errors() {
    assert!(band_energies(&[], FS).is_err());
    assert!(band_energies(&[1.0], 0.0).is_err());
    assert!(band_energies(&[1.0], f32::NAN).is_err());
    assert!(smoothed_spectrum(&[1.0, 0.0], FS, 0).is_err());
}

#[test]
fn the_smoothed_spectrum_peaks_at_the_sine() {
    let x = sine(1000.0, 1.0, FS, 48_000);
    let s = smoothed_spectrum(&x, FS, 6).unwrap();
    let top = s
        .iter()
        .max_by(|a, b| a.level_db.total_cmp(&b.level_db))
        .unwrap();
    assert!(
        (top.freq_hz / 1000.0).log2().abs() < 1.0 / 6.0,
        "{}",
        top.freq_hz
    );
    assert!(s.windows(2).all(|w| w[0].freq_hz < w[1].freq_hz));
}
