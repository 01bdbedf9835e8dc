// SPDX-License-Identifier: GPL-3.0-only
//! Stage 2 under `SprModel`: Resound's image-source echoes with SPR's spiral and reflectivities
//! (`acoustics.md` §1 "echo delays are geometry and hold in both", §5, §9), and the decay the
//! SPR slot sends make (`acoustics.md` §6 EDC reading; SPR `ReverbParams.java` slot table).

use std::path::PathBuf;

use resound_acoustics::room::effective_decay;
use resound_acoustics::scene::Scene;
use resound_acoustics::{AcousticModel, Budget, Mode};
use resound_spr::{SprModel, reverb_slots, slot_mix_decay};

fn scene(name: &str) -> Scene {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../acoustics-core/scenes")
        .join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap();
    Scene::from_json(&text, SprModel::default().materials()).unwrap()
}

/// Tap delays in ms of `name` under `mode`.
fn delays_ms(name: &str, mode: Mode) -> Vec<f64> {
    let s = scene(name);
    let mut model = SprModel::default();
    model.extra_planes = s.planes().unwrap();
    let world = s.build_world(model.materials(), 0).unwrap();
    let r = model
        .evaluate(
            &world,
            &s.request().unwrap(),
            mode,
            &mut Budget::unlimited(),
        )
        .unwrap();
    r.taps.iter().map(|t| t.delay * 1000.0).collect()
}

fn assert_delays(name: &str, want: &[f64]) {
    for mode in [Mode::Reflect, Mode::Full] {
        let got = delays_ms(name, mode);
        assert_eq!(
            got.len(),
            want.len(),
            "{name} {mode:?}: {got:?} vs {want:?}"
        );
        for (g, w) in got.iter().zip(want) {
            // §9 stage 2: ±1 sample at 48 kHz
            assert!((g - w).abs() < 0.05 + 1000.0 / 48_000.0, "{name}: {got:?}");
        }
    }
}

#[test]
fn spec_scenes_have_the_geometric_echoes() {
    // §9: G 158.9 and 242.1 ms; R 39.9 ms; E2 51.4 and 242.1 ms; F, T, E1, E3 none.
    assert_delays("G", &[158.9, 242.1]);
    assert_delays("R", &[39.9]);
    assert_delays("E2", &[51.4, 242.1]);
    for name in ["F", "T", "E1", "E3"] {
        assert_delays(name, &[]);
    }
}

#[test]
fn direct_mode_has_no_taps() {
    assert!(delays_ms("G", Mode::Direct).is_empty());
}

#[test]
fn tap_levels_follow_spr_reflectivity() {
    // G's walls are stone (SPR 1.5): level min(0.85, 2·energy(1.5))·min(1, 30/path), §5 step 5.
    let s = scene("G");
    let model = SprModel::default();
    let world = s.build_world(model.materials(), 0).unwrap();
    let r = model
        .reflections(&world, &s.request().unwrap(), &mut Budget::unlimited())
        .unwrap();
    let energy: f64 = 0.25 * (0.75 * 1.5 + 0.25);
    for t in &r.taps {
        let want = (2.0 * energy).min(0.85) * (30.0 / t.path).min(1.0);
        assert!((f64::from(t.level) - want).abs() < 1e-3, "{t:?}");
    }
    assert!(r.telemetry.rays >= 64 && r.telemetry.cells > 0);
}

#[test]
fn slot_mix_decay_is_the_edc_reading_with_slot_gains() {
    let slots = reverb_slots(&Default::default());
    // One slot alone: its own decay time (T30 of a pure exponential).
    for k in 0..4 {
        let mut sends = [0.0; 4];
        sends[k] = 0.7;
        let d = slot_mix_decay(&sends, &slots);
        assert!((d / slots[k].decay_time - 1.0).abs() < 1e-3, "{k}: {d}");
    }
    // Two slots: the gains weight the EDC (slot 2's gain 0.2975 over slot 1's 0.1785).
    let sends = [0.0, 0.5, 0.5, 0.0];
    let with = slot_mix_decay(&sends, &slots);
    let without = effective_decay(&[0.0, 0.5, 0.5, 0.0]) as f32;
    assert!(with > without && with < 1.68, "{with} vs {without}");
    assert_eq!(slot_mix_decay(&[0.0; 4], &slots), 0.0);
}

#[test]
fn room_decay_is_the_slot_mix_of_the_sends() {
    // Scene T: SPR sends slots 0 and 1; the reported decay is the §6 EDC reading, not the
    // send-weighted mean of the slot decays.
    let s = scene("T");
    let model = SprModel::default();
    let world = s.build_world(model.materials(), 0).unwrap();
    let r = model
        .evaluate(
            &world,
            &s.request().unwrap(),
            Mode::Full,
            &mut Budget::unlimited(),
        )
        .unwrap();
    let want = slot_mix_decay(&r.sends, &model.reverb_slots());
    assert!(r.sends[0] > 0.0 && r.sends[1] > 0.0, "{:?}", r.sends);
    assert_eq!((r.decay, r.effective_decay), (want, want));
    let slots = model.reverb_slots();
    let mean: f32 = r
        .sends
        .iter()
        .zip(&slots)
        .map(|(s, k)| s * k.decay_time)
        .sum::<f32>()
        / r.sends.iter().sum::<f32>();
    assert!((r.decay - mean).abs() > 0.02, "{} vs mean {mean}", r.decay);
}
