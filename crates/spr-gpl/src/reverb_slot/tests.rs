// SPDX-License-Identifier: GPL-3.0-only
//! Tests of the reverb slot split and thresholds.

#![allow(
    clippy::needless_range_loop,
    reason = "index loops compare the 4 slots side by side"
)]

use crate::formula::*;
use crate::test_support::close;
use crate::*;

#[test]
fn slot_split_for_an_11_block_stone_path() {
    let delay = reflection_delay(11.0, 1.5);
    assert_eq!(delay, 1.979_999_9_f32);
    let c = slot_cross_fade(delay);
    assert_eq!(c[0], 0.0);
    assert!(close(f64::from(c[1]), 0.020_000_1, 1e-7));
    assert!(close(f64::from(c[2]), 0.98, 3e-7));
    assert_eq!(c[3], 0.0);
    assert!(close(f64::from(c.iter().sum::<f32>()), 1.0, 1e-7));
    let add = slot_contribution(delay, energy_towards_player(1.5), 1.0 / 128.0);
    assert!(close(f64::from(add[1]), 0.000_687_5, 1e-8));
    assert!(close(f64::from(add[2]), 0.033_687_5, 1e-7));
}

#[test]
fn slot_thresholds_per_material() {
    // (r, slot-0 weight while L <, slot 3 starts at L >, slot 3 only at L ≥), spec §4.2.
    let table = [
        (1.5, 5.56, 11.11, 16.67),
        (1.25, 6.67, 13.33, 20.0),
        (0.75, 11.1, 22.2, 33.3),
        (0.5, 16.7, 33.3, 50.0),
        (0.4, 20.8, 41.7, 62.5),
        (0.3, 27.8, 55.6, 83.3),
        (0.1, 83.3, 166.7, 250.0),
    ];
    for (r, l0, l3, l3only) in table {
        let tol = 0.051;
        // Just below / above each threshold the cross-fade flips as stated.
        let c = |l: f32| slot_cross_fade(reflection_delay(l, r));
        assert!(c(l0 - tol)[0] > 0.0 && c(l0 + tol)[0] == 0.0, "r={r}");
        assert!(c(l3 - tol)[3] == 0.0 && c(l3 + tol)[3] > 0.0, "r={r}");
        assert!(
            c(l3only - tol)[3] < 1.0 && c(l3only + tol)[3] == 1.0,
            "r={r}"
        );
    }
}

#[test]
fn reverb_slot_sets() {
    // §1.9, every column: (decay, density, diffusion, gain, gainHF, decayHFratio, refl. gain,
    // refl. delay RP, late gain, late delay, air abs HF, room rolloff) with g = 0.595.
    let table: [[f32; 12]; 4] = [
        [
            0.15, 0.0, 1.0, 0.119, 0.99, 0.6, 2.5, 0.001, 1.26, 0.011, 0.994, 0.16,
        ],
        [
            0.55, 0.0, 1.0, 0.1785, 0.99, 0.7, 0.2, 0.015, 1.26, 0.011, 0.994, 0.15,
        ],
        [
            1.68, 0.1, 1.0, 0.2975, 0.99, 0.7, 0.0, 0.021, 1.26, 0.021, 0.994, 0.13,
        ],
        [
            4.142, 0.5, 1.0, 0.238, 0.89, 0.7, 0.0, 0.025, 1.26, 0.021, 0.994, 0.11,
        ],
    ];
    let fields = |r: &ReverbSlot| {
        [
            r.decay_time,
            r.density,
            r.diffusion,
            r.gain,
            r.gain_hf,
            r.decay_hf_ratio,
            r.reflections_gain,
            r.preset_reflections_delay,
            r.late_reverb_gain,
            r.late_reverb_delay,
            r.air_absorption_gain_hf,
            r.room_rolloff_factor,
        ]
    };
    let s = reverb_slots(&SprConfig::default());
    for k in 0..4 {
        let got = fields(&s[k]);
        for c in 0..12 {
            assert!(
                close(f64::from(got[c]), f64::from(table[k][c]), 1e-6),
                "slot {k} column {c}: {got:?}"
            );
        }
        // REFLECTIONS_DELAY is never sent: the EFX default 0.007 s applies (§1.8).
        assert_eq!(s[k].applied_reflections_delay(), 0.007);
        assert_eq!(al_send_index(k), Some(3 - k));
    }
    assert_eq!(al_send_index(4), None);
    // gain ×reverb_gain, decayHFratio ×reverb_brightness, rolloff ×attenuation_factor.
    let cfg = SprConfig {
        reverb_gain: 2.0,
        reverb_brightness: 0.5,
        attenuation_factor: 0.5,
        ..SprConfig::default()
    };
    let t = reverb_slots(&cfg);
    for k in 0..4 {
        assert!(close(
            f64::from(t[k].gain),
            2.0 * f64::from(table[k][3]),
            1e-6
        ));
        assert!(close(
            f64::from(t[k].decay_hf_ratio),
            0.5 * f64::from(table[k][5]),
            1e-6
        ));
        assert!(close(
            f64::from(t[k].room_rolloff_factor),
            0.5 * f64::from(table[k][11]),
            1e-6
        ));
        assert_eq!(t[k].decay_time, s[k].decay_time);
    }
}
