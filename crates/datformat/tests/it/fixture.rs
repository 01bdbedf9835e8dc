//! Integration tests: fixture.
