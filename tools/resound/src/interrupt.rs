//! Ctrl-C (SIGINT) and SIGTERM during a long write: Rust installs no handler, so by default
//! the process dies where it stands and leaves its temporary file behind. While a render
//! streams, [`catch`] turns the signal into a flag the render loop checks after every block;
//! the render then stops with [`Interrupted`], the temporary file is removed as its handle
//! drops, and the target path is never touched.

#![allow(
    unsafe_code,
    reason = "installing a signal handler is an FFI call; the handler only stores to an atomic"
)]

use std::sync::atomic::{AtomicBool, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The render was interrupted by a signal (exit code 130).
#[derive(Debug, thiserror::Error)]
#[error("interrupted: {0} was not written")]
pub struct Interrupted(pub String);

extern "C" fn on_signal(_: libc::c_int) {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// From now on SIGINT and SIGTERM set the flag [`interrupted`] reads instead of killing.
pub fn catch() {
    let handler = on_signal as extern "C" fn(libc::c_int);
    // SAFETY: `on_signal` is async-signal-safe (one atomic store) and lives for the whole
    // program; `signal` only replaces the disposition of these two signals.
    unsafe {
        libc::signal(libc::SIGINT, handler as libc::sighandler_t);
        libc::signal(libc::SIGTERM, handler as libc::sighandler_t);
    }
}

/// Whether SIGINT or SIGTERM arrived since [`catch`].
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}
