//! Integration tests of resound-datformat: container, records, entry types, renderings and the round-trip check.

mod container;
mod describe;
mod record;
mod retail;
