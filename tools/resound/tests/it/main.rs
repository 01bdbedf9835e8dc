//! Integration tests of the `resound` command-line tool (they run the built binary).

mod bad_input;
mod dat;
mod render;
