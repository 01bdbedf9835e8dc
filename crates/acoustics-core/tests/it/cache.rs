//! Cache behaviour: hit, miss after an edit in the box, epoch clear, late results rejected,
//! echo anchors, room staleness (spec §3.4).

use glam::{DVec3, IVec3};
use resound_acoustics::cache::{
    CachedClass, Overflow, Region, ResultCache, SectionClassCache, room_cache, room_region,
};
use resound_acoustics::queue::{Evaluator, Job, QueueSettings};
use resound_acoustics::{Cell, Mode, OwnModel, SectionBox, SectionClass, WorldProbe, section_of};

use crate::common::world;

fn job(scene: &resound_acoustics::scene::Scene, mode: Mode, echo: bool) -> Job {
    Job {
        id: 1,
        request: scene.request().unwrap(),
        mode,
        loudness: 1.0,
        impulsive: false,
        echo,
    }
}

#[test]
fn occlusion_hit_miss_after_edit_in_box_and_epoch_clear() {
    let (scene, mut w) = world("W2");
    let mut ev = Evaluator::new(OwnModel::default(), QueueSettings::default());
    ev.enqueue(job(&scene, Mode::Direct, false)).unwrap();
    let r = ev.run_tick(&w);
    assert_eq!(r.completed[0].result.occ, 2.0);
    assert_eq!(
        (ev.stats().occlusion.hits, ev.stats().occlusion.misses),
        (0, 1)
    );

    // Same request again: a hit, no cells spent.
    ev.enqueue(job(&scene, Mode::Direct, false)).unwrap();
    let r = ev.run_tick(&w);
    assert_eq!(r.occlusion_cells, 0);
    assert_eq!(ev.stats().occlusion.hits, 1);

    // An edit far outside the ray box keeps the entry.
    let rev = w.revision();
    w.set_cell(IVec3::new(500, 100, 500), Cell::solid(Default::default()))
        .unwrap();
    ev.world_changed(w.changes_since(rev).unwrap());
    ev.enqueue(job(&scene, Mode::Direct, false)).unwrap();
    ev.run_tick(&w);
    assert_eq!(ev.stats().occlusion.hits, 2);

    // Cut a hole through both wall layers on the straight path: the entry is invalidated, the
    // new trace sees occ 0 on the straight path (9 paths: minimum).
    let rev = w.revision();
    w.fill_box(IVec3::new(30, 0, -1), IVec3::new(31, 3, 1), Cell::Air)
        .unwrap();
    ev.world_changed(w.changes_since(rev).unwrap());
    ev.enqueue(job(&scene, Mode::Direct, false)).unwrap();
    let r = ev.run_tick(&w);
    assert_eq!(ev.stats().occlusion.misses, 2);
    assert_eq!(r.completed[0].result.occ, 0.0);

    // A new epoch clears everything.
    let clears = ev.stats().occlusion.clears;
    w.set_epoch(7);
    ev.enqueue(job(&scene, Mode::Direct, false)).unwrap();
    ev.run_tick(&w);
    assert_eq!(ev.stats().occlusion.clears, clears + 1);
    assert_eq!(ev.stats().occlusion.misses, 3);
}

#[test]
fn result_computed_before_an_overlapping_edit_is_rejected() {
    let (scene, mut w) = world("W2");
    let old = w.snapshot();
    let rev = w.revision();
    w.fill_box(IVec3::new(30, 0, -16), IVec3::new(31, 15, 15), Cell::Air)
        .unwrap();
    let mut ev = Evaluator::new(OwnModel::default(), QueueSettings::default());
    ev.world_changed(w.changes_since(rev).unwrap());
    ev.enqueue(job(&scene, Mode::Direct, false)).unwrap();
    // The worker still holds the old snapshot: its result is dropped, the job stays queued.
    let r = ev.run_tick(&old);
    assert_eq!(r.discarded, 1);
    assert!(r.completed.is_empty());
    assert_eq!(r.queued, 1);
    let r = ev.run_tick(&w);
    assert_eq!(r.completed[0].result.occ, 0.0);
}

#[test]
fn echo_cache_invalidated_by_anchor_section_only() {
    let (scene, mut w) = world("G");
    let mut ev = Evaluator::new(OwnModel::default(), QueueSettings::default());
    ev.enqueue(job(&scene, Mode::Reflect, true)).unwrap();
    let r = ev.run_tick(&w);
    let taps = r.completed[0].result.taps.clone();
    assert_eq!(taps.len(), 2);
    ev.enqueue(job(&scene, Mode::Reflect, true)).unwrap();
    ev.run_tick(&w);
    assert_eq!(ev.stats().echo.hits, 1);
    // Edit in the anchor section of the first tap (the south wall behind P).
    let rev = w.revision();
    let anchor = taps[0].anchor;
    w.fill_box(
        anchor - IVec3::new(3, 0, 0),
        anchor + IVec3::new(3, 3, 0),
        Cell::Air,
    )
    .unwrap();
    ev.world_changed(w.changes_since(rev).unwrap());
    ev.enqueue(job(&scene, Mode::Reflect, true)).unwrap();
    let r = ev.run_tick(&w);
    assert_eq!(ev.stats().echo.misses, 2);
    // The wall behind P is gone: that plane no longer validates there.
    assert_eq!(r.completed[0].result.taps.len(), 1);
}

#[test]
fn room_cache_keeps_stale_value_and_clears_on_epoch() {
    let mut c = room_cache::<u32>();
    let key = [0, 0, 0];
    assert!(c.insert(key, 5, room_region(IVec3::ZERO), 0, 0, false));
    assert!(c.get(&key, 1).unwrap().fresh);
    // A change 60 blocks away is within ±65: stale, value kept.
    let near = resound_acoustics::Change {
        revision: 1,
        section: section_of(IVec3::new(60, 0, 0)),
    };
    c.on_changes(&[near]);
    let hit = c.get(&key, 2).unwrap();
    assert_eq!((hit.value, hit.fresh), (5, false));
    // Far change: no effect on a fresh entry.
    assert!(c.insert(key, 6, room_region(IVec3::ZERO), 1, 3, false));
    c.on_changes(&[resound_acoustics::Change {
        revision: 2,
        section: section_of(IVec3::new(200, 0, 0)),
    }]);
    assert!(c.get(&key, 4).unwrap().fresh);
    c.set_epoch(3);
    assert!(c.get(&key, 5).is_none());
}

#[test]
fn occlusion_cache_overflow_clears_all_and_unknown_entries_expire() {
    let mut c: ResultCache<u32, u32> = ResultCache::new(4, Overflow::ClearAll, false);
    for k in 0..4 {
        assert!(c.insert(k, k, Region::Nothing, 0, 0, false));
    }
    assert_eq!(c.len(), 4);
    assert!(c.insert(9, 9, Region::Nothing, 0, 0, false));
    assert_eq!(c.len(), 1);
    assert!(c.insert(10, 10, Region::Box(SectionBox::of(IVec3::ZERO)), 0, 0, true));
    assert!(c.get(&10, 19).is_some());
    assert!(c.get(&10, 20).is_none(), "met Unknown: marked for re-trace");
}

#[test]
fn section_class_cache_is_lru_within_its_byte_cap() {
    let mut c = SectionClassCache::new(513 * 2 + 1);
    c.insert(IVec3::ZERO, CachedClass::Mixed(Box::new([0; 64])));
    c.insert(IVec3::X, CachedClass::Mixed(Box::new([0; 64])));
    c.insert(IVec3::Y, CachedClass::Uniform(SectionClass::Empty));
    assert_eq!(c.bytes(), 513 * 2 + 1);
    assert!(c.get(IVec3::ZERO).is_some()); // now most recent
    c.insert(IVec3::Z, CachedClass::Mixed(Box::new([0; 64])));
    assert!(c.get(IVec3::X).is_none(), "least recently used evicted");
    assert!(c.get(IVec3::ZERO).is_some());
    assert!(c.bytes() <= 513 * 2 + 1);
    c.on_changes(&[resound_acoustics::Change {
        revision: 1,
        section: IVec3::ZERO,
    }]);
    assert!(c.get(IVec3::ZERO).is_none());
    c.set_epoch(2);
    assert_eq!(c.bytes(), 0);
}

#[test]
fn snapshot_is_stable_while_the_store_changes() {
    let (_, mut w) = world("W1");
    let snap = w.snapshot();
    w.fill_box(IVec3::new(30, 0, -16), IVec3::new(30, 15, 15), Cell::Air)
        .unwrap();
    assert!(snap.cell(IVec3::new(30, 5, 0)).is_solid());
    assert!(!w.cell(IVec3::new(30, 5, 0)).is_solid());
    assert!(
        w.section_revision(section_of(IVec3::new(30, 5, 0)))
            > snap.section_revision(section_of(IVec3::new(30, 5, 0)))
    );
    let _ = DVec3::ZERO;
}

#[test]
fn class_cached_probe_gives_the_same_results_and_hits() {
    use resound_acoustics::cache::ClassCachedProbe;
    use resound_acoustics::{AcousticModel, Budget};
    let (scene, w) = world("R");
    let model = OwnModel::default();
    let req = scene.request().unwrap();
    let plain = model
        .evaluate(&w, &req, Mode::Full, &mut Budget::unlimited())
        .unwrap();
    let cached = ClassCachedProbe::new(w.snapshot(), 16 << 20);
    let a = model
        .evaluate(&cached, &req, Mode::Full, &mut Budget::unlimited())
        .unwrap();
    let b = model
        .evaluate(&cached, &req, Mode::Full, &mut Budget::unlimited())
        .unwrap();
    assert_eq!(a.taps, plain.taps);
    assert_eq!(
        (a.occ, a.space, a.sends),
        (plain.occ, plain.space, plain.sends)
    );
    assert_eq!(a, b);
    assert!(cached.stats().hits > 0);
}

#[test]
fn occlusion_cache_hit_applies_this_voices_air_absorption() {
    // A cached result holds its voice's air absorption: another range must not reuse it.
    let (scene, w) = world("W0");
    let mut ev = Evaluator::new(OwnModel::default(), QueueSettings::default());
    let mut far = job(&scene, Mode::Direct, false);
    far.request.range = 256.0; // d = 60 < 128: no air absorption
    ev.enqueue(far).unwrap();
    let r = ev.run_tick(&w);
    assert_eq!(r.completed[0].result.hf, 1.0);
    let mut near = job(&scene, Mode::Direct, false);
    near.id = 2;
    near.request.range = 60.0; // 30 blocks beyond half range
    ev.enqueue(near).unwrap();
    let r = ev.run_tick(&w);
    let hf = f64::from(r.completed[0].result.hf);
    assert!((hf - 0.994f64.powi(30)).abs() < 1e-6, "{hf}");
}

#[test]
fn phase_results_of_a_queued_job_are_dropped_by_an_overlapping_edit() {
    // Job B's direct phase runs in tick 0, its room phase must wait for tick 1 (job A took
    // the echo budget). The wall is removed between the ticks: B must not finish with the
    // occlusion of the wall that is gone.
    let (scene, mut w) = world("W2");
    let settings = QueueSettings {
        echo_budget: 60_000,
        room_job: 60_000,
        ..QueueSettings::default()
    };
    let mut ev = Evaluator::new(OwnModel::default(), settings);
    let a = job(&scene, Mode::Full, false);
    let mut b = job(&scene, Mode::Full, false);
    b.id = 2;
    b.loudness = 0.5;
    b.request.listener = DVec3::new(60.5, 1.5, 2.5);
    ev.enqueue(a).unwrap();
    ev.enqueue(b).unwrap();
    let r = ev.run_tick(&w);
    assert_eq!(r.completed.len(), 1, "B waits for its room phase");
    assert_eq!(r.completed[0].result.occ, 2.0);
    let rev = w.revision();
    w.fill_box(IVec3::new(30, 0, -16), IVec3::new(31, 15, 15), Cell::Air)
        .unwrap();
    ev.world_changed(w.changes_since(rev).unwrap());
    let r = ev.run_tick(&w);
    assert_eq!(r.completed.len(), 1);
    assert_eq!(r.completed[0].id, 2);
    assert_eq!(r.completed[0].result.occ, 0.0, "the wall is gone");
    assert_eq!(r.discarded, 1, "B's direct phase");
}

#[test]
fn phase_results_of_a_queued_job_are_dropped_on_a_new_epoch() {
    // As above, but the world is switched (new epoch, wall gone) between the ticks without a
    // change list: nothing computed in the old world may be delivered.
    let (scene, w) = world("W2");
    let settings = QueueSettings {
        echo_budget: 60_000,
        room_job: 60_000,
        ..QueueSettings::default()
    };
    let mut ev = Evaluator::new(OwnModel::default(), settings);
    let a = job(&scene, Mode::Full, false);
    let mut b = job(&scene, Mode::Full, false);
    b.id = 2;
    b.loudness = 0.5;
    b.request.listener = DVec3::new(60.5, 1.5, 2.5);
    ev.enqueue(a).unwrap();
    ev.enqueue(b).unwrap();
    assert_eq!(ev.run_tick(&w).completed.len(), 1);
    let (_, mut other) = world("W0");
    other.set_epoch(1);
    let r = ev.run_tick(&other);
    assert_eq!(r.completed.len(), 1);
    assert_eq!(r.completed[0].result.occ, 0.0, "the new world has no wall");
    assert_eq!(r.discarded, 1, "B's direct phase");
}

#[test]
fn cached_room_is_used_without_budget_and_stale_room_while_waiting() {
    // Spec §3.4: the room cache answers without tracing; a stale entry (change within ±65
    // blocks) is used while the new measurement waits for budget.
    let (scene, mut w) = world("R");
    let settings = QueueSettings {
        echo_budget: 60_000,
        room_job: 60_000,
        ..QueueSettings::default()
    };
    let mut ev = Evaluator::new(OwnModel::default(), settings);
    let a = job(&scene, Mode::Full, false);
    ev.enqueue(a).unwrap();
    let first = ev.run_tick(&w).completed[0].result.clone();
    // X (louder, another listener cell) spends some echo budget first; B shares A's listener.
    let mut x = job(&scene, Mode::Full, false);
    x.id = 10;
    x.loudness = 2.0;
    x.request.listener = DVec3::new(10.5, 2.5, 11.5);
    let mut b = a;
    b.id = 2;
    ev.enqueue(x).unwrap();
    ev.enqueue(b).unwrap();
    let r = ev.run_tick(&w);
    assert_eq!(r.completed.len(), 2, "B's room comes from the cache");
    let rb = &r.completed.iter().find(|c| c.id == 2).unwrap().result;
    assert_eq!((rb.space, rb.sends), (first.space, first.sends));
    // A lower ceiling marks the entry stale; with X first again, B gets the old value.
    let rev = w.revision();
    w.fill_box(
        IVec3::new(0, 6, 0),
        IVec3::new(23, 9, 23),
        Cell::solid(Default::default()),
    )
    .unwrap();
    ev.world_changed(w.changes_since(rev).unwrap());
    let mut x2 = x;
    x2.request.listener = DVec3::new(8.5, 2.5, 11.5);
    ev.enqueue(x2).unwrap();
    ev.enqueue(b).unwrap();
    let r = ev.run_tick(&w);
    assert_eq!(r.completed.len(), 2, "B uses the stale room while waiting");
    let rb = &r.completed.iter().find(|c| c.id == 2).unwrap().result;
    assert_eq!(rb.space, first.space);
    // With budget to spare, the next request re-measures.
    ev.enqueue(b).unwrap();
    let r = ev.run_tick(&w);
    assert_ne!(r.completed[0].result.space, first.space);
}
