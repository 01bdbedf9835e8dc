//! Tests of the parent module.
