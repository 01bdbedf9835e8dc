//! The section cache answers exactly as the uncached probe: cells, classes, walks, threads.

use std::sync::Arc;

use glam::{DVec3, IVec2, IVec3};

use super::super::{Diagonal, Heightfield, Layers, PlacedBox, VertexGrid};
use super::{MAX_DENSE, dense_cells};
use crate::Budget;
use crate::ray::dda::{Flow, Step, WalkStats, walk, walk_solid};
use crate::world::material::{MaterialId, MaterialTable};
use crate::world::probe::{Cell, SectionClass, WorldProbe};

/// The heightfield through the trait's defaults only: classes and single cells, no cache.
struct Uncached<'a>(&'a Heightfield);

impl WorldProbe for Uncached<'_> {
    fn section_class(&self, section: IVec3) -> SectionClass {
        self.0.section_class(section)
    }
    fn cell(&self, cell: IVec3) -> Cell {
        self.0.cell(cell)
    }
    fn epoch(&self) -> u64 {
        self.0.epoch()
    }
    fn revision(&self) -> u64 {
        self.0.revision()
    }
}

/// A small deterministic generator (64-bit LCG, high bits).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) as u32
    }
    fn unit(&mut self) -> f64 {
        f64::from(self.next()) / f64::from(1u32 << 31)
    }
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
}

/// Rough land with steep tiles, water layers, absent corners, a negative origin, a spacing that
/// does not divide 16, and boxes (a carved tunnel, a wall, a partial fence, a covered section).
fn rough(spacing: i32, seed: u64) -> Heightfield {
    let mut r = Lcg(seed);
    let (cols, rows) = (14, 12);
    let mut g = VertexGrid::new(IVec2::new(-37, 21), spacing, cols, rows);
    for k in 0..rows {
        for i in 0..cols {
            // A few absent vertices (their tiles are `outside`).
            if !r.next().is_multiple_of(23) {
                g.set(i, k, r.range(-20.0, 70.0) as f32);
            }
        }
    }
    let t = MaterialTable::standard();
    let (stone, water, sand) = (
        t.by_name("stone").unwrap(),
        t.by_name("water").unwrap(),
        t.by_name("sand").unwrap(),
    );
    let mut f = Heightfield::new(
        &g,
        |i, k| {
            if (i * 3 + k) % 2 == 0 {
                Diagonal::Main
            } else {
                Diagonal::Anti
            }
        },
        |i, k| match (i + 2 * k) % 3 {
            0 => Layers::uniform(stone),
            1 => Layers {
                top: water,
                depth: 2.0,
                below: stone,
            },
            _ => Layers {
                top: sand,
                depth: 5.5,
                below: stone,
            },
        },
        Cell::Unknown,
    )
    .unwrap();
    let wool = t.by_name("wool").unwrap();
    let boxes = [
        (IVec3::new(-30, 0, 30), IVec3::new(60, 6, 34), Cell::Air),
        (
            IVec3::new(10, -5, 25),
            IVec3::new(12, 50, 90),
            Cell::solid(wool),
        ),
        (
            IVec3::new(0, 5, 40),
            IVec3::new(40, 8, 40),
            Cell::Solid {
                mat: stone,
                partial: true,
            },
        ),
        (
            IVec3::new(-48, 32, 32),
            IVec3::new(-17, 63, 63),
            Cell::solid(sand),
        ),
        (IVec3::new(11, 20, 60), IVec3::new(11, 21, 61), Cell::Air),
    ];
    for (min, max, cell) in boxes {
        f.place(PlacedBox { min, max, cell });
    }
    f
}

fn fields() -> Vec<Heightfield> {
    vec![rough(24, 1), rough(5, 2), rough(1, 3), rough(17, 4)]
}

/// Sections over and around the field (its outside too).
fn sections(f: &Heightfield) -> impl Iterator<Item = IVec3> {
    let lo = IVec2::new(f.origin.x, f.origin.y).div_euclid(IVec2::splat(16)) - IVec2::ONE;
    let far = f.origin
        + IVec2::new(f.tiles_x as i32, f.tiles_z as i32) * IVec2::splat(f.spacing)
        + IVec2::splat(16);
    let hi = far.div_euclid(IVec2::splat(16));
    (lo.x..=hi.x).flat_map(move |x| {
        (-3..=8).flat_map(move |y| (lo.y..=hi.y).map(move |z| IVec3::new(x, y, z)))
    })
}

#[test]
fn dense_sections_hold_exactly_the_cells_the_probe_answers() {
    for f in fields() {
        let mut mixed = 0;
        for s in sections(&f) {
            let cells = dense_cells(&f, s).expect("every material packs");
            for y in 0..16 {
                for z in 0..16 {
                    for x in 0..16 {
                        let c = s * 16 + IVec3::new(x, y, z);
                        assert_eq!(cells.get(c), f.cell(c), "cell {c} spacing {}", f.spacing);
                    }
                }
            }
            // The first visit of a Mixed section is answered cell by cell, the second fills it.
            let first = f.section_access(s);
            assert!(first.cells.is_none());
            let access = f.section_access(s);
            assert_eq!(first.class, access.class);
            assert_eq!(access.class, f.section_class(s), "section {s}");
            // (Past the table's bound a Mixed section is answered uncached.)
            assert!(access.cells.is_none() || access.class == SectionClass::Mixed);
            if let Some(cached) = access.cells {
                assert_eq!(*cached, cells);
                mixed += 1;
            }
            assert!(access.sparse.is_none());
        }
        assert!(mixed > 10, "the fields cut through many sections ({mixed})");
    }
}

/// What a walk (`solid`: a walk that shows only non-air cells, which crosses a section past its
/// non-air cells in one step) reports of a ray.
fn trace(
    p: &dyn WorldProbe,
    o: DVec3,
    d: DVec3,
    len: f64,
    budget: u64,
    solid: bool,
) -> (Vec<Step>, WalkStats) {
    let mut steps = Vec::new();
    let record = |s: &Step| {
        steps.push(*s);
        Flow::Continue
    };
    let stats = if solid {
        walk_solid(p, o, d, len, &mut Budget::new(budget), record)
    } else {
        walk(p, o, d, len, &mut Budget::new(budget), record)
    };
    (steps, stats)
}

fn random_ray(r: &mut Lcg) -> (DVec3, DVec3, f64, u64) {
    let o = DVec3::new(
        r.range(-60.0, 330.0),
        r.range(-30.0, 90.0),
        r.range(0.0, 300.0),
    );
    let d = DVec3::new(r.range(-1.0, 1.0), r.range(-1.0, 1.0), r.range(-1.0, 1.0))
        .try_normalize()
        .unwrap_or(DVec3::X);
    // Now and then an axis-aligned ray or a short budget.
    let d = if r.next().is_multiple_of(8) {
        d.round()
    } else {
        d
    };
    let budget = if r.next().is_multiple_of(5) {
        37
    } else {
        100_000
    };
    (o, d, r.range(0.0, 400.0), budget)
}

#[test]
fn cached_walks_equal_uncached_walks_for_random_rays() {
    for (n, f) in fields().into_iter().enumerate() {
        let mut r = Lcg(100 + n as u64);
        let rays: Vec<_> = (0..600).map(|_| random_ray(&mut r)).collect();
        // Twice: the first pass fills the cache, the second reads it.
        for pass in 0..2 {
            for &(o, d, len, budget) in &rays {
                for solid in [false, true] {
                    let want = trace(&Uncached(&f), o, d, len, budget, solid);
                    let got = trace(&f, o, d, len, budget, solid);
                    assert_eq!(got, want, "pass {pass} ray {o} {d} {len} solid {solid}");
                }
            }
        }
        assert!(f.cache.dense_count() > 20, "{:?}", f.cache);
    }
}

#[test]
fn threads_filling_one_shared_cache_see_the_uncached_answers() {
    let f = Arc::new(rough(24, 9));
    let mut r = Lcg(77);
    let rays: Arc<Vec<_>> = Arc::new((0..300).map(|_| random_ray(&mut r)).collect());
    let want: Vec<_> = rays
        .iter()
        .map(|&(o, d, len, b)| trace(&Uncached(&f), o, d, len, b, false))
        .collect();
    let handles: Vec<_> = (0..3)
        .map(|k| {
            let (f, rays) = (Arc::clone(&f), Arc::clone(&rays));
            std::thread::spawn(move || {
                // Each thread in its own order, so that they race for slots.
                let n = rays.len();
                (0..n)
                    .map(|i| {
                        let j = (i * (2 * k + 1)) % n;
                        let (o, d, len, b) = rays[j];
                        (j, trace(&*f, o, d, len, b, false))
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    for h in handles {
        for (j, got) in h.join().unwrap() {
            assert_eq!(got, want[j], "ray {j}");
        }
    }
}

#[test]
fn the_cache_is_bounded_and_past_its_bound_answers_stay_the_same() {
    // A tall wall of partial cells: every section in it is Mixed. Far more of them than the
    // table holds (its chunks overflow) and than the dense bound.
    let g = {
        let mut g = VertexGrid::new(IVec2::ZERO, 16, 3, 3);
        for k in 0..3 {
            for i in 0..3 {
                g.set(i, k, 8.0);
            }
        }
        g
    };
    let mut f = Heightfield::new(
        &g,
        |_, _| Diagonal::Main,
        |_, _| Layers::uniform(MaterialId::DEFAULT),
        Cell::Air,
    )
    .unwrap();
    f.place(PlacedBox {
        min: IVec3::new(0, -400_000, 0),
        max: IVec3::new(3, 400_000, 3),
        cell: Cell::Solid {
            mat: MaterialId::DEFAULT,
            partial: true,
        },
    });
    let mut asked = 0;
    for y in -20_000..20_000 {
        let s = IVec3::new(0, y, 0);
        let _ = f.section_access(s);
        let a = f.section_access(s);
        assert_eq!(a.class, SectionClass::Mixed);
        if let Some(cells) = a.cells {
            let c = s * 16 + IVec3::new(2, 5, 1);
            assert_eq!(cells.get(c), f.cell(c));
        }
        asked += 1;
    }
    let held = f.cache.entries();
    assert!(
        held < asked && held <= super::CHUNKS * super::CHUNK,
        "{held} of {asked}"
    );
    assert_eq!(f.cache.dense_count(), MAX_DENSE);
    // Dense, held and uncached sections walk like the probe.
    // (The dense sections are the first asked, from y = −320 000 up.)
    let o = DVec3::new(1.5, -330_000.0, 1.5);
    let want = trace(&Uncached(&f), o, DVec3::Y, 60_000.0, 1 << 20, false);
    assert_eq!(trace(&f, o, DVec3::Y, 60_000.0, 1 << 20, false), want);
}

#[test]
fn a_placed_box_starts_a_new_cache_and_clones_share_one() {
    let mut f = rough(24, 5);
    let s = IVec3::new(1, 1, 3);
    let clone = f.clone();
    let _ = f.section_access(s);
    let before = f.section_access(s).cells.cloned();
    assert!(before.is_some());
    // The clone reads the entry the original filled.
    assert!(std::ptr::eq(
        f.section_access(s).cells.unwrap(),
        clone.section_access(s).cells.unwrap()
    ));
    f.place(PlacedBox {
        min: s * 16,
        max: s * 16 + IVec3::new(15, 3, 15),
        cell: Cell::Air,
    });
    let _ = f.section_access(s);
    let after = f.section_access(s).cells.cloned();
    assert_ne!(before, after);
    assert_eq!(after, dense_cells(&f, s));
    // The clone keeps the old terrain's answers.
    assert_eq!(clone.section_access(s).cells.cloned(), before);
}

#[test]
fn the_probe_can_be_shared_by_worker_threads() {
    fn shared<T: Send + Sync>() {}
    shared::<Heightfield>();
}

#[test]
fn a_chunk_is_at_most_3_kib() {
    // The bound the module doc states: 64 slots of at most 48 bytes.
    assert!(std::mem::size_of::<std::sync::OnceLock<super::Entry>>() <= 48);
}

#[test]
fn the_sky_table_answers_as_the_tiles_and_boxes_turn_it_off() {
    for outside in [Cell::Unknown, Cell::Air] {
        for spacing in [24, 5, 1, 17] {
            let mut g = VertexGrid::new(IVec2::new(-37, 21), spacing, 9, 7);
            let mut r = Lcg(u64::try_from(spacing).unwrap());
            for k in 0..7 {
                for i in 0..9 {
                    if !r.next().is_multiple_of(11) {
                        g.set(i, k, r.range(-40.0, 90.0) as f32);
                    }
                }
            }
            let mut f = Heightfield::new(
                &g,
                |_, _| Diagonal::Anti,
                |_, _| Layers::uniform(MaterialId::DEFAULT),
                outside,
            )
            .unwrap();
            let check = |f: &Heightfield| {
                let mut answered = 0;
                let lo = IVec2::new(f.origin.x, f.origin.y).div_euclid(IVec2::splat(16)) - 3;
                for x in lo.x..lo.x + 20 {
                    for z in lo.y..lo.y + 20 {
                        for y in -5..12 {
                            let s = IVec3::new(x, y, z);
                            if let Some(class) = f.sky.class(s) {
                                assert_eq!(class, f.section_class(s), "{s} spacing {spacing}");
                                answered += 1;
                            }
                        }
                    }
                }
                answered
            };
            let before = check(&f);
            assert!(before > 2000, "{before}");
            f.place(PlacedBox {
                min: IVec3::new(0, 150, 40),
                max: IVec3::new(30, 160, 50),
                cell: Cell::solid(MaterialId::DEFAULT),
            });
            assert_eq!(f.sky.class(IVec3::new(0, 9, 2)), None);
            assert_eq!(f.sky.class(IVec3::new(-40, 9, -40)), None);
            let after = check(&f);
            assert!(after < before, "{after} of {before}");
        }
    }
}
