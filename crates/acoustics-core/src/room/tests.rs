//! Tests of the room measurement and slot cross-fade.
#[test]
fn slot_cross_fade_follows_the_spec_formula() {
    use crate::room::{effective_decay, slot_amplitudes};
    // Spec §6 written out independently: D between adjacent slots T_lo..T_hi,
    // t = ln(D/T_lo)/ln(T_hi/T_lo), a_hi = sin(πt²/2), a_lo = cos(πt²/2).
    let slots = [0.15f64, 0.55, 1.68, 4.142];
    for (d, lo) in [(0.3f64, 0usize), (0.82, 1), (1.0, 1), (1.38, 1), (2.5, 2)] {
        let t = (d / slots[lo]).ln() / (slots[lo + 1] / slots[lo]).ln();
        let x = std::f64::consts::FRAC_PI_2 * t * t;
        let a = slot_amplitudes(d);
        for (k, ak) in a.iter().enumerate() {
            let expect = if k == lo {
                x.cos()
            } else if k == lo + 1 {
                x.sin()
            } else {
                0.0
            };
            assert!((ak - expect).abs() < 1e-12, "D {d}: a{k} {ak} vs {expect}");
        }
    }
    assert_eq!(slot_amplitudes(0.15), [1.0, 0.0, 0.0, 0.0]);
    assert_eq!(
        slot_amplitudes(0.01),
        [1.0, 0.0, 0.0, 0.0],
        "clamped to the shortest slot"
    );
    assert_eq!(
        slot_amplitudes(9.0),
        [0.0, 0.0, 0.0, 1.0],
        "clamped to the longest slot"
    );
    // One slot alone: the −5/−35 dB reading gives that slot's decay (×ln(1e6)/13.82, the
    // spec's rounded constant).
    for (k, t) in slots.iter().enumerate() {
        let mut a = [0.0; 4];
        a[k] = 1.0;
        let expect = t * 1e6f64.ln() / 13.82;
        assert!((effective_decay(&a) - expect).abs() < 1e-9, "slot {k}");
    }
}

/// The crossings found by Newton's method equal a long bisection of the same curve, for
/// mixes of two adjacent slots across the whole decay range.
#[test]
fn effective_decay_matches_a_bisection_of_the_decay_curve() {
    use crate::room::{SLOT_DECAYS, effective_decay, slot_amplitudes};
    let reference = |a: &[f64; 4]| {
        let e0: f64 = a.iter().map(|x| x * x).sum();
        let edc = |tau: f64| {
            a.iter()
                .zip(SLOT_DECAYS)
                .map(|(x, t)| x * x / e0 * (-13.82 / t * tau).exp())
                .sum::<f64>()
        };
        let crossing = |db: f64| {
            let target = 10f64.powf(db / 10.0);
            let (mut lo, mut hi) = (0.0, 8.0);
            for _ in 0..200 {
                let mid = 0.5 * (lo + hi);
                if edc(mid) > target {
                    lo = mid
                } else {
                    hi = mid
                }
            }
            0.5 * (lo + hi)
        };
        2.0 * (crossing(-35.0) - crossing(-5.0))
    };
    let mut mixes = 0;
    for i in 0..=400 {
        let d = 0.15 + (4.14 - 0.15) * f64::from(i) / 400.0;
        let a = slot_amplitudes(d);
        mixes += usize::from(a.iter().filter(|x| **x != 0.0).count() == 2);
        let (got, want) = (effective_decay(&a), reference(&a));
        assert!((got - want).abs() < 1e-9, "decay {d}: {got} vs {want}");
    }
    assert!(mixes > 300, "two-slot mixes: {mixes}");
}

mod kept_rays {
    use glam::{DVec3, IVec3};
    use proptest::prelude::*;

    use crate::room::{measure_space, measure_space_from, room_rays, upper_directions};
    use crate::*;

    /// A hall with pillars, a low roof over part of it, foliage (room rays pass it) and an
    /// Unknown corner: rays hit at many distances, pass foliage, skip sections.
    fn hall() -> WorldStore {
        let m = MaterialTable::standard();
        let stone = Cell::solid(m.by_name("stone").unwrap());
        let wood = Cell::solid(m.by_name("wood").unwrap());
        let leaves = Cell::solid(m.by_name("leaves").unwrap());
        let mut w = WorldStore::new(Absent::Air);
        let mut fill = |a: [i32; 3], b: [i32; 3], c: Cell| {
            w.fill_box(IVec3::from_array(a), IVec3::from_array(b), c)
                .unwrap();
        };
        fill([-40, -4, -40], [40, -1, 40], stone);
        fill([-10, 12, -10], [20, 12, 25], wood);
        for x in (-30..30).step_by(9) {
            fill([x, 0, 3], [x + 1, 14, 4], stone);
        }
        fill([5, 0, -20], [12, 6, -12], leaves);
        fill([30, 0, 30], [40, 40, 40], Cell::Unknown);
        w
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// The kept rays measure what the rays from the cell centre measure: the same spaces,
        /// counters and budget left, to the bit, for two spaces in turn (as a request with
        /// the source's space does), on a budget that suffices or runs out on the way.
        #[test]
        fn kept_rays_measure_what_the_rays_from_the_centre_measure(
            l in (-35i32..35, 0i32..20, -35i32..35),
            s in (-35i32..35, 0i32..20, -35i32..35),
            budget in prop_oneof![Just(u64::MAX), 0u64..3_000],
        ) {
            let w = hall();
            let m = MaterialTable::standard();
            let rays = room_rays();
            let dirs = upper_directions();
            let cells = [IVec3::new(l.0, l.1, l.2), IVec3::new(s.0, s.1, s.2)];
            let mut b1 = Budget::new(budget);
            let plain = cells.map(|c| {
                let centre = c.as_dvec3() + DVec3::splat(0.5);
                measure_space(&w, &m, centre, &dirs, &mut b1)
            });
            let mut b2 = Budget::new(budget);
            let kept = cells.map(|c| measure_space_from(&w, &m, c, &rays, &mut b2));
            prop_assert_eq!(plain, kept);
            prop_assert_eq!(b1.remaining(), b2.remaining());
        }
    }
}

#[test]
fn clamp_to_bus_keeps_range_and_spread_and_says_so() {
    use crate::room::{DECAY_MAX, DECAY_MIN, clamp_to_bus};
    // Inside: untouched, not flagged.
    let (t, c) = clamp_to_bus([1.0, 1.2, 0.8]);
    assert_eq!((t, c), ([1.0, 1.2, 0.8], false));
    // A brick corridor's air-shortened high band inside the spread; a cloth room's long low
    // band and a dry high band outside it.
    let (t, c) = clamp_to_bus([3.0, 1.0, 0.3]);
    assert!(c);
    assert!((t[0] - 1.3).abs() < 1e-12 && t[1] == 1.0 && (t[2] - 0.5).abs() < 1e-12);
    // Range first: a 15 s stone hall renders 4.14 s in every band.
    let (t, c) = clamp_to_bus([36.0, 14.9, 5.9]);
    assert!(c);
    assert_eq!(t, [DECAY_MAX; 3]);
    // NaN reads the shortest decay, flagged.
    let (t, c) = clamp_to_bus([f64::NAN, f64::NAN, f64::NAN]);
    assert!(c && t == [DECAY_MIN; 3]);
}
