//! Result caches with section/epoch invalidation (spec §3.4).
//!
//! | Cache | Key | Size | Invalidated by |
//! |---|---|---|---|
//! | [`OcclusionCache`] | (source 2×2×2, listener 2×2×2 cell, paths, range) | 4096 | change in the ray box; epoch; overflow clears all |
//! | [`EchoCache`] | (source cell, listener cell) | 256 | change in a tap anchor section; epoch |
//! | [`RoomCache`] | listener cell | 64 | change within ±65 blocks (old value kept, marked stale); epoch |
//! | [`SectionClassCache`] | section | LRU, 16 MB | section change; epoch |
//!
//! All caches also reject a result whose region changed after the job that computed it
//! started ([`ResultCache::insert`] with the revision the job read), and treat an entry whose
//! traces met Unknown as a miss once it is [`RETRACE_AFTER_TICKS`] old.

use std::collections::{BTreeMap, VecDeque};

use glam::IVec3;

use crate::world::probe::{Cell, SectionBox, SectionClass, WorldProbe, section_of};
use crate::world::store::Change;

/// Entries that met Unknown are re-traced after this many ticks (spec: within 40).
pub const RETRACE_AFTER_TICKS: u64 = 20;
/// Occlusion cache size.
pub const OCCLUSION_CAPACITY: usize = 4096;
/// Echo cache size.
pub const ECHO_CAPACITY: usize = 256;
/// Room cache size.
pub const ROOM_CAPACITY: usize = 64;
/// Room invalidation reach in blocks (±65).
pub const ROOM_REACH: i32 = 65;
/// Changes remembered for rejecting late results.
const CHANGE_LOG: usize = 4096;

/// What invalidates an entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Region {
    /// Any change inside this box of sections.
    Box(SectionBox),
    /// A change in one of these sections (sorted, deduplicated).
    Sections(Vec<IVec3>),
    /// Nothing but the epoch.
    Nothing,
}

impl Region {
    /// True if a change of `section` touches the region.
    #[must_use]
    pub fn touches(&self, section: IVec3) -> bool {
        match self {
            Self::Box(b) => b.contains(section),
            Self::Sections(s) => s.contains(&section),
            Self::Nothing => false,
        }
    }
}

/// Counters of a cache.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Lookups answered.
    pub hits: u64,
    /// Lookups not answered.
    pub misses: u64,
    /// Entries stored.
    pub inserts: u64,
    /// Results dropped because their region changed while they were computed.
    pub rejected: u64,
    /// Entries removed (or marked stale) by world changes.
    pub invalidated: u64,
    /// Full clears (epoch, overflow).
    pub clears: u64,
}

/// What to do when the cache is full.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overflow {
    /// Clear everything.
    ClearAll,
    /// Drop the oldest entry.
    DropOldest,
}

#[derive(Clone, Debug)]
struct Entry<V> {
    value: V,
    region: Region,
    tick: u64,
    met_unknown: bool,
    stale: bool,
    seq: u64,
}

/// A lookup answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Lookup<V> {
    /// The cached value.
    pub value: V,
    /// False if the world changed nearby since (room cache: use while recomputing).
    pub fresh: bool,
}

/// A keyed result cache with region invalidation (ordered map: no hash-order anywhere).
#[derive(Clone, Debug)]
pub struct ResultCache<K: Ord + Clone, V: Clone> {
    entries: BTreeMap<K, Entry<V>>,
    capacity: usize,
    overflow: Overflow,
    keep_stale: bool,
    epoch: u64,
    changes: VecDeque<Change>,
    oldest_logged: u64,
    seq: u64,
    /// Counters.
    pub stats: CacheStats,
}

impl<K: Ord + Clone, V: Clone> ResultCache<K, V> {
    /// A cache of `capacity` entries. `keep_stale`: changes mark entries stale instead of
    /// removing them.
    #[must_use]
    pub fn new(capacity: usize, overflow: Overflow, keep_stale: bool) -> Self {
        Self {
            entries: BTreeMap::new(),
            capacity: capacity.max(1),
            overflow,
            keep_stale,
            epoch: 0,
            changes: VecDeque::new(),
            oldest_logged: 0,
            seq: 0,
            stats: CacheStats::default(),
        }
    }

    /// Number of entries.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Removes everything.
    pub fn clear(&mut self) {
        self.entries.clear();
        self.stats.clears += 1;
    }

    /// Forgets one entry (a voice that ended); true if it was there.
    pub fn remove(&mut self, key: &K) -> bool {
        self.entries.remove(key).is_some()
    }

    /// Sets the world epoch; a different epoch clears the cache.
    pub fn set_epoch(&mut self, epoch: u64) {
        if epoch != self.epoch {
            self.epoch = epoch;
            self.clear();
            self.changes.clear();
        }
    }

    /// Looks `key` up at `tick`. Entries that met Unknown count as misses once
    /// [`RETRACE_AFTER_TICKS`] old (marked for re-trace).
    pub fn get(&mut self, key: &K, tick: u64) -> Option<Lookup<V>> {
        match self.entries.get(key) {
            Some(e) if !(e.met_unknown && tick >= e.tick + RETRACE_AFTER_TICKS) => {
                self.stats.hits += 1;
                Some(Lookup {
                    value: e.value.clone(),
                    fresh: !e.stale,
                })
            }
            _ => {
                self.stats.misses += 1;
                None
            }
        }
    }

    /// Applies world changes: entries whose region holds a changed section are removed (or
    /// marked stale).
    pub fn on_changes(&mut self, changes: &[Change]) {
        for c in changes {
            self.changes.push_back(*c);
            if self.changes.len() > CHANGE_LOG
                && let Some(old) = self.changes.pop_front()
            {
                self.oldest_logged = old.revision;
            }
        }
        let keep_stale = self.keep_stale;
        let mut invalidated = 0;
        self.entries.retain(|_, e| {
            if changes.iter().any(|c| e.region.touches(c.section)) {
                invalidated += 1;
                if keep_stale {
                    e.stale = true;
                    return true;
                }
                return false;
            }
            true
        });
        self.stats.invalidated += invalidated;
    }

    /// Stores a result computed from a world at `revision` (the revision the job read) at
    /// `tick`. Rejected (false) if a change after `revision` touches `region`, or if the
    /// change log no longer reaches back that far.
    pub fn insert(
        &mut self,
        key: K,
        value: V,
        region: Region,
        revision: u64,
        tick: u64,
        met_unknown: bool,
    ) -> bool {
        if revision < self.oldest_logged
            || self
                .changes
                .iter()
                .any(|c| c.revision > revision && region.touches(c.section))
        {
            self.stats.rejected += 1;
            return false;
        }
        if !self.entries.contains_key(&key) && self.entries.len() >= self.capacity {
            match self.overflow {
                Overflow::ClearAll => self.clear(),
                Overflow::DropOldest => {
                    let oldest = self
                        .entries
                        .iter()
                        .min_by_key(|(_, e)| e.seq)
                        .map(|(k, _)| k.clone());
                    if let Some(k) = oldest {
                        self.entries.remove(&k);
                    }
                }
            }
        }
        self.seq += 1;
        self.entries.insert(
            key,
            Entry {
                value,
                region,
                tick,
                met_unknown,
                stale: false,
                seq: self.seq,
            },
        );
        self.stats.inserts += 1;
        true
    }
}

/// Key of the occlusion cache: 2×2×2-cell blocks of source and listener, the path count and
/// the voice range (`f64::to_bits`): the result holds the range's air absorption.
pub type OcclusionKey = ([i32; 3], [i32; 3], u8, u64);
/// Key of the echo cache: source and listener cells.
pub type EchoKey = ([i32; 3], [i32; 3]);
/// Key of the room cache: listener cell.
pub type RoomKey = [i32; 3];

/// Occlusion cache (4096, overflow clears all).
pub type OcclusionCache<V> = ResultCache<OcclusionKey, V>;
/// Echo cache (256).
pub type EchoCache<V> = ResultCache<EchoKey, V>;
/// Room cache (64, stale values kept).
pub type RoomCache<V> = ResultCache<RoomKey, V>;

/// A new occlusion cache.
#[must_use]
pub fn occlusion_cache<V: Clone>() -> OcclusionCache<V> {
    ResultCache::new(OCCLUSION_CAPACITY, Overflow::ClearAll, false)
}

/// A new echo cache.
#[must_use]
pub fn echo_cache<V: Clone>() -> EchoCache<V> {
    ResultCache::new(ECHO_CAPACITY, Overflow::DropOldest, false)
}

/// A new room cache.
#[must_use]
pub fn room_cache<V: Clone>() -> RoomCache<V> {
    ResultCache::new(ROOM_CAPACITY, Overflow::DropOldest, true)
}

/// The region of a room entry: sections within ±65 blocks of the listener cell.
#[must_use]
pub fn room_region(cell: IVec3) -> Region {
    let r = IVec3::splat(ROOM_REACH);
    Region::Box(SectionBox {
        min: section_of(cell - r),
        max: section_of(cell + r),
    })
}

/// Size in bytes of a cached class: 1 for uniform classes, 1 + 512 (solid bitset) for mixed.
#[must_use]
pub fn class_bytes(mixed: bool) -> usize {
    if mixed { 513 } else { 1 }
}

/// Cached class of one section: uniform classes, or a solid bitset for mixed ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CachedClass {
    /// A uniform class.
    Uniform(SectionClass),
    /// Mixed: bit `i` set if cell `i` (index of [`crate::SectionCells::index`]) is solid.
    Mixed(Box<[u64; 64]>),
}

/// LRU cache of section classes for hosts whose probe is expensive (spec §3.1: empty/full 1
/// byte, mixed 512-byte bitset, 16 MB cap). Deterministic: recency is a counter.
#[derive(Clone, Debug)]
pub struct SectionClassCache {
    entries: BTreeMap<[i32; 3], (CachedClass, u64)>,
    recency: BTreeMap<u64, [i32; 3]>,
    bytes: usize,
    cap_bytes: usize,
    clock: u64,
    epoch: u64,
    /// Counters.
    pub stats: CacheStats,
}

/// Default section-class cache cap (16 MB).
pub const SECTION_CLASS_CAP_BYTES: usize = 16 << 20;

impl SectionClassCache {
    /// A cache of at most `cap_bytes`.
    #[must_use]
    pub fn new(cap_bytes: usize) -> Self {
        Self {
            entries: BTreeMap::new(),
            recency: BTreeMap::new(),
            bytes: 0,
            cap_bytes,
            clock: 0,
            epoch: 0,
            stats: CacheStats::default(),
        }
    }

    /// Bytes held.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// Looks a section up (and marks it recently used).
    pub fn get(&mut self, section: IVec3) -> Option<&CachedClass> {
        let key = section.to_array();
        let Some((_, used)) = self.entries.get_mut(&key) else {
            self.stats.misses += 1;
            return None;
        };
        self.recency.remove(used);
        self.clock += 1;
        *used = self.clock;
        self.recency.insert(self.clock, key);
        self.stats.hits += 1;
        self.entries.get(&key).map(|(c, _)| c)
    }

    /// Stores a class, evicting least recently used entries beyond the cap.
    pub fn insert(&mut self, section: IVec3, class: CachedClass) {
        self.remove(section);
        let size = class_bytes(matches!(class, CachedClass::Mixed(_)));
        while self.bytes + size > self.cap_bytes {
            let Some((_, key)) = self.recency.pop_first() else {
                break;
            };
            self.remove(IVec3::from_array(key));
        }
        if self.bytes + size > self.cap_bytes {
            return;
        }
        self.clock += 1;
        let key = section.to_array();
        self.recency.insert(self.clock, key);
        self.entries.insert(key, (class, self.clock));
        self.bytes += size;
        self.stats.inserts += 1;
    }

    /// Forgets one section (a change).
    pub fn remove(&mut self, section: IVec3) {
        if let Some((c, used)) = self.entries.remove(&section.to_array()) {
            self.recency.remove(&used);
            self.bytes -= class_bytes(matches!(c, CachedClass::Mixed(_)));
            self.stats.invalidated += 1;
        }
    }

    /// Applies world changes.
    pub fn on_changes(&mut self, changes: &[Change]) {
        for c in changes {
            self.remove(c.section);
        }
    }

    /// Sets the epoch; a new epoch clears all.
    pub fn set_epoch(&mut self, epoch: u64) {
        if epoch != self.epoch {
            self.epoch = epoch;
            self.entries.clear();
            self.recency.clear();
            self.bytes = 0;
            self.stats.clears += 1;
        }
    }
}

/// A probe wrapper that answers section classes (and air cells of mixed sections) from a
/// [`SectionClassCache`], for hosts whose own probe is expensive. Mixed sections are cached as a
/// solid bitset: non-solid cells read as [`Cell::Air`] (an Unknown cell inside a mixed section
/// is reported as air, without `met_unknown`); solid cells are asked of the inner probe.
/// Single-threaded (interior mutability through `RefCell`); if the cache is busy (re-entrant
/// call) the inner probe answers.
#[derive(Debug)]
pub struct ClassCachedProbe<P> {
    inner: P,
    cache: std::cell::RefCell<SectionClassCache>,
}

impl<P: WorldProbe> ClassCachedProbe<P> {
    /// Wraps `inner` with a cache of `cap_bytes`.
    pub fn new(inner: P, cap_bytes: usize) -> Self {
        Self {
            inner,
            cache: std::cell::RefCell::new(SectionClassCache::new(cap_bytes)),
        }
    }

    /// Forgets changed sections.
    pub fn on_changes(&self, changes: &[Change]) {
        if let Ok(mut c) = self.cache.try_borrow_mut() {
            c.on_changes(changes);
        }
    }

    /// Cache counters.
    pub fn stats(&self) -> CacheStats {
        self.cache.try_borrow().map(|c| c.stats).unwrap_or_default()
    }

    fn cached(&self, section: IVec3) -> SectionClass {
        let Ok(mut cache) = self.cache.try_borrow_mut() else {
            return self.inner.section_class(section);
        };
        cache.set_epoch(self.inner.epoch());
        if let Some(c) = cache.get(section) {
            return match c {
                CachedClass::Uniform(k) => *k,
                CachedClass::Mixed(_) => SectionClass::Mixed,
            };
        }
        let class = self.inner.section_class(section);
        let limit = (crate::world::store::WORLD_LIMIT / 16).unsigned_abs();
        if section.to_array().iter().any(|c| c.unsigned_abs() >= limit) {
            // Outside the supported world (its cell coordinates overflow i32): not cached.
            return class;
        }
        let entry = if class == SectionClass::Mixed {
            let mut bits = Box::new([0u64; 64]);
            let base = section * 16;
            for y in 0..16 {
                for z in 0..16 {
                    for x in 0..16 {
                        let local = IVec3::new(x, y, z);
                        if self.inner.cell(base + local).is_solid() {
                            let i = crate::SectionCells::index(local);
                            bits[i / 64] |= 1 << (i % 64);
                        }
                    }
                }
            }
            CachedClass::Mixed(bits)
        } else {
            CachedClass::Uniform(class)
        };
        cache.insert(section, entry);
        class
    }
}

impl<P: WorldProbe> WorldProbe for ClassCachedProbe<P> {
    fn section_class(&self, section: IVec3) -> SectionClass {
        self.cached(section)
    }

    fn cell(&self, cell: IVec3) -> Cell {
        let section = section_of(cell);
        if let Ok(mut cache) = self.cache.try_borrow_mut()
            && let Some(CachedClass::Mixed(bits)) = cache.get(section)
        {
            let i = crate::SectionCells::index(cell);
            if bits[i / 64] & (1 << (i % 64)) == 0 {
                return Cell::Air;
            }
        }
        self.inner.cell(cell)
    }

    fn ground_height(&self, x: f64, z: f64) -> Option<f64> {
        self.inner.ground_height(x, z)
    }

    fn epoch(&self) -> u64 {
        self.inner.epoch()
    }

    fn revision(&self) -> u64 {
        self.inner.revision()
    }

    fn section_revision(&self, section: IVec3) -> u64 {
        self.inner.section_revision(section)
    }
}
