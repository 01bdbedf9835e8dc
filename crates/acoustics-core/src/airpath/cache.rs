//! Per-source cache of air paths, invalidated like the crate's other caches.
//!
//! One entry per source id: the path (or "no path") found for the source's and listener's
//! cells, with the region that decides it — the sections of the ellipsoid holding every path no
//! longer than the one found ([`search_region`]; the limit's ellipsoid when none was found). A
//! change in that region drops the entry ([`AirPathCache::on_changes`] with
//! [`crate::WorldStore::changes_since`], as for [`crate::cache::ResultCache`]), and so does a
//! section revision above the one the search read (checked on lookup, so a host that does not
//! forward changes is still right). A new epoch clears all. Over-budget searches are not cached;
//! "no path" is. A hit with the ends moved inside their cells keeps the bends and recomputes
//! length, losses, direction and delay. Ends moved a little farther ([`REUSE_CELLS`]: a source
//! walking down a corridor) keep the bends too when the two end legs are still clear (two
//! line-of-sight walks instead of a search), after dropping end bends the new ends see past;
//! the entry keeps the cells it was searched from, so a walker is searched again every few
//! cells. "No path" stands the same way while the ends stay within [`REUSE_CELLS`] of the
//! cells it was searched from: proving it means exhausting every path up to the limit (the
//! dearest search there is), and the limit (3× the straight distance) is a soft bound whose
//! paths lose tens of dB at their bends; a walker is searched again every few cells. A search that ran out of budget is remembered with the cells it spent: asked again
//! for the same end cells at the same world revision with no more budget than that, it fails at
//! once (`OverBudget { cells: 0 }`) instead of spending the cells the sources after it could use.
//! Deterministic: the same inputs and history give the same path.

use std::collections::HashMap;

use glam::{DVec3, IVec3};

use super::grid::{AirGrid, Exhausted};
use super::result::{AirPath, PathError, PathLimits, search_region};
use super::search::find_air_path;
use crate::budget::Budget;
use crate::cache::{CacheStats, Overflow, Region, ResultCache};
use crate::world::probe::{SectionBox, WorldProbe};
use crate::world::store::Change;

/// Entries kept (one per sounding source; the oldest goes first).
pub const AIR_PATH_CAPACITY: usize = 1024;
/// Largest region (in sections) whose section revisions a lookup checks; a larger region is
/// searched again whenever the world revision moved.
const REVISION_CHECK_SECTIONS: i64 = 4096;
/// A source or listener that left the cell its path was searched from by at most this many
/// cells on every axis keeps the path's bends while its end legs stay clear
/// ([`AirPathCache::find`]); farther, the path is searched again.
pub const REUSE_CELLS: i32 = 4;

#[derive(Clone, Debug)]
struct Entry {
    source_cell: IVec3,
    listener_cell: IVec3,
    limits: PathLimits,
    path: Option<AirPath>,
    revision: u64,
    region: SectionBox,
}

/// A search that ran out of budget: what it spent (a lower bound of what it needs) for these
/// end cells at this world revision and epoch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Short {
    spent: u64,
    source_cell: IVec3,
    listener_cell: IVec3,
    revision: u64,
    epoch: u64,
}

/// Air paths by source id (see the module docs).
#[derive(Clone, Debug)]
pub struct AirPathCache {
    cache: ResultCache<u64, Entry>,
    /// Sources whose last search ran out of budget (at most [`AIR_PATH_CAPACITY`]).
    short: HashMap<u64, Short>,
}

impl Default for AirPathCache {
    fn default() -> Self {
        Self::new()
    }
}

/// Whether the region's sections all kept revisions ≤ `revision`.
fn unchanged<P: WorldProbe + ?Sized>(probe: &P, region: SectionBox, revision: u64) -> bool {
    if probe.revision() <= revision {
        return true;
    }
    let size = (region.max - region.min + IVec3::ONE).as_i64vec3();
    if size.x * size.y * size.z > REVISION_CHECK_SECTIONS {
        return false;
    }
    for x in region.min.x..=region.max.x {
        for y in region.min.y..=region.max.y {
            for z in region.min.z..=region.max.z {
                if probe.section_revision(IVec3::new(x, y, z)) > revision {
                    return false;
                }
            }
        }
    }
    true
}

/// `path`'s bends for the new ends `source`, `listener`: end bends the ends see past dropped,
/// then both end legs checked clear; `None` when a leg is blocked or the path is now too long.
fn reuse<P: WorldProbe + ?Sized>(
    probe: &P,
    path: &AirPath,
    source: DVec3,
    listener: DVec3,
    limits: &PathLimits,
    budget: &mut Budget,
) -> Result<Option<AirPath>, Exhausted> {
    let mut grid = AirGrid::new(
        probe,
        [source.floor().as_ivec3(), listener.floor().as_ivec3()],
    );
    let mut corners = path.corners.clone();
    while corners.len() > 1 && grid.clear(source, corners[1], budget)? {
        corners.remove(0);
    }
    while corners.len() > 1 && grid.clear(corners[corners.len() - 2], listener, budget)? {
        corners.pop();
    }
    let (Some(&first), Some(&last)) = (corners.first(), corners.last()) else {
        return Ok(None);
    };
    if !(grid.clear(source, first, budget)? && grid.clear(last, listener, budget)?) {
        return Ok(None);
    }
    let mut out = AirPath::through(source, corners, listener);
    if out.length > limits.max_length(out.straight) {
        return Ok(None);
    }
    out.met_unknown = path.met_unknown || grid.met_unknown;
    Ok(Some(out))
}

impl AirPathCache {
    /// An empty cache of [`AIR_PATH_CAPACITY`] entries.
    #[must_use]
    pub fn new() -> Self {
        Self {
            cache: ResultCache::new(AIR_PATH_CAPACITY, Overflow::DropOldest, false),
            short: HashMap::new(),
        }
    }

    /// The air path of source `source_id` at `source` heard at `listener`: the cached answer if
    /// both ends are in the cells it was found for, with the same limits, and its region has
    /// not changed; else a new search ([`find_air_path`]) stored for the next call. `tick`
    /// ages entries that met Unknown (re-searched after
    /// [`crate::cache::RETRACE_AFTER_TICKS`]).
    ///
    /// # Errors
    /// As [`find_air_path`]; an over-budget search leaves the cache as it was.
    #[allow(
        clippy::too_many_arguments,
        reason = "the search's five inputs plus the cache key and the tick"
    )]
    pub fn find<P: WorldProbe + ?Sized>(
        &mut self,
        probe: &P,
        source_id: u64,
        source: DVec3,
        listener: DVec3,
        limits: &PathLimits,
        budget: &mut Budget,
        tick: u64,
    ) -> Result<Option<AirPath>, PathError> {
        self.cache.set_epoch(probe.epoch());
        let (sc, lc) = (source.floor().as_ivec3(), listener.floor().as_ivec3());
        if let Some(hit) = self.cache.get(&source_id, tick) {
            let e = hit.value;
            let same = e.limits == *limits && unchanged(probe, e.region, e.revision);
            if same && e.source_cell == sc && e.listener_cell == lc {
                return Ok(e.path.map(|p| p.with_ends(source, listener)));
            }
            let near = |a: IVec3, b: IVec3| (a - b).abs().max_element() <= REUSE_CELLS;
            // "No path within the limit" stands for ends a few cells off (see the module docs).
            if same && near(e.source_cell, sc) && near(e.listener_cell, lc) && e.path.is_none() {
                return Ok(None);
            }
            if same
                && near(e.source_cell, sc)
                && near(e.listener_cell, lc)
                && let Some(p) = e.path.as_ref().filter(|p| !p.is_line())
            {
                let start = budget.used();
                let reused = reuse(probe, p, source, listener, limits, budget).map_err(|_| {
                    PathError::OverBudget {
                        cells: budget.used() - start,
                    }
                })?;
                if let Some(mut path) = reused {
                    path.cells = budget.used() - start;
                    return Ok(Some(path));
                }
            }
            self.cache.remove(&source_id);
        }
        let revision = probe.revision();
        let record = Short {
            spent: 0,
            source_cell: sc,
            listener_cell: lc,
            revision,
            epoch: probe.epoch(),
        };
        // The same search (ends within a few cells, same world) ran out with at least this
        // budget: it would again, so the cells go to the sources after it.
        let near = |a: IVec3, b: IVec3| (a - b).abs().max_element() <= REUSE_CELLS;
        if let Some(short) = self.short.get(&source_id)
            && (short.revision, short.epoch) == (record.revision, record.epoch)
            && near(short.source_cell, sc)
            && near(short.listener_cell, lc)
            && budget.remaining() <= short.spent
        {
            return Err(PathError::OverBudget { cells: 0 });
        }
        let path = match find_air_path(probe, source, listener, limits, budget) {
            Err(PathError::OverBudget { cells }) => {
                if self.short.len() >= AIR_PATH_CAPACITY {
                    self.short.clear();
                }
                self.short.insert(
                    source_id,
                    Short {
                        spent: cells,
                        ..record
                    },
                );
                return Err(PathError::OverBudget { cells });
            }
            other => other?,
        };
        self.short.remove(&source_id);
        let straight = source.distance(listener);
        let reach = path
            .as_ref()
            .map_or_else(|| limits.max_length(straight), |p| p.length);
        let region = search_region(source, listener, reach);
        let met_unknown = path.as_ref().is_some_and(|p| p.met_unknown);
        let entry = Entry {
            source_cell: sc,
            listener_cell: lc,
            limits: *limits,
            path: path.clone(),
            revision,
            region,
        };
        self.cache.insert(
            source_id,
            entry,
            Region::Box(region),
            revision,
            tick,
            met_unknown,
        );
        Ok(path)
    }

    /// World edits (from [`crate::WorldStore::changes_since`]): entries whose region holds a
    /// changed section are dropped.
    pub fn on_changes(&mut self, changes: &[Change]) {
        self.cache.on_changes(changes);
    }

    /// A new epoch clears the cache (also done by [`AirPathCache::find`] from the probe).
    pub fn set_epoch(&mut self, epoch: u64) {
        self.cache.set_epoch(epoch);
        self.short.clear();
    }

    /// Forgets a source (its voice ended).
    pub fn forget(&mut self, source_id: u64) {
        self.cache.remove(&source_id);
        self.short.remove(&source_id);
    }

    /// Entries held.
    #[must_use]
    pub fn len(&self) -> usize {
        self.cache.len()
    }

    /// True when empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.cache.is_empty()
    }

    /// Counters (hits, misses, inserts, invalidations).
    #[must_use]
    pub fn stats(&self) -> CacheStats {
        self.cache.stats
    }
}
