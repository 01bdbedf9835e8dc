//! Compile-time checks: every handle is `Send + Sync`; the renderer is `Send`.

use resound_mixer::{MixerHandle, MixerRenderer, MixerStatus, SoundId, VoiceId};

fn send_sync<T: Send + Sync>() {}
fn send<T: Send>() {}

#[test]
fn handles_are_send_and_sync() {
    send_sync::<MixerHandle>();
    send_sync::<VoiceId>();
    send_sync::<SoundId>();
    send_sync::<MixerStatus>();
}

#[test]
fn renderer_is_send() {
    send::<MixerRenderer>();
}
