//! The `Ambient` object: the instance cache, the rebuild lifecycle driven by
//! `CellManager::ChangePosition` @ 0x004559B0, and the per-frame `UseTime` tick with its play
//! queue. Spec `ambient-data-path.md` §4.3, §6; `ambient-runtime.md` §3.

mod frame;
#[cfg(test)]
mod tests;

pub use frame::{FrameError, Player};

use std::sync::{Arc, Weak};

use glam::Vec3;
use resound_datformat::id::{CellId, SoundTableId, WaveId};
use resound_datformat::record::{Region, SoundData, SoundTable};
use serde::Serialize;
use thiserror::Error;

use crate::event::{AmbientEvent, DropReason, Outcome, Voice};
use crate::geometry::{self, Position};
use crate::instance::{AmbientSound, DirectionSlot, SoundKind, SoundState};
use crate::queue::PQueueArray;
use crate::region::{AmbientRegion, ResolveRegionError, SourceFailure};
use crate::rng::{CrtRand, Ran2};
use crate::sound_manager::{self, Listener, SoundSettings};
use crate::source::{LandBlockSource, SoundTableSource};
use crate::weight::{AMBIENT_SOUND_MAX_DIST_SQ, calc_dir, calc_weight};

/// The seeds of the two generators (retail seeds both with `time(0)`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Seeds {
    /// `Random::Seed` for the ran2 generator (0 acts as 1).
    pub ran2: i32,
    /// `srand` for the CRT generator.
    pub crt: u32,
}

/// Why [`Ambient::change_position`] refused a position.
#[derive(Debug, Clone, Copy, PartialEq, Error)]
#[non_exhaustive]
pub enum ChangePositionError {
    /// The origin has a NaN or infinite coordinate.
    #[error("position {origin} in cell {objcell_id} is not finite")]
    NonFinitePosition {
        /// The cell id.
        objcell_id: CellId,
        /// The origin.
        origin: Vec3,
    },
    /// The cell id fails `inbound_valid_cellid`.
    #[error("cell id {0} is not a valid land cell, EnvCell or landblock id")]
    InvalidCellId(CellId),
    /// The clock is NaN or infinite.
    #[error("time {0} is not finite")]
    NonFiniteTime(f64),
}

/// Why [`Ambient::set_listener`] refused a listener.
#[derive(Debug, Clone, Copy, PartialEq, Error)]
#[non_exhaustive]
pub enum SetListenerError {
    /// The position or heading has a NaN or infinite value.
    #[error(
        "camera at {} in cell {} facing {} is not finite",
        .0.position.origin,
        .0.position.objcell_id,
        .0.heading_deg
    )]
    NonFinite(Listener),
}

/// What [`Ambient::change_position`] did.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "change")]
pub enum PositionChange {
    /// Same cell and a current cell exists: nothing happened.
    Unchanged,
    /// The cell changed: the sounds were rebuilt.
    Rebuilt(Rebuild),
}

/// A rebuild's facts (for logs and tests).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Rebuild {
    /// The new cell.
    pub cell: CellId,
    /// Whether the outdoor gather ran (outdoor cell or `seen_outside`).
    pub outdoorish: bool,
    /// Landblocks of the 3×3 ring that were gathered, in gather order.
    pub land_blocks: Vec<CellId>,
    /// Landblocks of the ring the source did not have (skipped; ring blocks beyond the world
    /// edge are not listed).
    pub missing_land_blocks: Vec<CellId>,
    /// `Ambient::AddSound` calls (land cells whose terrain resolved to a loaded STB set).
    pub add_sound_calls: u32,
    /// Cells that contributed weight (`w > 0`).
    pub contributing_cells: u32,
    /// Loading problems (a failed table is negative-cached; a failed landblock skipped).
    pub failures: Vec<SourceFailure>,
}

/// The retail `Ambient` object plus the `CellManager` state that drives it.
#[derive(Clone, Debug)]
pub struct Ambient {
    region: AmbientRegion,
    settings: SoundSettings,
    listener: Option<Listener>,
    player_pos: Position,
    total_sound_count: f32,
    sounds: Vec<AmbientSound>,
    /// Per-instance memo of the play path, parallel to `sounds` (see [`PlayMemo`]).
    play_memo: Vec<PlayMemo>,
    /// `(desc, entry)` → instance index: an exact index of the linear search `GetSound` does.
    sound_index: Vec<Vec<Option<usize>>>,
    queue: PQueueArray<usize>,
    load_cell: Option<CellId>,
    /// The player pose of the previous [`Ambient::frame`] (or [`Ambient::teleport`]): what the
    /// next frame's `ChangePosition` sees.
    last_player: Option<Player>,
    rng: Ran2,
    crt: CrtRand,
}

impl Ambient {
    /// An `Ambient` for a region (`CRegionDesc::SetRegion` @ 0x004FE8F0 then `UnPack`), with
    /// its generators seeded and no current cell.
    ///
    /// # Errors
    /// [`ResolveRegionError`] when the region's indices point outside their arrays.
    pub fn new(
        region: &Region,
        seeds: Seeds,
        settings: SoundSettings,
    ) -> Result<Self, ResolveRegionError> {
        Ok(Self::from_resolved(
            AmbientRegion::new(region)?,
            seeds,
            settings,
        ))
    }

    /// An `Ambient` over an already resolved region.
    #[must_use]
    pub fn from_resolved(region: AmbientRegion, seeds: Seeds, settings: SoundSettings) -> Self {
        let sound_index = region
            .stb_desc()
            .iter()
            .map(|d| vec![None; d.ambient_sounds.len()])
            .collect();
        Self {
            region,
            sound_index,
            settings,
            listener: None,
            player_pos: Position::new(0, Vec3::ZERO),
            total_sound_count: 0.0,
            sounds: Vec::new(),
            play_memo: Vec::new(),
            queue: PQueueArray::new(),
            load_cell: None,
            last_player: None,
            rng: Ran2::new(seeds.ran2),
            crt: CrtRand::new(seeds.crt),
        }
    }

    /// The resolved region with its STB descriptors' state.
    #[must_use]
    pub fn region(&self) -> &AmbientRegion {
        &self.region
    }

    /// The sound preferences.
    #[must_use]
    pub fn settings(&self) -> &SoundSettings {
        &self.settings
    }

    /// Changes the sound preferences (takes effect at the next call, as in retail).
    pub fn set_settings(&mut self, settings: SoundSettings) {
        self.settings = settings;
    }

    /// `SoundManager::SetPlayerPosition`: the camera that plays hear from and pan against.
    /// Until one is set, the last gather position stands in, facing north
    /// (`docs/divergences.md`).
    ///
    /// # Errors
    /// [`SetListenerError::NonFinite`] for a NaN or infinite position or heading.
    pub fn set_listener(&mut self, listener: Listener) -> Result<(), SetListenerError> {
        if !listener.position.origin.is_finite() || !listener.heading_deg.is_finite() {
            return Err(SetListenerError::NonFinite(listener));
        }
        self.listener = Some(listener);
        Ok(())
    }

    /// The listener plays use.
    #[must_use]
    pub fn listener(&self) -> Listener {
        self.listener.unwrap_or(Listener {
            position: self.player_pos,
            heading_deg: 0.0,
        })
    }

    /// `Ambient::player_pos`: where the last rebuild gathered around.
    #[must_use]
    pub fn player_pos(&self) -> Position {
        self.player_pos
    }

    /// The current cell (`CellManager::load_pos.objcell_id`), `None` before the first rebuild
    /// and after a reset.
    #[must_use]
    pub fn current_cell(&self) -> Option<CellId> {
        self.load_cell
    }

    /// `total_sound_count`: the summed cell weight of the last rebuild.
    #[must_use]
    pub fn total_sound_count(&self) -> f32 {
        self.total_sound_count
    }

    /// The instances, in creation order (never evicted).
    #[must_use]
    pub fn sounds(&self) -> &[AmbientSound] {
        &self.sounds
    }

    /// The play queue.
    #[must_use]
    pub fn queue(&self) -> &PQueueArray<usize> {
        &self.queue
    }

    /// `CellManager::ChangePosition` @ 0x004559B0, the ambient part, with no frame lag (a host
    /// normally calls [`Ambient::frame`] or [`Ambient::teleport`], which call this in retail
    /// order). Only when the cell id differs from the current one or there is no current cell: `InitSounds` → (`CEnvCell::add_ambient_sounds`,
    /// an empty stub in the 2013 client) → `LScape::add_ambient_sounds` when the cell is
    /// outdoor (low word `< 0x100`) or `seen_outside` → `UpdatePlayQueue` →
    /// `ReleaseSoundTables`. `now` is `Timer::cur_time` in seconds.
    ///
    /// Missing landblocks and tables are skipped as retail skips them (see [`Rebuild`]).
    ///
    /// # Errors
    /// [`ChangePositionError`] for a non-finite position or time or an invalid cell id (0, "no
    /// cell", included: call [`Ambient::reset`] for `CellManager::Reset`); the state is left
    /// untouched.
    #[allow(
        clippy::too_many_arguments,
        reason = "the two sources, the clock and the sink are all injected"
    )]
    pub fn change_position<T: SoundTableSource, L: LandBlockSource>(
        &mut self,
        pos: &Position,
        seen_outside: bool,
        now: f64,
        tables: &mut T,
        land_blocks: &mut L,
        events: &mut Vec<AmbientEvent>,
    ) -> Result<PositionChange, ChangePositionError> {
        if !pos.origin.is_finite() {
            return Err(ChangePositionError::NonFinitePosition {
                objcell_id: pos.objcell_id,
                origin: pos.origin,
            });
        }
        if !geometry::is_valid_cell_id(pos.objcell_id.0) {
            return Err(ChangePositionError::InvalidCellId(pos.objcell_id));
        }
        if !now.is_finite() {
            return Err(ChangePositionError::NonFiniteTime(now));
        }
        if self.load_cell == Some(pos.objcell_id) {
            return Ok(PositionChange::Unchanged);
        }
        let outdoorish = geometry::is_outdoor_cell(pos.objcell_id.0) || seen_outside;
        let mut rebuild = Rebuild {
            cell: pos.objcell_id,
            outdoorish,
            ..Rebuild::default()
        };
        self.init_sounds(pos);
        // CEnvCell::add_ambient_sounds @ 0x00694750 is ICF-folded onto a bare `ret`.
        if outdoorish {
            self.add_lscape_sounds(tables, land_blocks, &mut rebuild);
        }
        self.update_play_queue(now, events);
        self.release_sound_tables(tables);
        self.load_cell = Some(pos.objcell_id);
        Ok(PositionChange::Rebuilt(rebuild))
    }

    /// `CellManager::Reset` @ 0x00455930: `FlushSoundTables` and forget the current cell, so
    /// the next position rebuilds. The previous frame's poses are kept, as retail keeps the
    /// player: the next [`Ambient::frame`] rebuilds around the last player it was given (call
    /// [`Ambient::teleport`] to put the player somewhere new at once).
    pub fn reset<T: SoundTableSource>(&mut self, tables: &mut T) {
        self.flush_sound_tables(tables);
        self.load_cell = None;
    }

    /// `Ambient::InitSounds` @ 0x005515D0: the rebuild barrier — new gather position,
    /// `total_sound_count = 0`, every instance's `ResetCount`.
    pub(crate) fn init_sounds(&mut self, pos: &Position) {
        self.player_pos = *pos;
        self.total_sound_count = 0.0;
        self.reset_counts();
    }

    fn reset_counts(&mut self) {
        let descs = self.region.stb_desc_mut();
        for s in &mut self.sounds {
            if let Some(d) = descs.get_mut(s.desc) {
                s.reset_count(&mut d.play_count);
            }
        }
    }

    /// `Ambient::GetSound` @ 0x005510B0: the instance for `(desc, id)` — retail searches the
    /// instances linearly; the keys are unique, so a `(desc, id)` table gives the same answer in
    /// O(1) — or a new one appended (`ConstantSound` if continuous, else `IntermitSound`).
    /// Never evicts.
    pub(crate) fn get_sound(&mut self, desc: usize, ambient_sound_id: usize) -> Option<usize> {
        let slot = self.sound_index.get_mut(desc)?.get_mut(ambient_sound_id)?;
        if let Some(i) = *slot {
            return Some(i);
        }
        let d = self
            .region
            .stb_desc()
            .get(desc)?
            .ambient_sounds
            .get(ambient_sound_id)?;
        self.sounds
            .push(AmbientSound::new(desc, ambient_sound_id, d.is_continuous()));
        self.play_memo.push(PlayMemo::new(d));
        let i = self.sounds.len() - 1;
        *slot = Some(i);
        Some(i)
    }

    /// `Ambient::AddSound` @ 0x00551610: skipped when disabled or when `|diff|² > 14400`
    /// (a cell at exactly 120 m is kept); `w = CalcWeight`, `dir = CalcDir`; if `w > 0`,
    /// `total_sound_count += w` **once** and every entry of the set gets `AddTo(w, diff, dir)`.
    /// Returns whether the cell contributed. (The gather calls [`Self::add_sound_offset`] with the
    /// block offset taken once per landblock; this entry point is kept for the unit tests.)
    #[cfg(test)]
    pub(crate) fn add_sound(&mut self, desc: usize, sound_pos: &Position) -> bool {
        if !self.settings.ambient_sounds_enabled {
            return false;
        }
        self.add_sound_offset(desc, self.player_pos.get_offset(sound_pos))
    }

    /// [`Self::add_sound`] after the enable check, given `diff = player_pos.get_offset(pos)`.
    #[inline]
    fn add_sound_offset(&mut self, desc: usize, diff: Vec3) -> bool {
        if diff.length_squared() > AMBIENT_SOUND_MAX_DIST_SQ {
            return false;
        }
        let w = calc_weight(diff);
        let dir = calc_dir(diff);
        if w.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
            return false;
        }
        self.total_sound_count += w;
        let n = self
            .region
            .stb_desc()
            .get(desc)
            .map_or(0, |d| d.ambient_sounds.len());
        for i in 0..n {
            if let Some(s) = self.get_sound(desc, i) {
                self.sounds[s].add_to(w, diff, dir);
            }
        }
        true
    }

    /// `LScape::add_ambient_sounds` @ 0x00505810: the landblocks at Chebyshev distance ≤ 1 from
    /// the player's block (`get_block_orient` ring 1), outer index x (west → east), inner y;
    /// blocks beyond the world edge or absent from the source are skipped.
    fn add_lscape_sounds<T: SoundTableSource, L: LandBlockSource>(
        &mut self,
        tables: &mut T,
        land_blocks: &mut L,
        rebuild: &mut Rebuild,
    ) {
        let (cx, cy) = geometry::block_xy(self.player_pos.objcell_id.0);
        for dx in -1_i64..=1 {
            for dy in -1_i64..=1 {
                let bx = i64::from(cx) + dx;
                let by = i64::from(cy) + dy;
                let side = i64::from(geometry::LAND_BLOCKS_PER_SIDE);
                if !(0..side).contains(&bx) || !(0..side).contains(&by) {
                    continue;
                }
                let (bx, by) = (bx as u32, by as u32);
                let id = CellId(geometry::land_block_id(bx, by));
                match land_blocks.load_land_block(id) {
                    Ok(Some(block)) => {
                        rebuild.land_blocks.push(id);
                        self.add_land_block_sounds(&block, bx, by, tables, rebuild);
                    }
                    Ok(None) => rebuild.missing_land_blocks.push(id),
                    Err(e) => {
                        rebuild.missing_land_blocks.push(id);
                        rebuild.failures.push(SourceFailure {
                            kind: crate::region::SourceKind::LandBlock,
                            id: id.0,
                            message: e.to_string(),
                        });
                    }
                }
            }
        }
    }

    /// `CLandBlock::add_ambient_sounds` @ 0x00530310 (with the x-major erratum): for each of the
    /// 8×8 land cells, outer x then y, decode the SW vertex's terrain word
    /// (`type = (w >> 2) & 0x1F`, `scene = w >> 11`), and if `scene < NumSceneType(type)` and
    /// `CRegionDesc::GetSTBDesc` yields a set, `AddSound` it at the SW vertex
    /// `(24x, 24y, LandHeightTable[height])` in land cell `x·8 + y + 1`.
    pub(crate) fn add_land_block_sounds<T: SoundTableSource>(
        &mut self,
        block: &resound_datformat::record::LandBlock,
        block_x: u32,
        block_y: u32,
        tables: &mut T,
        rebuild: &mut Rebuild,
    ) {
        // `Position::get_offset(player → cell)` is `(block_offset + origin) − player.origin`; the
        // block offset is the same for every cell of the block.
        let block_off = geometry::block_offset(
            self.player_pos.objcell_id.0,
            geometry::land_cell_id(block_x, block_y, 0, 0),
        );
        let enabled = self.settings.ambient_sounds_enabled;
        let player = self.player_pos.origin;
        for x in 0..geometry::CELLS_PER_SIDE {
            let vx = x as f32 * geometry::CELL_LENGTH;
            // The x component of every diff in this column, computed exactly as below. Since
            // `x² + y² + z²` in floats is never below `x²`, a column with `dx² > 14400` holds
            // no cell AddSound would accept: skip the arithmetic (not the table loads).
            let dx = (block_off.x + vx) - player.x;
            let column_in_range = dx * dx <= AMBIENT_SOUND_MAX_DIST_SQ;
            for y in 0..geometry::CELLS_PER_SIDE {
                let i = x * geometry::VERTICES_PER_SIDE + y;
                let w = u32::from(block.terrain[i]);
                // scene < NumSceneType(type) and CTerrainDesc::GetSTBDesc, in one lookup
                let d = self.region.word_desc((w >> 2) & 0x1F, w >> 11);
                if d == crate::region::NO_DESC {
                    continue;
                }
                let Some(desc) =
                    self.region
                        .load_stb_desc(d as usize, tables, &mut rebuild.failures)
                else {
                    continue;
                };
                rebuild.add_sound_calls += 1;
                if !enabled || !column_in_range {
                    continue;
                }
                let z = self.region.height_table()[usize::from(block.height[i])];
                let origin = Vec3::new(vx, y as f32 * geometry::CELL_LENGTH, z);
                if self.add_sound_offset(desc, (block_off + origin) - player) {
                    rebuild.contributing_cells += 1;
                }
            }
        }
    }

    /// `Ambient::UpdatePlayQueue` @ 0x00551A50: when enabled, every instance in creation order
    /// gets `UpdateSound(total_sound_count)` and, if not queued, `Play` — newly audible
    /// sounds fire at once; queued ones keep their due time.
    pub(crate) fn update_play_queue(&mut self, now: f64, events: &mut Vec<AmbientEvent>) {
        if !self.settings.ambient_sounds_enabled {
            return;
        }
        let total = self.total_sound_count;
        for i in 0..self.sounds.len() {
            let s = &mut self.sounds[i];
            let Some(d) = self.region.stb_desc_mut().get_mut(s.desc) else {
                continue;
            };
            let Some(asd) = d.ambient_sounds.get(s.ambient_sound_id).copied() else {
                continue;
            };
            s.update_sound(total, &asd, &mut d.play_count);
            if !s.on_queue {
                self.play(i, now, events);
            }
        }
    }

    /// `Ambient::ReleaseSoundTables` @ 0x00455770: every instance's set whose table is loaded
    /// but has `play_count == 0` drops it (re-fetched lazily at the next gather). Sets that
    /// never got an instance keep theirs (retail).
    pub(crate) fn release_sound_tables<T: SoundTableSource>(&mut self, tables: &mut T) {
        let descs = self.region.stb_desc_mut();
        for s in &self.sounds {
            if let Some(d) = descs.get_mut(s.desc)
                && d.play_count == 0
                && d.sound_table.take().is_some()
            {
                tables.release_sound_table(d.stb_id);
            }
        }
    }

    /// `Ambient::FlushSoundTables` @ 0x00452920: `ResetCount` on every instance,
    /// `total_sound_count = 0`, then `ReleaseSoundTables` (which now releases every table an
    /// instance holds). The queue is kept: stale nodes fall out when they pop and `CanHear`
    /// fails.
    pub fn flush_sound_tables<T: SoundTableSource>(&mut self, tables: &mut T) {
        self.reset_counts();
        self.total_sound_count = 0.0;
        self.release_sound_tables(tables);
    }

    /// `Ambient::UseTime` @ 0x00551880: when enabled, pop and `Play` every node whose key is
    /// strictly below `now` (`Timer::cur_time`, seconds). A NaN `now` pops nothing.
    ///
    /// The two tests that end most frames (disabled, or nothing due) are inlined into the
    /// caller; the popping loop is out of line.
    #[inline]
    pub fn use_time(&mut self, now: f64, events: &mut Vec<AmbientEvent>) {
        if !self.settings.ambient_sounds_enabled {
            return;
        }
        if self.queue.min_key().is_some_and(|key| key < now) {
            self.use_time_due(now, events);
        }
    }

    /// The loop of [`Self::use_time`]: pop and play while the root key is strictly below `now`.
    #[inline(never)]
    fn use_time_due(&mut self, now: f64, events: &mut Vec<AmbientEvent>) {
        while let Some(key) = self.queue.min_key() {
            if key.partial_cmp(&now) != Some(std::cmp::Ordering::Less) {
                break;
            }
            if let Some((_, i)) = self.queue.remove_min() {
                self.play(i, now, events);
            }
        }
    }

    /// `Ambient::Play` @ 0x005517A0: if `CanHear` fails, leave the queue; otherwise, if
    /// `PlayNow`, play at `GetSoundPos` (around the listener) or from the centre, then
    /// **regardless** re-queue at `now + GetPlayInterval()`.
    ///
    /// The instance, its descriptor and the generators are borrowed field by field (nothing is
    /// copied out), and the `SoundManager` half runs in [`play_sound`].
    fn play(&mut self, i: usize, now: f64, events: &mut Vec<AmbientEvent>) {
        let listener = self.listener();
        let (Some(s), Some(memo)) = (self.sounds.get_mut(i), self.play_memo.get_mut(i)) else {
            return;
        };
        let Some(d) = self.region.stb_desc().get(s.desc) else {
            return;
        };
        let Some(asd) = d.ambient_sounds.get(s.ambient_sound_id) else {
            return;
        };
        if !s.can_hear(d.sound_table.is_some()) {
            s.on_queue = false;
            return;
        }
        let rng = &mut self.rng;
        if s.play_now(rng) {
            let mut pos = listener.position;
            let positioned = s.get_sound_pos(&mut pos, rng);
            let volume = s.get_volume(asd);
            let outcome = play_sound(
                &self.settings,
                d,
                asd.s_type,
                if positioned { Some(pos) } else { None },
                volume,
                &listener,
                rng,
                &mut self.crt,
                memo,
            );
            if let Some(outcome) = outcome {
                events.push(AmbientEvent {
                    time: now,
                    sound: i,
                    desc: s.desc,
                    stb_id: d.stb_id,
                    ambient_sound_id: s.ambient_sound_id,
                    kind: s.kind(),
                    s_type: memo.s_type,
                    volume,
                    outcome,
                });
            }
        }
        let interval = s.get_play_interval(asd, rng);
        // A negative (or NaN) authored rate would make retail's `UseTime` loop pop the same
        // sound forever; it is re-queued at `now` instead (docs/divergences.md row 12).
        let interval = if interval > 0.0 { interval } else { 0.0 };
        self.queue.insert(now + f64::from(interval), i);
        s.on_queue = true;
    }

    /// A serialisable view of the instances (what `resound ambient --at` prints).
    #[must_use]
    pub fn snapshot(&self) -> AmbientSnapshot {
        let sounds = self
            .sounds
            .iter()
            .enumerate()
            .map(|(index, s)| {
                let d = self.region.stb_desc().get(s.desc);
                let asd = d.and_then(|d| d.ambient_sounds.get(s.ambient_sound_id));
                let (play_chance, current_volume, directions) = match &s.state {
                    SoundState::Intermit(st) => {
                        (Some(st.play_chance), None, st.directions().to_vec())
                    }
                    SoundState::Constant { current_volume } => {
                        (None, Some(*current_volume), Vec::new())
                    }
                };
                SoundSnapshot {
                    index,
                    desc: s.desc,
                    stb_id: d.map_or(SoundTableId(0), |d| d.stb_id),
                    ambient_sound_id: s.ambient_sound_id,
                    kind: s.kind(),
                    s_type: asd.map_or(0, |a| a.s_type.to_u32()),
                    sound_count: s.sound_count,
                    play_chance,
                    current_volume,
                    on_queue: s.on_queue,
                    directions,
                }
            })
            .collect();
        AmbientSnapshot {
            cell: self.load_cell,
            player_pos: self.player_pos,
            total_sound_count: self.total_sound_count,
            sounds,
            queue_len: self.queue.len(),
        }
    }
}

/// The state after a rebuild, for printing and golden tests.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AmbientSnapshot {
    /// The current cell.
    pub cell: Option<CellId>,
    /// The gather position.
    pub player_pos: Position,
    /// `total_sound_count`.
    pub total_sound_count: f32,
    /// Every instance, in creation order.
    pub sounds: Vec<SoundSnapshot>,
    /// Nodes in the play queue.
    pub queue_len: usize,
}

/// One instance in an [`AmbientSnapshot`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SoundSnapshot {
    /// Index in creation order.
    pub index: usize,
    /// The STB descriptor's index in the region.
    pub desc: usize,
    /// Its SoundTable id.
    pub stb_id: SoundTableId,
    /// The index in the descriptor's `ambient_sounds`.
    pub ambient_sound_id: usize,
    /// The subclass.
    pub kind: SoundKind,
    /// The sound type (raw).
    pub s_type: u32,
    /// `sound_count`.
    pub sound_count: f32,
    /// `play_chance` (intermittent).
    pub play_chance: Option<f32>,
    /// `current_volume` (constant).
    pub current_volume: Option<f32>,
    /// `on_queue`.
    pub on_queue: bool,
    /// The gathered directions (intermittent).
    pub directions: Vec<DirectionSlot>,
}

/// Per-instance memo of the play path: values that are pure functions of data fixed for the
/// instance's life, or of the last input, so a replay does not recompute them.
#[derive(Clone, Debug)]
struct PlayMemo {
    /// `ambient_sounds[id].stype` as its raw value (the authored descriptors never change).
    s_type: u32,
    /// The last gain [`sound_manager::whole_db`] was asked about, as bits; `NaN` bits (a NaN
    /// gain is dropped before the level is taken) when none yet.
    gain_bits: u64,
    /// `whole_db` of that gain.
    db: f64,
    /// The table [`Self::list`] was found in. Holding the `Weak` keeps its allocation, so an
    /// `Arc` at the same address is that same table, unchanged (a `SoundTable` has no interior
    /// mutability, and `Arc::get_mut` refuses while a `Weak` exists): the cached search result
    /// stands. `Weak::new()` (no table yet) matches no `Arc`.
    table: Weak<SoundTable>,
    /// `CSoundTable::Lookup`'s answer in that table: the index in `sounds` of the first list
    /// keyed `s_type` (as [`SoundTable::sound`] finds it), or `None`.
    list: Option<usize>,
}

impl PlayMemo {
    fn new(asd: &resound_datformat::record::AmbientSoundDesc) -> Self {
        Self {
            s_type: asd.s_type.to_u32(),
            gain_bits: f64::NAN.to_bits(),
            db: 0.0,
            table: Weak::new(),
            list: None,
        }
    }

    /// `CSoundTable::Lookup` (root hash only, no recursion): [`SoundTable::sound`]`(s_type)`,
    /// searched once per loaded table.
    #[inline]
    fn sound_data<'t>(
        &mut self,
        table: &'t Arc<SoundTable>,
        s_type: resound_datformat::record::Sound,
    ) -> Option<&'t SoundData> {
        if !std::ptr::eq(self.table.as_ptr(), Arc::as_ptr(table)) {
            self.table = Arc::downgrade(table);
            self.list = table.sounds.iter().position(|(k, _)| *k == s_type);
        }
        table.sounds.get(self.list?).map(|(_, d)| d)
    }

    /// [`sound_manager::whole_db`]`(g)`, recomputed only when `g` differs (bit for bit) from the
    /// last call's: a constant sound replays at the same gain until the next rebuild.
    #[inline]
    fn whole_db(&mut self, g: f64) -> f64 {
        let bits = g.to_bits();
        if bits != self.gain_bits {
            self.db = sound_manager::whole_db(g);
            self.gain_bits = bits;
        }
        self.db
    }
}

/// `Ambient::PlaySound` (`PlaySoundA`) → `SoundManager::PlayAmbientSound` @ 0x00550820 (with a
/// position) or `PlayAmbientSoundFromCenter` @ 0x005508B0: `v = A·volume`; `GetSound` row pick
/// (one ran2 draw); the CRT probability gate; then `PlaySoundInternal`'s active-window check,
/// distance, pan and `GetAttenuation` (which applies `A` again). `None` only when ambient
/// sounds are disabled.
#[allow(
    clippy::too_many_arguments,
    reason = "the borrowed pieces of `Ambient` the play path reads and draws from"
)]
#[inline]
fn play_sound(
    settings: &SoundSettings,
    d: &crate::region::StbDesc,
    s_type: resound_datformat::record::Sound,
    pos: Option<Position>,
    volume: f32,
    listener: &Listener,
    rng: &mut Ran2,
    crt: &mut CrtRand,
    memo: &mut PlayMemo,
) -> Option<Outcome> {
    if !settings.ambient_sounds_enabled {
        return None;
    }
    let v = settings.ambient_sound_volume * volume;
    let Some(table) = d.sound_table.as_ref() else {
        return Some(Outcome::Drop(DropReason::NoSoundTable));
    };
    // `SoundManager::GetSound` @ 0x00550680: the lookup (memoised per table), then the draw.
    let Some(chosen) = memo
        .sound_data(table, s_type)
        .and_then(|data| sound_manager::pick_row(data, rng))
    else {
        return Some(Outcome::Drop(DropReason::NoEntry));
    };
    let row = chosen.row;
    if chosen.entry.id == 0 {
        return Some(Outcome::Drop(DropReason::SilentWave { row }));
    }
    if !sound_manager::probability_gate(chosen.entry.probability, crt) {
        return Some(Outcome::Drop(DropReason::Probability { row }));
    }
    if settings.play_sound_only_when_active && !settings.app_active {
        return Some(Outcome::Drop(DropReason::Inactive { row }));
    }
    let (distance, pan) = match &pos {
        Some(p) => {
            let dist = p.distance(&listener.position);
            (dist, sound_manager::pan(p, listener, dist, settings))
        }
        None => (0.0, 0),
    };
    let g = sound_manager::attenuated_gain(distance, v, true, settings);
    let Some((gain, db)) = sound_manager::level(g, |g| memo.whole_db(g)) else {
        return Some(Outcome::Drop(DropReason::Inaudible { row, distance }));
    };
    Some(Outcome::Play(Voice {
        wave_id: WaveId(chosen.entry.id),
        row,
        priority: chosen.entry.priority,
        gain,
        db,
        pan,
        distance,
        position: pos,
    }))
}
