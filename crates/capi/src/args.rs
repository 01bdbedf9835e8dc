//! Reading the caller's arguments: C strings as UTF-8, paths, borrowed slices, and the small
//! value structs ([`ResoundVec3`], [`ResoundCell`]) every module passes.

#![allow(unsafe_code, reason = "reads the caller's pointers after NULL checks")]

use std::ffi::{CStr, c_char};

use resound_engine::glam::{DVec3, IVec3};

use crate::result::{Failure, Outcome, ResoundResult};

/// A point or direction in the engine's world: metres, +Y up, one block a metre.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ResoundVec3 {
    /// X (east; a default listener's right).
    pub x: f64,
    /// Y (up).
    pub y: f64,
    /// Z (a default listener looks down −Z).
    pub z: f64,
}

impl From<ResoundVec3> for DVec3 {
    fn from(v: ResoundVec3) -> Self {
        DVec3::new(v.x, v.y, v.z)
    }
}

/// A cell (block) of the engine's voxel world: cell `(x, y, z)` covers `x..x+1` ×
/// `y..y+1` × `z..z+1` metres.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResoundCell {
    /// X.
    pub x: i32,
    /// Y (up).
    pub y: i32,
    /// Z.
    pub z: i32,
}

impl From<ResoundCell> for IVec3 {
    fn from(c: ResoundCell) -> Self {
        IVec3::new(c.x, c.y, c.z)
    }
}

/// The UTF-8 text of the NUL-terminated `ptr` (`what` names it in errors).
pub(crate) fn text<'a>(ptr: *const c_char, what: &str) -> Outcome<&'a str> {
    if ptr.is_null() {
        return Err(Failure::null(what));
    }
    // SAFETY: non-NULL; the caller promises a NUL-terminated string alive for the call.
    let bytes = unsafe { CStr::from_ptr(ptr) };
    bytes.to_str().map_err(|_| {
        Failure::new(
            ResoundResult::InvalidUtf8,
            format!("{what} is not UTF-8 text"),
        )
    })
}

/// `len` values at `ptr`, borrowed for the call (`len` 0 may come with a NULL `ptr`).
pub(crate) fn slice<'a, T>(ptr: *const T, len: usize, what: &str) -> Outcome<&'a [T]> {
    if len == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return Err(Failure::null(what));
    }
    if !ptr.is_aligned() {
        return Err(Failure::argument(format!("{what} is not aligned")));
    }
    if len.saturating_mul(size_of::<T>()) > isize::MAX as usize {
        return Err(Failure::argument(format!(
            "{what} length {len} is too large"
        )));
    }
    // SAFETY: non-NULL, aligned; the caller promises `len` readable values for the call.
    Ok(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// `len` writable values at `ptr`, borrowed for the call.
pub(crate) fn slice_mut<'a, T>(ptr: *mut T, len: usize, what: &str) -> Outcome<&'a mut [T]> {
    if len == 0 {
        return Ok(&mut []);
    }
    if ptr.is_null() {
        return Err(Failure::null(what));
    }
    if !ptr.is_aligned() {
        return Err(Failure::argument(format!("{what} is not aligned")));
    }
    if len.saturating_mul(size_of::<T>()) > isize::MAX as usize {
        return Err(Failure::argument(format!(
            "{what} length {len} is too large"
        )));
    }
    // SAFETY: non-NULL, aligned; the caller promises `len` writable values, not aliased,
    // for the call.
    Ok(unsafe { std::slice::from_raw_parts_mut(ptr, len) })
}

/// The struct at `ptr` (copied), after a NULL check.
pub(crate) fn read<T: Copy>(ptr: *const T, what: &str) -> Outcome<T> {
    if ptr.is_null() {
        return Err(Failure::null(what));
    }
    // SAFETY: non-NULL; the caller promises a readable `T` (read unaligned to be lenient).
    Ok(unsafe { ptr.read_unaligned() })
}

/// A finite tween duration in seconds, ≥ 0.
pub(crate) fn seconds(s: f32, what: &str) -> Outcome<resound_engine::Tween> {
    if !s.is_finite() || s < 0.0 {
        return Err(Failure::argument(format!(
            "{what} must be a finite number of seconds ≥ 0"
        )));
    }
    Ok(if s == 0.0 {
        resound_engine::Tween::IMMEDIATE
    } else {
        resound_engine::Tween::linear(s)
    })
}
