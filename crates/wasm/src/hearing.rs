//! How the ambient is heard: the retail client exactly, or modern voices with the acoustics
//! in a mode; the engine each builds.

use resound_engine::{Engine, Mode, VoicePolicy};

use crate::error::WebError;

/// How the ambient is heard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hearing {
    /// The retail client exactly: 16 voices, the retail volume and pan law, no acoustics.
    Retail,
    /// Modern voices in 3-D with the acoustics in this mode, over the dats' terrain.
    Modern(Mode),
}

impl Hearing {
    /// `"retail"`, or a mode name (`off`, `direct`, `reflect`, `full`) for modern voices.
    ///
    /// # Errors
    /// [`WebError::Mode`].
    pub fn parse(text: &str) -> Result<Self, WebError> {
        if text == "retail" {
            return Ok(Self::Retail);
        }
        parse_mode(text).map(Self::Modern)
    }

    /// The engine for this hearing (offline, 48 kHz).
    pub(crate) fn engine(self) -> Result<Engine, WebError> {
        let b = Engine::builder();
        let b = match self {
            Self::Retail => b.voice_policy(VoicePolicy::Retail16).mode(Mode::Off),
            Self::Modern(mode) => b.voice_policy(VoicePolicy::Modern).mode(mode),
        };
        Ok(b.build()?)
    }
}

/// Parses a mode name: `off`, `direct`, `reflect`, `full`.
///
/// # Errors
/// [`WebError::Mode`].
pub fn parse_mode(text: &str) -> Result<Mode, WebError> {
    match text {
        "off" => Ok(Mode::Off),
        "direct" => Ok(Mode::Direct),
        "reflect" => Ok(Mode::Reflect),
        "full" => Ok(Mode::Full),
        _ => Err(WebError::Mode(text.to_owned())),
    }
}
