//! Integration tests of `resound-engine` (one binary, STYLE.md §18).

mod device_capture;
mod device_loss;
mod licence;
mod sound_ambient;
mod sound_cache;
mod sound_decode;
