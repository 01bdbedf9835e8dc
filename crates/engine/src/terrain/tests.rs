//! Tests of the terrain adapter on the fixture world: split, heights, classes, lazy ring,
//! absent and corrupt landblocks, and acoustics over the valley, the ridge and the flat land.

use std::sync::Arc;

use glam::{DVec3, IVec3, Vec3};
use proptest::prelude::*;
use resound_acoustics::ray::cast::first_hit;
use resound_acoustics::ray::dda::{Flow, walk};
use resound_acoustics::{
    AcousticModel, Budget, Cell, MaterialTable, Mode, OwnModel, Paths, SectionClass, SoundRequest,
    WorldProbe, section_of,
};
use resound_ambient::{LandBlockSource, MemoryLandBlocks, Position};
use resound_datformat::record::LandBlock;
use resound_fixture::{self as fixture, terrain as fx};

use super::*;

/// A fixture position from fixture-area metres (east, north from the SW corner of 0xA7B2).
pub(super) fn at(east: f64, north: f64, z: f32) -> Position {
    let bx = (east / 192.0).floor();
    let by = (north / 192.0).floor();
    let (lx, ly) = (east - bx * 192.0, north - by * 192.0);
    let cell = (lx / 24.0) as u32 * 8 + (ly / 24.0) as u32 + 1;
    let id =
        (u32::from(fx::FIRST_X) + bx as u32) << 24 | (u32::from(fx::FIRST_Y) + by as u32) << 16;
    Position::new(id | cell, Vec3::new(lx as f32, ly as f32, z))
}

/// The fixture terrain with the ring centred on the crossroads, built once.
fn shared() -> &'static TerrainWorld {
    static WORLD: std::sync::OnceLock<TerrainWorld> = std::sync::OnceLock::new();
    WORLD.get_or_init(|| world_at(&centre()))
}

/// The fixture terrain with the ring centred on `centre`.
pub(super) fn world_at(centre: &Position) -> TerrainWorld {
    let mut t = TerrainWorld::new(&fixture::region(), &MaterialTable::standard()).unwrap();
    let mut src = MemoryLandBlocks::new(fixture::land_blocks());
    assert!(t.update_listener(centre, &mut src).unwrap());
    t
}

fn centre() -> Position {
    at(20.0 * 24.0, 20.0 * 24.0, 0.0)
}

#[test]
fn split_golden_values_and_four_cells_by_hand() {
    // Spec §12 golden values.
    assert_eq!(split_hash(0, 0), 0xAE64_70DB);
    assert_eq!(cell_split(0, 0), Split::SwNe);
    assert_eq!(split_hash(1, 0), 0x6C48_8D1E);
    assert_eq!(cell_split(1, 0), Split::SeNw);
    // (0, 1): 0x6C1AC587 − 0x519B8F25 = 0x1A7F3662 (top bit clear).
    assert_eq!(split_hash(0, 1), 0x1A7F_3662);
    assert_eq!(cell_split(0, 1), Split::SeNw);
    // (1, 1): 0x0CCAC033 − 0x421BE3BD = 0xCAAEDC76; + 0x6C1AC587 = 0x36C9A1FD (mod 2^32);
    //         − 0x519B8F25 = 0xE52E12D8 (top bit set).
    assert_eq!(split_hash(1, 1), 0xE52E_12D8);
    assert_eq!(cell_split(1, 1), Split::SwNe);
    // (2, 3): 6·0x0CCAC033 = 0x4CC08132, 2·0x421BE3BD = 0x8437C77A, 3·0x6C1AC587 = 0x44505095
    //         (mod 2^32); 0x4CC08132 − 0x8437C77A + 0x44505095 − 0x519B8F25 = 0xBB3D7B28.
    assert_eq!(split_hash(2, 3), 0xBB3D_7B28);
    assert_eq!(cell_split(2, 3), Split::SwNe);
    // (2039, 2039), the NE corner of the map: 0x3846F0E4 (top bit clear).
    assert_eq!(split_hash(2039, 2039), 0x3846_F0E4);
    assert_eq!(cell_split(2039, 2039), Split::SeNw);
}

/// Vertex height of fixture global vertex `(gx, gy)` as the table gives it.
fn vertex(gx: usize, gy: usize) -> f32 {
    fixture::land_height_table()[usize::from(fx::height_byte(gx, gy))]
}

#[test]
fn heights_at_vertices_and_centroids_of_a_cell_of_each_split() {
    let t = world_at(&centre());
    let base_gx = u32::from(fx::FIRST_X) * 8;
    let base_gy = u32::from(fx::FIRST_Y) * 8;
    // Find one cell of each split on sloping ground (the ridge flank, fixture gx 29..31).
    let mut found = [false; 2];
    for gy in 10..30usize {
        let gx = 29usize;
        let split = cell_split(base_gx + gx as u32, base_gy + gy as u32);
        let idx = usize::from(split == Split::SwNe);
        if found[idx] {
            continue;
        }
        found[idx] = true;
        let (sw, se, ne, nw) = (
            vertex(gx, gy),
            vertex(gx + 1, gy),
            vertex(gx + 1, gy + 1),
            vertex(gx, gy + 1),
        );
        let (x0, y0) = (gx as f64 * 24.0, gy as f64 * 24.0);
        let h = |dx: f64, dy: f64| t.height_at(&at(x0 + dx, y0 + dy, 0.0)).unwrap();
        let e = 1e-3;
        let close = |a: f32, b: f32| assert!((a - b).abs() < 0.05, "{split:?} {a} vs {b}");
        close(h(0.0, 0.0), sw);
        close(h(24.0 - e, 0.0), se);
        close(h(24.0 - e, 24.0 - e), ne);
        close(h(0.0, 24.0 - e), nw);
        let (a, b) = match split {
            // SW-SE-NE and SW-NE-NW.
            Split::SwNe => (
                ((16.0, 8.0), (sw + se + ne) / 3.0),
                ((8.0, 16.0), (sw + ne + nw) / 3.0),
            ),
            // SW-SE-NW and SE-NE-NW.
            Split::SeNw => (
                ((8.0, 8.0), (sw + se + nw) / 3.0),
                ((16.0, 16.0), (se + ne + nw) / 3.0),
            ),
        };
        close(h(a.0.0, a.0.1), a.1);
        close(h(b.0.0, b.0.1), b.1);
    }
    assert_eq!(found, [true, true]);
}

#[test]
fn section_classes_open_sky_empty_deep_rock_full() {
    let t = world_at(&centre());
    let p = t.probe();
    let ridge = ac_to_voxel(&at(33.0 * 24.0, 20.0 * 24.0, 0.0));
    let stone = MaterialTable::standard().by_name("stone").unwrap();
    let column = |y: f64| section_of(IVec3::new(ridge.x as i32, y as i32, ridge.z as i32));
    assert_eq!(p.section_class(column(600.0)), SectionClass::Empty);
    assert_eq!(p.section_class(column(40.0)), SectionClass::Full(stone));
    // The flat land: empty above, mixed at the surface, full (dirt) below.
    let flat = ac_to_voxel(&at(20.0 * 24.0 + 5.0, 16.0 * 24.0 + 5.0, 0.0));
    let dirt = MaterialTable::standard().by_name("dirt").unwrap();
    let col = |y: i32| section_of(IVec3::new(flat.x as i32, y, flat.z as i32));
    assert_eq!(p.section_class(col(100)), SectionClass::Empty);
    assert_eq!(p.section_class(col(70)), SectionClass::Mixed);
    assert_eq!(p.section_class(col(30)), SectionClass::Full(dirt));
    // Beyond the ring (300 m west of the fixture's west edge): Unknown.
    let far = ac_to_voxel(&at(0.0, 20.0 * 24.0, 60.0)) - DVec3::new(300.0, 0.0, 0.0);
    assert_eq!(
        p.section_class(section_of(far.as_ivec3())),
        SectionClass::Unknown
    );
}

#[test]
fn lazy_ring_loads_only_the_blocks_that_enter_it() {
    let mut t = TerrainWorld::new(&fixture::region(), &MaterialTable::standard()).unwrap();
    let mut src = MemoryLandBlocks::new(fixture::land_blocks());
    assert!(t.update_listener(&centre(), &mut src).unwrap());
    assert_eq!(t.loads, 25);
    assert_eq!(t.resident().filter(|r| r.1).count(), 25);
    // Same block: nothing to do.
    assert!(
        !t.update_listener(&at(21.0 * 24.0, 20.0 * 24.0, 0.0), &mut src)
            .unwrap()
    );
    // One block east: 5 new blocks (beyond the fixture: absent).
    let before = t.probe().revision();
    assert!(
        t.update_listener(&at(20.0 * 24.0 + 192.0, 20.0 * 24.0, 0.0), &mut src)
            .unwrap()
    );
    assert_eq!(t.loads, 30);
    assert_eq!(t.resident().count(), 25);
    assert_eq!(t.resident().filter(|r| !r.1).count(), 5);
    assert!(t.probe().revision() > before);
}

#[test]
fn a_missing_landblock_is_unknown_and_counted() {
    let mut t = TerrainWorld::new(&fixture::region(), &MaterialTable::standard()).unwrap();
    let mut src = MemoryLandBlocks::new(fixture::land_blocks());
    // Remove the block east of the centre.
    let gone = land_block_id(fx::FIRST_X + 3, fx::FIRST_Y + 2);
    assert!(src.remove(gone.into()).is_some());
    t.update_listener(&centre(), &mut src).unwrap();
    let inside = ac_to_voxel(&at(28.0 * 24.0, 20.0 * 24.0, 60.0));
    assert_eq!(t.probe().cell(inside.as_ivec3()), Cell::Unknown);
    assert!(t.height_at(&at(28.0 * 24.0, 20.0 * 24.0, 0.0)).is_none());
    // Its edge with the centre block keeps the centre block's heights.
    assert!(
        t.height_at(&at(24.0 * 24.0 - 1.0, 20.0 * 24.0, 0.0))
            .is_some()
    );
    // A sound across it: traced as air, the unknown share reported.
    let model = OwnModel::new(MaterialTable::standard());
    let request = SoundRequest::new(
        ac_to_voxel(&at(30.0 * 24.0, 20.5 * 24.0, 80.0)),
        ac_to_voxel(&at(20.0 * 24.0, 20.5 * 24.0, 72.0)),
    );
    let r = model
        .evaluate(t.probe(), &request, Mode::Full, &mut Budget::new(2_000_000))
        .unwrap();
    assert!(r.telemetry.met_unknown);
    assert!(r.telemetry.unknown_share() > 0.0, "{:?}", r.telemetry);
}

/// A cell dat whose landblock cannot be read.
struct Corrupt;

#[derive(Debug, thiserror::Error)]
#[error("record 0xA9B4FFFF: expected 252 bytes, found 7")]
struct ReadError;

impl LandBlockSource for Corrupt {
    type Error = ReadError;
    fn load_land_block(
        &mut self,
        _: resound_ambient::CellId,
    ) -> Result<Option<Arc<LandBlock>>, ReadError> {
        Err(ReadError)
    }
}

/// A cell dat that answers with another landblock's record.
struct Liar;

impl LandBlockSource for Liar {
    type Error = std::convert::Infallible;
    fn load_land_block(
        &mut self,
        _: resound_ambient::CellId,
    ) -> Result<Option<Arc<LandBlock>>, std::convert::Infallible> {
        Ok(fixture::land_block(fx::FIRST_X, fx::FIRST_Y).map(Arc::new))
    }
}

#[test]
fn a_corrupt_landblock_is_a_typed_error() {
    let mut t = TerrainWorld::new(&fixture::region(), &MaterialTable::standard()).unwrap();
    let err = t.update_listener(&centre(), &mut Corrupt).unwrap_err();
    assert!(matches!(err, TerrainError::LandBlock { .. }), "{err}");
    // The message names the block; the reader's error is the source, not repeated.
    let text = err.to_string();
    assert!(
        text.starts_with("LandBlock 0x") && !text.contains("expected 252"),
        "{text}"
    );
    assert!(std::error::Error::source(&err).is_some());
    let err = t.update_listener(&centre(), &mut Liar).unwrap_err();
    assert!(matches!(err, TerrainError::WrongId { .. }), "{err}");
    // Nothing became resident.
    assert_eq!(
        t.probe().cell(ac_to_voxel(&centre()).as_ivec3()),
        Cell::Unknown
    );
}

#[test]
fn materials_follow_the_terrain_type() {
    let t = world_at(&centre());
    let m = MaterialTable::standard();
    // The lake (fixture vertex (6.5, 33)): water over stone.
    let lake = at(6.0 * 24.0 + 12.0, 33.0 * 24.0 + 12.0, 0.0);
    let h = t.height_at(&lake).unwrap();
    let cell_at = |z: f32| {
        let p = Position::new(
            lake.objcell_id.get(),
            Vec3::new(lake.origin.x, lake.origin.y, z),
        );
        t.probe().cell(ac_to_voxel(&p).floor().as_ivec3())
    };
    assert_eq!(cell_at(h - 0.5), Cell::solid(m.by_name("water").unwrap()));
    assert_eq!(cell_at(h - 3.5), Cell::solid(m.by_name("stone").unwrap()));
    assert_eq!(cell_at(h + 0.5), Cell::Air);
}

#[test]
fn a_512_block_ray_over_open_terrain_visits_at_most_200_cells() {
    let t = world_at(&centre());
    // West to east across the ring, 30 m above the flat land's crossroads height … the ridge
    // is left out: the ray runs at a height clear of every hill it passes (the ridge top is 400 m).
    let from = ac_to_voxel(&at(2.0, 20.0 * 24.0, 450.0));
    let mut budget = Budget::unlimited();
    let stats = walk(t.probe(), from, DVec3::X, 512.0, &mut budget, |_| {
        Flow::Continue
    });
    assert!(stats.cells <= 200, "{stats:?}");
    // Just above the flat land (1.75 m over the crossroads, along the road): still far from
    // walking every cell, since the section below is Full and above Empty.
    let ground = t.on_ground(&centre(), EAR_HEIGHT).unwrap();
    let from = ac_to_voxel(&ground) + DVec3::new(0.0, 30.0, 0.0);
    let stats = walk(
        t.probe(),
        from,
        DVec3::Z,
        200.0,
        &mut Budget::unlimited(),
        |_| Flow::Continue,
    );
    assert!(stats.cells <= 30, "{stats:?}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    #[test]
    fn vertical_rays_meet_the_plane(east in 1u32..959, north in 1u32..959) {
        let t = shared();
        // The middle of a voxel column (cells are solid by the plane at their centre).
        let p = at(f64::from(east) + 0.5, f64::from(north) + 0.5, 0.0);
        let h = t.height_at(&p).unwrap();
        let start = ac_to_voxel(&Position::new(p.objcell_id.get(), Vec3::new(p.origin.x, p.origin.y, h + 1.0)));
        let down = first_hit(t.probe(), start, DVec3::NEG_Y, 50.0, &mut Budget::unlimited());
        let hit = down.hit.expect("a downward ray hits the ground");
        // The hit cell's top face lies within 1 m of the plane (0.5 m by the centre rule).
        let top = f64::from(hit.cell.y) + 1.0;
        prop_assert!((top - f64::from(h)).abs() <= 1.0, "top {top} vs plane {h}");
        let up = first_hit(t.probe(), start, DVec3::Y, 1000.0, &mut Budget::unlimited());
        prop_assert!(up.hit.is_none(), "{:?}", up.hit);
    }
}

fn eval(
    t: &TerrainWorld,
    listener: &Position,
    source: &Position,
) -> resound_acoustics::AcousticResult {
    let model = OwnModel::new(MaterialTable::standard());
    let l = t.on_ground(listener, EAR_HEIGHT).unwrap();
    let s = t.on_ground(source, EAR_HEIGHT).unwrap();
    let mut request = SoundRequest::new(ac_to_voxel(&s), ac_to_voxel(&l));
    request.paths = Paths::Nine;
    model
        .evaluate(t.probe(), &request, Mode::Full, &mut Budget::new(1_560_000))
        .unwrap()
}

/// Named spots (fixture-area metres).
pub(super) mod spots {
    /// The river valley floor, west of the flat land.
    pub const VALLEY: (f64, f64) = (9.0 * 24.0 + 6.0, 18.0 * 24.0 + 6.0);
    /// On the flat land behind the valley's east shoulder, 192 m east of [`VALLEY`].
    pub const BEHIND_SHOULDER: (f64, f64) = (17.0 * 24.0 + 6.0, 18.0 * 24.0 + 6.0);
    /// The west foot of the ridge in the east.
    pub const RIDGE_WEST_FOOT: (f64, f64) = (28.0 * 24.0, 20.0 * 24.0);
    /// The east foot of the ridge, 240 m east of [`RIDGE_WEST_FOOT`].
    pub const RIDGE_EAST_FOOT: (f64, f64) = (38.0 * 24.0, 20.0 * 24.0);
    /// Open flat land south of the crossroads.
    pub const FLAT_A: (f64, f64) = (20.0 * 24.0 + 6.0, 9.0 * 24.0 + 6.0);
    /// Open flat land north of [`FLAT_A`].
    pub const FLAT_B: (f64, f64) = (22.0 * 24.0 + 6.0, 15.0 * 24.0 + 6.0);
    /// The ridge top in the east (its summit, the fixture's "ridge top" place).
    pub const RIDGE_TOP: (f64, f64) = (34.5 * 24.0, 6.0 * 24.0);
}

fn spot(s: (f64, f64)) -> Position {
    at(s.0, s.1, 0.0)
}

#[test]
fn the_ground_between_the_valley_and_the_flat_land_muffles() {
    // Listener on the valley floor, source on the flat land beyond the valley's shoulder.
    let t = world_at(&spot(spots::VALLEY));
    let l = spot(spots::VALLEY);
    let s = spot(spots::BEHIND_SHOULDER);
    let d = (ac_to_voxel(&l) - ac_to_voxel(&s)).length();
    assert!(d < 300.0, "{d}");
    let r = eval(&t, &l, &s);
    assert!(r.occ >= 1.0, "occ {}", r.occ);
    assert!(r.hf < 0.05, "hf {}", r.hf); // the high band loses more than 26 dB
    assert!(r.gain < 0.75, "gain {}", r.gain);
}

#[test]
fn the_ridge_blocks_the_line_between_its_feet() {
    // The fixture's ridge: two points 240 m apart on either side (so the fixture needs no new
    // ridge, issue 11); the ring is centred on the listener, and the ridge is inside it.
    let l = spot(spots::RIDGE_WEST_FOOT);
    let s = spot(spots::RIDGE_EAST_FOOT);
    let t = world_at(&l);
    let d = (ac_to_voxel(&l) - ac_to_voxel(&s)).length();
    assert!(d < 300.0, "{d}");
    let r = eval(&t, &l, &s);
    assert!(r.occ >= 1.0, "occ {}", r.occ);
    assert!(r.hf < 0.05, "hf {}", r.hf);
}

#[test]
fn open_flat_land_is_clear() {
    let t = world_at(&centre());
    let (a, b) = (spot(spots::FLAT_A), spot(spots::FLAT_B));
    let r = eval(&t, &a, &b);
    assert_eq!(r.occ, 0.0);
    assert_eq!(r.gain, 1.0);
    // Only air absorption on the highs (beyond half the range of 256).
    let d = (ac_to_voxel(&a) - ac_to_voxel(&b)).length();
    let air = 0.994f64.powf(d - 128.0) as f32;
    assert!((r.hf - air).abs() < 0.01, "hf {} air {air}", r.hf);
}

#[test]
fn the_valley_is_more_enclosed_than_the_flat_land_or_the_ridge_top() {
    let t = world_at(&centre());
    let model = OwnModel::new(MaterialTable::standard());
    let enclosure = |s: (f64, f64)| {
        let p = t.on_ground(&spot(s), EAR_HEIGHT).unwrap();
        let v = ac_to_voxel(&p);
        let request = SoundRequest::new(v, v);
        model
            .room(t.probe(), &request, &mut Budget::new(480_000))
            .unwrap()
            .listener
            .enclosure
    };
    let (valley, flat, top) = (
        enclosure(spots::VALLEY),
        enclosure(spots::FLAT_A),
        enclosure(spots::RIDGE_TOP),
    );
    assert!(
        valley > flat && valley > top,
        "valley {valley} flat {flat} top {top}"
    );
}

/// The terrain through the probe trait's defaults only: no section cache.
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

#[test]
fn the_section_cache_gives_the_uncached_results_at_random_spots() {
    // Listener and source at random spots of the ring around the crossroads (on the ground and
    // up to 40 m over it), with a hall placed over the terrain: every result, telemetry
    // included, is the same read through the cache (cold, then warm) as computed per cell.
    let mut t = world_at(&centre());
    let wool = MaterialTable::standard().by_name("wool").unwrap();
    let ground = ac_to_voxel(&t.on_ground(&centre(), 0.0).unwrap())
        .floor()
        .as_ivec3();
    t.place(PlacedBox {
        min: ground + IVec3::new(-20, -4, -12),
        max: ground + IVec3::new(20, 14, 12),
        cell: Cell::solid(wool),
    });
    t.place(PlacedBox {
        min: ground + IVec3::new(-19, 0, -11),
        max: ground + IVec3::new(19, 13, 11),
        cell: Cell::Air,
    });
    let model = OwnModel::new(MaterialTable::standard());
    let mut seed = 0x5EED_u64;
    let mut unit = move || {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    let spot = |unit: &mut dyn FnMut() -> f64| {
        let (east, north) = (240.0 + 480.0 * unit(), 240.0 + 480.0 * unit());
        let p = t.on_ground(&at(east, north, 0.0), EAR_HEIGHT).unwrap();
        ac_to_voxel(&p) + DVec3::new(0.0, 40.0 * unit() * unit(), 0.0)
    };
    let mut pairs: Vec<_> = (0..40)
        .map(|_| (spot(&mut unit), spot(&mut unit)))
        .collect();
    // One pair inside the hall.
    let hall = ground.as_dvec3() + DVec3::new(0.5, 2.5, 0.5);
    pairs.push((hall, hall + DVec3::new(12.0, 0.0, 5.0)));
    for (k, &(source, listener)) in pairs.iter().enumerate() {
        let mut request = SoundRequest::new(source, listener);
        request.paths = Paths::Nine;
        request.measure_source_space = true;
        let budget = || Budget::new(1_560_000);
        let plain = Uncached(t.probe());
        let want = (
            model.direct(&plain, &request, &mut budget()).unwrap(),
            model.room(&plain, &request, &mut budget()).unwrap(),
            (k % 10 == 0).then(|| {
                model
                    .evaluate(&plain, &request, Mode::Full, &mut budget())
                    .unwrap()
            }),
        );
        for pass in 0..3 {
            let got = (
                model.direct(t.probe(), &request, &mut budget()).unwrap(),
                model.room(t.probe(), &request, &mut budget()).unwrap(),
                (k % 10 == 0).then(|| {
                    model
                        .evaluate(t.probe(), &request, Mode::Full, &mut budget())
                        .unwrap()
                }),
            );
            assert_eq!(got, want, "pair {k} pass {pass}");
        }
    }
}
