//! The boundary's discipline: [`ResoundResult`] codes, the calling thread's last error text
//! ([`resound_last_error`]), and `call`, which every entry point runs its body through so that
//! no panic crosses into the caller.

#![allow(
    unsafe_code,
    reason = "exported C entry points (`#[unsafe(no_mangle)]`)"
)]

use std::cell::RefCell;
use std::ffi::{CString, c_char};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// What a call did: `RESOUND_RESULT_OK` (0) or why it failed. After a failure,
/// `resound_last_error()` gives the one-line reason on the same thread.
#[repr(i32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResoundResult {
    /// Success.
    Ok = 0,
    /// A required pointer argument was NULL.
    NullPointer = 1,
    /// A handle that never named anything here: zero, garbage, or another engine's.
    InvalidHandle = 2,
    /// A handle to something that is gone: a destroyed engine, an unloaded sound.
    StaleHandle = 3,
    /// A value out of range: not finite, negative, too large, an unknown enum value.
    InvalidArgument = 4,
    /// A string or path that is not UTF-8.
    InvalidUtf8 = 5,
    /// A name or id that is not there (material, Wave id, device, cell).
    NotFound = 6,
    /// A sound could not be read, decoded or loaded.
    Load = 7,
    /// Every voice is busy (or the retail 16-voice pool is full): the new voice was dropped.
    VoiceLimit = 8,
    /// The voice has ended (played out, stopped, stolen): its handle names nothing now.
    VoiceEnded = 9,
    /// `resound_render` on an engine whose output is a device.
    NotOffline = 10,
    /// The sound device could not be listed, opened or started.
    Device = 11,
    /// A DAT folder could not be opened or read (terrain, ambient, Waves).
    Dat = 12,
    /// A world edit was refused (outside the world, inverted box, too many boxes).
    World = 13,
    /// A queue to the audio thread is full: call `resound_update` and try again.
    Busy = 14,
    /// The acoustic worker thread has stopped (the mix goes on without new acoustics).
    WorkerStopped = 15,
    /// Not in this build (the `device` feature is off).
    Unsupported = 16,
    /// A bug inside the library was caught at the boundary; an engine it happened in refuses
    /// every later call but `resound_engine_destroy`.
    Panic = 17,
    /// A caller's buffer is too small.
    BufferTooSmall = 18,
}

/// A failed call: its code and one line of text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Failure {
    /// The code returned.
    pub(crate) code: ResoundResult,
    /// The text `resound_last_error` gives.
    pub(crate) message: String,
}

impl Failure {
    /// A failure with `code` and `message`.
    pub(crate) fn new(code: ResoundResult, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
        }
    }

    /// A NULL `what`.
    pub(crate) fn null(what: &str) -> Self {
        Self::new(ResoundResult::NullPointer, format!("{what} is NULL"))
    }

    /// A value out of range.
    pub(crate) fn argument(message: impl Into<String>) -> Self {
        Self::new(ResoundResult::InvalidArgument, message)
    }
}

/// The result of a call's body.
pub(crate) type Outcome<T = ()> = Result<T, Failure>;

thread_local! {
    /// The last failure's text on this thread (NUL-terminated, one line).
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

/// Stores `text` as this thread's last error: newlines become spaces, NULs are dropped.
fn set_last_error(text: &str) {
    let line: String = text
        .chars()
        .filter(|c| *c != '\0')
        .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
        .collect();
    let line = CString::new(line).unwrap_or_default();
    LAST_ERROR.with(|slot| {
        if let Ok(mut slot) = slot.try_borrow_mut() {
            *slot = line;
        }
    });
}

/// The text of a panic's payload.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> &str {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s
    } else {
        "unknown payload"
    }
}

/// Runs the body of the entry point `name`: a panic becomes [`ResoundResult::Panic`], a
/// failure its code; either leaves `name: reason` as this thread's last error.
pub(crate) fn call(name: &str, body: impl FnOnce() -> Outcome) -> ResoundResult {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => ResoundResult::Ok,
        Ok(Err(failure)) => {
            set_last_error(&format!("{name}: {}", failure.message));
            failure.code
        }
        Err(payload) => {
            let text = panic_text(payload.as_ref()).to_owned();
            // The payload's own drop must not unwind into the caller either.
            let _ = catch_unwind(AssertUnwindSafe(move || drop(payload)));
            set_last_error(&format!(
                "{name}: internal panic caught at the boundary: {text}"
            ));
            ResoundResult::Panic
        }
    }
}

/// Writes `value` through `out` after a NULL check.
pub(crate) fn write_out<T>(out: *mut T, what: &str, value: T) -> Outcome {
    if out.is_null() {
        return Err(Failure::null(what));
    }
    // SAFETY: `out` is non-NULL; the caller promises it points to a writable `T` (header).
    unsafe { out.write(value) };
    Ok(())
}

/// The last failure's one-line text for the calling thread (`""` before any). The pointer
/// stays valid until the next failing call on this thread; copy the text to keep it. Never
/// NULL.
#[unsafe(no_mangle)]
pub extern "C" fn resound_last_error() -> *const c_char {
    static EMPTY: &[u8] = b"\0";
    catch_unwind(|| LAST_ERROR.with(|slot| slot.try_borrow().map(|s| s.as_ptr()).ok()))
        .ok()
        .flatten()
        .unwrap_or(EMPTY.as_ptr().cast())
}

/// A fixed, static name for a result code (`"RESOUND_RESULT_VOICE_ENDED"`), or
/// `"RESOUND_RESULT_UNKNOWN"`. Never NULL; never freed.
#[unsafe(no_mangle)]
pub extern "C" fn resound_result_name(code: i32) -> *const c_char {
    let name: &'static [u8] = match code {
        0 => b"RESOUND_RESULT_OK\0",
        1 => b"RESOUND_RESULT_NULL_POINTER\0",
        2 => b"RESOUND_RESULT_INVALID_HANDLE\0",
        3 => b"RESOUND_RESULT_STALE_HANDLE\0",
        4 => b"RESOUND_RESULT_INVALID_ARGUMENT\0",
        5 => b"RESOUND_RESULT_INVALID_UTF8\0",
        6 => b"RESOUND_RESULT_NOT_FOUND\0",
        7 => b"RESOUND_RESULT_LOAD\0",
        8 => b"RESOUND_RESULT_VOICE_LIMIT\0",
        9 => b"RESOUND_RESULT_VOICE_ENDED\0",
        10 => b"RESOUND_RESULT_NOT_OFFLINE\0",
        11 => b"RESOUND_RESULT_DEVICE\0",
        12 => b"RESOUND_RESULT_DAT\0",
        13 => b"RESOUND_RESULT_WORLD\0",
        14 => b"RESOUND_RESULT_BUSY\0",
        15 => b"RESOUND_RESULT_WORKER_STOPPED\0",
        16 => b"RESOUND_RESULT_UNSUPPORTED\0",
        17 => b"RESOUND_RESULT_PANIC\0",
        18 => b"RESOUND_RESULT_BUFFER_TOO_SMALL\0",
        _ => b"RESOUND_RESULT_UNKNOWN\0",
    };
    name.as_ptr().cast()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;

    fn last() -> String {
        // SAFETY: resound_last_error never returns NULL and its text is NUL-terminated.
        unsafe { CStr::from_ptr(resound_last_error()) }
            .to_string_lossy()
            .into_owned()
    }

    #[test]
    fn a_panic_becomes_a_code_and_one_line() {
        let r = call("resound_x", || panic!("two\nlines"));
        assert_eq!(r, ResoundResult::Panic);
        let text = last();
        assert!(text.starts_with("resound_x: internal panic"), "{text}");
        assert!(text.ends_with("two lines"), "{text}");
        assert!(!text.contains('\n'));
    }

    #[test]
    fn a_failure_keeps_its_code_and_a_success_keeps_the_last_error() {
        let r = call("resound_y", || Err(Failure::null("out")));
        assert_eq!(r, ResoundResult::NullPointer);
        assert_eq!(call("resound_z", || Ok(())), ResoundResult::Ok);
        assert_eq!(last(), "resound_y: out is NULL");
    }

    #[test]
    fn every_code_has_its_name() {
        for code in 0..=18 {
            // SAFETY: static NUL-terminated strings.
            let name = unsafe { CStr::from_ptr(resound_result_name(code)) };
            assert_ne!(name.to_str().unwrap(), "RESOUND_RESULT_UNKNOWN", "{code}");
        }
        // SAFETY: as above.
        let unknown = unsafe { CStr::from_ptr(resound_result_name(99)) };
        assert_eq!(unknown.to_str().unwrap(), "RESOUND_RESULT_UNKNOWN");
    }
}
