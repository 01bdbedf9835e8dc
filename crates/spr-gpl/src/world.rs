// SPDX-License-Identifier: GPL-3.0-only
//! What SPR's rays need to know about the world: the solid cell at a position, if any.
//!
//! Stands for SPR's `world/ClonedClientLevel.java` (`getBlockState`) together with the table
//! lookup of `config/blocksound/BlockSoundConfigBase.java`; spec `spr.md` §1.1, §1.11, §2.

use glam::IVec3;

use crate::SprBlock;

/// A view of the world as SPR's rays see it.
///
/// Every cell is a whole unit cube `[x,x+1)×[y,y+1)×[z,z+1)`. `None` means the ray passes
/// (air, plants without a collision shape, unknown or unloaded cells, which SPR reads as
/// `VOID_AIR`). Implemented for acoustics-core worlds by [`crate::ProbeWorld`].
pub trait SprWorld {
    /// The solid block at `cell`, with SPR's table values, or `None` when the cell is passable.
    fn block(&self, cell: IVec3) -> Option<SprBlock>;

    /// Whether every cell of the 16³ section `section` (cell coordinates >> 4) is passable, so
    /// rays may skip it in one step. The default (`false`) walks every cell; answering `true`
    /// for a section with a solid cell would make rays miss it.
    fn section_is_passable(&self, section: IVec3) -> bool {
        let _ = section;
        false
    }
}

impl<W: SprWorld + ?Sized> SprWorld for &W {
    fn block(&self, cell: IVec3) -> Option<SprBlock> {
        (**self).block(cell)
    }

    fn section_is_passable(&self, section: IVec3) -> bool {
        (**self).section_is_passable(section)
    }
}
