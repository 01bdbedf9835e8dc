//! Integration tests of `resound-engine` (one binary, STYLE.md §18).

mod device_capture;
mod device_loss;
mod licence;
