// SPDX-License-Identifier: GPL-3.0-only
//! Shared helpers of the unit tests: box worlds and the spec `spr.md` §4 scenes.

use glam::{DVec3, IVec3};

use crate::*;

/// Ordered boxes of cells (inclusive), later boxes win; `None` = air.
pub(crate) struct Boxes(pub(crate) Vec<(IVec3, IVec3, Option<SprBlock>)>);

impl SprWorld for Boxes {
    fn block(&self, c: IVec3) -> Option<SprBlock> {
        self.0
            .iter()
            .rev()
            .find(|(lo, hi, _)| c.cmpge(*lo).all() && c.cmple(*hi).all())
            .and_then(|b| b.2)
    }
}

pub(crate) fn stone() -> SprBlock {
    SprBlock::of_type(SoundType::STONE)
}

pub(crate) fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

pub(crate) fn rel(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * b.abs().max(1e-30)
}

/// §4.1: a wall of n stone blocks (z ∈ [0,n), x,y ∈ [−20,20]), nothing else.
pub(crate) fn wall_eval(n: i32, block: SprBlock) -> SprEvaluation {
    let world = Boxes(vec![(
        IVec3::new(-20, -20, 0),
        IVec3::new(20, 20, n - 1),
        Some(block),
    )]);
    let s = DVec3::new(0.5, 0.5, -5.5);
    let p = DVec3::new(0.5, 0.5, f64::from(n) + 4.5);
    evaluate(&world, &SprSound::new(s, p), &SprConfig::default())
}

/// §4.3: infinite flat floor (y = −1, x,z ∈ [−80,80]) in the void.
pub(crate) fn floor_eval(block: SprBlock) -> SprEvaluation {
    let world = Boxes(vec![(
        IVec3::new(-80, -1, -80),
        IVec3::new(80, -1, 80),
        Some(block),
    )]);
    let s = DVec3::new(0.5, 1.5, 0.5);
    let p = DVec3::new(3.5, 1.5, 0.5);
    evaluate(&world, &SprSound::new(s, p), &SprConfig::default())
}

/// §4.4: closed 10×10×10 stone room (air 0..9, shell at −1 and 10).
pub(crate) fn room_eval(s: DVec3, p: DVec3) -> SprEvaluation {
    room_eval_with(s, p, &SprConfig::default())
}

pub(crate) fn room_eval_with(s: DVec3, p: DVec3, config: &SprConfig) -> SprEvaluation {
    let world = Boxes(vec![
        (IVec3::splat(-1), IVec3::splat(10), Some(stone())),
        (IVec3::splat(0), IVec3::splat(9), None),
    ]);
    evaluate(&world, &SprSound::new(s, p), config)
}

/// `Boxes` that also answer section passability (for the skipping walk).
pub(crate) struct SkippingBoxes(pub(crate) Boxes);

impl SprWorld for SkippingBoxes {
    fn block(&self, c: IVec3) -> Option<SprBlock> {
        self.0.block(c)
    }

    fn section_is_passable(&self, section: IVec3) -> bool {
        // No box overlaps the section.
        let (lo, hi) = (section * 16, section * 16 + IVec3::splat(15));
        !self
            .0
            .0
            .iter()
            .any(|(a, b, blk)| blk.is_some() && a.cmple(hi).all() && b.cmpge(lo).all())
    }
}
