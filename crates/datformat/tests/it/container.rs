//! Integration tests: container.
