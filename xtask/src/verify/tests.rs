//! Tests across the verify modules.
