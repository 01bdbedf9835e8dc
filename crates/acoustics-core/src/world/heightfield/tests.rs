//! Tests of the heightfield probe: planes, splits, classes, boxes, absent tiles.

use glam::{DVec3, IVec2, IVec3};

use super::*;
use crate::Budget;
use crate::ray::dda::walk;
use crate::world::material::MaterialTable;

const S: i32 = 24;

/// One 24-block tile with corner heights (c00, c10, c01, c11) and a split.
fn one_tile(h: [f32; 4], diagonal: Diagonal) -> Heightfield {
    let mut g = VertexGrid::new(IVec2::ZERO, S, 2, 2);
    g.set(0, 0, h[0]);
    g.set(1, 0, h[1]);
    g.set(0, 1, h[2]);
    g.set(1, 1, h[3]);
    let stone = MaterialTable::standard().by_name("stone").unwrap();
    Heightfield::new(
        &g,
        |_, _| diagonal,
        |_, _| Layers::uniform(stone),
        Cell::Unknown,
    )
    .unwrap()
}

/// Within 0.01 block (the far corners are sampled 0.001 block inside the tile).
fn close(a: f32, b: f32) {
    assert!((a - b).abs() < 1e-2, "{a} vs {b}");
}

#[test]
fn heights_at_the_vertices_and_centroids_of_both_triangles_of_each_split() {
    let h = [10.0, 30.0, 50.0, 20.0];
    let s = S as f64;
    let corner = |i: f64, k: f64| (i * s, k * s);
    for diagonal in [Diagonal::Main, Diagonal::Anti] {
        let f = one_tile(h, diagonal);
        // Vertices (the far corners are sampled just inside the tile).
        let e = 1e-3;
        close(f.height_at(0.0, 0.0).unwrap(), 10.0);
        close(f.height_at(s - e, 0.0).unwrap(), 30.0);
        close(f.height_at(0.0, s - e).unwrap(), 50.0);
        close(f.height_at(s - e, s - e).unwrap(), 20.0);
        // Centroids: the mean of each triangle's three corners.
        let tris: [[(usize, (f64, f64)); 3]; 2] = match diagonal {
            Diagonal::Main => [
                [
                    (0, corner(0.0, 0.0)),
                    (1, corner(1.0, 0.0)),
                    (3, corner(1.0, 1.0)),
                ],
                [
                    (0, corner(0.0, 0.0)),
                    (2, corner(0.0, 1.0)),
                    (3, corner(1.0, 1.0)),
                ],
            ],
            Diagonal::Anti => [
                [
                    (0, corner(0.0, 0.0)),
                    (1, corner(1.0, 0.0)),
                    (2, corner(0.0, 1.0)),
                ],
                [
                    (1, corner(1.0, 0.0)),
                    (3, corner(1.0, 1.0)),
                    (2, corner(0.0, 1.0)),
                ],
            ],
        };
        for tri in tris {
            let cx = tri.iter().map(|t| t.1.0).sum::<f64>() / 3.0;
            let cz = tri.iter().map(|t| t.1.1).sum::<f64>() / 3.0;
            let want = tri.iter().map(|t| h[t.0]).sum::<f32>() / 3.0;
            close(f.height_at(cx, cz).unwrap(), want);
        }
    }
    // The two splits disagree off the diagonal: at (18, 6) Main uses c00-c10-c11, Anti c00-c10-c01
    // for (u + w = 24 ≤ 24) … pick a point clearly in different triangles.
    let main = one_tile(h, Diagonal::Main).height_at(6.0, 18.0).unwrap();
    let anti = one_tile(h, Diagonal::Anti).height_at(6.0, 18.0).unwrap();
    assert!((main - anti).abs() > 1.0, "{main} {anti}");
}

#[test]
fn cells_are_solid_below_the_plane_at_their_centre() {
    let f = one_tile([10.0; 4], Diagonal::Main);
    assert!(f.cell(IVec3::new(5, 9, 5)).is_solid()); // centre 9.5 < 10
    assert_eq!(f.cell(IVec3::new(5, 10, 5)), Cell::Air); // centre 10.5 > 10
    assert_eq!(f.cell(IVec3::new(-1, 0, 5)), Cell::Unknown); // outside the grid
    assert_eq!(f.cell(IVec3::new(24, 0, 5)), Cell::Unknown);
}

#[test]
fn water_layers_over_stone() {
    let m = MaterialTable::standard();
    let (water, stone) = (m.by_name("water").unwrap(), m.by_name("stone").unwrap());
    let g = {
        let mut g = VertexGrid::new(IVec2::ZERO, S, 2, 2);
        for (i, k) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            g.set(i, k, 30.0);
        }
        g
    };
    let layers = Layers {
        top: water,
        depth: 2.0,
        below: stone,
    };
    let f = Heightfield::new(&g, |_, _| Diagonal::Main, |_, _| layers, Cell::Unknown).unwrap();
    assert_eq!(f.cell(IVec3::new(3, 29, 3)), Cell::solid(water)); // 0.5 below
    assert_eq!(f.cell(IVec3::new(3, 28, 3)), Cell::solid(water)); // 1.5 below
    assert_eq!(f.cell(IVec3::new(3, 27, 3)), Cell::solid(stone)); // 2.5 below
    // Deep sections are Full(stone); the one holding the water is Mixed.
    assert_eq!(
        f.section_class(IVec3::new(0, 0, 0)),
        SectionClass::Full(stone)
    );
    assert_eq!(f.section_class(IVec3::new(0, 1, 0)), SectionClass::Mixed);
}

#[test]
fn section_classes_open_sky_empty_deep_rock_full_surface_mixed_absent_unknown() {
    let f = one_tile([40.0, 45.0, 41.0, 44.0], Diagonal::Anti);
    let stone = MaterialTable::standard().by_name("stone").unwrap();
    assert_eq!(f.section_class(IVec3::new(0, 3, 0)), SectionClass::Empty); // 48.. open sky
    assert_eq!(f.section_class(IVec3::new(0, 10, 0)), SectionClass::Empty);
    assert_eq!(
        f.section_class(IVec3::new(0, 1, 0)),
        SectionClass::Full(stone)
    ); // 16..32
    assert_eq!(
        f.section_class(IVec3::new(0, -4, 0)),
        SectionClass::Full(stone)
    );
    assert_eq!(f.section_class(IVec3::new(0, 2, 0)), SectionClass::Mixed); // 32..48
    assert_eq!(f.section_class(IVec3::new(-1, 2, 0)), SectionClass::Unknown);
    // A section half over the tile, half outside: Mixed (its outside half is Unknown).
    assert_eq!(f.section_class(IVec3::new(1, 0, 0)), SectionClass::Mixed);
    assert_eq!(f.cell(IVec3::new(30, 0, 3)), Cell::Unknown);
}

#[test]
fn classes_agree_with_cells() {
    // Every cell of every uniform section has the section's value.
    let f = one_tile([3.0, 60.0, 20.0, 35.0], Diagonal::Main);
    for sy in -1..5 {
        for sx in 0..2 {
            for sz in 0..2 {
                let s = IVec3::new(sx, sy, sz);
                let class = f.section_class(s);
                for y in 0..16 {
                    for x in 0..16 {
                        for z in 0..16 {
                            let c = s * 16 + IVec3::new(x, y, z);
                            let cell = f.cell(c);
                            match class {
                                SectionClass::Empty => assert_eq!(cell, Cell::Air, "{c}"),
                                SectionClass::Full(m) => assert_eq!(cell, Cell::solid(m), "{c}"),
                                SectionClass::Unknown => assert_eq!(cell, Cell::Unknown, "{c}"),
                                SectionClass::Mixed => {}
                            }
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn placed_boxes_win_over_the_terrain() {
    let mut f = one_tile([40.0; 4], Diagonal::Main);
    let wool = MaterialTable::standard().by_name("wool").unwrap();
    // A tunnel of air through the hill and a wool wall above it.
    f.place(PlacedBox {
        min: IVec3::new(0, 20, 10),
        max: IVec3::new(23, 22, 12),
        cell: Cell::Air,
    });
    f.place(PlacedBox {
        min: IVec3::new(10, 40, 0),
        max: IVec3::new(10, 45, 23),
        cell: Cell::solid(wool),
    });
    assert_eq!(f.cell(IVec3::new(5, 21, 11)), Cell::Air);
    assert!(f.cell(IVec3::new(5, 19, 11)).is_solid());
    assert_eq!(f.cell(IVec3::new(10, 42, 5)), Cell::solid(wool));
    assert_eq!(f.section_class(IVec3::new(0, 1, 0)), SectionClass::Mixed);
    assert_eq!(f.section_class(IVec3::new(0, 2, 0)), SectionClass::Mixed);
    assert!(f.revision() >= 2);
    // A box covering a whole section makes it uniform.
    f.place(PlacedBox {
        min: IVec3::new(0, 64, 0),
        max: IVec3::new(15, 79, 15),
        cell: Cell::solid(wool),
    });
    assert_eq!(
        f.section_class(IVec3::new(0, 4, 0)),
        SectionClass::Full(wool)
    );
}

#[test]
fn bad_grids_are_typed_errors() {
    let keep = |_: usize, _: usize| Diagonal::Main;
    let mat = |_: usize, _: usize| Layers::uniform(crate::MaterialId::DEFAULT);
    let g = VertexGrid::new(IVec2::ZERO, 0, 2, 2);
    assert_eq!(
        Heightfield::new(&g, keep, mat, Cell::Unknown).err(),
        Some(HeightfieldError::BadGrid)
    );
    let mut g = VertexGrid::new(IVec2::ZERO, 24, 2, 2);
    g.set(1, 1, f32::NAN);
    assert_eq!(
        Heightfield::new(&g, keep, mat, Cell::Unknown).err(),
        Some(HeightfieldError::BadHeight { i: 1, k: 1 })
    );
    let mut g = VertexGrid::new(IVec2::ZERO, 24, 2, 2);
    g.heights.pop();
    assert!(matches!(
        Heightfield::new(&g, keep, mat, Cell::Unknown),
        Err(HeightfieldError::HeightCount { .. })
    ));
    let g = VertexGrid::new(IVec2::new(1 << 28, 0), 24, 2, 2);
    assert_eq!(
        Heightfield::new(&g, keep, mat, Cell::Unknown).err(),
        Some(HeightfieldError::OutOfWorld)
    );
}

#[test]
fn an_open_sky_ray_skips_sections() {
    // 24 × 24 tiles of gently rolling land at about 40 blocks; a 512-block ray 20 blocks above.
    let mut g = VertexGrid::new(IVec2::ZERO, S, 25, 25);
    for k in 0..25 {
        for i in 0..25 {
            g.set(i, k, 38.0 + ((i * 7 + k * 3) % 5) as f32);
        }
    }
    let f = Heightfield::new(
        &g,
        |i, k| {
            if (i + k) % 2 == 0 {
                Diagonal::Main
            } else {
                Diagonal::Anti
            }
        },
        |_, _| Layers::uniform(crate::MaterialId::DEFAULT),
        Cell::Unknown,
    )
    .unwrap();
    let mut budget = Budget::unlimited();
    let dir = DVec3::new(1.0, 0.0, 0.7).normalize();
    let stats = walk(
        &f,
        DVec3::new(1.0, 65.0, 1.0),
        dir,
        512.0,
        &mut budget,
        |_| crate::ray::dda::Flow::Continue,
    );
    assert!(stats.cells <= 200, "{stats:?}");
    assert!(!stats.met_unknown);
}
