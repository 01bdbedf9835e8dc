//! Four reverb spaces as the engine tunes them (issue 30), shared by the reverb-kernel test
//! and the reverb bench: each slot's three-band decay times in seconds (low, mid, high) —
//! a small room, a hall, a cave and a long tunnel.

/// The decays of the four spaces, one per reverb slot.
pub const TUNED_SPACES: [[f32; 3]; 4] = [
    [0.25, 0.3, 0.2],
    [0.83, 1.28, 1.45],
    [4.04, 3.28, 1.65],
    [4.14, 4.14, 2.09],
];
