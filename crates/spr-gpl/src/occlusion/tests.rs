// SPDX-License-Identifier: GPL-3.0-only
//! Tests of SPR direct occlusion against spec `spr.md` §4.1.

use crate::test_support::{close, rel, stone, wall_eval};
use crate::*;

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
