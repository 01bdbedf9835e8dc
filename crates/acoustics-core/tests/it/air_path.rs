//! Air paths round corners (issue 32) on real voxel worlds built with `WorldStore`.

use glam::{DVec3, IVec3};
use resound_acoustics::airpath::diffraction::SPEED_OF_SOUND;
use resound_acoustics::{
    Absent, AcousticModel, AirPathCache, Budget, Cell, DirectKind, MaterialTable, OwnModel,
    PathError, PathLimits, Paths, SoundRequest, WorldProbe, WorldStore, combine, find_air_path,
};

fn stone() -> Cell {
    Cell::solid(MaterialTable::standard().by_name("stone").unwrap())
}

fn carve(w: &mut WorldStore, min: [i32; 3], max: [i32; 3]) {
    w.fill_box(IVec3::from_array(min), IVec3::from_array(max), Cell::Air)
        .unwrap();
}

/// Two stone rooms (x 0..=9 and 11..=20, y 0..=2, z 0..=10) in a closed stone shell, the wall
/// x = 10 between them with a door at z 5..=6, y 0..=2 (opening z ∈ [5, 7], y ∈ [0, 3]).
fn rooms_with_door() -> WorldStore {
    let mut w = WorldStore::new(Absent::Air);
    w.fill_box(IVec3::new(-1, -1, -1), IVec3::new(21, 3, 11), stone())
        .unwrap();
    carve(&mut w, [0, 0, 0], [9, 2, 10]);
    carve(&mut w, [11, 0, 0], [20, 2, 10]);
    set_door(&mut w, true);
    w
}

fn set_door(w: &mut WorldStore, open: bool) {
    let cell = if open { Cell::Air } else { stone() };
    w.fill_box(IVec3::new(10, 0, 5), IVec3::new(10, 2, 6), cell)
        .unwrap();
}

/// An L of stone corridors 3 × 3 in section: leg A along x (x 0..=20, z 0..=2), leg B along z
/// (x 18..=20, z 0..=20), inside solid stone; the inner corner is the vertical edge x = 18,
/// z = 3.
fn l_corridor() -> WorldStore {
    let mut w = WorldStore::new(Absent::Air);
    w.fill_box(IVec3::new(-1, -1, -1), IVec3::new(21, 3, 21), stone())
        .unwrap();
    carve(&mut w, [0, 0, 0], [20, 2, 2]);
    carve(&mut w, [18, 0, 0], [20, 2, 20]);
    w
}

fn db(g: f64) -> f64 {
    20.0 * g.max(1e-12).log10()
}

fn inverse_distance(d: f64) -> f64 {
    1.0 / d.max(1.0)
}

fn through(world: &WorldStore, source: DVec3, listener: DVec3) -> resound_acoustics::DirectResult {
    let mut request = SoundRequest::new(source, listener);
    request.paths = Paths::One;
    OwnModel::default()
        .direct(&world.snapshot(), &request, &mut Budget::unlimited())
        .unwrap()
}

#[test]
fn door_path_goes_through_the_doorway_and_points_at_it() {
    let world = rooms_with_door();
    let listener = DVec3::new(3.5, 1.5, 1.5);
    let source = DVec3::new(16.5, 1.5, 1.5);
    let mut budget = Budget::new(200_000);
    let path = find_air_path(
        &world,
        source,
        listener,
        &PathLimits::default(),
        &mut budget,
    )
    .unwrap()
    .expect("a path through the door");
    assert!(!path.is_line());
    assert_eq!(path.cells, budget.used());
    // Every bend lies at the door, by the frame edge z = 5 (the side nearest the line).
    for c in &path.corners {
        assert!((9.99..=11.01).contains(&c.x), "{c}");
        assert!((c.z - 5.0).abs() < 0.02, "{c}");
    }
    // The shortest path bends at the two vertical frame edges (10, y, 5) and (11, y, 5).
    let ideal = listener.distance(DVec3::new(10.0, 1.5, 5.0))
        + 1.0
        + DVec3::new(11.0, 1.5, 5.0).distance(source);
    assert!(
        path.length >= ideal - 1e-9 && path.length < ideal * 1.002,
        "{} vs {ideal}",
        path.length
    );
    assert!((path.extra_delay_s - (path.length - path.straight) / SPEED_OF_SOUND).abs() < 1e-12);
    // The apparent direction: from the listener through the door opening.
    let t = (10.0 - listener.x) / path.direction.x;
    let hit = listener + path.direction * t;
    assert!(
        (5.0..=7.0).contains(&hit.z) && (0.0..=3.0).contains(&hit.y),
        "{hit}"
    );
    let straight_dir = (source - listener).normalize();
    assert!(path.direction.dot(straight_dir) < 0.95);
    assert!(path.loss_db[2] > path.loss_db[1] && path.loss_db[1] > path.loss_db[0]);
    assert!(path.loss_db[0] > 3.0);
}

#[test]
fn loss_grows_behind_the_wall_without_a_step_where_the_line_clears() {
    let world = rooms_with_door();
    let listener = DVec3::new(6.5, 1.5, 6.0);
    let limits = PathLimits::default();
    let mut last_loss = -1.0;
    let mut last_level: Option<[f64; 3]> = None;
    let mut kinds = Vec::new();
    // The source slides from the door line (z = 6) to deep behind the wall (z = 0.5).
    for k in 0..=110 {
        let z = 6.0 - 0.05 * f64::from(k);
        let source = DVec3::new(14.5, 1.5, z);
        let path = find_air_path(&world, source, listener, &limits, &mut Budget::unlimited())
            .unwrap()
            .unwrap();
        assert!(
            path.loss_db[2] >= last_loss - 0.3,
            "z {z}: {} after {last_loss}",
            path.loss_db[2]
        );
        if last_loss >= 0.0 {
            assert!((path.loss_db[2] - last_loss).abs() < 1.0, "z {z}");
        }
        last_loss = path.loss_db[2];
        let request = SoundRequest::new(source, listener);
        let sound = combine(
            &request,
            &through(&world, source, listener),
            Some(&path),
            inverse_distance,
        );
        kinds.push(sound.kind);
        let level = sound.bands.map(|b| db(f64::from(b)));
        // The low band follows the through model's steps (SPR's `gain = cutoff^0.1`: one more
        // stone cell on the line is −2.6 dB there); mid and high come from the air path.
        if let Some(prev) = last_level {
            for b in 1..3 {
                assert!(
                    (level[b] - prev[b]).abs() < 1.5,
                    "z {z}: band {b} {} → {}",
                    prev[b],
                    level[b]
                );
            }
        }
        last_level = Some(level);
    }
    // The line was open at the start and the sound went round the frame at the end.
    assert_eq!(kinds[0], DirectKind::Line);
    assert_eq!(kinds[110], DirectKind::Around);
    assert!(last_loss > 15.0, "{last_loss}");
}

#[test]
fn l_corridor_path_bends_at_the_inner_corner() {
    let world = l_corridor();
    let listener = DVec3::new(2.5, 1.5, 1.5);
    let source = DVec3::new(19.5, 1.5, 18.5);
    let path = find_air_path(
        &world,
        source,
        listener,
        &PathLimits::default(),
        &mut Budget::new(200_000),
    )
    .unwrap()
    .unwrap();
    let corner = DVec3::new(18.0, 1.5, 3.0);
    let geometric = listener.distance(corner) + corner.distance(source);
    assert!(
        (path.length - geometric).abs() / geometric < 0.03,
        "{} vs {geometric}",
        path.length
    );
    assert_eq!(path.bends(), 1, "{:?}", path.corners);
    let leg = (corner - listener).normalize();
    assert!(path.direction.dot(leg) > 10f64.to_radians().cos());
    assert!(path.direction.dot(DVec3::X) > 10f64.to_radians().cos());

    // Against today's through-stone result and an open source at the path's length.
    let request = SoundRequest::new(source, listener);
    let stone = through(&world, source, listener);
    let sound = combine(&request, &stone, Some(&path), inverse_distance);
    assert_eq!(sound.kind, DirectKind::Around);
    let open_at_path = inverse_distance(path.length) / inverse_distance(path.straight);
    for b in 0..3 {
        // The bands the mixer plays through stone: gain low, gain·hf high, their dB mean.
        let high = f64::from(stone.gain * stone.cutoff * stone.air);
        let through_band = [
            f64::from(stone.gain),
            (f64::from(stone.gain) * high).sqrt(),
            high,
        ][b];
        let level = db(f64::from(sound.bands[b]));
        assert!(level - db(through_band) >= 20.0, "band {b}: {level}");
        assert!(db(open_at_path) - level >= 3.0, "band {b}: {level}");
    }
    assert!(sound.bands[2] < sound.bands[0]);
    assert!(sound.extra_delay_s > 0.0 && sound.bends == 1);
}

#[test]
fn a_closed_room_has_no_air_path() {
    let mut world = rooms_with_door();
    set_door(&mut world, false);
    let r = find_air_path(
        &world,
        DVec3::new(16.5, 1.5, 1.5),
        DVec3::new(3.5, 1.5, 1.5),
        &PathLimits::default(),
        &mut Budget::unlimited(),
    );
    assert_eq!(r, Ok(None));
}

#[test]
fn the_length_limit_rejects_long_detours() {
    let world = rooms_with_door();
    let (source, listener) = (DVec3::new(16.5, 1.5, 1.5), DVec3::new(3.5, 1.5, 1.5));
    let tight = PathLimits {
        length_factor: 1.05,
        ..PathLimits::default()
    };
    assert_eq!(
        find_air_path(&world, source, listener, &tight, &mut Budget::unlimited()),
        Ok(None)
    );
    let short_range = PathLimits::with_range(14.0);
    assert_eq!(
        find_air_path(
            &world,
            source,
            listener,
            &short_range,
            &mut Budget::unlimited()
        ),
        Ok(None)
    );
}

#[test]
fn over_budget_is_an_error_not_a_path() {
    let world = rooms_with_door();
    let (source, listener) = (DVec3::new(16.5, 1.5, 1.5), DVec3::new(3.5, 1.5, 1.5));
    let mut budget = Budget::new(300);
    let r = find_air_path(
        &world,
        source,
        listener,
        &PathLimits::default(),
        &mut budget,
    );
    assert_eq!(
        r,
        Err(PathError::OverBudget {
            cells: budget.used()
        })
    );
    assert!(budget.used() <= 300);
    // Not cached: the next call with a fair budget finds the path.
    let mut cache = AirPathCache::new();
    let r = cache.find(
        &world,
        1,
        source,
        listener,
        &PathLimits::default(),
        &mut Budget::new(300),
        0,
    );
    assert!(matches!(r, Err(PathError::OverBudget { .. })));
    let r = cache.find(
        &world,
        1,
        source,
        listener,
        &PathLimits::default(),
        &mut Budget::new(200_000),
        0,
    );
    assert!(r.unwrap().is_some());
}

#[test]
fn bad_input_is_typed() {
    let world = rooms_with_door();
    let r = find_air_path(
        &world,
        DVec3::new(f64::NAN, 0.0, 0.0),
        DVec3::ZERO,
        &PathLimits::default(),
        &mut Budget::unlimited(),
    );
    assert!(matches!(r, Err(PathError::BadInput(_))));
    let r = find_air_path(
        &world,
        DVec3::ZERO,
        DVec3::ONE,
        &PathLimits {
            length_factor: f64::NAN,
            range: 10.0,
        },
        &mut Budget::unlimited(),
    );
    assert!(matches!(r, Err(PathError::BadInput(_))));
}

#[test]
fn cache_follows_the_door_through_section_revisions() {
    let mut world = rooms_with_door();
    let (source, listener) = (DVec3::new(16.5, 1.5, 1.5), DVec3::new(3.5, 1.5, 1.5));
    let limits = PathLimits::default();
    let mut cache = AirPathCache::new();
    let find = |cache: &mut AirPathCache, world: &WorldStore, tick| {
        let mut budget = Budget::new(200_000);
        let r = cache
            .find(
                &world.snapshot(),
                7,
                source,
                listener,
                &limits,
                &mut budget,
                tick,
            )
            .unwrap();
        (r, budget.used())
    };
    let (open, cells) = find(&mut cache, &world, 0);
    let open = open.unwrap();
    assert!(cells > 0);
    // A repeat (even moved within its cell) is a hit: no cells spent, same bends.
    let (again, cells) = find(&mut cache, &world, 1);
    assert_eq!((again.as_ref(), cells), (Some(&open), 0));
    let moved = cache
        .find(
            &world,
            7,
            source + DVec3::new(0.2, 0.1, 0.3),
            listener,
            &limits,
            &mut Budget::new(0),
            1,
        )
        .unwrap()
        .unwrap();
    assert_eq!(moved.corners, open.corners);
    assert!((moved.length - open.length).abs() > 1e-3);

    // Close the door; changes forwarded as for the other caches.
    let rev = world.revision();
    set_door(&mut world, false);
    cache.on_changes(world.changes_since(rev).unwrap());
    let (closed, cells) = find(&mut cache, &world, 2);
    assert_eq!(closed, None);
    assert!(cells > 0);
    // Reopen without forwarding the changes: the section revisions alone invalidate.
    set_door(&mut world, true);
    let (reopened, _) = find(&mut cache, &world, 3);
    assert_eq!(reopened.unwrap().corners, open.corners);
    // An edit far outside the region keeps the entry.
    world.set_cell(IVec3::new(200, 0, 200), stone()).unwrap();
    let (far, cells) = find(&mut cache, &world, 4);
    assert!(far.is_some());
    assert_eq!(cells, 0);
    // A new epoch clears it.
    world.set_epoch(9);
    let (_, cells) = find(&mut cache, &world, 5);
    assert!(cells > 0);
}

#[test]
fn a_thin_wooden_wall_lets_its_transmission_win() {
    // Two rooms divided by one block of wood; the only opening is a door at the far end, so
    // the detour is long and bends twice round a 1-block frame.
    let mut world = WorldStore::new(Absent::Air);
    world
        .fill_box(IVec3::new(-1, -1, -1), IVec3::new(21, 3, 31), stone())
        .unwrap();
    carve(&mut world, [0, 0, 0], [9, 2, 30]);
    carve(&mut world, [11, 0, 0], [20, 2, 30]);
    let wood = Cell::solid(MaterialTable::standard().by_name("wood").unwrap());
    world
        .fill_box(IVec3::new(10, 0, 0), IVec3::new(10, 2, 30), wood)
        .unwrap();
    carve(&mut world, [10, 0, 29], [10, 2, 30]);
    let (source, listener) = (DVec3::new(12.5, 1.5, 1.5), DVec3::new(7.5, 1.5, 1.5));
    let path = find_air_path(
        &world,
        source,
        listener,
        &PathLimits::with_range(512.0).with_factor(20.0),
        &mut Budget::unlimited(),
    )
    .unwrap()
    .unwrap();
    let wall = through(&world, source, listener);
    let request = SoundRequest::new(source, listener);
    let sound = combine(&request, &wall, Some(&path), inverse_distance);
    // The documented rule: per band the louder wins; here the wood is louder on every band.
    assert_eq!(sound.kind, DirectKind::Through);
    assert!((f64::from(sound.bands[0]) - f64::from(wall.gain)).abs() < 1e-6);
    assert!(
        (f64::from(sound.bands[2]) - f64::from(wall.gain * wall.cutoff * wall.air)).abs() < 1e-6
    );
    assert!((sound.hf - wall.cutoff * wall.air).abs() < 1e-6);
    assert_eq!(sound.path_m, request.distance());
    assert_eq!(sound.extra_delay_s, 0.0);
}

#[test]
fn search_is_deterministic() {
    let world = l_corridor();
    let (source, listener) = (DVec3::new(19.5, 1.5, 18.5), DVec3::new(2.5, 1.5, 1.5));
    let a = find_air_path(
        &world,
        source,
        listener,
        &PathLimits::default(),
        &mut Budget::unlimited(),
    );
    let b = find_air_path(
        &world.snapshot(),
        source,
        listener,
        &PathLimits::default(),
        &mut Budget::unlimited(),
    );
    assert_eq!(a, b);
}

#[test]
fn a_source_walking_a_few_cells_keeps_its_bends_for_two_walks() {
    let world = l_corridor();
    let listener = DVec3::new(2.5, 1.5, 1.5);
    let limits = PathLimits::default();
    let mut cache = AirPathCache::new();
    let at = |z: f64| DVec3::new(19.5, 1.5, z);
    let first = cache
        .find(
            &world,
            7,
            at(18.5),
            listener,
            &limits,
            &mut Budget::unlimited(),
            0,
        )
        .unwrap()
        .unwrap();
    // Three cells down the leg: the bend is kept, two end legs walked, no search.
    let mut budget = Budget::unlimited();
    let moved = cache
        .find(&world, 7, at(15.5), listener, &limits, &mut budget, 1)
        .unwrap()
        .unwrap();
    let fresh = find_air_path(
        &world,
        at(15.5),
        listener,
        &limits,
        &mut Budget::unlimited(),
    )
    .unwrap()
    .unwrap();
    assert_eq!(moved.corners, first.corners);
    assert!(
        (moved.length - fresh.length).abs() / fresh.length < 0.01,
        "{} {}",
        moved.length,
        fresh.length
    );
    assert!(
        moved.cells < first.cells / 4,
        "{} vs {}",
        moved.cells,
        first.cells
    );
    // Round the corner into the listener's leg: the bend is dropped, the line is clear.
    let line = cache
        .find(
            &world,
            7,
            DVec3::new(19.5, 1.5, 1.5),
            listener,
            &limits,
            &mut Budget::unlimited(),
            2,
        )
        .unwrap()
        .unwrap();
    assert!(line.is_line() || line.length - 17.0 < 0.01, "{line:?}");
    // Far from where it was searched (beyond REUSE_CELLS): a new search.
    let mut far = Budget::unlimited();
    let again = cache
        .find(&world, 7, at(8.5), listener, &limits, &mut far, 3)
        .unwrap()
        .unwrap();
    assert_eq!(again.bends(), 1);
    assert!(far.used() > moved.cells);
}

/// A 64 m stone block with a 4 × 3 corridor that turns three times (the corners bench's maze):
/// A along x (z 2..=5), B along z (x 58..=61), C back along x (z 18..=21), D along z
/// (x 30..=33) to z 40.
fn maze() -> WorldStore {
    let mut w = WorldStore::new(Absent::Air);
    w.fill_box(IVec3::new(0, -1, 0), IVec3::new(63, 3, 63), stone())
        .unwrap();
    carve(&mut w, [2, 0, 2], [61, 2, 5]);
    carve(&mut w, [58, 0, 2], [61, 2, 21]);
    carve(&mut w, [30, 0, 18], [61, 2, 21]);
    carve(&mut w, [30, 0, 18], [33, 2, 40]);
    w
}

#[test]
fn maze_path_bends_on_the_three_inner_edges_at_the_geometric_length() {
    let world = maze();
    let (source, listener) = (DVec3::new(31.5, 1.5, 39.5), DVec3::new(10.5, 1.5, 3.5));
    let mut budget = Budget::new(200_000);
    let path = find_air_path(
        &world,
        source,
        listener,
        &PathLimits::default(),
        &mut budget,
    )
    .unwrap()
    .expect("a path round three corners");
    // The taut string wraps the inner vertical edges (34, y, 22), (58, y, 18), (58, y, 6).
    let edges = [
        DVec3::new(34.0, 1.5, 22.0),
        DVec3::new(58.0, 1.5, 18.0),
        DVec3::new(58.0, 1.5, 6.0),
    ];
    assert_eq!(path.bends(), 3, "{:?}", path.corners);
    for (c, e) in path.corners.iter().zip(edges) {
        assert!(c.distance(e) < 0.01, "{c} vs {e}");
    }
    let mut geometric = source.distance(edges[0]) + edges[2].distance(listener);
    geometric += edges[0].distance(edges[1]) + edges[1].distance(edges[2]);
    assert!(
        path.length >= geometric - 0.01 && path.length < geometric * 1.001,
        "{} vs {geometric}",
        path.length
    );
    // The search's figure for the spec (§4a): the bends put on their edges in closed form.
    assert!(path.cells < 8_000, "{} cells", path.cells);
}

#[test]
fn a_path_over_a_tall_wall_crosses_open_sections_whole() {
    // A stone wall x 0..=0, y −20..=19, z −40..=40 hanging in open air: the sky over it and
    // the air beside it are Empty sections; over the top is shorter than under or round.
    let mut w = WorldStore::new(Absent::Air);
    w.fill_box(IVec3::new(0, -20, -40), IVec3::new(0, 19, 40), stone())
        .unwrap();
    let (source, listener) = (DVec3::new(-10.5, 1.5, 0.5), DVec3::new(10.5, 1.5, 0.5));
    let mut budget = Budget::new(200_000);
    let path = find_air_path(&w, source, listener, &PathLimits::default(), &mut budget)
        .unwrap()
        .expect("a path over the wall");
    // Over the top: the edges (0, 20, z) and (1, 20, z), the shortest at z = 0.5.
    let (e0, e1) = (DVec3::new(0.0, 20.0, 0.5), DVec3::new(1.0, 20.0, 0.5));
    let geometric = source.distance(e0) + 1.0 + e1.distance(listener);
    assert!(
        path.length >= geometric - 0.01 && path.length < geometric * 1.002,
        "{} vs {geometric}: {:?}",
        path.length,
        path.corners
    );
    assert_eq!(path.bends(), 2, "{:?}", path.corners);
    // Cell by cell the search floods the air round the wall up to its top (37 056 cells);
    // whole open sections cost a few hundred reads each (3 234 in all).
    assert!(path.cells < 20_000, "{} cells", path.cells);
}

#[test]
fn a_search_that_ran_out_fails_at_once_until_it_can_do_better() {
    let world = maze();
    let (source, listener) = (DVec3::new(31.5, 1.5, 39.5), DVec3::new(10.5, 1.5, 3.5));
    let limits = PathLimits::default();
    let mut cache = AirPathCache::new();
    let find = |cache: &mut AirPathCache, source: DVec3, cells: u64| {
        let mut budget = Budget::new(cells);
        let r = cache.find(&world, 7, source, listener, &limits, &mut budget, 0);
        (r, budget.used())
    };
    // Out of budget: 1 000 cells spent.
    let (r, used) = find(&mut cache, source, 1_000);
    assert_eq!(
        (r, used),
        (Err(PathError::OverBudget { cells: 1_000 }), 1_000)
    );
    // The same ends with no more budget: refused without spending.
    let (r, used) = find(&mut cache, source, 1_000);
    assert_eq!((r, used), (Err(PathError::OverBudget { cells: 0 }), 0));
    let (r, used) = find(&mut cache, source + DVec3::new(0.2, 0.0, 0.3), 800);
    assert_eq!((r, used), (Err(PathError::OverBudget { cells: 0 }), 0));
    // A few cells on, still refused; five cells on, searched again; so is more budget, which
    // finds the path.
    let (r, used) = find(&mut cache, source - DVec3::Z * 3.0, 900);
    assert_eq!((r, used), (Err(PathError::OverBudget { cells: 0 }), 0));
    let (r, used) = find(&mut cache, source - DVec3::Z * 5.0, 900);
    assert_eq!((r, used), (Err(PathError::OverBudget { cells: 900 }), 900));
    let (r, used) = find(&mut cache, source, 200_000);
    assert!(r.unwrap().is_some() && used > 1_000);
    // Forgotten once found: a small budget now hits the cache.
    let (r, used) = find(&mut cache, source, 10);
    assert!(r.unwrap().is_some() && used == 0);
}

#[test]
fn no_path_stands_for_a_walker_a_few_cells_then_is_searched_again() {
    // A closed door: no air path between the rooms.
    let mut world = rooms_with_door();
    set_door(&mut world, false);
    let listener = DVec3::new(3.5, 1.5, 1.5);
    let mut cache = AirPathCache::new();
    let limits = PathLimits::default();
    let mut find = |source: DVec3| {
        let mut budget = Budget::new(200_000);
        let r = cache.find(&world, 3, source, listener, &limits, &mut budget, 0);
        (r.unwrap(), budget.used())
    };
    let (r, cells) = find(DVec3::new(16.5, 1.5, 1.5));
    assert!(r.is_none() && cells > 0);
    // Three cells on: the answer stands, no cell spent.
    assert_eq!(find(DVec3::new(16.5, 1.5, 4.5)), (None, 0));
    // Five cells from where it was searched: searched again.
    let (r, cells) = find(DVec3::new(16.5, 1.5, 6.5));
    assert!(r.is_none() && cells > 0);
}
