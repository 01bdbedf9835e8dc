//! The `Retail16` voice cap: the retail 16-voice pool (`SoundManager::PlaySoundInternal`
//! @ 0x0054FEC0, [`VoicePool`]) over every voice the engine starts under
//! [`VoicePolicy::Retail16`](crate::VoicePolicy::Retail16), game and ambient alike. A slot is
//! claimed when a voice starts and freed when the mixer reports the voice ended (its
//! `VoiceEnded` on the return ring: the buffer no longer reports `DSBSTATUS_PLAYING`), when the
//! engine stops it, or at once when the mixer refuses it. Nothing re-derives a voice's length.

use resound_ambient::voice_pool::VoicePool;
use resound_mixer::{MixerHandle, PlaySettings, SoundId, VoiceId};

use crate::sound::AmbientPlay;

/// Why a retail ambient play did not start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RetailRefused {
    /// All 16 slots play: retail drops the 17th sound.
    PoolFull,
    /// The mixer refused the voice (its slot is free again).
    Mixer,
}

/// The pool and which mixer voice holds which slot.
#[derive(Debug, Default)]
pub(crate) struct RetailPool {
    pool: VoicePool,
    /// Mixer voice → its slot, for the voices started and not yet ended.
    held: Vec<(VoiceId, usize)>,
}

impl RetailPool {
    /// The slot a voice starting at `now` takes, or `None`: all 16 play, retail drops it.
    pub(crate) fn claim(&mut self, now: f64) -> Option<usize> {
        self.pool.play_until_ended(now)
    }

    /// Starts a `Retail` ambient play of `sound` at `now`: a slot, then a one-shot at the
    /// play's retail parameters ([`AmbientPlay::params`], `crate::convert::retail`).
    pub(crate) fn start(
        &mut self,
        mixer: &mut MixerHandle,
        now: f64,
        sound: SoundId,
        play: &AmbientPlay,
    ) -> Result<VoiceId, RetailRefused> {
        let slot = self.claim(now).ok_or(RetailRefused::PoolFull)?;
        let voice = play.params().and_then(|params| {
            let settings = PlaySettings {
                looping: false,
                params,
                ..PlaySettings::default()
            };
            mixer.play(sound, settings).ok()
        });
        match voice {
            Some(v) => {
                self.bind(slot, v);
                Ok(v)
            }
            None => {
                self.unclaim(slot);
                Err(RetailRefused::Mixer)
            }
        }
    }

    /// The voice started in `slot` is mixer voice `voice`.
    pub(crate) fn bind(&mut self, slot: usize, voice: VoiceId) {
        self.held.push((voice, slot));
    }

    /// The voice for `slot` did not start: the slot is free again.
    pub(crate) fn unclaim(&mut self, slot: usize) {
        self.pool.voice_ended(slot);
    }

    /// Mixer voice `voice` ended (or was stopped): its slot, if it holds one, is free.
    pub(crate) fn ended(&mut self, voice: VoiceId) {
        if let Some(i) = self.held.iter().position(|h| h.0 == voice) {
            let (_, slot) = self.held.swap_remove(i);
            self.pool.voice_ended(slot);
        }
    }

    /// Every voice was stopped: every slot is free.
    pub(crate) fn stopped_all(&mut self) {
        for (_, slot) in self.held.drain(..) {
            self.pool.voice_ended(slot);
        }
    }

    /// The pool.
    pub(crate) fn pool(&self) -> &VoicePool {
        &self.pool
    }
}
