//! Keeps ALSA's error printing off the terminal while this thread opens devices.
//!
//! ALSA prints pages of `snd_config`/`pcm` complaints to stderr when a device cannot be opened.
//! [`Quiet::begin`] points this thread's ALSA error handler at an in-memory buffer (the `alsa`
//! crate's safe `Output::local_error_handler`, i.e. `snd_lib_error_set_local`), so nothing
//! reaches stderr; [`Quiet::first_line`] gives the first complaint for a one-line error. The
//! handler stays installed on the thread (later complaints go to a fresh buffer at the next
//! `begin`); cpal opens PCMs on the calling thread, so every open we make is covered.

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
