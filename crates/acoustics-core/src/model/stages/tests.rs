//! Tests of running stages one by one.

use glam::{DVec3, IVec3};

use super::*;
use crate::{Absent, Cell, MaterialTable, OwnModel, WorldStore};

fn wall() -> WorldStore {
    let stone = MaterialTable::standard().by_name("stone").unwrap();
    let mut w = WorldStore::new(Absent::Air);
    w.fill_box(
        IVec3::new(30, 0, -16),
        IVec3::new(30, 15, 15),
        Cell::solid(stone),
    )
    .unwrap();
    w.fill_box(
        IVec3::new(-32, -1, -32),
        IVec3::new(95, -1, 31),
        Cell::solid(stone),
    )
    .unwrap();
    w
}

#[test]
fn each_mode_runs_its_stages_and_full_joins_them() {
    let w = wall();
    let model = OwnModel::new(MaterialTable::standard());
    let request = SoundRequest::new(DVec3::new(0.5, 1.5, 0.5), DVec3::new(60.5, 1.5, 0.5));
    let direct = run_stages(&model, &w, &request, Mode::Direct, Budgets::offline()).unwrap();
    assert_eq!(direct.direct.occ, 1.0);
    assert!(direct.echo.is_none() && direct.room.is_none() && direct.joined.is_none());
    assert_eq!(direct.total, direct.direct.telemetry);
    let full = run_stages(&model, &w, &request, Mode::Full, Budgets::offline()).unwrap();
    let (echo, room, joined) = (full.echo.unwrap(), full.room.unwrap(), full.joined.unwrap());
    let mut all = Budget::new(Budgets::offline().total());
    let again = model.evaluate(&w, &request, Mode::Full, &mut all).unwrap();
    assert_eq!(joined, again);
    assert_eq!(
        full.total.cells,
        full.direct.telemetry.cells + echo.telemetry.cells + room.telemetry.cells
    );
    // A tiny budget is reported, not exceeded.
    let tiny = Budgets {
        direct: 10,
        echo: 10,
        room: 10,
    };
    let cut = run_stages(&model, &w, &request, Mode::Full, tiny).unwrap();
    assert!(cut.total.budget_exhausted && cut.total.cells <= 30);
}
