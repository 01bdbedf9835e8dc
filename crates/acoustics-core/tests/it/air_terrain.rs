//! Air paths on heightfield terrain: over a ridge by the terrain profile, round a box by A*.

use glam::{DVec3, IVec2, IVec3};
use resound_acoustics::{
    Budget, Cell, Diagonal, Heightfield, Layers, MaterialTable, PathLimits, PlacedBox, VertexGrid,
    WorldProbe, find_air_path,
};

const SPACING: i32 = 24;

/// 15 × 15 vertices 24 m apart (336 m square) of flat land at y = 10, with a ridge along z:
/// the vertex column x = 168 at y = 40 (the ground climbs 30 m over 24 m on each side).
fn ridge() -> Heightfield {
    let mut g = VertexGrid::new(IVec2::ZERO, SPACING, 15, 15);
    for k in 0..15 {
        for i in 0..15 {
            g.set(i, k, if i == 7 { 40.0 } else { 10.0 });
        }
    }
    let stone = MaterialTable::standard().by_name("stone").unwrap();
    Heightfield::new(
        &g,
        |i, k| {
            if (i + k) % 2 == 0 {
                Diagonal::Main
            } else {
                Diagonal::Anti
            }
        },
        |_, _| Layers::uniform(stone),
        Cell::Unknown,
    )
    .unwrap()
}

/// The length of the taut string over the continuous ridge: source → crest line → listener.
fn hull_length(source: DVec3, listener: DVec3) -> f64 {
    let s = (listener - source).with_y(0.0);
    let t = (168.0 - source.x) / s.x;
    let crest = source + s * t;
    let crest = crest.with_y(40.0);
    source.distance(crest) + crest.distance(listener)
}

#[test]
fn over_a_ridge_the_path_is_the_string_over_the_profile_for_few_cells() {
    let field = ridge();
    assert_eq!(field.ground_height(100.0, 100.0), Some(10.0));
    // Diagonal across the ridge (the DDA steps both axes), 1.5 m and 2.2 m above the ground.
    let source = DVec3::new(50.3, 11.5, 150.7);
    let listener = DVec3::new(290.6, 12.2, 190.2);
    let mut budget = Budget::new(30_000);
    let limits = PathLimits::with_range(1000.0);
    let path = find_air_path(&field, source, listener, &limits, &mut budget)
        .unwrap()
        .expect("a path over the ridge");
    let hull = hull_length(source, listener);
    let rel = (path.length - hull).abs() / hull;
    assert!(rel < 0.01, "path {} m vs hull {hull} m", path.length);
    assert!(path.length > source.distance(listener) + 1.0);
    assert_eq!(path.bends(), 1, "{:?}", path.corners);
    let c = path.corners[0];
    assert!((166.0..=170.0).contains(&c.x), "{c}");
    assert!((38.0..=40.5).contains(&c.y), "{c}");
    // One height read per column crossed (~285) and the two segments' line-of-sight walks:
    // the cell search would flood this valley with hundreds of thousands.
    eprintln!(
        "path {} m, hull {hull} m, {} cells",
        path.length, path.cells
    );
    assert!(path.cells < 2_000, "{} cells", path.cells);
    assert_eq!(path.cells, budget.used());
}

#[test]
fn a_box_on_flat_land_is_passed_by_the_cell_search() {
    let mut field = ridge();
    // A stone wall 12 m wide, 8 m high on the flat land west of the ridge, across the line.
    let stone = MaterialTable::standard().by_name("stone").unwrap();
    field.place(PlacedBox {
        min: IVec3::new(60, 0, 94),
        max: IVec3::new(60, 17, 105),
        cell: Cell::solid(stone),
    });
    let source = DVec3::new(52.5, 11.5, 100.5);
    let listener = DVec3::new(68.5, 11.5, 100.5);
    let mut budget = Budget::new(400_000);
    let limits = PathLimits::with_range(1000.0);
    let path = find_air_path(&field, source, listener, &limits, &mut budget)
        .unwrap()
        .expect("a path over or round the wall");
    assert!(path.bends() >= 1);
    // The string over the ground profile is the straight line (flat land): no corner, so the
    // cell search ran; the path clears the wall over its top (y 18) or round an end (z 94/106).
    assert!(path.length > 16.0 + 1.0, "{}", path.length);
    assert!(path.length < 3.0 * 16.0, "{}", path.length);
    assert!(
        path.corners
            .iter()
            .any(|c| c.y >= 17.9 || c.z <= 94.1 || c.z >= 105.9),
        "{:?}",
        path.corners
    );
}
