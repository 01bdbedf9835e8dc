// SPDX-License-Identifier: GPL-3.0-only
//! Unit tests: the reference numbers of spec `spr.md` §4 (SPR `SoundPhysics.java` at `ca0f8fe`).

// Index loops over the 4 slots compare arrays side by side.
#![allow(clippy::needless_range_loop)]

use glam::{DVec3, IVec3};

use crate::formula::*;
use crate::sphere::ray_direction;
use crate::*;

/// Ordered boxes of cells (inclusive), later boxes win; `None` = air.
struct Boxes(Vec<(IVec3, IVec3, Option<SprBlock>)>);

impl SprWorld for Boxes {
    fn block(&self, c: IVec3) -> Option<SprBlock> {
        self.0
            .iter()
            .rev()
            .find(|(lo, hi, _)| c.cmpge(*lo).all() && c.cmple(*hi).all())
            .and_then(|b| b.2)
    }
}

fn stone() -> SprBlock {
    SprBlock::of_type(SoundType::STONE)
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

fn rel(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * b.abs().max(1e-30)
}

#[test]
fn table_has_101_sound_types_with_spr_override_counts() {
    assert_eq!(SoundType::ALL.len(), 101);
    let mut names: Vec<_> = SoundType::ALL.iter().map(|t| t.name()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), 101);
    let occ = SoundType::ALL
        .iter()
        .filter(|t| t.occlusion() != DEFAULT_OCCLUSION)
        .count();
    let refl = SoundType::ALL
        .iter()
        .filter(|t| t.reflectivity() != DEFAULT_REFLECTIVITY)
        .count();
    // Spec §3 item 14 (errata): 28 occlusion overrides (+3 block ids) and 30 reflectivity
    // overrides, as the §2 list and SPR's `createDefaultMap` have them.
    assert_eq!((occ, refl), (28, 30));
    assert_eq!(
        SoundType::from_name("deepslate_tiles"),
        Some(SoundType::DEEPSLATE_TILES)
    );
    assert_eq!(SoundType::from_name("EMPTY"), None);
    assert_eq!(SoundType::ANVIL.reflectivity(), 0.5);
    assert_eq!(SoundType::NETHERITE_BLOCK.reflectivity(), 1.5);
    assert_eq!(SprBlock::of_id(BlockId::Water).occlusion, 0.25);
    assert!(!SprBlock::of_id(BlockId::Water).sturdy);
    assert_eq!(SprBlock::of_id(BlockId::Jukebox).occlusion, 0.0);
}

/// §4.1: a wall of n stone blocks (z ∈ [0,n), x,y ∈ [−20,20]), nothing else.
fn wall_eval(n: i32, block: SprBlock) -> SprEvaluation {
    let world = Boxes(vec![(
        IVec3::new(-20, -20, 0),
        IVec3::new(20, 20, n - 1),
        Some(block),
    )]);
    let s = DVec3::new(0.5, 0.5, -5.5);
    let p = DVec3::new(0.5, 0.5, f64::from(n) + 4.5);
    evaluate(&world, &SprSound::new(s, p), &SprConfig::default())
}

#[test]
fn stone_wall_reference_numbers() {
    let cases = [
        (1, 0.049_787_067, 0.740_818_2),
        (2, 0.002_478_752_3, 0.548_811_6),
        (3, 1.234_098e-4, 0.406_569_66),
        (16, 1.425_164e-21, 0.008_229_7), // spec: 1.4e-21 (2 digits)
    ];
    for (n, cutoff, gain) in cases {
        let e = wall_eval(n, stone());
        assert_eq!(e.occlusion, f64::from(n), "n = {n}");
        assert!(rel(f64::from(e.direct_cutoff), cutoff, 1e-3), "n={n} {e:?}");
        assert!(rel(f64::from(e.direct_gain), gain, 1e-5), "n={n} {e:?}");
        assert_eq!(e.shared_airspace_count, 0);
        assert_eq!(e.send_gain, [0.0; 4], "all sends 0");
        // §4.1: the pre-sums of slots 2 and 3 are nonzero; ratio = 0 wipes them out.
        // (For n = 16 every path is longer than 16.67, so only slot 3 gets weight.)
        assert!(e.send_pre[3] > 0.0, "n={n} {e:?}");
        assert!(n > 3 || e.send_pre[2] > 0.0, "n={n} {e:?}");
        assert!(e.bounce_ratio.iter().all(|&r| r == 0.0), "n={n} {e:?}");
    }
    // With defaults at most 16 blocks count: a 20-block wall is occ 16.
    assert_eq!(wall_eval(20, stone()).occlusion, 16.0);
    // 16+ blocks: the gain tops out at 0.0082297.
    assert!(rel(
        f64::from(wall_eval(20, stone()).direct_gain),
        0.008_229_7,
        1e-4
    ));
}

#[test]
fn single_block_materials() {
    let leaves = SprBlock::of_type(SoundType::GRASS).partial();
    // §4.1's lava row (errata): block-ID 0.75 × 0.25, since a fluid is never sturdy (like
    // water): occ 0.1875.
    let lava = SprBlock::of_id(BlockId::Lava);
    assert!(!lava.sturdy);
    let cases = [
        (
            SprBlock::of_type(SoundType::WOOL),
            1.5,
            0.011_109,
            0.637_628,
        ),
        (
            SprBlock::of_type(SoundType::GLASS),
            0.1,
            0.740_818,
            0.970_446,
        ),
        (leaves, 0.25, 0.472_367, 0.927_743),
        (stone().partial(), 0.25, 0.472_367, 0.927_743),
        (lava, 0.1875, 0.569_783, 0.945_303),
    ];
    for (block, occ, cutoff, gain) in cases {
        let e = wall_eval(1, block);
        assert!(close(e.occlusion, occ, 1e-7), "{block:?} {e:?}");
        assert!(
            rel(f64::from(e.direct_cutoff), cutoff, 1e-4),
            "{block:?} {e:?}"
        );
        assert!(rel(f64::from(e.direct_gain), gain, 1e-5), "{block:?} {e:?}");
    }
}

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

#[test]
fn ray_directions_match_table() {
    assert!(close(f64::from(sphere::golden_angle()), 10.166_408, 1e-5));
    let xy = [
        (0.0, 0.0),
        (-0.2566, -0.2351),
        (0.0423, 0.4823),
        (0.3547, -0.4626),
        (-0.6513, 0.1152),
        (0.6127, 0.3898),
        (-0.2027, -0.7539),
        (-0.3811, 0.7337),
        (0.8135, -0.2971),
        (-0.8312, -0.3431),
        (0.3929, 0.8396),
        (0.2843, -0.9064),
        (-0.8377, 0.4855),
        (0.9594, 0.2109),
        (-0.5706, -0.8117),
        (-0.1283, 0.9898),
        (0.7647, -0.6444),
        (-0.9972, -0.0412),
        (0.7033, 0.6998),
        (-0.0454, -0.9812),
        (-0.6204, 0.7434),
        (0.9414, -0.1267),
        (-0.7610, -0.5295),
        (0.1974, 0.8773),
        (0.4306, -0.7514),
        (-0.7877, 0.2513),
        (0.7086, 0.3274),
        (-0.2803, -0.6699),
        (-0.2239, 0.6224),
        (0.5160, -0.2712),
        (-0.4681, -0.1234),
        (0.1882, 0.2927),
    ];
    for (i, (x, y)) in xy.into_iter().enumerate() {
        let d = ray_direction(i as u32, 32);
        assert!(close(d.x, x, 6e-5) && close(d.y, y, 6e-5), "ray {i}: {d:?}");
        assert!(
            close(d.z, 2.0 * i as f64 / 32.0 - 1.0, 2e-7),
            "ray {i}: {d:?}"
        );
        assert!(close(d.length(), 1.0, 1e-6));
    }
    assert!(ray_direction(0, 32).x < 0.0 && ray_direction(0, 32).x > -1e-7);
    assert!(close(ray_direction(31, 32).z, 0.9375, 1e-7));
}

/// §4.3: infinite flat floor (y = −1, x,z ∈ [−80,80]) in the void.
fn floor_eval(block: SprBlock) -> SprEvaluation {
    let world = Boxes(vec![(
        IVec3::new(-80, -1, -80),
        IVec3::new(80, -1, 80),
        Some(block),
    )]);
    let s = DVec3::new(0.5, 1.5, 0.5);
    let p = DVec3::new(3.5, 1.5, 0.5);
    evaluate(&world, &SprSound::new(s, p), &SprConfig::default())
}

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

/// §4.4: closed 10×10×10 stone room (air 0..9, shell at −1 and 10).
fn room_eval(s: DVec3, p: DVec3) -> SprEvaluation {
    room_eval_with(s, p, &SprConfig::default())
}

fn room_eval_with(s: DVec3, p: DVec3, config: &SprConfig) -> SprEvaluation {
    let world = Boxes(vec![
        (IVec3::splat(-1), IVec3::splat(10), Some(stone())),
        (IVec3::splat(0), IVec3::splat(9), None),
    ]);
    evaluate(&world, &SprSound::new(s, p), config)
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

#[test]
fn every_override_of_the_default_tables() {
    use SoundType as T;
    // §2, occlusion overrides.
    let occ: &[(f32, &[T])] = &[
        (1.5, &[T::WOOL]),
        (0.75, &[T::MOSS]),
        (0.5, &[T::HONEY_BLOCK]),
        (
            0.1,
            &[
                T::GLASS,
                T::SNOW,
                T::POWDER_SNOW,
                T::BAMBOO,
                T::BAMBOO_SAPLING,
                T::WET_GRASS,
                T::MOSS_CARPET,
            ],
        ),
        (
            0.0,
            &[
                T::WEEPING_VINES,
                T::TWISTING_VINES,
                T::VINE,
                T::SWEET_BERRY_BUSH,
                T::SPORE_BLOSSOM,
                T::SMALL_DRIPLEAF,
                T::ROOTS,
                T::POINTED_DRIPSTONE,
                T::SCAFFOLDING,
                T::GLOW_LICHEN,
                T::CROP,
                T::FUNGUS,
                T::LILY_PAD,
                T::LARGE_AMETHYST_BUD,
                T::MEDIUM_AMETHYST_BUD,
                T::SMALL_AMETHYST_BUD,
                T::LADDER,
                T::CHAIN,
            ],
        ),
    ];
    // §2, reflectivity overrides.
    let refl: &[(f32, &[T])] = &[
        (
            1.5,
            &[
                T::STONE,
                T::NETHERITE_BLOCK,
                T::TUFF,
                T::AMETHYST,
                T::BASALT,
                T::CALCITE,
                T::BONE_BLOCK,
                T::DEEPSLATE,
                T::DEEPSLATE_BRICKS,
                T::DEEPSLATE_TILES,
                T::POLISHED_DEEPSLATE,
                T::NETHER_BRICKS,
            ],
        ),
        (1.25, &[T::COPPER, T::METAL]),
        (1.1, &[T::NETHERRACK, T::NETHER_GOLD_ORE, T::NETHER_ORE]),
        (0.75, &[T::GLASS]),
        (0.4, &[T::WOOD, T::STEM]),
        (0.3, &[T::GRAVEL, T::GRASS]),
        (0.2, &[T::SAND, T::SOUL_SAND, T::SOUL_SOIL, T::CORAL_BLOCK]),
        (0.15, &[T::SNOW]),
        (0.1, &[T::WOOL, T::HONEY_BLOCK, T::MOSS]),
    ];
    for t in T::ALL {
        let o = occ.iter().find(|(_, l)| l.contains(t)).map_or(1.0, |e| e.0);
        let r = refl
            .iter()
            .find(|(_, l)| l.contains(t))
            .map_or(0.5, |e| e.0);
        assert_eq!((t.occlusion(), t.reflectivity()), (o, r), "{}", t.name());
    }
    // By block id; water and lava have no sound type in the table (default reflectivity).
    assert_eq!(BlockId::Water.occlusion(), 0.25);
    assert_eq!(BlockId::Lava.occlusion(), 0.75);
    assert_eq!(SprBlock::of_id(BlockId::Jukebox).occlusion, 0.0);
    assert_eq!(SprBlock::of_id(BlockId::Jukebox).reflectivity, 0.4);
    assert_eq!(SprBlock::of_id(BlockId::Lava).reflectivity, 0.5);
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

/// `Boxes` that also answer section passability (for the skipping walk).
struct SkippingBoxes(Boxes);

impl SprWorld for SkippingBoxes {
    fn block(&self, c: IVec3) -> Option<SprBlock> {
        self.0.block(c)
    }

    fn section_is_passable(&self, section: IVec3) -> bool {
        // No box overlaps the section.
        let (lo, hi) = (section * 16, section * 16 + IVec3::splat(15));
        !self
            .0
            .0
            .iter()
            .any(|(a, b, blk)| blk.is_some() && a.cmple(hi).all() && b.cmpge(lo).all())
    }
}

#[test]
fn section_skipping_is_bit_identical_to_the_cell_walk() {
    // Sparse pillars and slabs spread over several sections; rays from many starts/directions.
    let mut boxes = Vec::new();
    let mut state = 0x9E37_79B9_u32;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        state
    };
    for _ in 0..60 {
        let p = IVec3::new(
            (next() % 96) as i32 - 48,
            (next() % 64) as i32 - 32,
            (next() % 96) as i32 - 48,
        );
        let size = IVec3::new(
            (next() % 6) as i32,
            (next() % 12) as i32,
            (next() % 6) as i32,
        );
        boxes.push((p, p + size, Some(stone())));
    }
    let plain = Boxes(boxes.clone());
    let skipping = SkippingBoxes(Boxes(boxes));
    let mut hits = 0;
    for i in 0..400_u32 {
        let from = DVec3::new(
            f64::from(next() % 4000) / 40.0 - 50.0,
            f64::from(next() % 2000) / 40.0 - 25.0,
            f64::from(next() % 4000) / 40.0 - 50.0,
        );
        let to = from + ray_direction(i % 32, 32) * (40.0 + f64::from(i % 7) * 30.0);
        let mut c1 = CellCount::unlimited();
        let mut c2 = CellCount::unlimited();
        let a = cast(&plain, from, to, None, &mut c1);
        let b = cast(&skipping, from, to, None, &mut c2);
        assert_eq!(a, b, "ray {i}: {from:?} → {to:?}");
        assert!(c2.cells <= c1.cells);
        hits += usize::from(a.is_some());
    }
    assert!(hits > 40 && hits < 360, "hits {hits}");
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
fn dda_tie_order_z_then_y_then_x() {
    // §1.1: on exact ties z beats y and y beats x. A diagonal through a cell corner visits the
    // winning axis's neighbour first; only that order meets the lone block, at the corner.
    let mut cells = CellCount::unlimited();
    let from = DVec3::splat(0.5);
    let cases = [
        // (block, to, hit point, entered face)
        (
            IVec3::new(0, 1, 0),
            DVec3::new(2.5, 2.5, 0.5),
            DVec3::new(1.0, 1.0, 0.5),
            Direction::Down,
        ),
        (
            IVec3::new(0, 0, 1),
            DVec3::new(0.5, 2.5, 2.5),
            DVec3::new(0.5, 1.0, 1.0),
            Direction::North,
        ),
        (
            IVec3::new(0, 0, 1),
            DVec3::new(2.5, 0.5, 2.5),
            DVec3::new(1.0, 0.5, 1.0),
            Direction::North,
        ),
    ];
    for (block, to, at, face) in cases {
        let world = Boxes(vec![(block, block, Some(stone()))]);
        let hit = cast(&world, from, to, None, &mut cells).expect("tie winner visited first");
        assert_eq!((hit.cell, hit.face), (block, face), "{block} {hit:?}");
        assert!(hit.location.distance(at) < 1e-9, "{hit:?}");
    }
    // The losing neighbours are never visited: a block there alone is missed.
    for (block, to) in [
        (IVec3::new(1, 0, 0), DVec3::new(2.5, 2.5, 0.5)),
        (IVec3::new(0, 1, 0), DVec3::new(0.5, 2.5, 2.5)),
        (IVec3::new(1, 0, 0), DVec3::new(2.5, 0.5, 2.5)),
    ] {
        let world = Boxes(vec![(block, block, Some(stone()))]);
        assert_eq!(cast(&world, from, to, None, &mut cells), None, "{block}");
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

#[test]
fn long_casts_are_walked_to_the_end() {
    // §1.1: SPR's casts have no cell limit. Shared-airspace casts may be up to
    // 512/attenuation_factor long (5120 at attenuation_factor 0.1), i.e. over 4096 cells on a
    // diagonal: a block near the far end must still be hit, not reported as a clear line.
    let block = IVec3::splat(1400);
    let world = Boxes(vec![(block, block, Some(stone()))]);
    let from = DVec3::new(0.5, 0.3, 0.7);
    let to = from + DVec3::splat(1500.0);
    let mut cells = CellCount::unlimited();
    let hit = cast(&world, from, to, None, &mut cells).expect("far block hit");
    assert_eq!(hit.cell, block);
    assert!(cells.cells > 4096, "{cells:?}");
}
