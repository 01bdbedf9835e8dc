//! Integration tests of the `resound` command-line tool (they run the built binary).

mod ambient;
mod bad_input;
mod dat;
