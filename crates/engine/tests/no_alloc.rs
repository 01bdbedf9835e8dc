//! no-alloc placeholder
