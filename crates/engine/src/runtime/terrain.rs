//! Asheron's Call terrain as the engine's world: [`open`] builds the [`TerrainState`] that
//! [`Engine::attach_terrain`](crate::Engine::attach_terrain) traces instead of the voxel store
//! (the landblocks of a cell dat, [`TerrainWorld`]), the 5 × 5 ring around the listener loaded
//! now and then lazily as the listener moves ([`follow`]); absent landblocks are Unknown
//! (counted as air, reported in the unknown share). Boxes of materials placed with
//! [`Engine::place_box`](crate::Engine::place_box) stand over the terrain. Positions stay voxel
//! coordinates; AC positions convert only through [`crate::terrain::axes`].

use std::io::{Cursor, Read, Seek};
use std::path::Path;
use std::sync::Arc;

use glam::DVec3;
use resound_acoustics::MaterialTable;
use resound_ambient::DatSource;
use resound_datformat::container::DatReader;
use resound_datformat::record::Region;

use crate::error::TickError;
use crate::sound::{AttachError, CELL_DAT, DEFAULT_REGION_ID, PORTAL_DAT, open_dat};
use crate::terrain::{TerrainError, TerrainWorld, voxel_to_ac};
use crate::world::{TerrainCells, TerrainState, World};

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

/// The terrain of `dat_dir` (`client_portal.dat` for the Region's height table,
/// `client_cell_1.dat` for the landblocks) with `materials`, its ring around the voxel
/// `listener` loaded.
///
/// # Errors
/// [`AttachTerrainError`]: a missing or invalid dat, no Region 0x13000000, a material the
/// model lacks, a corrupt landblock in the first ring.
pub(crate) fn open(
    dat_dir: &Path,
    materials: &MaterialTable,
    listener: DVec3,
) -> Result<TerrainState, AttachTerrainError> {
    let mut portal = open_dat(dat_dir, PORTAL_DAT).map_err(AttachTerrainError::Dat)?;
    let cell = open_dat(dat_dir, CELL_DAT).map_err(AttachTerrainError::Dat)?;
    build(&mut portal, TerrainCells::File(cell), materials, listener)
}

/// The terrain of a portal and a cell dat held in memory, as [`open`] reads them from a folder.
///
/// # Errors
/// As [`open`]; bytes that are not a dat are [`AttachError::Dat`].
pub(crate) fn open_bytes(
    portal: &[u8],
    cell: Arc<[u8]>,
    materials: &MaterialTable,
    listener: DVec3,
) -> Result<TerrainState, AttachTerrainError> {
    let dat = |source| {
        AttachTerrainError::Dat(AttachError::Dat {
            dat: PORTAL_DAT,
            source,
        })
    };
    let mut portal = DatReader::new(Cursor::new(portal))
        .map(DatSource::new)
        .map_err(dat)?;
    let cell = DatReader::new(Cursor::new(cell))
        .map(DatSource::new)
        .map_err(|source| {
            AttachTerrainError::Dat(AttachError::Dat {
                dat: CELL_DAT,
                source,
            })
        })?;
    build(&mut portal, TerrainCells::Memory(cell), materials, listener)
}

/// The terrain of the Region in `portal` over the landblocks of `cell`.
fn build<R: Read + Seek>(
    portal: &mut DatSource<R>,
    mut cell: TerrainCells,
    materials: &MaterialTable,
    listener: DVec3,
) -> Result<TerrainState, AttachTerrainError> {
    let region: Region = portal
        .load_record(DEFAULT_REGION_ID)
        .map_err(|e| AttachTerrainError::Dat(AttachError::Region(e)))?
        .ok_or(AttachTerrainError::Dat(AttachError::NoRegion(
            DEFAULT_REGION_ID,
        )))?;
    let mut terrain = TerrainWorld::new(&region, materials).map_err(AttachTerrainError::Terrain)?;
    if let Some(pos) = voxel_to_ac(listener) {
        terrain
            .update_listener(&pos, &mut cell)
            .map_err(AttachTerrainError::Terrain)?;
    }
    Ok(TerrainState {
        snapshot: Arc::new(terrain.probe().clone()),
        terrain,
        cell,
    })
}

/// Moves the terrain ring with the voxel `listener` (a new ring: a new epoch at the next tick).
///
/// # Errors
/// [`TickError::Terrain`] naming the landblock that could not be read.
pub(crate) fn follow(world: &mut World, listener: DVec3) -> Result<(), TickError> {
    let Some(pos) = voxel_to_ac(listener) else {
        return Ok(());
    };
    match world.follow_listener(&pos) {
        Ok(()) => Ok(()),
        Err(TerrainError::LandBlock { id, .. } | TerrainError::WrongId { asked: id, .. }) => {
            Err(TickError::Terrain(id))
        }
        Err(_) => Err(TickError::Terrain(pos.objcell_id.get() | 0xFFFF)),
    }
}
