//! The bridge's data sources, held boxed so one bridge type serves every source a game
//! implements: the portal side ([`SoundTableSource`] for the runtime and [`WaveSource`] for the
//! engine's wave cache) and the cell side ([`LandBlockSource`], with the EnvCells whose
//! `SeenOutside` flag the listener's cell reads). A DAT folder is one implementation
//! ([`DatSource`](resound_ambient::DatSource) on each side); [`PortalPair`] joins a table source
//! and a wave source that are separate objects.
//!
//! A boxed source needs only `Send`; it sits in a `Mutex` that is never locked (the bridge
//! reaches it through `&mut self` and `Mutex::get_mut`), which makes the box `Sync` too, so it
//! does not keep the engine from being shared.

use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

use resound_ambient::{LandBlockSource, SoundTableSource};
use resound_datformat::id::{CellId, SoundTableId};
use resound_datformat::record::{EnvCell, LandBlock, SoundTable, Wave};

use crate::sound::WaveSource;

/// A source's error, boxed (the bridge holds sources of any type).
#[derive(Debug)]
pub struct SourceError(Box<dyn std::error::Error + Send + Sync>);

impl SourceError {
    fn new(e: impl std::error::Error + Send + Sync + 'static) -> Self {
        Self(Box::new(e))
    }
}

impl fmt::Display for SourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for SourceError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

/// A sound-table source and a wave source that are separate objects, as one portal-side
/// source (sound tables from `tables`, Waves from `waves`).
#[derive(Debug, Clone, Default)]
pub struct PortalPair<T, W> {
    /// Where the sound tables come from.
    pub tables: T,
    /// Where the Waves come from.
    pub waves: W,
}

impl<T, W> PortalPair<T, W> {
    /// Joins a table source and a wave source.
    pub fn new(tables: T, waves: W) -> Self {
        Self { tables, waves }
    }
}

impl<T: SoundTableSource, W> SoundTableSource for PortalPair<T, W> {
    type Error = T::Error;

    fn load_sound_table(
        &mut self,
        stb_id: SoundTableId,
    ) -> Result<Option<Arc<SoundTable>>, T::Error> {
        self.tables.load_sound_table(stb_id)
    }

    fn release_sound_table(&mut self, stb_id: SoundTableId) {
        self.tables.release_sound_table(stb_id);
    }
}

impl<T, W: WaveSource> WaveSource for PortalPair<T, W> {
    type Error = W::Error;

    fn load_wave(&mut self, wave_id: u32) -> Result<Option<Wave>, W::Error> {
        self.waves.load_wave(wave_id)
    }

    fn wave_size(&mut self, wave_id: u32) -> Result<Option<u64>, W::Error> {
        self.waves.wave_size(wave_id)
    }
}

/// The object-safe portal side.
trait Portal: Send {
    fn table(&mut self, id: SoundTableId) -> Result<Option<Arc<SoundTable>>, SourceError>;
    fn release(&mut self, id: SoundTableId);
    fn wave(&mut self, id: u32) -> Result<Option<Wave>, SourceError>;
    fn wave_size(&mut self, id: u32) -> Result<Option<u64>, SourceError>;
}

impl<P> Portal for P
where
    P: SoundTableSource + WaveSource + Send,
    <P as SoundTableSource>::Error: Send + Sync + 'static,
{
    fn table(&mut self, id: SoundTableId) -> Result<Option<Arc<SoundTable>>, SourceError> {
        self.load_sound_table(id).map_err(SourceError::new)
    }

    fn release(&mut self, id: SoundTableId) {
        self.release_sound_table(id);
    }

    fn wave(&mut self, id: u32) -> Result<Option<Wave>, SourceError> {
        self.load_wave(id).map_err(SourceError::new)
    }

    fn wave_size(&mut self, id: u32) -> Result<Option<u64>, SourceError> {
        WaveSource::wave_size(self, id).map_err(SourceError::new)
    }
}

/// The object-safe cell side.
trait Cells: Send {
    fn block(&mut self, id: CellId) -> Result<Option<Arc<LandBlock>>, SourceError>;
    fn env_cell(&mut self, id: CellId) -> Result<Option<Arc<EnvCell>>, SourceError>;
}

impl<C> Cells for C
where
    C: LandBlockSource + Send,
    C::Error: Send + Sync + 'static,
{
    fn block(&mut self, id: CellId) -> Result<Option<Arc<LandBlock>>, SourceError> {
        self.load_land_block(id).map_err(SourceError::new)
    }

    fn env_cell(&mut self, id: CellId) -> Result<Option<Arc<EnvCell>>, SourceError> {
        self.load_env_cell(id).map_err(SourceError::new)
    }
}

/// Any portal-side source, boxed: sound tables for the runtime, Waves for the wave cache.
pub struct BoxedPortal(Mutex<Box<dyn Portal>>);

impl BoxedPortal {
    fn get(&mut self) -> &mut dyn Portal {
        // Never locked, so never poisoned; a poisoned one is used as it is.
        &mut **self.0.get_mut().unwrap_or_else(PoisonError::into_inner)
    }
}

impl BoxedPortal {
    /// Boxes a portal-side source.
    pub fn new<P>(portal: P) -> Self
    where
        P: SoundTableSource + WaveSource + Send + 'static,
        <P as SoundTableSource>::Error: Send + Sync + 'static,
    {
        Self(Mutex::new(Box::new(portal)))
    }
}

impl fmt::Debug for BoxedPortal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("BoxedPortal")
    }
}

impl SoundTableSource for BoxedPortal {
    type Error = SourceError;

    fn load_sound_table(
        &mut self,
        stb_id: SoundTableId,
    ) -> Result<Option<Arc<SoundTable>>, SourceError> {
        self.get().table(stb_id)
    }

    fn release_sound_table(&mut self, stb_id: SoundTableId) {
        self.get().release(stb_id);
    }
}

impl WaveSource for BoxedPortal {
    type Error = SourceError;

    fn load_wave(&mut self, wave_id: u32) -> Result<Option<Wave>, SourceError> {
        self.get().wave(wave_id)
    }

    fn wave_size(&mut self, wave_id: u32) -> Result<Option<u64>, SourceError> {
        self.get().wave_size(wave_id)
    }
}

/// Any cell-side source, boxed: landblocks for the runtime, EnvCells for the listener's cell.
pub struct BoxedCells(Mutex<Box<dyn Cells>>);

impl BoxedCells {
    fn get(&mut self) -> &mut dyn Cells {
        // Never locked, so never poisoned; a poisoned one is used as it is.
        &mut **self.0.get_mut().unwrap_or_else(PoisonError::into_inner)
    }
}

impl BoxedCells {
    /// Boxes a cell-side source.
    pub fn new<C>(cells: C) -> Self
    where
        C: LandBlockSource + Send + 'static,
        C::Error: Send + Sync + 'static,
    {
        Self(Mutex::new(Box::new(cells)))
    }
}

impl fmt::Debug for BoxedCells {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("BoxedCells")
    }
}

impl LandBlockSource for BoxedCells {
    type Error = SourceError;

    fn load_land_block(
        &mut self,
        land_block_id: CellId,
    ) -> Result<Option<Arc<LandBlock>>, SourceError> {
        self.get().block(land_block_id)
    }

    fn load_env_cell(&mut self, cell_id: CellId) -> Result<Option<Arc<EnvCell>>, SourceError> {
        self.get().env_cell(cell_id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use resound_ambient::{MemoryLandBlocks, MemorySoundTables};

    use crate::sound::MemoryWaves;

    #[test]
    fn boxed_sources_are_send_and_sync_and_forward_every_call() {
        fn shared<T: Send + Sync>(_: &T) {}
        let table = SoundTable {
            id: 0x2000_0011,
            ..SoundTable::default()
        };
        let wave = Wave {
            id: 0x0A00_0101,
            ..Wave::default()
        };
        let mut portal = BoxedPortal::new(PortalPair::new(
            MemorySoundTables::new([table]),
            MemoryWaves::new([wave]),
        ));
        shared(&portal);
        let t = portal.load_sound_table(SoundTableId(0x2000_0011)).unwrap();
        assert_eq!(t.map(|t| t.id), Some(0x2000_0011));
        assert!(
            portal
                .load_sound_table(SoundTableId(0x2000_0012))
                .unwrap()
                .is_none()
        );
        assert_eq!(
            portal.load_wave(0x0A00_0101).unwrap().map(|w| w.id),
            Some(0x0A00_0101)
        );
        assert!(portal.load_wave(0x0A00_0102).unwrap().is_none());

        let mut blocks = MemoryLandBlocks::new([LandBlock {
            id: 0xA9B4_FFFF,
            ..LandBlock::default()
        }]);
        blocks.insert_env_cell(EnvCell {
            id: 0xA9B4_0100,
            flags: EnvCell::SEEN_OUTSIDE,
            ..EnvCell::default()
        });
        let mut cells = BoxedCells::new(blocks);
        shared(&cells);
        assert!(
            cells
                .load_land_block(CellId(0xA9B4_FFFF))
                .unwrap()
                .is_some()
        );
        let c = cells.load_env_cell(CellId(0xA9B4_0100)).unwrap().unwrap();
        assert!(c.seen_outside());
        assert!(cells.load_env_cell(CellId(0xA9B4_0101)).unwrap().is_none());
    }
}
