//! The region's ambient data, resolved for the runtime: `CRegionDesc::UnPack` @ 0x004FF440
//! turns the scene-type and STB indices into pointers once; the STB descriptors carry the
//! shared runtime state (`sound_table` cache, `stb_not_found` negative cache, `play_count`).
//! Spec `ambient-data-path.md` §1–§4.

#[cfg(test)]
mod tests;

use std::sync::Arc;

use resound_datformat::id::SoundTableId;
use resound_datformat::record::{AmbientSoundDesc, Region, SceneType, SoundTable};
use serde::Serialize;
use thiserror::Error;

use crate::source::SoundTableSource;

/// Retail's `INVALID_DID`: an STB id of 0 is never fetched.
pub const INVALID_DID: u32 = 0;
/// The "no entry" value of a scene-type or STB index.
pub const NO_INDEX: u32 = SceneType::NO_STB;

/// Why a `Region` cannot drive the ambient runtime.
///
/// Retail resolves the indices with no bounds check; Resound refuses out-of-range ones
/// (`docs/divergences.md` row 1).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ResolveRegionError {
    /// A scene type's `stb_index` is neither `0xFFFFFFFF` nor below the STB count.
    #[error(
        "scene type {scene_type}: stb_index {stb_index} is out of range (the region has {stb_count} STB descriptors)"
    )]
    StbIndexOutOfRange {
        /// The scene type's index in `scene_info.scene_types`.
        scene_type: usize,
        /// The bad index.
        stb_index: u32,
        /// `sound_info.stb_desc.len()` (0 without `sound_info`).
        stb_count: usize,
    },
    /// A terrain type's scene-type index is neither `0xFFFFFFFF` nor below the scene-type count.
    #[error(
        "terrain type {terrain_type} slot {slot}: scene type index {scene_type_index} is out of range (the region has {scene_type_count} scene types)"
    )]
    SceneTypeIndexOutOfRange {
        /// The terrain type's index in `terrain_info.terrain_types`.
        terrain_type: usize,
        /// The slot in that terrain type's `scene_types`.
        slot: usize,
        /// The bad index.
        scene_type_index: u32,
        /// `scene_info.scene_types.len()` (0 without `scene_info`).
        scene_type_count: usize,
    },
}

/// A runtime `AmbientSTBDesc` (sizeof 0x1C): the authored set plus its shared state.
#[derive(Clone, Debug)]
pub struct StbDesc {
    /// `stb_id`: the SoundTable id.
    pub stb_id: SoundTableId,
    /// `stb_not_found`: once a load failed, it is never retried.
    pub stb_not_found: bool,
    /// `ambient_sounds`, as authored (`is_continuous` derives from `base_chance == 0.0`).
    pub ambient_sounds: Vec<AmbientSoundDesc>,
    /// `sound_table`: the loaded table, or `None` (not yet loaded, released, or not found).
    pub sound_table: Option<Arc<SoundTable>>,
    /// `play_count`: instances of this set that are audible after the last rebuild.
    pub play_count: u32,
}

/// A loading problem met during a rebuild (the rebuild carries on, as retail does).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SourceFailure {
    /// What was being loaded.
    pub kind: SourceKind,
    /// Its id.
    pub id: u32,
    /// The source's error, rendered.
    pub message: String,
}

/// The kind of record a [`SourceFailure`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SourceKind {
    /// A `SoundTable` (treated as not found: negative-cached).
    SoundTable,
    /// A `LandBlock` (skipped).
    LandBlock,
}

/// The resolved region: STB descriptors, terrain type → scene slot → STB descriptor, and the
/// land height table.
#[derive(Clone, Debug)]
pub struct AmbientRegion {
    /// The region number (`Region.region_number`).
    pub region_number: u32,
    stb_desc: Vec<StbDesc>,
    /// `terrain_types[t].scene_types[s]` resolved through the scene type to an STB index.
    terrain: Vec<Vec<Option<usize>>>,
    /// The same for the 5-bit terrain type and scene ordinal of a terrain word, flattened:
    /// `word_lookup[type·32 + scene]` is the STB index, or [`NO_DESC`] when the ordinal is at or
    /// beyond `NumSceneType(type)` or the slot has no set.
    word_lookup: Vec<u32>,
    height_table: [f32; 256],
}

/// [`AmbientRegion::word_desc`]'s "nothing here".
pub(crate) const NO_DESC: u32 = u32::MAX;

impl AmbientRegion {
    /// Resolves a parsed `Region` (`CRegionDesc::UnPack` @ 0x004FF440, scene section
    /// @ 0x004FF713, terrain section @ 0x004FF8AE): `0xFFFFFFFF` means none; anything else
    /// must be in range. The height table is installed as `LandDefs::set_height_table` does
    /// (values in `[0, 800]` up to the first one outside).
    ///
    /// # Errors
    /// [`ResolveRegionError`] for an index outside its array.
    pub fn new(region: &Region) -> Result<Self, ResolveRegionError> {
        let stb_desc: Vec<StbDesc> = region
            .sound_info
            .as_ref()
            .map(|s| s.stb_desc.as_slice())
            .unwrap_or_default()
            .iter()
            .map(|d| StbDesc {
                stb_id: SoundTableId(d.stb_id),
                stb_not_found: false,
                ambient_sounds: d.ambient_sounds.clone(),
                sound_table: None,
                play_count: 0,
            })
            .collect();
        let scene_types = region
            .scene_info
            .as_ref()
            .map(|s| s.scene_types.as_slice())
            .unwrap_or_default();
        let mut scene_stb = Vec::with_capacity(scene_types.len());
        for (i, st) in scene_types.iter().enumerate() {
            scene_stb.push(resolve(st.stb_index, stb_desc.len()).map_err(|()| {
                ResolveRegionError::StbIndexOutOfRange {
                    scene_type: i,
                    stb_index: st.stb_index,
                    stb_count: stb_desc.len(),
                }
            })?);
        }
        let mut terrain = Vec::with_capacity(region.terrain_info.terrain_types.len());
        for (t, tt) in region.terrain_info.terrain_types.iter().enumerate() {
            let mut slots = Vec::with_capacity(tt.scene_types.len());
            for (s, &idx) in tt.scene_types.iter().enumerate() {
                let scene = resolve(idx, scene_stb.len()).map_err(|()| {
                    ResolveRegionError::SceneTypeIndexOutOfRange {
                        terrain_type: t,
                        slot: s,
                        scene_type_index: idx,
                        scene_type_count: scene_stb.len(),
                    }
                })?;
                slots.push(scene.and_then(|sc| scene_stb.get(sc).copied().flatten()));
            }
            terrain.push(slots);
        }
        let mut word_lookup = vec![NO_DESC; 32 * 32];
        for (t, slots) in terrain.iter().take(32).enumerate() {
            for (sc, d) in slots.iter().take(32).enumerate() {
                if let Some(d) = d {
                    word_lookup[t * 32 + sc] = u32::try_from(*d).unwrap_or(NO_DESC);
                }
            }
        }
        Ok(Self {
            region_number: region.region_number,
            stb_desc,
            terrain,
            word_lookup,
            height_table: region.land_defs.retail_height_table(),
        })
    }

    /// The STB descriptors, in region order.
    #[must_use]
    pub fn stb_desc(&self) -> &[StbDesc] {
        &self.stb_desc
    }

    /// Mutable access to the STB descriptors.
    pub(crate) fn stb_desc_mut(&mut self) -> &mut [StbDesc] {
        &mut self.stb_desc
    }

    /// The installed `LandDefs` height table.
    #[must_use]
    pub fn height_table(&self) -> &[f32; 256] {
        &self.height_table
    }

    /// `CTerrainDesc::NumSceneType` @ 0x00502430 (via `CRegionDesc::NumSceneType`
    /// @ 0x004FE960): the terrain type's scene-slot count, 0 for an unknown type.
    #[must_use]
    pub fn num_scene_type(&self, terrain_type: u32) -> u32 {
        self.terrain
            .get(terrain_type as usize)
            .map_or(0, |s| u32::try_from(s.len()).unwrap_or(u32::MAX))
    }

    /// `CTerrainDesc::GetSTBDesc` @ 0x00502400: the STB descriptor of a terrain type's scene
    /// slot, with no loading.
    #[must_use]
    pub fn terrain_stb_desc(&self, terrain_type: u32, scene: u32) -> Option<usize> {
        self.terrain
            .get(terrain_type as usize)?
            .get(scene as usize)
            .copied()
            .flatten()
    }

    /// `NumSceneType` check plus `CTerrainDesc::GetSTBDesc` for a terrain word's 5-bit fields in
    /// one flat lookup: the STB index, or [`NO_DESC`].
    #[must_use]
    #[inline]
    pub(crate) fn word_desc(&self, terrain_type: u32, scene: u32) -> u32 {
        let i = ((terrain_type & 0x1F) << 5 | (scene & 0x1F)) as usize;
        self.word_lookup.get(i).copied().unwrap_or(NO_DESC)
    }

    /// The lazy-load half of `CRegionDesc::GetSTBDesc` for a resolved descriptor: `Some(d)` when
    /// its table is (now) loaded.
    #[inline]
    pub(crate) fn load_stb_desc<T: SoundTableSource>(
        &mut self,
        d: usize,
        tables: &mut T,
        failures: &mut Vec<SourceFailure>,
    ) -> Option<usize> {
        let desc = self.stb_desc.get_mut(d)?;
        if desc.sound_table.is_some() {
            return Some(d);
        }
        desc.init_sound_table(tables, failures).then_some(d)
    }

    /// `CRegionDesc::GetSTBDesc` @ 0x004FEAB0: [`Self::terrain_stb_desc`], then lazily load the
    /// descriptor's table; `None` unless the table is (now) loaded. (The gather uses the
    /// precomputed [`Self::word_desc`] and [`Self::load_stb_desc`]; kept for the unit tests.)
    #[cfg(test)]
    pub(crate) fn get_stb_desc<T: SoundTableSource>(
        &mut self,
        terrain_type: u32,
        scene: u32,
        tables: &mut T,
        failures: &mut Vec<SourceFailure>,
    ) -> Option<usize> {
        let d = self.terrain_stb_desc(terrain_type, scene)?;
        self.load_stb_desc(d, tables, failures)
    }
}

/// `0xFFFFFFFF` → none; in range → `Some`; otherwise `Err`.
fn resolve(index: u32, len: usize) -> Result<Option<usize>, ()> {
    if index == NO_INDEX {
        return Ok(None);
    }
    let i = index as usize;
    if i < len { Ok(Some(i)) } else { Err(()) }
}

impl StbDesc {
    /// `AmbientSTBDesc::InitSoundTable` @ 0x004FEA60: nothing once `stb_not_found` is set or
    /// for `INVALID_DID`; otherwise fetch the table, and on failure set `stb_not_found` —
    /// never retried. A source error counts as a failure and is recorded.
    pub(crate) fn init_sound_table<T: SoundTableSource>(
        &mut self,
        tables: &mut T,
        failures: &mut Vec<SourceFailure>,
    ) -> bool {
        if self.stb_not_found || self.stb_id.0 == INVALID_DID {
            return false;
        }
        match tables.load_sound_table(self.stb_id) {
            Ok(Some(t)) => {
                self.sound_table = Some(t);
                true
            }
            Ok(None) => {
                self.stb_not_found = true;
                false
            }
            Err(e) => {
                failures.push(SourceFailure {
                    kind: SourceKind::SoundTable,
                    id: self.stb_id.0,
                    message: e.to_string(),
                });
                self.stb_not_found = true;
                false
            }
        }
    }
}
