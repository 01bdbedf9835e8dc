//! Integration tests: record.
