//! The engine's world and [`WorldEdit`].
//!
//! The engine traces one world: its voxel [`WorldStore`] or, once attached
//! ([`Engine::attach_terrain`](crate::Engine::attach_terrain)), Asheron's Call terrain
//! ([`TerrainWorld`]) with boxes placed over it. The worker always reads an immutable
//! [`Snapshot`]: the store's copy-on-write snapshot or the terrain's heightfield behind an `Arc`.
//!
//! Every store edit records (revision, section) changes; the next tick hands them to the worker
//! (caches and queued phases in the changed boxes are dropped) and re-traces the voices whose
//! rays crossed a changed section. A terrain change (a ring move, a placed box) reports no
//! section list, so the tick starts a new epoch: every cached result is dropped. A replaced
//! world or a new epoch drops every cached result.

use std::fs::File;
use std::io::{BufReader, Cursor};
use std::sync::Arc;

use glam::IVec3;
use resound_acoustics::world::probe::SECTION_SIZE;
use resound_acoustics::world::store::WORLD_LIMIT;
use resound_acoustics::{
    Absent, Cell, CellCode, Change, EditError, Heightfield, PlacedBox, SectionAccess, SectionCells,
    SectionClass, SectionData, SparseCells, WorldProbe, WorldSnapshot, WorldStore,
};
use resound_ambient::{CellId, DatSource, DatSourceError, LandBlockSource};
use resound_datformat::record::{EnvCell, LandBlock};

use crate::error::WorldError;
use crate::game_world::GameWorld;
use crate::terrain::{TerrainError, TerrainWorld};

/// The terrain the engine traces: the lazily loaded landblocks and the cell dat they come from.
#[derive(Debug)]
pub(crate) struct TerrainState {
    pub(crate) terrain: TerrainWorld,
    pub(crate) cell: TerrainCells,
    /// The heightfield as the worker reads it (rebuilt after every change).
    pub(crate) snapshot: Arc<Heightfield>,
}

/// Where the terrain's landblocks are read from: a cell dat on disk, or its bytes in memory
/// (a page, a test).
#[derive(Debug)]
pub(crate) enum TerrainCells {
    /// `client_cell_1.dat` opened from a folder.
    File(DatSource<BufReader<File>>),
    /// The cell dat's bytes.
    Memory(DatSource<Cursor<Arc<[u8]>>>),
}

impl LandBlockSource for TerrainCells {
    type Error = DatSourceError;

    fn load_land_block(&mut self, id: CellId) -> Result<Option<Arc<LandBlock>>, DatSourceError> {
        match self {
            Self::File(d) => d.load_land_block(id),
            Self::Memory(d) => d.load_land_block(id),
        }
    }

    fn load_env_cell(&mut self, id: CellId) -> Result<Option<Arc<EnvCell>>, DatSourceError> {
        match self {
            Self::File(d) => d.load_env_cell(id),
            Self::Memory(d) => d.load_env_cell(id),
        }
    }
}

impl TerrainState {
    pub(crate) fn refresh(&mut self) {
        self.snapshot = Arc::new(self.terrain.probe().clone());
    }
}

/// The world the engine traces.
#[derive(Debug)]
pub(crate) struct World {
    store: WorldStore,
    terrain: Option<Box<TerrainState>>,
    game: Option<GameState>,
    /// The revision whose changes the worker has been sent.
    sent_revision: u64,
    /// Times every voice had to be traced again (a new epoch, a replaced world, a terrain
    /// change); a voice traced before the last one is dirty.
    retraces: u64,
}

/// An immutable view of the engine's world for the worker.
#[derive(Debug, Clone)]
pub(crate) enum Snapshot {
    Store(WorldSnapshot),
    Terrain(Arc<Heightfield>),
    Game(Arc<dyn GameWorld>),
}

/// The game's own world: its latest snapshot and the changes it reported since the last tick.
#[derive(Debug)]
pub(crate) struct GameState {
    pub(crate) probe: Arc<dyn GameWorld>,
    pending: Vec<Change>,
    /// The epoch the worker last saw (a different one starts over).
    seen_epoch: u64,
}

/// Most section changes kept between two ticks; beyond it the next tick starts a new epoch.
const MAX_PENDING_CHANGES: usize = 65_536;

macro_rules! delegate_probe {
    ($t:ty, $s:ident => $store:expr, $terrain:expr, $game:expr) => {
        impl WorldProbe for $t {
            fn section_class(&self, section: IVec3) -> SectionClass {
                let $s = self;
                if let Some(g) = $game {
                    return g.section_class(section);
                }
                match ($store, $terrain) {
                    (_, Some(t)) => t.section_class(section),
                    (Some(w), None) => w.section_class(section),
                    (None, None) => SectionClass::Unknown,
                }
            }
            fn cell(&self, cell: IVec3) -> Cell {
                let $s = self;
                if let Some(g) = $game {
                    return g.cell(cell);
                }
                match ($store, $terrain) {
                    (_, Some(t)) => t.cell(cell),
                    (Some(w), None) => w.cell(cell),
                    (None, None) => Cell::Unknown,
                }
            }
            fn section_cells(&self, section: IVec3) -> Option<&SectionCells> {
                let $s = self;
                if let Some(g) = $game {
                    return g.section_cells(section);
                }
                match ($store, $terrain) {
                    (_, Some(t)) => t.section_cells(section),
                    (Some(w), None) => w.section_cells(section),
                    (None, None) => None,
                }
            }
            fn section_sparse(&self, section: IVec3) -> Option<SparseCells<'_>> {
                let $s = self;
                if let Some(g) = $game {
                    return g.section_sparse(section);
                }
                match ($store, $terrain) {
                    (_, Some(t)) => t.section_sparse(section),
                    (Some(w), None) => w.section_sparse(section),
                    (None, None) => None,
                }
            }
            fn section_view(&self, section: IVec3) -> (SectionClass, Option<&SectionCells>) {
                let $s = self;
                if let Some(g) = $game {
                    return g.section_view(section);
                }
                match ($store, $terrain) {
                    (_, Some(t)) => t.section_view(section),
                    (Some(w), None) => w.section_view(section),
                    (None, None) => (SectionClass::Unknown, None),
                }
            }
            fn section_access(&self, section: IVec3) -> SectionAccess<'_> {
                let $s = self;
                if let Some(g) = $game {
                    return g.section_access(section);
                }
                match ($store, $terrain) {
                    (_, Some(t)) => t.section_access(section),
                    (Some(w), None) => w.section_access(section),
                    (None, None) => SectionAccess {
                        class: SectionClass::Unknown,
                        cells: None,
                        sparse: None,
                    },
                }
            }
            fn ground_height(&self, x: f64, z: f64) -> Option<f64> {
                let $s = self;
                if let Some(g) = $game {
                    return g.ground_height(x, z);
                }
                match ($store, $terrain) {
                    (_, Some(t)) => t.ground_height(x, z),
                    (Some(w), None) => w.ground_height(x, z),
                    (None, None) => None,
                }
            }
            fn epoch(&self) -> u64 {
                let $s = self;
                if let Some(g) = $game {
                    return WorldProbe::epoch(&**g);
                }
                match ($store, $terrain) {
                    (_, Some(t)) => t.epoch(),
                    (Some(w), None) => WorldProbe::epoch(w),
                    (None, None) => 0,
                }
            }
            fn revision(&self) -> u64 {
                let $s = self;
                if let Some(g) = $game {
                    return WorldProbe::revision(&**g);
                }
                match ($store, $terrain) {
                    (_, Some(t)) => WorldProbe::revision(t),
                    (Some(w), None) => WorldProbe::revision(w),
                    (None, None) => 0,
                }
            }
            fn section_revision(&self, section: IVec3) -> u64 {
                let $s = self;
                if let Some(g) = $game {
                    return g.section_revision(section);
                }
                match ($store, $terrain) {
                    (_, Some(t)) => t.section_revision(section),
                    (Some(w), None) => w.section_revision(section),
                    (None, None) => 0,
                }
            }
        }
    };
}

delegate_probe!(World, w => Some(&w.store), w.terrain.as_deref().map(|t| &*t.snapshot), w.game.as_ref().map(|g| &g.probe));
delegate_probe!(Snapshot, s => match s {
    Snapshot::Store(w) => Some(w),
    _ => None,
}, match s {
    Snapshot::Terrain(t) => Some(&**t),
    _ => None,
}, match s {
    Snapshot::Game(g) => Some(g),
    _ => None,
});

impl World {
    pub(crate) fn new() -> Self {
        let store = WorldStore::new(Absent::Air);
        Self {
            sent_revision: WorldProbe::revision(&store),
            store,
            terrain: None,
            game: None,
            retraces: 0,
        }
    }

    /// Every voice must be traced again (each voice compares [`World::retraces`] with the
    /// count it was last traced at).
    pub(crate) fn retrace_all(&mut self) {
        self.retraces += 1;
    }

    /// How many times every voice had to be traced again.
    pub(crate) fn retraces(&self) -> u64 {
        self.retraces
    }

    /// The store changes since the last call, for the worker. When they are not known (dropped
    /// from the log, or the terrain changed) a new epoch starts (every cache clears) and every
    /// voice is traced again.
    pub(crate) fn take_changes(&mut self) -> Vec<Change> {
        if let Some(g) = self.game.as_mut() {
            let epoch = WorldProbe::epoch(&*g.probe);
            if epoch != g.seen_epoch || g.pending.len() > MAX_PENDING_CHANGES {
                g.seen_epoch = epoch;
                g.pending.clear();
                self.retraces += 1;
                return Vec::new();
            }
            return std::mem::take(&mut g.pending);
        }
        let changes = match self.changes_since(self.sent_revision) {
            Some(c) => c.to_vec(),
            None => {
                let e = WorldProbe::epoch(&*self) + 1;
                self.set_epoch(e);
                self.retrace_all();
                Vec::new()
            }
        };
        self.sent_revision = self.revision();
        changes
    }

    /// Moves the terrain ring with the listener at AC `position` (a new ring: refreshed, a new
    /// epoch at the next tick, every voice traced again). Nothing without terrain.
    pub(crate) fn follow_listener(
        &mut self,
        position: &resound_ambient::Position,
    ) -> Result<(), TerrainError> {
        let Some(t) = self.terrain.as_deref_mut() else {
            return Ok(());
        };
        if t.terrain.update_listener(position, &mut t.cell)? {
            t.refresh();
            self.retrace_all();
        }
        Ok(())
    }

    pub(crate) fn store(&self) -> &WorldStore {
        &self.store
    }

    pub(crate) fn terrain(&self) -> Option<&TerrainState> {
        self.terrain.as_deref()
    }

    /// Traces `terrain` from now on (a new epoch above the current one; every voice is traced
    /// again).
    pub(crate) fn attach_terrain(&mut self, mut terrain: TerrainState) {
        terrain
            .terrain
            .set_epoch(WorldProbe::epoch(self).max(terrain.snapshot.epoch()) + 1);
        terrain.refresh();
        self.terrain = Some(Box::new(terrain));
        self.game = None;
        self.retrace_all();
    }

    /// Store changes after `revision`; `None` when they are not known (dropped from the log, or
    /// the terrain changed): the caller starts a new epoch.
    pub(crate) fn changes_since(&self, revision: u64) -> Option<&[Change]> {
        match &self.terrain {
            Some(t) => (WorldProbe::revision(&*t.snapshot) == revision).then_some(&[][..]),
            None => self.store.changes_since(revision),
        }
    }

    pub(crate) fn set_epoch(&mut self, epoch: u64) {
        match &mut self.terrain {
            Some(t) => {
                t.terrain.set_epoch(epoch);
                t.refresh();
            }
            None => self.store.set_epoch(epoch),
        }
    }

    pub(crate) fn revision(&self) -> u64 {
        WorldProbe::revision(self)
    }

    pub(crate) fn snapshot(&self) -> Snapshot {
        if let Some(g) = &self.game {
            return Snapshot::Game(Arc::clone(&g.probe));
        }
        match &self.terrain {
            Some(t) => Snapshot::Terrain(Arc::clone(&t.snapshot)),
            None => Snapshot::Store(self.store.snapshot()),
        }
    }

    /// Traces the game's own world from now on (terrain and store set aside): every voice is
    /// traced again.
    pub(crate) fn set_game(&mut self, probe: Arc<dyn GameWorld>) {
        let seen_epoch = WorldProbe::epoch(&*probe);
        self.game = Some(GameState {
            probe,
            pending: Vec::new(),
            seen_epoch,
        });
        self.retrace_all();
    }

    /// The game's next snapshot, with the sections that changed since the last one.
    /// `false` when no game world is set.
    pub(crate) fn game_changed(&mut self, probe: Arc<dyn GameWorld>, sections: &[IVec3]) -> bool {
        let Some(g) = self.game.as_mut() else {
            return false;
        };
        let revision = WorldProbe::revision(&*probe);
        g.probe = probe;
        for s in sections.iter().take(MAX_PENDING_CHANGES + 1) {
            g.pending.push(Change {
                revision,
                section: *s,
            });
        }
        true
    }

    /// Replaces the world with a store (the terrain, if any, is detached): a new epoch, every
    /// voice traced again.
    pub(crate) fn replace_store(&mut self, mut store: WorldStore) {
        let epoch = WorldProbe::epoch(self).max(WorldProbe::epoch(&store)) + 1;
        store.set_epoch(epoch);
        self.store = store;
        self.terrain = None;
        self.game = None;
        self.sent_revision = self.revision();
        self.retrace_all();
    }

    /// Fills a box: in the store, or placed over the terrain (which changes it whole: every
    /// voice is traced again, since terrain changes carry no section list).
    pub(crate) fn fill_box(
        &mut self,
        min: IVec3,
        max: IVec3,
        value: Cell,
    ) -> Result<(), WorldError> {
        if self.game.is_some() {
            return Err(WorldError::GameOwned);
        }
        match &mut self.terrain {
            None => Ok(self.store.fill_box(min, max, value)?),
            Some(t) => {
                check_box(min, max, value)?;
                if t.terrain.boxes().len() >= MAX_PLACED_BOXES {
                    return Err(WorldError::TooManyBoxes(MAX_PLACED_BOXES));
                }
                t.terrain.place(PlacedBox {
                    min,
                    max,
                    cell: value,
                });
                t.refresh();
                self.retrace_all();
                Ok(())
            }
        }
    }

    fn store_for_sections(&mut self) -> Result<&mut WorldStore, WorldError> {
        if self.game.is_some() {
            return Err(WorldError::GameOwned);
        }
        match self.terrain {
            None => Ok(&mut self.store),
            Some(_) => Err(WorldError::Terrain),
        }
    }
}

/// Most boxes placed over terrain (each is tested per traced cell near it).
pub const MAX_PLACED_BOXES: usize = 4096;

/// The checks a store applies to a box, for boxes placed over terrain.
fn check_box(min: IVec3, max: IVec3, value: Cell) -> Result<(), EditError> {
    if min.cmpgt(max).any() {
        return Err(EditError::InvertedBox { min, max });
    }
    for c in [min, max] {
        if c.to_array()
            .iter()
            .any(|v| v.unsigned_abs() >= WORLD_LIMIT.unsigned_abs())
        {
            return Err(EditError::OutOfWorld(c));
        }
    }
    match (value, CellCode::encode(value)) {
        (_, Some(_)) => Ok(()),
        (Cell::Solid { mat, .. }, None) => Err(EditError::MaterialOutOfRange(mat.0)),
        (_, None) => Err(EditError::MaterialOutOfRange(u16::MAX)),
    }
}

/// A borrow of the engine's world for edits ([`Engine::world`](crate::Engine::world)).
#[derive(Debug)]
pub struct WorldEdit<'a> {
    world: &'a mut World,
}

impl<'a> WorldEdit<'a> {
    pub(crate) fn new(world: &'a mut World) -> Self {
        Self { world }
    }

    /// Sets one cell to a block of a [`Material`](crate::Material) (full or
    /// [partial](crate::Material::partial); [`Material::AIR`](crate::Material::AIR) clears it).
    ///
    /// # Errors
    /// [`WorldError`] for an out-of-world position or a material out of range.
    pub fn set_block(
        &mut self,
        cell: IVec3,
        block: impl Into<crate::material::Block>,
    ) -> Result<(), WorldError> {
        self.world.fill_box(cell, cell, block.into().into())
    }

    /// Fills the inclusive box `min..=max` with a block of a material.
    ///
    /// # Errors
    /// [`WorldError`] for an inverted, oversized or out-of-world box or a material out of range.
    pub fn fill(
        &mut self,
        min: IVec3,
        max: IVec3,
        block: impl Into<crate::material::Block>,
    ) -> Result<(), WorldError> {
        self.world.fill_box(min, max, block.into().into())
    }

    /// Sets one cell (over attached terrain: a one-cell box placed over it).
    ///
    /// # Errors
    /// [`WorldError`] for an out-of-world position or a bad material.
    pub fn set_cell(&mut self, cell: IVec3, value: Cell) -> Result<(), WorldError> {
        self.world.fill_box(cell, cell, value)
    }

    /// Fills the inclusive box `min..=max` (over attached terrain: places the box over it; it
    /// wins where it overlaps the ground, and air carves).
    ///
    /// # Errors
    /// [`WorldError`] for an inverted, oversized or out-of-world box or a bad material.
    pub fn fill_box(&mut self, min: IVec3, max: IVec3, value: Cell) -> Result<(), WorldError> {
        self.world.fill_box(min, max, value)
    }

    /// Inserts or replaces a whole section (a chunk arriving).
    ///
    /// # Errors
    /// [`WorldError`] for out-of-world section coordinates or a bad material;
    /// [`WorldError::Terrain`] while terrain is attached.
    pub fn load_section(&mut self, section: IVec3, data: SectionData) -> Result<(), WorldError> {
        Ok(self
            .world
            .store_for_sections()?
            .load_section(section, data)?)
    }

    /// Unloads a section: it reads as Unknown (counted as air) afterwards.
    ///
    /// # Errors
    /// [`WorldError`] for out-of-world section coordinates; [`WorldError::Terrain`] while
    /// terrain is attached.
    pub fn unload_section(&mut self, section: IVec3) -> Result<(), WorldError> {
        let limit = (WORLD_LIMIT / SECTION_SIZE).unsigned_abs();
        if section.to_array().iter().any(|c| c.unsigned_abs() >= limit) {
            return Err(EditError::OutOfWorld(section).into());
        }
        self.world.store_for_sections()?.unload_section(section);
        Ok(())
    }

    /// Replaces the whole world with a store (a world switch; attached terrain is detached): a
    /// new epoch, every cached result dropped.
    pub fn replace(&mut self, world: WorldStore) {
        self.world.replace_store(world);
    }

    /// Sets the epoch (a time-shifted or switched view): a different epoch drops every cached
    /// result and re-traces every voice.
    pub fn set_epoch(&mut self, epoch: u64) {
        if epoch != WorldProbe::epoch(&*self.world) {
            self.world.set_epoch(epoch);
            self.world.retrace_all();
        }
    }

    /// The traced world's epoch.
    #[must_use]
    pub fn epoch(&self) -> u64 {
        WorldProbe::epoch(&*self.world)
    }

    /// The traced world's change revision.
    #[must_use]
    pub fn revision(&self) -> u64 {
        WorldProbe::revision(&*self.world)
    }

    /// The voxel store, read-only (not traced while terrain is attached).
    #[must_use]
    pub fn store(&self) -> &WorldStore {
        self.world.store()
    }
}
