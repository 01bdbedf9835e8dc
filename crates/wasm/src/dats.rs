//! DAT files as bytes: the user's own `client_portal.dat` and `client_cell_1.dat` (from a file
//! picker), or the fixture world written in memory; the ambient runtime attached over them.

use std::io::Cursor;
use std::sync::Arc;

use resound_engine::Engine;
use resound_engine::advanced::ambient::DatSource;
use resound_engine::advanced::datformat::container::DatReader;
use resound_engine::advanced::datformat::record::Region;
use resound_engine::sound::{AmbientSettings, CELL_DAT, DEFAULT_REGION_ID, PORTAL_DAT};

use crate::error::WebError;
use crate::hearing::Hearing;

/// A portal and a cell dat held in memory.
#[derive(Debug, Clone)]
pub struct Dats {
    /// `client_portal.dat`: the Region, SoundTables and Waves.
    pub portal: Vec<u8>,
    /// `client_cell_1.dat`: the landblocks and EnvCells.
    pub cell: Vec<u8>,
}

impl Dats {
    /// The fixture world (`resound fixture write`), written in memory: the same bytes on every
    /// platform.
    #[must_use]
    pub fn fixture() -> Self {
        let w = resound_fixture::write_world();
        Self {
            portal: w.portal,
            cell: w.cell,
        }
    }

    /// Attaches the retail ambient runtime over these dats (Region 0x13000000 of the portal
    /// dat), as [`Engine::attach_ambient`] does over a dat folder; for a modern `hearing` the
    /// dats' terrain first ([`Engine::attach_terrain_bytes`]), as `resound ambient --walk`
    /// does in modern modes, so the acoustics trace the landscape.
    ///
    /// # Errors
    /// [`WebError`]: bytes that are not a dat, no Region, a Region the runtime refuses.
    pub fn attach(&self, engine: &mut Engine, hearing: Hearing) -> Result<(), WebError> {
        if matches!(hearing, Hearing::Modern(_)) {
            engine.attach_terrain_bytes(&self.portal, Arc::from(self.cell.as_slice()))?;
        }
        let open = |bytes: &[u8], dat: &'static str| {
            DatReader::new(Cursor::new(bytes.to_vec()))
                .map(DatSource::new)
                .map_err(|source| WebError::Dat { dat, source })
        };
        let mut portal = open(&self.portal, PORTAL_DAT)?;
        let cell = open(&self.cell, CELL_DAT)?;
        let region: Region = portal
            .load_record(DEFAULT_REGION_ID)
            .map_err(WebError::Region)?
            .ok_or(WebError::NoRegion(DEFAULT_REGION_ID))?;
        engine.attach_ambient_sources(&region, portal, cell, AmbientSettings::default())?;
        Ok(())
    }
}
