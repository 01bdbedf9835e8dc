// SPDX-License-Identifier: GPL-3.0-only
//! Tests of SPR formulas: energy, shared airspace, distance fade.

#![allow(
    clippy::needless_range_loop,
    reason = "index loops compare the 4 slots side by side"
)]

use crate::formula::*;
use crate::test_support::close;

#[test]
fn energy_towards_player_reference() {
    let cases = [
        (0.1, 0.08125),
        (0.3, 0.11875),
        (0.5, 0.15625),
        (0.75, 0.203125),
        (1.25, 0.296875),
        (1.5, 0.34375),
    ];
    for (r, e) in cases {
        assert!(
            close(f64::from(energy_towards_player(r)), e, 1e-7),
            "r = {r}"
        );
    }
    // One contribution with cross = 1 on stone: 0.0171875 to slot 0, 0.034375 to slots 1–3.
    let rcp = 1.0 / 128.0;
    let e = energy_towards_player(1.5);
    assert!(close(
        f64::from(slot_contribution(0.0, e, rcp)[0]),
        0.017_187_5,
        1e-8
    ));
    assert!(close(
        f64::from(slot_contribution(1.0, e, rcp)[1]),
        0.034_375,
        1e-8
    ));
    assert!(close(
        f64::from(slot_contribution(3.5, e, rcp)[3]),
        0.034_375,
        1e-8
    ));
}

#[test]
fn shared_airspace_table() {
    let rcp = 1.0 / 128.0;
    let cases = [
        (4, [0.1, 0.1333, 0.2, 0.2], 0.079_582, 0.776_393),
        (10, [0.25, 0.3333, 0.5, 0.5], 0.125_831, 0.812_79),
        (20, [0.5, 0.6667, 1.0, 1.0], 0.177_951, 0.841_453),
        (40, [1.0; 4], 0.2, 0.851_34),
        (160, [1.0; 4], 0.2, 0.851_34),
    ];
    for (count, w, floor, gain) in cases {
        let ww = airspace_weights(shared_airspace(count, rcp));
        for k in 0..4 {
            assert!(close(f64::from(ww[k]), w[k], 1e-4), "C={count}");
        }
        let c = floored_direct_cutoff(1.0e-9, ww);
        assert!(close(f64::from(c), floor, 1e-6), "C={count}");
        assert!(close(f64::from(cutoff_gain(c)), gain, 1e-5), "C={count}");
    }
    // Behind 1 stone block with C = 20.
    let w = airspace_weights(shared_airspace(20, rcp));
    let sc = send_cutoffs(1.0, absorption_coefficient(1.0), w);
    let expect = [0.524_894, 0.683_262, 1.0, 1.0];
    let mult = [0.937_577, 0.962_629, 1.0, 1.0];
    for k in 0..4 {
        assert!(close(f64::from(sc[k]), expect[k], 1e-6));
        assert!(close(f64::from(cutoff_gain(sc[k])), mult[k], 1e-6));
    }
}

#[test]
fn distance_fade_reference() {
    for (d, f) in [
        (4.0, 0.833_33),
        (8.0, 0.666_67),
        (12.0, 0.5),
        (24.0, 0.0),
        (30.0, 0.0),
    ] {
        assert!(close(f64::from(distance_fade(d, Some(16.0), 1.5)), f, 1e-5));
    }
    assert!(close(
        f64::from(distance_fade(
            48.0,
            Some(al_max_distance(4.0, 16.0, 1.0)),
            1.5
        )),
        0.5,
        1e-6
    ));
    assert_eq!(distance_fade(1.0e6, None, 1.5), 1.0);
}
