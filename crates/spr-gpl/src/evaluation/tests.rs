// SPDX-License-Identifier: GPL-3.0-only
//! Tests of whole SPR evaluations: the spec `spr.md` §4 scenes and post-processing.

#![allow(
    clippy::needless_range_loop,
    reason = "index loops compare the 4 slots side by side"
)]

use glam::{DVec3, IVec3};

use crate::formula::*;
use crate::sphere::ray_direction;
use crate::test_support::{Boxes, close, floor_eval, rel, room_eval, room_eval_with, stone};
use crate::*;

#[test]
fn flat_floor_scene() {
    let e = floor_eval(stone());
    assert_eq!(e.shared_airspace_count, 16);
    assert_eq!(e.occlusion, 0.0);
    assert_eq!((e.direct_cutoff, e.direct_gain), (1.0, 1.0));
    assert_eq!(e.send_cutoff, [1.0; 4]);
    assert!(close(f64::from(e.distance_fade), 0.875, 1e-7));
    assert!(close(f64::from(e.send_pre[0]), 0.011_041_7, 2e-7), "{e:?}");
    assert!(close(f64::from(e.send_gain[0]), 0.009_661_5, 2e-7), "{e:?}");
    assert_eq!(&e.send_gain[1..], &[0.0; 3]);
    assert!(e.bounce_ratio.iter().all(|&r| r == 0.0));
    assert_eq!(e.redirected_position, None, "occ = 0: no redirect");
    let g = floor_eval(SprBlock::of_type(SoundType::GRASS));
    assert!(close(f64::from(g.send_gain[0]), 0.051_150_6, 2e-7), "{g:?}");
    assert_eq!(&g.send_gain[1..], &[0.0; 3]);
}

#[test]
fn closed_stone_room_without_the_inside_quirk() {
    // §4.4: with true entry faces C = 160 and slot 1 = 0.345304 (pose 2: 0.340935).
    let config = SprConfig {
        inside_quirk: false,
        ..SprConfig::default()
    };
    let e = room_eval_with(DVec3::splat(5.5), DVec3::new(5.5, 5.5, 9.5), &config);
    assert_eq!(e.shared_airspace_count, 160, "{e:?}");
    assert!(close(f64::from(e.send_gain[1]), 0.345_304, 1e-5), "{e:?}");
    let e = room_eval_with(
        DVec3::new(5.3, 4.6, 5.2),
        DVec3::new(2.5, 5.6, 7.5),
        &config,
    );
    assert!(close(f64::from(e.send_gain[1]), 0.340_935, 1e-5), "{e:?}");
}

#[test]
fn closed_stone_room() {
    let e = room_eval(DVec3::splat(5.5), DVec3::new(5.5, 5.5, 9.5));
    assert_eq!(e.occlusion, 0.0);
    assert_eq!((e.direct_cutoff, e.direct_gain), (1.0, 1.0));
    for r in &e.bounce_ratio {
        assert!(close(f64::from(*r), 1.5, 1e-6), "{e:?}");
    }
    assert_eq!(e.shared_airspace_count, 155, "{e:?}");
    let pre = [0.0, 0.348_072, 0.778_908, 3.273_017];
    let fin = [0.0, 0.435_090, 0.833_333, 0.833_333];
    for k in 0..4 {
        assert!(
            close(f64::from(e.send_pre[k]), pre[k], 1e-5),
            "pre {k}: {e:?}"
        );
        assert!(
            close(f64::from(e.send_gain[k]), fin[k], 1e-5),
            "send {k}: {e:?}"
        );
    }
    assert_eq!(e.send_cutoff, [1.0; 4]);
    // Second pose.
    let e = room_eval(DVec3::new(5.3, 4.6, 5.2), DVec3::new(2.5, 5.6, 7.5));
    assert_eq!(e.shared_airspace_count, 151, "{e:?}");
    let fin = [0.0, 0.403_935, 0.843_375, 0.843_375];
    for k in 0..4 {
        assert!(
            close(f64::from(e.send_gain[k]), fin[k], 1e-5),
            "send {k}: {e:?}"
        );
    }
}

#[test]
fn block_sound_and_strict_variation() {
    // A 1-wide door gap at z = 1 is found by the 9 paths but not by strict mode.
    let world = Boxes(vec![
        (
            IVec3::new(30, 0, -16),
            IVec3::new(30, 15, 15),
            Some(stone()),
        ),
        (IVec3::new(30, 0, 1), IVec3::new(30, 1, 1), None),
    ]);
    let s = DVec3::new(0.5, 1.5, 0.8);
    let p = DVec3::new(60.5, 1.5, 0.8);
    let mut cells = CellCount::unlimited();
    let cfg = SprConfig::default();
    assert_eq!(path_occlusion(&world, s, p, &cfg, &mut cells), 1.0);
    assert_eq!(sound_occlusion(&world, s, p, false, &cfg, &mut cells), 0.0);
    let strict = SprConfig {
        strict_occlusion: true,
        ..SprConfig::default()
    };
    assert_eq!(
        sound_occlusion(&world, s, p, false, &strict, &mut cells),
        1.0
    );
}

#[test]
fn bad_input_never_panics() {
    let world = Boxes(vec![]);
    let cfg = SprConfig::default();
    for s in [
        DVec3::splat(f64::NAN),
        DVec3::splat(f64::INFINITY),
        DVec3::ZERO,
        DVec3::splat(1.0e300),
    ] {
        let e = evaluate(&world, &SprSound::new(s, DVec3::ONE), &cfg);
        assert!(e.skipped);
        assert_eq!(e.send_gain, [0.0; 4]);
    }
    let odd = SprConfig {
        ray_count: 0,
        ray_bounces: 0,
        ..SprConfig::default()
    };
    let e = evaluate(&world, &SprSound::new(DVec3::ONE, DVec3::splat(2.0)), &odd);
    assert!(!e.skipped);
    assert_eq!(e.send_gain, [0.0; 4]);
}

#[test]
fn send_post_processing_steps_5_to_7() {
    // §1.6 steps 5–7 and §3.5: stone ratios 1.5 scale slots 1–3 by 1.5 / 3.375 / 5.0625, slot 0
    // is never scaled, slots 2–3 get 1.05x − 0.05.
    let s = finish_sends([0.1; 4], &[0.0, 1.5, 1.5, 1.5], [1.0; 4]);
    let expect = [0.1, 0.15, 0.304_375, 0.481_562_5];
    for k in 0..4 {
        assert!(close(f64::from(s[k]), expect[k], 1e-6), "{k}: {s:?}");
    }
    // Step 7 with the §4.2 send cutoffs behind 1 stone block (C = 20): ×(0.937577, 0.962629, 1, 1).
    let s = finish_sends([0.1; 4], &[1.0; 4], [0.524_894, 0.683_262, 1.0, 1.0]);
    let expect = [0.093_757_7, 0.096_262_9, 0.055, 0.055];
    for k in 0..4 {
        assert!(close(f64::from(s[k]), expect[k], 1e-6), "{k}: {s:?}");
    }
    // With 2 bounces only ratio[1] exists: slots 2 and 3 are unscaled.
    let s = finish_sends([0.1; 4], &[1.5, 1.5], [1.0; 4]);
    let expect = [0.1, 0.15, 0.055, 0.055];
    for k in 0..4 {
        assert!(close(f64::from(s[k]), expect[k], 1e-6), "{k}: {s:?}");
    }
    // Clamps: slots 0–1 to [0, 1], slots 2–3 after the affine step.
    let s = finish_sends([2.0, 2.0, 0.01, 2.0], &[1.0; 4], [1.0; 4]);
    assert_eq!(s, [1.0, 1.0, 0.0, 1.0]);
}

#[test]
fn underwater_factors() {
    // §1.3: directCutoff ×(1 − 0.9); the gain is recomputed in §1.6 step 4. §1.6 step 9: send
    // cutoffs ×0.4 after step 7, so the send gains do not change.
    let world = Boxes(vec![(
        IVec3::new(-20, -20, 0),
        IVec3::new(20, 20, 0),
        Some(stone()),
    )]);
    let sound = SprSound {
        underwater: true,
        ..SprSound::new(DVec3::new(0.5, 0.5, -5.5), DVec3::new(0.5, 0.5, 5.5))
    };
    let e = evaluate(&world, &sound, &SprConfig::default());
    assert!(rel(f64::from(e.occluded_cutoff), 0.049_787_067, 1e-6));
    assert!(
        rel(f64::from(e.direct_cutoff), 0.004_978_706_6, 1e-6),
        "{e:?}"
    );
    assert!(rel(f64::from(e.direct_gain), 0.588_452_83, 1e-6), "{e:?}");
    for c in e.send_cutoff {
        assert!(rel(f64::from(c), 0.019_914_827, 1e-6), "{e:?}");
    }
    // §4.3 flat stone floor under water: C = 16 floors the direct cutoff 0.1 at
    // 0.2·sqrt(mean(0.4, 0.5333, 0.8, 0.8)) = 0.159164, gain 0.832117; slot 0 unchanged.
    let world = Boxes(vec![(
        IVec3::new(-80, -1, -80),
        IVec3::new(80, -1, 80),
        Some(stone()),
    )]);
    let sound = SprSound {
        underwater: true,
        ..SprSound::new(DVec3::new(0.5, 1.5, 0.5), DVec3::new(3.5, 1.5, 0.5))
    };
    let e = evaluate(&world, &sound, &SprConfig::default());
    assert_eq!(e.shared_airspace_count, 16);
    assert!(
        close(f64::from(e.direct_cutoff), 0.159_164_5, 1e-6),
        "{e:?}"
    );
    assert!(close(f64::from(e.direct_gain), 0.832_117_4, 1e-6), "{e:?}");
    assert!(close(f64::from(e.send_gain[0]), 0.009_661_5, 2e-7), "{e:?}");
    assert_eq!(e.send_cutoff, [0.4; 4]);
}

#[test]
fn shared_airspace_floor_through_a_thick_wall() {
    // §1.6 step 4: with sa ≥ 20 (C ≥ 40) the direct cutoff is floored at 0.2 and the gain,
    // recomputed, is 0.85134 however thick the wall. Closed stone room (§4.4) split by a 3-thick
    // internal wall 2 blocks high: the ceiling and upper walls see both sides.
    let world = Boxes(vec![
        (IVec3::splat(-1), IVec3::splat(10), Some(stone())),
        (IVec3::splat(0), IVec3::splat(9), None),
        (IVec3::new(0, 0, 4), IVec3::new(9, 1, 6), Some(stone())),
    ]);
    let s = DVec3::new(5.5, 0.5, 1.5);
    let p = DVec3::new(5.5, 0.5, 8.5);
    let e = evaluate(&world, &SprSound::new(s, p), &SprConfig::default());
    assert_eq!(e.occlusion, 3.0, "{e:?}");
    assert!(rel(f64::from(e.occluded_cutoff), 1.234_098e-4, 1e-4));
    assert!(e.shared_airspace_count >= 40, "{e:?}");
    assert!(close(f64::from(e.direct_cutoff), 0.2, 1e-7), "{e:?}");
    assert!(close(f64::from(e.direct_gain), 0.851_34, 1e-5), "{e:?}");
    // w = 1 everywhere: the send cutoffs are 1 whatever the occlusion (§1.6 step 3).
    assert_eq!(e.send_cutoff, [1.0; 4]);
    // occ > 0 and clear bounce points: the source is redirected at unchanged distance (§1.7).
    let moved = e.redirected_position.expect("redirected");
    assert!(close(moved.distance(p), 7.0, 1e-9));
}

#[test]
fn reverb_attenuation_distance_gate() {
    // §1.4 step 4: paths shorter than the gate add nothing (and skip the MISS break), but the
    // bounce ratios of step 3 are still summed.
    let config = SprConfig {
        reverb_attenuation_distance: 1000.0,
        ..SprConfig::default()
    };
    let e = room_eval_with(DVec3::splat(5.5), DVec3::new(5.5, 5.5, 9.5), &config);
    assert_eq!(e.send_pre, [0.0; 4]);
    assert_eq!(e.send_gain, [0.0; 4]);
    for r in &e.bounce_ratio {
        assert!(close(f64::from(*r), 1.5, 1e-6), "{e:?}");
    }
}

#[test]
fn redirection_weights_on_the_flat_floor() {
    // §1.7 on the §4.3 floor with `redirect_non_occluded_sounds` off (so occ = 0 still
    // redirects): sum = unit(S − P) (weight 1: the direct line is clear) + Σ unit(v)/len² over the
    // 16 floor hits, v = hit + 0.001·up − P, len = s0 + |v|; new position P + unit(sum)·|S − P|.
    let world = Boxes(vec![(
        IVec3::new(-80, -1, -80),
        IVec3::new(80, -1, 80),
        Some(stone()),
    )]);
    let s = DVec3::new(0.5, 1.5, 0.5);
    let p = DVec3::new(3.5, 1.5, 0.5);
    let config = SprConfig {
        redirect_non_occluded_sounds: false,
        ..SprConfig::default()
    };
    let e = evaluate(&world, &SprSound::new(s, p), &config);
    // Path lengths L of §4.3 by ray.
    let spec_l = [
        (1, 14.098),
        (3, 6.794),
        (6, 5.911),
        (8, 8.188),
        (9, 11.437),
        (11, 4.641),
        (14, 6.177),
        (16, 4.261),
        (17, 75.728),
        (19, 4.957),
        (21, 20.916),
        (22, 8.307),
        (24, 4.794),
        (27, 6.456),
        (29, 10.270),
        (30, 25.973),
    ];
    let mut sum = (s - p).normalize();
    for (i, l) in spec_l {
        let d = ray_direction(i, 32);
        let hit = s + d * (1.5 / -d.y);
        let v = hit + DVec3::new(0.0, 0.001, 0.0) - p;
        let len = f64::from((hit - s).length() as f32) + v.length();
        assert!(close(len, l, 1.5e-3), "ray {i}: {len} vs {l}");
        sum += v.normalize() / (len * len);
    }
    let expect = p + sum.normalize() * 3.0;
    let got = e.redirected_position.expect("redirected");
    assert!(got.distance(expect) < 1e-6, "{got} vs {expect}");
    // The default config leaves an unoccluded sound where it is.
    assert_eq!(floor_eval(stone()).redirected_position, None);
}

#[test]
fn bounce_ratio_uses_the_reflecting_block() {
    // §1.4 step 3: ratio[j] sums the reflectivity of the block the j-th bounce leaves (h_j), over
    // rays whose outgoing ray hits. Grass floor (0.3, top at y = 0) under a stone ceiling (1.5,
    // bottom at y = 4), S at y = 1.5: the 16 downward rays of §4.5 leave grass at even bounces,
    // the 15 upward ones stone; ray 0 is horizontal and hits nothing. Every bounce hits.
    let world = Boxes(vec![
        (
            IVec3::new(-600, -1, -600),
            IVec3::new(600, -1, 600),
            Some(SprBlock::of_type(SoundType::GRASS)),
        ),
        (
            IVec3::new(-600, 4, -600),
            IVec3::new(600, 4, 600),
            Some(stone()),
        ),
    ]);
    let e = evaluate(
        &world,
        &SprSound::new(DVec3::new(0.5, 1.5, 0.5), DVec3::new(3.5, 1.5, 0.5)),
        &SprConfig::default(),
    );
    let even = (16.0 * 0.3 + 15.0 * 1.5) / 32.0; // 0.853125
    let odd = (16.0 * 1.5 + 15.0 * 0.3) / 32.0; // 0.890625
    for (j, expect) in [even, odd, even, odd].into_iter().enumerate() {
        assert!(
            close(f64::from(e.bounce_ratio[j]), expect, 1e-6),
            "{j}: {e:?}"
        );
    }
}

#[test]
fn block_sounds_use_the_wider_variation() {
    // §1.2: block sounds use v = max(0.35, 0.49). A 1-block door at z ∈ [1, 2), y ∈ [0, 2) in a
    // stone wall; S and P at z = 0.6: +0.35 reaches z = 0.95 (still wall), +0.49 reaches 1.09
    // (the door), with y 1.5 ± v inside the door either way.
    let world = Boxes(vec![
        (
            IVec3::new(30, 0, -16),
            IVec3::new(30, 15, 15),
            Some(stone()),
        ),
        (IVec3::new(30, 0, 1), IVec3::new(30, 1, 1), None),
    ]);
    let s = DVec3::new(0.5, 1.5, 0.6);
    let p = DVec3::new(60.5, 1.5, 0.6);
    let mut cells = CellCount::unlimited();
    let cfg = SprConfig::default();
    assert_eq!(sound_occlusion(&world, s, p, false, &cfg, &mut cells), 1.0);
    assert_eq!(sound_occlusion(&world, s, p, true, &cfg, &mut cells), 0.0);
    let mut sound = SprSound::new(s, p);
    sound.block_sound = true;
    assert_eq!(evaluate(&world, &sound, &cfg).occlusion, 0.0);
    // Both ends share the offset: moving only the source end would cross the wall at z ≈ 0.85.
}
