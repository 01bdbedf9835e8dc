//! The demo tour as it is heard (issue 36, "Must show"): the full 90 s tour on the fixture
//! world, for seed 1 and two others, measured on the rendered stereo exactly as `resound demo`
//! writes it to its WAV — every scripted event rises 6 dB in its band, the gorge clap's first
//! echo stands at the reported delay 10 dB over the bed, the hall clap's tail decays 20 dB
//! before the next event, no exact silence over 2 ms, −23..−16 LUFS, true peak ≤ −1 dBTP and
//! the limiter never engaged; and the clap round the tunnel's side passage is heard round the
//! bend, from the passage's mouth (issue 32's air paths on show).

use resound_engine::advanced::acoustics::DirectKind;
use resound_engine::glam::DVec2;
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
        round_the_bend(&report);
    }
}

/// The side passage's clap takes the air path round the corner of the passage's mouth: its
/// apparent direction (on the ground plane) is nearer the mouth than the clap itself, which
/// lies well to the south of it.
fn round_the_bend(report: &tour::TourReport) {
    let events = &tour::script::EVENTS;
    let index = events
        .iter()
        .position(|e| e.label.contains("side passage"))
        .unwrap();
    let fired = report.fired.iter().find(|f| f.index == index).unwrap();
    let direct = fired.acoustics.as_ref().unwrap().direct.unwrap();
    assert_eq!(direct.kind, DirectKind::Around, "{direct:?}");
    assert!(direct.bends >= 1, "{direct:?}");
    let ear = tour::script::position_at(fired.time / report.seconds());
    let angle = |to: DVec2| (to - ear).y.atan2((to - ear).x);
    // voxel axes: x east, z south
    let heard = (-direct.direction.z).atan2(direct.direction.x);
    let mouth = angle(DVec2::new(490.0, 328.0));
    let clap = angle(events[index].xy);
    assert!(
        (heard - mouth).abs() < (heard - clap).abs() && (heard - mouth).abs() < 15f64.to_radians(),
        "heard from {:.0} deg, the mouth at {:.0}, the clap at {:.0}",
        heard.to_degrees(),
        mouth.to_degrees(),
        clap.to_degrees()
    );
}
