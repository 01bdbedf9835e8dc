//! Integration tests of the `resound` command-line tool (they run the built binary).

mod acoustics;
mod bad_input;
mod dat;
