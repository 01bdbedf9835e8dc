//! Integration tests of `resound-engine` (one binary, STYLE.md §18).

mod licence;
mod sound_ambient;
mod sound_cache;
mod sound_decode;
