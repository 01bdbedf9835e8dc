//! [`GameWorld`]: the game's own voxel world, traced as it is, without copying it into the
//! engine's store.

use resound_acoustics::WorldProbe;

/// A voxel world the game owns, traced by the acoustics as it is.
///
/// The acoustic worker reads the world on its own thread while the game goes on, so what the
/// engine gets is an **immutable snapshot** behind an `Arc`: a value the game never changes
/// after handing it over. A chunked world makes one cheaply by keeping its chunks in `Arc`s
/// (copy-on-write: an edited chunk is cloned, the others shared).
///
/// # Recipe
///
/// 1. Implement [`WorldProbe`](crate::advanced::acoustics::WorldProbe) for your snapshot type:
///    `section_class` (what a 16³ section holds: `Unknown` if not loaded, `Empty`, `Full(mat)`,
///    or `Mixed`), `cell` (one cell's [`Cell`](crate::advanced::acoustics::Cell), built from a
///    [`Material`](crate::Material) with `.into()`), and `epoch` / `revision` /
///    `section_revision`: counters that grow whenever anything (or that section) changes.
///    Section `(sx, sy, sz)` holds cells `16·sx ..16·sx+16` on each axis (floor division for
///    negative coordinates); one cell is one metre, +Y up. The fast paths (`section_cells`,
///    `section_sparse`) are optional.
/// 2. Give the first snapshot to [`crate::EngineBuilder::world`] or
///    [`crate::Engine::set_world`].
/// 3. When cells change, build the next snapshot and call [`crate::Engine::world_changed`] with
///    it and the sections that changed: cached results in those sections are dropped and the
///    voices whose rays crossed them are traced again at the next tick. A change the engine
///    is not told about is still noticed where results compare section revisions, but only
///    reported sections are re-traced at once.
///
/// The crate's `game_world` example syncs a chunked world this way.
pub trait GameWorld: WorldProbe + Send + Sync + std::fmt::Debug + 'static {}

impl<T: WorldProbe + Send + Sync + std::fmt::Debug + 'static> GameWorld for T {}
