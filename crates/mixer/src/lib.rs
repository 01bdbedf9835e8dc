//! The lock-free real-time mixer: a game-thread handle and an audio-thread renderer.
//!
//! Spec: `shared/spec/acoustics.md` §7, `shared/spec/ambient-runtime.md` §4.5.
