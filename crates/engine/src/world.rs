//! [`WorldEdit`]: editing the engine's voxel world. Every edit records (revision, section)
//! changes in the store; the next tick hands them to the worker (caches and queued phases in the
//! changed boxes are dropped) and re-traces the voices whose rays crossed a changed section.
//! A replaced world or a new epoch drops every cached result.

use glam::IVec3;
use resound_acoustics::world::probe::SECTION_SIZE;
use resound_acoustics::world::store::WORLD_LIMIT;
use resound_acoustics::{Cell, EditError, SectionData, WorldProbe, WorldStore};

use crate::engine::Engine;
use crate::error::WorldError;

/// A borrow of the engine for world edits ([`Engine::world`]).
#[derive(Debug)]
pub struct WorldEdit<'a> {
    engine: &'a mut Engine,
}

impl<'a> WorldEdit<'a> {
    pub(crate) fn new(engine: &'a mut Engine) -> Self {
        Self { engine }
    }

    /// Sets one cell.
    ///
    /// # Errors
    /// [`WorldError`] for an out-of-world position or a bad material.
    pub fn set_cell(&mut self, cell: IVec3, value: Cell) -> Result<(), WorldError> {
        Ok(self.engine.world_mut().set_cell(cell, value)?)
    }

    /// Fills the inclusive box `min..=max`.
    ///
    /// # Errors
    /// [`WorldError`] for an inverted, oversized or out-of-world box or a bad material.
    pub fn fill_box(&mut self, min: IVec3, max: IVec3, value: Cell) -> Result<(), WorldError> {
        Ok(self.engine.world_mut().fill_box(min, max, value)?)
    }

    /// Inserts or replaces a whole section (a chunk arriving).
    ///
    /// # Errors
    /// [`WorldError`] for out-of-world section coordinates or a bad material.
    pub fn load_section(&mut self, section: IVec3, data: SectionData) -> Result<(), WorldError> {
        Ok(self.engine.world_mut().load_section(section, data)?)
    }

    /// Unloads a section: it reads as Unknown (counted as air) afterwards.
    ///
    /// # Errors
    /// [`WorldError`] for out-of-world section coordinates.
    pub fn unload_section(&mut self, section: IVec3) -> Result<(), WorldError> {
        let limit = (WORLD_LIMIT / SECTION_SIZE).unsigned_abs();
        if section.to_array().iter().any(|c| c.unsigned_abs() >= limit) {
            return Err(EditError::OutOfWorld(section).into());
        }
        self.engine.world_mut().unload_section(section);
        Ok(())
    }

    /// Replaces the whole world (a world switch): a new epoch, every cached result dropped.
    pub fn replace(&mut self, world: WorldStore) {
        self.engine.replace_world(world);
    }

    /// Sets the epoch (a time-shifted or switched view): a different epoch drops every cached
    /// result and re-traces every voice.
    pub fn set_epoch(&mut self, epoch: u64) {
        if epoch != WorldProbe::epoch(self.engine.world_store()) {
            self.engine.world_mut().set_epoch(epoch);
            self.engine.mark_all_dirty();
        }
    }

    /// The world's epoch.
    #[must_use]
    pub fn epoch(&self) -> u64 {
        WorldProbe::epoch(self.engine.world_store())
    }

    /// The world's change revision.
    #[must_use]
    pub fn revision(&self) -> u64 {
        WorldProbe::revision(self.engine.world_store())
    }

    /// The store, read-only.
    #[must_use]
    pub fn store(&self) -> &WorldStore {
        self.engine.world_store()
    }
}
