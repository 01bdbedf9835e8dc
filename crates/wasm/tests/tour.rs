//! The demo tour in the crate against the tools' own (`resound demo`; both walk the fixture
//! crate's script with its test signals): the tour renders the demo's samples bit for bit, and
//! the live player plays it with the readout the page shows.

use resound_engine::Mode;
use resound_studio::tour::{TourSettings, run};
use resound_wasm::{Dats, Hearing, Live, WebError, render_tour};

fn bits(x: &[f32]) -> Vec<u32> {
    x.iter().map(|v| v.to_bits()).collect()
}

/// `seconds` of the demo tour as `resound demo` renders it from a dat folder.
fn demo(seconds: f64, retail: bool, mode: Mode) -> Vec<f32> {
    let dir = tempfile::tempdir().expect("a temporary folder");
    resound_fixture::write_world()
        .write_to(dir.path())
        .map_err(|(p, e)| format!("{}: {e}", p.display()))
        .expect("the fixture dats written");
    let settings = TourSettings {
        seconds,
        retail,
        mode,
        ..TourSettings::default()
    };
    let mut out = Vec::new();
    let report = run(dir.path(), &settings, &mut |_| {}, &mut |b| {
        out.extend_from_slice(b);
        Ok(())
    })
    .expect("the demo tour");
    assert_eq!(
        report.fired.len(),
        resound_studio::tour::script::EVENTS.len(),
        "every event fired"
    );
    out
}

#[test]
fn the_tour_in_full_is_the_demos_render() {
    let ours = render_tour(&Dats::fixture(), 12.0, Hearing::Modern(Mode::Full)).unwrap();
    let theirs = demo(12.0, false, Mode::Full);
    assert_eq!(ours.len(), 2 * 12 * 48_000);
    // The hall's clap (0.75 of the tour, 9 s) and its shot (9.36 s) are loud.
    let peak = |from: f64, to: f64| {
        let (a, b) = ((from * 48_000.0) as usize, (to * 48_000.0) as usize);
        ours[2 * a..2 * b]
            .iter()
            .fold(0.0f32, |m, v| m.max(v.abs()))
    };
    assert!(peak(9.0, 9.3) > 0.05, "the clap in the hall");
    let first = ours
        .iter()
        .zip(&theirs)
        .position(|(a, b)| a.to_bits() != b.to_bits());
    assert_eq!(first, None, "first sample differing from the demo's");
}

#[test]
fn the_tour_in_retail_is_the_demos_render() {
    let ours = render_tour(&Dats::fixture(), 6.0, Hearing::Retail).unwrap();
    let theirs = demo(6.0, true, Mode::Off);
    assert!(bits(&ours) == bits(&theirs), "the retail tour differs");
}

#[test]
fn the_live_tour_fires_its_events_and_reads_out_the_acoustics() {
    let dats = Dats::fixture();
    let at = dats.start_position().unwrap();
    let mut live = Live::new(dats, Hearing::Modern(Mode::Full), &at).unwrap();
    live.start_tour().unwrap();
    let mut block = vec![0.0f32; 2 * 800];
    let mut loud = 0.0f32;
    // 60 animation frames a second for 2.8 s: the open field's clap fires at 2.7 s.
    for _ in 0..168 {
        live.update(1.0 / 60.0).unwrap();
        live.render(&mut block).unwrap();
        loud = block.iter().fold(loud, |m, v| m.max(v.abs()));
    }
    assert!(live.walking());
    let r: serde_json::Value = serde_json::from_str(&live.readout()).unwrap();
    assert_eq!(r["tour"]["stage"], "open field", "{r}");
    assert_eq!(r["tour"]["newest"], "clap, open field", "{r}");
    assert!(r["path"]["hf_db"].as_f64().unwrap() <= 0.0, "{r}");
    assert!(r["path"]["decay"].as_f64().is_some(), "{r}");
    assert_eq!(r["sound"]["sound"], "clap", "{r}");
    assert!(r["sound"]["hf_db"].as_f64().is_some(), "{r}");
    assert!(loud > 0.01, "the tour sounds");
}

/// 1 s in the hall at full acoustics, heard live (`update` per 50 ms, `render` per block),
/// with or without a clap 0.1 s in; the readout 0.2 s in (the clap playing).
fn in_the_hall(clap: bool) -> (Vec<f32>, serde_json::Value) {
    let dats = Dats::fixture();
    let at = dats.start_position().expect("a place");
    let mut live = Live::new(dats, Hearing::Modern(Mode::Full), &at).expect("a player");
    live.place_area(547.0, 330.0).expect("the hall");
    if clap {
        live.play_event(
            resound_wasm::tour::script::EventSound::Clap,
            540.0,
            336.0,
            1.5,
            0.1,
        )
        .expect("a clap");
    }
    let mut block = vec![0.0f32; 2 * 2400];
    let mut out = Vec::new();
    let mut r = serde_json::Value::Null;
    for i in 0..20 {
        live.update(0.05).expect("update");
        live.render(&mut block).expect("render");
        out.extend_from_slice(&block);
        if i == 3 {
            r = serde_json::from_str(&live.readout()).expect("JSON");
        }
    }
    (out, r)
}

#[test]
fn a_clap_played_in_the_hall_is_heard_with_the_halls_reverb() {
    let (with, r) = in_the_hall(true);
    let (without, _) = in_the_hall(false);
    let decay = r["path"]["decay"].as_f64().unwrap();
    assert!(decay > 0.3, "the hall rings: {r}");
    assert_eq!(r["sound"]["sound"], "clap", "{r}");
    assert_eq!(r["sound"]["playing"], true, "{r}");
    assert!(r["sound"]["decay"].as_f64().unwrap() > 0.3, "{r}");
    // The clap alone: what the run with it adds to the ambient (the same steps otherwise).
    let energy = |from: f64, to: f64| {
        let (a, b) = ((from * 48_000.0) as usize, (to * 48_000.0) as usize);
        (2 * a..2 * b)
            .map(|i| (with[i] - without[i]).powi(2))
            .sum::<f32>()
    };
    assert_eq!(energy(0.0, 0.099), 0.0, "nothing before its start time");
    assert!(energy(0.1, 0.2) > 1e-3, "the clap");
    assert!(energy(0.5, 0.9) > 1e-6, "its reverb tail rings on");
}

#[test]
fn a_users_dats_stand_the_listener_on_their_ground() {
    let dats = Dats::fixture();
    let at = dats.start_position().unwrap();
    assert!(at.starts_with("0xA9B40025:96.00,96.00,"), "{at}");
    let z: f64 = at.rsplit(',').next().unwrap().parse().unwrap();
    assert!(z > 1.75, "{at}");
    let junk = Dats::new(&dats.portal, &[0u8; 64]);
    let e = junk.start_position().unwrap_err();
    assert!(matches!(e, WebError::Dat { .. }), "{e}");
    assert!(!e.to_string().contains('\n'));
}
