// SPDX-License-Identifier: GPL-3.0-only
//! The six block faces and Minecraft's approximate-nearest direction.
//!
//! Follows vanilla `Direction.getApproximateNearest` / `Direction.step` as SPR uses them in
//! `SoundPhysics.java` `runOcclusion` and `utils/RaycastUtils.java`; spec `spr.md` §1.1.

use glam::DVec3;

/// A block face / axis direction, in vanilla's order (DOWN, UP, NORTH, SOUTH, WEST, EAST).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Direction {
    /// −Y.
    Down,
    /// +Y.
    Up,
    /// −Z.
    North,
    /// +Z.
    South,
    /// −X.
    West,
    /// +X.
    East,
}

impl Direction {
    /// All six in vanilla's scan order.
    pub const ALL: [Direction; 6] = [
        Direction::Down,
        Direction::Up,
        Direction::North,
        Direction::South,
        Direction::West,
        Direction::East,
    ];

    /// The unit step (outward normal of the face).
    #[must_use]
    pub const fn step(self) -> [i32; 3] {
        match self {
            Direction::Down => [0, -1, 0],
            Direction::Up => [0, 1, 0],
            Direction::North => [0, 0, -1],
            Direction::South => [0, 0, 1],
            Direction::West => [-1, 0, 0],
            Direction::East => [1, 0, 0],
        }
    }

    /// The unit step as a vector.
    #[must_use]
    pub fn normal(self) -> DVec3 {
        let [x, y, z] = self.step();
        DVec3::new(f64::from(x), f64::from(y), f64::from(z))
    }

    /// The opposite face.
    #[must_use]
    pub const fn opposite(self) -> Direction {
        match self {
            Direction::Down => Direction::Up,
            Direction::Up => Direction::Down,
            Direction::North => Direction::South,
            Direction::South => Direction::North,
            Direction::West => Direction::East,
            Direction::East => Direction::West,
        }
    }

    /// `Direction.getApproximateNearest`: float32 dot products, starting from `Float.MIN_VALUE`,
    /// scanning in vanilla order and needing a strictly greater value. A zero (or NaN) vector
    /// gives NORTH.
    #[must_use]
    pub fn approximate_nearest(v: DVec3) -> Direction {
        let (x, y, z) = (v.x as f32, v.y as f32, v.z as f32);
        let mut best = Direction::North;
        let mut best_dot = f32::from_bits(1); // Float.MIN_VALUE, the smallest positive subnormal
        for d in Direction::ALL {
            let [sx, sy, sz] = d.step();
            let dot = x * sx as f32 + y * sy as f32 + z * sz as f32;
            if dot > best_dot {
                best_dot = dot;
                best = d;
            }
        }
        best
    }
}
