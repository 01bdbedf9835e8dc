//! The world the sounds hear: [`VoxelWorld`], the blocks a game sets cell by cell, box by box
//! or a whole 16³ section at a time from its own chunk data, pushed to the engine once per
//! frame; or [`GameWorldSource`], a game's own chunk store traced as it is (the engine's
//! [`GameWorld`] over an immutable snapshot).

use std::sync::Arc;

use bevy::ecs::resource::Resource;
use bevy::math::IVec3;
use resound_engine::advanced::acoustics::{Cell, CellCode, SectionCells, SectionData};
use resound_engine::{Block, Engine, GameWorld, Material, Materials, WorldError};

use crate::error::ResoundError;

/// Cells on a section's edge (a section is 16³ cells, one metre each).
pub const SECTION_SIZE: i32 = 16;

/// One edit waiting for the frame's push.
#[derive(Debug)]
enum Edit {
    Fill {
        min: IVec3,
        max: IVec3,
        block: Block,
    },
    Section {
        section: IVec3,
        data: SectionData,
    },
    Unload(IVec3),
}

/// The blocks the sounds are traced through: cells of a [`Material`], one metre each, +Y up.
/// Edits made during a frame reach the engine together, in order, when the plugin's systems
/// run (in `PostUpdate`); the voices whose sound paths crossed a changed section are traced
/// again at the engine's next tick.
///
/// ```
/// use bevy::math::IVec3;
/// use bevy_resound::VoxelWorld;
/// use resound_engine::Material;
///
/// let mut world = VoxelWorld::default();
/// world.fill(IVec3::new(0, 0, 0), IVec3::new(9, 0, 9), Material::STONE); // a floor
/// world.set_block(IVec3::new(4, 1, 4), Material::WOOD);
/// let glass = world.material("glass")?;
/// world.set_block(IVec3::new(5, 1, 4), glass);
/// // a whole section from the game's own chunk data (local x, y, z in 0..16)
/// world.set_section(IVec3::new(1, 0, 0), |local| {
///     if local.y == 0 { Material::DIRT.block() } else { Material::AIR.block() }
/// })?;
/// assert_eq!(world.pending(), 4);
/// # Ok::<(), bevy_resound::ResoundError>(())
/// ```
#[derive(Resource, Debug, Default)]
pub struct VoxelWorld {
    materials: Materials,
    edits: Vec<Edit>,
}

impl VoxelWorld {
    /// An empty world whose materials are named by `materials` (give the engine the same
    /// table: [`crate::ResoundPlugin::materials`] does both).
    #[must_use]
    pub fn new(materials: Materials) -> Self {
        Self {
            materials,
            edits: Vec::new(),
        }
    }

    /// The material named `name` (`"stone"`, `"wood"`, `"glass"`, `"air"`, … or one the game
    /// added to its [`Materials`]).
    ///
    /// # Errors
    /// [`ResoundError::UnknownMaterial`].
    pub fn material(&self, name: &str) -> Result<Material, ResoundError> {
        self.materials
            .by_name(name)
            .ok_or_else(|| ResoundError::UnknownMaterial(name.to_owned()))
    }

    /// Sets one cell ([`Material::AIR`] clears it; `Material::…::partial()` is a slab or a
    /// fence: a part of a cell).
    pub fn set_block(&mut self, cell: IVec3, block: impl Into<Block>) {
        self.fill(cell, cell, block);
    }

    /// Fills the inclusive box `min..=max`.
    pub fn fill(&mut self, min: IVec3, max: IVec3, block: impl Into<Block>) {
        self.edits.push(Edit::Fill {
            min,
            max,
            block: block.into(),
        });
    }

    /// Replaces the whole section `section` (cells `16·section .. 16·section + 16` on each
    /// axis) with `block(local)` for local coordinates 0..16: a chunk arriving from the game's
    /// own chunk data.
    ///
    /// # Errors
    /// [`ResoundError::World`] for a block whose material the engine cannot store.
    pub fn set_section(
        &mut self,
        section: IVec3,
        mut block: impl FnMut(IVec3) -> Block,
    ) -> Result<(), ResoundError> {
        let mut codes = vec![CellCode::default(); 4096];
        for y in 0..SECTION_SIZE {
            for z in 0..SECTION_SIZE {
                for x in 0..SECTION_SIZE {
                    let cell = Cell::from(block(IVec3::new(x, y, z)));
                    let code = CellCode::encode(cell).ok_or(WorldError::Material(u16::MAX))?;
                    codes[SectionCells::index(resound_engine::glam::IVec3::new(x, y, z))] = code;
                }
            }
        }
        let codes: Box<[CellCode; 4096]> = match codes.into_boxed_slice().try_into() {
            Ok(c) => c,
            Err(_) => return Err(WorldError::Material(u16::MAX).into()),
        };
        self.edits.push(Edit::Section {
            section,
            data: SectionData::Cells(SectionCells::from_codes(codes)),
        });
        Ok(())
    }

    /// Unloads a section: it reads as unknown (traced as air) afterwards.
    pub fn unload_section(&mut self, section: IVec3) {
        self.edits.push(Edit::Unload(section));
    }

    /// Edits waiting for this frame's push.
    #[must_use]
    pub fn pending(&self) -> usize {
        self.edits.len()
    }

    /// Hands the frame's edits to the engine, in order (the buffer keeps its capacity). The
    /// first refused edit is returned; the others still apply.
    pub(crate) fn push(&mut self, engine: &mut Engine) -> Result<(), ResoundError> {
        let mut first = Ok(());
        for edit in self.edits.drain(..) {
            let mut world = engine.world();
            let r = match edit {
                Edit::Fill { min, max, block } => world.fill(glam(min), glam(max), block),
                Edit::Section { section, data } => world.load_section(glam(section), data),
                Edit::Unload(section) => world.unload_section(glam(section)),
            };
            if let (Err(e), Ok(())) = (r, &first) {
                first = Err(e.into());
            }
        }
        first
    }
}

/// Bevy's `IVec3` as the engine's (the two link different glam versions).
pub(crate) fn glam(v: IVec3) -> resound_engine::glam::IVec3 {
    resound_engine::glam::IVec3::new(v.x, v.y, v.z)
}

/// The game's own chunk store, traced as it is: insert this resource (instead of filling a
/// [`VoxelWorld`]) with an immutable snapshot of the store that implements the engine's
/// `WorldProbe` (the recipe is on [`GameWorld`]), and call [`Self::changed`] with each newer
/// snapshot and the sections that changed. The plugin hands them to the engine once per
/// frame. While it is in place, [`VoxelWorld`] edits are refused
/// ([`ResoundError::World`], the game owns the world).
#[derive(Resource, Debug)]
pub struct GameWorldSource {
    snapshot: Arc<dyn GameWorld>,
    sections: Vec<resound_engine::glam::IVec3>,
    /// The engine has not seen this source yet (a new world: every voice traced again).
    fresh: bool,
    /// A newer snapshot waits for the frame's push.
    dirty: bool,
}

impl GameWorldSource {
    /// The game's world as of now.
    #[must_use]
    pub fn new(snapshot: Arc<dyn GameWorld>) -> Self {
        Self {
            snapshot,
            sections: Vec::new(),
            fresh: true,
            dirty: false,
        }
    }

    /// The game's next snapshot, and the 16³ sections (cell >> 4 on each axis) whose cells
    /// changed since the last one.
    pub fn changed(
        &mut self,
        snapshot: Arc<dyn GameWorld>,
        sections: impl IntoIterator<Item = IVec3>,
    ) {
        self.snapshot = snapshot;
        self.dirty = true;
        self.sections.extend(sections.into_iter().map(glam));
    }

    /// The snapshot the engine traces (or will, after this frame's push).
    #[must_use]
    pub fn snapshot(&self) -> &Arc<dyn GameWorld> {
        &self.snapshot
    }

    /// Hands a new source or the frame's changes to the engine.
    pub(crate) fn push(&mut self, engine: &mut Engine) -> Result<(), ResoundError> {
        if self.fresh {
            engine.set_world(Arc::clone(&self.snapshot));
            self.fresh = false;
            self.dirty = false;
            self.sections.clear();
            return Ok(());
        }
        if !self.dirty {
            return Ok(());
        }
        self.dirty = false;
        self.sections.sort_unstable_by_key(|s| s.to_array());
        self.sections.dedup();
        let r = engine.world_changed(Arc::clone(&self.snapshot), &self.sections);
        self.sections.clear();
        Ok(r?)
    }
}
