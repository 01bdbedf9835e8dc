//! DAT files as bytes: the user's own `client_portal.dat` and `client_cell_1.dat` (from a file
//! picker), or the fixture world written in memory; the ambient runtime and the terrain
//! attached over them, the tour's world read from them, and a sensible place to stand.
//!
//! The bytes are shared ([`Arc<[u8]>`]): attaching an engine, reading the terrain or placing
//! the listener never copies a dat.

use std::io::Cursor;
use std::sync::Arc;

use resound_engine::Engine;
use resound_engine::advanced::acoustics::MaterialTable;
use resound_engine::advanced::ambient::DatSource;
use resound_engine::advanced::datformat::container::DatReader;
use resound_engine::advanced::datformat::record::Region;
use resound_engine::sound::{AmbientSettings, CELL_DAT, DEFAULT_REGION_ID, PORTAL_DAT};
use resound_engine::terrain::{TerrainWorld, parse_position};

use crate::error::WebError;
use crate::hearing::Hearing;
use crate::tour::TourWorld;
use crate::tour::script::EAR;

/// A dat read from shared bytes.
type Source = DatSource<Cursor<Arc<[u8]>>>;

/// Landblocks tried, in the cell dat's id order, for a place to stand when the area's centre
/// has no terrain.
const LANDBLOCKS_TRIED: usize = 64;

/// A portal and a cell dat held in memory.
#[derive(Debug, Clone)]
pub struct Dats {
    /// `client_portal.dat`: the Region, SoundTables and Waves.
    pub portal: Arc<[u8]>,
    /// `client_cell_1.dat`: the landblocks and EnvCells.
    pub cell: Arc<[u8]>,
}

fn open(bytes: &Arc<[u8]>, dat: &'static str) -> Result<Source, WebError> {
    DatReader::new(Cursor::new(Arc::clone(bytes)))
        .map(DatSource::new)
        .map_err(|source| WebError::Dat { dat, source })
}

impl Dats {
    /// Dats from a page's byte arrays (copied once, into shared memory).
    #[must_use]
    pub fn new(portal: &[u8], cell: &[u8]) -> Self {
        Self {
            portal: Arc::from(portal),
            cell: Arc::from(cell),
        }
    }

    /// The fixture world (`resound fixture write`), written in memory: the same bytes on every
    /// platform.
    #[must_use]
    pub fn fixture() -> Self {
        let w = resound_fixture::write_world();
        Self {
            portal: Arc::from(w.portal),
            cell: Arc::from(w.cell),
        }
    }

    /// The portal dat's Region 0x13000000.
    ///
    /// # Errors
    /// [`WebError`]: not a dat, no Region, a Region that does not decode.
    pub fn region(&self) -> Result<Region, WebError> {
        open(&self.portal, PORTAL_DAT)?
            .load_record(DEFAULT_REGION_ID)
            .map_err(WebError::Region)?
            .ok_or(WebError::NoRegion(DEFAULT_REGION_ID))
    }

    /// Attaches the retail ambient runtime over these dats (Region 0x13000000 of the portal
    /// dat), as [`Engine::attach_ambient`] does over a dat folder; for a modern `hearing` the
    /// dats' terrain first ([`Dats::attach_terrain`]), as `resound ambient --walk` does in
    /// modern modes, so the acoustics trace the landscape.
    ///
    /// # Errors
    /// [`WebError`]: bytes that are not a dat, no Region, a Region the runtime refuses.
    pub fn attach(&self, engine: &mut Engine, hearing: Hearing) -> Result<(), WebError> {
        if matches!(hearing, Hearing::Modern(_)) {
            self.attach_terrain(engine)?;
        }
        self.attach_ambient(engine)
    }

    /// The dats' terrain traced by the acoustics ([`Engine::attach_terrain_bytes`]; the cell
    /// dat shared, not copied).
    ///
    /// # Errors
    /// [`WebError::Terrain`].
    pub fn attach_terrain(&self, engine: &mut Engine) -> Result<(), WebError> {
        engine.attach_terrain_bytes(&self.portal, Arc::clone(&self.cell))?;
        Ok(())
    }

    /// The retail ambient runtime over the dats, default seeds
    /// ([`Engine::attach_ambient_sources`]).
    ///
    /// # Errors
    /// [`WebError`]: bytes that are not a dat, no Region, a Region the runtime refuses.
    pub fn attach_ambient(&self, engine: &mut Engine) -> Result<(), WebError> {
        let mut portal = open(&self.portal, PORTAL_DAT)?;
        let cell = open(&self.cell, CELL_DAT)?;
        let region: Region = portal
            .load_record(DEFAULT_REGION_ID)
            .map_err(WebError::Region)?
            .ok_or(WebError::NoRegion(DEFAULT_REGION_ID))?;
        engine.attach_ambient_sources(&region, portal, cell, AmbientSettings::default())?;
        Ok(())
    }

    /// The tour's world over these dats: the area's terrain and the structures.
    ///
    /// # Errors
    /// [`WebError::NoTerrain`] when the dats have no terrain under the tour; a dat error.
    pub fn tour_world(&self) -> Result<TourWorld, WebError> {
        let region = self.region()?;
        Ok(TourWorld::load(&region, &mut open(&self.cell, CELL_DAT)?)?)
    }

    /// A place to stand, `0xXXYYCCCC:X,Y,Z`, the ear [`EAR`] above the ground: the middle of
    /// landblock 0xA9B4 (the tour area's centre, Holtburg's in the retail dats) when the cell
    /// dat has terrain there, else of the first landblock (in id order) that has.
    ///
    /// # Errors
    /// [`WebError::NoLand`] when none of the landblocks tried has terrain; a dat error.
    pub fn start_position(&self) -> Result<String, WebError> {
        let region = self.region()?;
        let mut cells = open(&self.cell, CELL_DAT)?;
        let mut listing =
            DatReader::new(Cursor::new(Arc::clone(&self.cell))).map_err(|source| {
                WebError::Dat {
                    dat: CELL_DAT,
                    source,
                }
            })?;
        let blocks = listing
            .entries()
            .map(|entries| {
                entries
                    .into_iter()
                    .filter(|e| e.id & 0xFFFF == 0xFFFF)
                    .map(|e| e.id >> 16)
                    .take(LANDBLOCKS_TRIED)
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default();
        let materials = MaterialTable::standard();
        let mut terrain = TerrainWorld::new(&region, &materials)?;
        for block in std::iter::once(0xA9B4).chain(blocks) {
            let ground = parse_position(&format!("0x{block:04X}0025:96,96,0"))?;
            if terrain.update_listener(&ground, &mut cells).is_err() {
                continue;
            }
            if let Some(h) = terrain.height_at(&ground) {
                let z = f64::from(h) + EAR;
                return Ok(format!("0x{block:04X}0025:96.00,96.00,{z:.2}"));
            }
        }
        Err(WebError::NoLand)
    }
}

/// The tour attaches the dats' terrain and ambient as a live player or a render does.
impl resound_tour::Dats for Dats {
    type Error = WebError;

    fn attach_terrain(&self, engine: &mut Engine) -> Result<(), WebError> {
        Dats::attach_terrain(self, engine)
    }

    fn attach_ambient(&self, engine: &mut Engine) -> Result<(), WebError> {
        Dats::attach_ambient(self, engine)
    }
}
