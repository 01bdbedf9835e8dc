//! The `.dat` container: header, B-tree directory, block chains, reader and writer.
