//! Integration tests of the `resound` command-line tool (they run the built binary).

mod acoustics;
mod ambient;
mod bad_input;
mod dat;
mod dat_corrupt;
mod dat_errors;
mod demo;
mod devices;
mod hostile;
mod hostile_memory;
mod play;
mod render;
mod schema;
