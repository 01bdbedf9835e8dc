//! The tour's script and world: the walk is continuous and ends where the script says, stages
//! are in order, and on the fixture world the structures stand where the walk goes (the ear in
//! the tunnel and the hall is in air, their walls are stone, the gorge is open to the sky).

use resound_engine::advanced::acoustics::{Cell, WorldProbe};
use resound_engine::advanced::ambient::DatSource;
use resound_engine::advanced::datformat::container::DatReader;
use resound_engine::advanced::datformat::record::Region;
use resound_engine::glam::DVec2;

use super::script::{EVENTS, PATH, STAGES, STRUCTURES, position_at, stage_at};
use super::world::TourWorld;
use resound_engine::sound::DEFAULT_REGION_ID;

#[test]
fn the_walk_passes_its_waypoints_and_moves_at_a_walkers_pace() {
    for w in PATH {
        assert!(position_at(w.at).distance(w.xy) < 1e-9);
    }
    assert_eq!(position_at(-1.0), PATH[0].xy);
    assert_eq!(position_at(2.0), PATH[PATH.len() - 1].xy);
    // At the default length no leg is faster than a rider (12 m/s).
    let seconds = super::TourSettings::default().seconds;
    for w in PATH.windows(2) {
        let speed = w[0].xy.distance(w[1].xy) / ((w[1].at - w[0].at) * seconds);
        assert!(speed < 12.0, "{speed} m/s from {:?}", w[0].xy);
    }
}

#[test]
fn stages_and_events_are_in_tour_order() {
    assert!(STAGES.windows(2).all(|s| s[0].from < s[1].from));
    assert!(EVENTS.windows(2).all(|e| e[0].at <= e[1].at));
    assert_eq!(stage_at(0.0), "open field");
    assert_eq!(stage_at(0.5), "gorge");
    assert_eq!(stage_at(0.8), "stone hall");
    assert_eq!(stage_at(1.0), "open again");
}

fn fixture() -> TourWorld {
    let world = resound_fixture::write_world();
    let mut portal = DatSource::new(DatReader::new(std::io::Cursor::new(world.portal)).unwrap());
    let mut cell = DatSource::new(DatReader::new(std::io::Cursor::new(world.cell)).unwrap());
    let region: Region = portal.load_record(DEFAULT_REGION_ID).unwrap().unwrap();
    TourWorld::load(&region, &mut cell).unwrap()
}

fn cell_at(w: &TourWorld, xy: DVec2, z: f64) -> Cell {
    let v = super::world::area_to_voxel(xy, z);
    w.probe().cell(v.floor().as_ivec3())
}

#[test]
fn on_the_fixture_the_walk_goes_through_the_structures() {
    let w = fixture();
    assert_eq!(w.boxes().len(), STRUCTURES.len());
    let floor = w.floor;
    // Tunnel: the ear is in the bore, the rock above and beside it is stone.
    let tunnel = DVec2::new(500.0, 330.0);
    assert!((w.ground(tunnel) - floor).abs() < 1e-9);
    assert_eq!(cell_at(&w, tunnel, floor + 1.75), Cell::Air);
    assert!(cell_at(&w, tunnel, floor + 6.5).is_solid());
    assert!(cell_at(&w, DVec2::new(500.0, 322.5), floor + 1.5).is_solid());
    assert!(cell_at(&w, tunnel, floor - 0.5).is_solid(), "no floor");
    // Hall: air inside up to 12 m, stone walls and roof.
    let hall = DVec2::new(546.0, 330.0);
    assert_eq!(cell_at(&w, hall, floor + 11.5), Cell::Air);
    assert!(cell_at(&w, hall, floor + 12.5).is_solid(), "no roof");
    assert!(
        cell_at(&w, DVec2::new(546.0, 313.0), floor + 3.0).is_solid(),
        "no wall"
    );
    // Gorge: walls either side, open sky above the walk.
    let gorge = DVec2::new(420.0, 330.0);
    assert!(cell_at(&w, DVec2::new(420.0, 320.0), floor + 20.0).is_solid());
    assert!(cell_at(&w, DVec2::new(420.0, 340.0), floor + 20.0).is_solid());
    for z in 0..60 {
        assert_eq!(cell_at(&w, gorge, floor + 0.5 + f64::from(z)), Cell::Air);
    }
    // The walk is never inside rock.
    for i in 0..=1000 {
        let xy = position_at(f64::from(i) / 1000.0);
        let ear = w.ear(xy).floor().as_ivec3();
        assert!(!w.probe().cell(ear).is_solid(), "ear in rock at {xy:?}");
    }
}
