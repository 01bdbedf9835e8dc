//! Asheron's Call terrain as the engine's world: [`Engine::attach_terrain`] traces the
//! landblocks of a cell dat ([`TerrainWorld`]) instead of the voxel store, loading the 5 × 5
//! ring around the listener lazily in [`Engine::update`]; absent landblocks are Unknown
//! (counted as air, reported in the unknown share). Boxes of materials placed with
//! [`Engine::place_box`] stand over the terrain (gorge walls, a tunnel, a hall). Positions stay
//! voxel coordinates; AC positions convert only through [`crate::terrain::axes`].

use std::path::Path;

use glam::IVec3;
use resound_acoustics::{
    AcousticModel, Budgets, Cell, Mode, RequestError, SoundRequest, Stages, run_stages,
};
use resound_datformat::record::Region;

use super::Engine;
use crate::error::{TickError, WorldError};
use crate::sound::{AttachError, CELL_DAT, DEFAULT_REGION_ID, PORTAL_DAT, ambient_bridge};
use crate::terrain::{TerrainError, TerrainWorld, voxel_to_ac};
use crate::world::TerrainState;

/// Why terrain could not be attached.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AttachTerrainError {
    /// A dat could not be opened or holds no Region.
    #[error(transparent)]
    Dat(AttachError),
    /// The terrain could not be built or its first ring read.
    #[error(transparent)]
    Terrain(TerrainError),
}

impl Engine {
    /// Traces Asheron's Call terrain from `dat_dir` (`client_portal.dat` for the Region's height
    /// table, `client_cell_1.dat` for the landblocks) from now on, instead of the voxel store:
    /// a new epoch (every cached result is dropped). The ring around the listener is loaded now
    /// and follows the listener in [`Engine::update`].
    ///
    /// # Errors
    /// [`AttachTerrainError`]: a missing or invalid dat, no Region 0x13000000, a material the
    /// model lacks, a corrupt landblock in the first ring.
    pub fn attach_terrain(&mut self, dat_dir: &Path) -> Result<(), AttachTerrainError> {
        let mut portal =
            ambient_bridge::open_dat(dat_dir, PORTAL_DAT).map_err(AttachTerrainError::Dat)?;
        let cell = ambient_bridge::open_dat(dat_dir, CELL_DAT).map_err(AttachTerrainError::Dat)?;
        let region: Region = portal
            .load_record(DEFAULT_REGION_ID)
            .map_err(|e| AttachTerrainError::Dat(AttachError::Region(e)))?
            .ok_or(AttachTerrainError::Dat(AttachError::NoRegion(
                DEFAULT_REGION_ID,
            )))?;
        let terrain = TerrainWorld::new(&region, self.model.materials())
            .map_err(AttachTerrainError::Terrain)?;
        let mut state = TerrainState {
            snapshot: std::sync::Arc::new(terrain.probe().clone()),
            terrain,
            cell,
        };
        if let Some(pos) = voxel_to_ac(self.listener.position) {
            state
                .terrain
                .update_listener(&pos, &mut state.cell)
                .map_err(AttachTerrainError::Terrain)?;
        }
        self.world.attach_terrain(state);
        self.mark_all_dirty();
        Ok(())
    }

    /// The attached terrain (`None` while the voxel store is traced).
    #[must_use]
    pub fn terrain(&self) -> Option<&TerrainWorld> {
        self.world.terrain().map(|t| &t.terrain)
    }

    /// Places an inclusive box of `cell` (a material, or air to carve) in the world: over the
    /// attached terrain (it wins where it overlaps the ground), else into the voxel store.
    /// Voices are re-traced.
    ///
    /// # Errors
    /// [`WorldError`]: an inverted or out-of-world box, a bad material, too many boxes.
    pub fn place_box(&mut self, min: IVec3, max: IVec3, cell: Cell) -> Result<(), WorldError> {
        self.world().fill_box(min, max, cell)
    }

    /// Evaluates one request on the traced world (store or terrain) synchronously, stage by
    /// stage, under the offline budgets (`resound acoustics`; tools and tests).
    ///
    /// # Errors
    /// [`RequestError`] for an invalid request.
    pub fn evaluate(&self, request: &SoundRequest, mode: Mode) -> Result<Stages, RequestError> {
        run_stages(&self.model, &self.world, request, mode, Budgets::offline())
    }

    /// A placed box changed the terrain: every voice is traced again (the tick starts a new
    /// epoch since terrain changes carry no section list).
    pub(crate) fn mark_all_dirty_if_terrain(&mut self) {
        if self.world.terrain().is_some() {
            self.mark_all_dirty();
        }
    }

    /// Moves the terrain ring with the listener (a new ring: a new epoch at the next tick).
    pub(crate) fn follow_terrain(&mut self) -> Result<(), TickError> {
        let Some(pos) = voxel_to_ac(self.listener.position) else {
            return Ok(());
        };
        let Some(t) = self.world.terrain_mut() else {
            return Ok(());
        };
        match t.terrain.update_listener(&pos, &mut t.cell) {
            Ok(false) => Ok(()),
            Ok(true) => {
                t.refresh();
                self.mark_all_dirty();
                Ok(())
            }
            Err(TerrainError::LandBlock { id, .. } | TerrainError::WrongId { asked: id, .. }) => {
                Err(TickError::Terrain(id))
            }
            Err(_) => Err(TickError::Terrain(pos.objcell_id.get() | 0xFFFF)),
        }
    }
}
