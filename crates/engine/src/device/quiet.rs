//! Keeps ALSA's error printing off the terminal while this thread opens devices.
//!
//! ALSA prints pages of `snd_config`/`pcm` complaints to stderr when a device cannot be opened.
//! [`Quiet::begin`] points this thread's ALSA error handler at an in-memory buffer (the `alsa`
//! crate's safe `Output::local_error_handler`, i.e. `snd_lib_error_set_local`), so nothing
//! reaches stderr; [`Quiet::first_line`] gives the first complaint for a one-line error. The
//! handler stays installed on the thread (later complaints go to a fresh buffer at the next
//! `begin`); cpal opens PCMs on the calling thread, so every open we make is covered.
//!
//! The audio thread is another matter: a failing device (a full disk under a `file` PCM, a
//! USB card pulled out) makes ALSA complain there once per period, for as long as the stream
//! lives, so a buffer would grow without bound. [`silence_this_thread`] (called by the callback
//! on its first run) installs a handler that drops the complaints; the stream's error callback
//! still reports the failure, and the output reports it in one line.

/// A guard collecting this thread's ALSA complaints.
pub(crate) struct Quiet {
    #[cfg(target_os = "linux")]
    out: Option<std::rc::Rc<std::cell::RefCell<alsa::Output>>>,
}

impl Quiet {
    /// Sends this thread's ALSA complaints to a fresh buffer from now on.
    pub(crate) fn begin() -> Quiet {
        Quiet {
            #[cfg(target_os = "linux")]
            out: alsa::Output::local_error_handler().ok(),
        }
    }

    /// ALSA's first complaint since [`Quiet::begin`], trimmed to one line.
    pub(crate) fn first_line(&self) -> Option<String> {
        #[cfg(target_os = "linux")]
        {
            let out = self.out.as_ref()?;
            let text = out.try_borrow().ok()?.to_string();
            text.lines()
                .map(str::trim)
                .find(|l| !l.is_empty())
                .map(|l| l.chars().filter(|c| !c.is_control()).take(200).collect())
        }
        #[cfg(not(target_os = "linux"))]
        None
    }
}

/// Drops every ALSA complaint made on this thread from now on (no buffer, no allocation).
///
/// The one `unsafe` in the engine: the `alsa` crate's only safe handler (above) buffers, which
/// the audio thread cannot afford, and a no-op handler can only be installed through
/// `alsa-sys`. (A no-op for the global, variadic `snd_lib_error_set_handler` cannot be written
/// in stable Rust; the thread-local handler takes a `va_list` and can.)
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
pub(crate) fn silence_this_thread() {
    use std::ffi::{c_char, c_int};

    unsafe extern "C" fn ignore(
        _file: *const c_char,
        _line: c_int,
        _func: *const c_char,
        _err: c_int,
        _fmt: *const c_char,
        _args: *mut alsa_sys::__va_list_tag,
    ) {
    }
    // SAFETY: `snd_lib_error_set_local` only stores the function pointer in an alsa-lib
    // thread-local (returning the previous one, which we do not need); `ignore` has exactly the
    // `snd_local_error_handler_t` signature, reads none of its arguments and lives as long as
    // the program.
    unsafe {
        alsa_sys::snd_lib_error_set_local(Some(ignore));
    }
}

/// Nothing to silence off Linux.
#[cfg(not(target_os = "linux"))]
pub(crate) fn silence_this_thread() {}
