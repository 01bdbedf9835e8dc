//! Integration tests of resound-datformat: container and records.

mod container;
mod record;
mod retail;
