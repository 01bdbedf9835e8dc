//! Integration tests of resound-datformat: container, records and the fixture world.

mod container;
mod fixture;
mod record;
