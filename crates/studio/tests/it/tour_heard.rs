//! The demo tour as it is heard (issue 36, "Must show"): the full 90 s tour on the fixture
//! world, for seed 1 and two others, measured on the rendered stereo exactly as `resound demo`
//! writes it to its WAV — every scripted event rises 6 dB in its band, the gorge clap's first
//! echo stands at the reported delay 10 dB over the bed, the hall clap's tail decays 20 dB
//! before the next event, no exact silence over 2 ms, −23..−16 LUFS, true peak ≤ −1 dBTP and
//! the limiter never engaged.

use resound_studio::tour::{self, TourSettings, measure::Meter};

fn heard(seed: u32) -> (tour::TourReport, tour::measure::Measured) {
    let dir = tempfile::tempdir().unwrap();
    resound_fixture::write_world()
        .write_to(dir.path())
        .map_err(|(p, e)| format!("{}: {e}", p.display()))
        .unwrap();
    let settings = TourSettings {
        seed,
        ..TourSettings::default()
    };
    let mut meter = Meter::new(&settings).unwrap();
    let report = tour::run(dir.path(), &settings, &mut |_| {}, &mut |block| {
        meter.push(block);
        Ok(())
    })
    .unwrap();
    let measured = meter.finish(&report);
    (report, measured)
}

#[test]
fn the_ninety_second_tour_is_heard_as_the_picture_promises() {
    for seed in [1, 2, 3] {
        let (report, m) = heard(seed);
        assert_eq!(report.seconds(), 90.0);
        assert_eq!(
            report.fired.len(),
            tour::script::EVENTS.len(),
            "seed {seed}: not every event fired"
        );
        assert_eq!(m.events.len(), report.fired.len());
        let failures = m.failures();
        assert!(
            failures.is_empty(),
            "seed {seed}:\n{}\n{m:#?}",
            failures.join("\n")
        );
        // the figures are real measurements, not defaults
        let echo = m.echo.as_ref().unwrap();
        let d = echo.reported_ms.unwrap();
        assert!((echo.found_ms.unwrap() - d).abs() <= 2.0, "{echo:?}");
        assert!(m.loudness_lufs.is_finite() && m.true_peak_dbtp.is_finite());
    }
}
