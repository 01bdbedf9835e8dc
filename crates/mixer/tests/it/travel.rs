//! Sound that travels: the direct path's propagation delay (start to the frame, taps behind
//! it, glides that shift the pitch as Doppler does, cuts), byte-identical across call sizes.
//! The no-click checks are in `click.rs`.

use std::sync::Arc;

use resound_mixer::{
    DirectDelay, MixerHandle, MixerRenderer, PlaySettings, Resampler, Tap, VoiceId, VoiceParams,
};

use crate::common::{FS, load, mixer_with, sine};

const RESAMPLERS: [Resampler; 2] = [Resampler::Linear, Resampler::Oversampled];

fn noise(n: usize) -> Arc<[f32]> {
    let mut s = 0x9e37_79b9_u32;
    (0..n)
        .map(|_| {
            s = s.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (s >> 8) as f32 / 16_777_216.0 - 0.5
        })
        .collect()
}

/// Renders `frames` in calls of the sizes in `calls` (cycled); returns the left channel.
pub fn render_calls(r: &mut MixerRenderer, frames: usize, calls: &[usize]) -> Vec<f32> {
    let mut out = vec![0.0f32; frames * 2];
    let mut done = 0;
    for &c in calls.iter().cycle() {
        if done == frames {
            break;
        }
        let n = c.min(frames - done);
        r.render(&mut out[done * 2..(done + n) * 2]);
        done += n;
    }
    out.iter().step_by(2).copied().collect()
}

fn play(h: &mut MixerHandle, sound: Arc<[f32]>, rate: u32, looping: bool, delay: f32) -> VoiceId {
    let s = load(h, sound, rate);
    h.play(
        s,
        PlaySettings {
            looping,
            delay,
            ..PlaySettings::default()
        },
    )
    .unwrap()
}

fn echo() -> [Tap; 1] {
    [Tap {
        delay: 0.06,
        level: 0.5,
        path: 0.0,
        hf: 0.7,
        pan: 0.3,
        direction: [0.0; 3],
    }]
}

#[test]
fn a_delayed_one_shot_starts_to_the_frame_and_its_taps_and_tail_follow() {
    for resampler in RESAMPLERS {
        let mut outs = Vec::new();
        let mut ended = Vec::new();
        for delay in [0.0, 0.25] {
            let (mut h, mut r) = mixer_with(|s| s.resampler = resampler);
            let v = play(&mut h, noise(20_000), FS, false, delay);
            h.set_taps(v, &echo()).unwrap();
            h.flush();
            let out = render_calls(&mut r, 40_000, &[512]);
            // Rendered one frame past the end of the delayed tail (the 30 ms echo).
            h.collect();
            ended.push(!h.is_playing(v));
            outs.push(out);
        }
        // 0.25 s at 48 kHz: 12 000 silent frames, then the undelayed render exactly, echo
        // included (the tap keeps its 60 ms after the direct arrival; it sounds after its set's
        // 50 ms fade-in either way).
        assert!(outs[1][..12_000].iter().all(|&x| x == 0.0), "{resampler:?}");
        let first = (0..28_000).find(|&i| outs[1][12_000 + i] != outs[0][i]);
        assert_eq!(first, None, "{resampler:?}: the delayed render differs");
        // The echo sounds after the sound's last sample (20 000 + 2 880 frames).
        assert!(outs[1][32_000..34_880].iter().any(|&x| x != 0.0));
        assert!(outs[1][34_880..].iter().all(|&x| x == 0.0));
        assert_eq!(ended, [true, true]);
    }
    for resampler in RESAMPLERS {
        // A 22 050 Hz click lands at 12 000 frames, nothing before it.
        let (mut h, mut r) = mixer_with(|s| s.resampler = resampler);
        let mut click = vec![0.0f32; 1000];
        click[0] = 1.0;
        play(&mut h, click.into(), 22_050, false, 0.25);
        h.flush();
        let out = render_calls(&mut r, 20_000, &[333]);
        let peak = (0..out.len())
            .max_by(|&a, &b| out[a].abs().total_cmp(&out[b].abs()))
            .unwrap();
        assert_eq!(peak, 12_000, "{resampler:?}");
        assert!(out[..12_000].iter().all(|&x| x == 0.0));
    }
}

#[test]
fn a_one_shot_keeps_playing_until_its_delayed_end() {
    // 0.1 s of sound 0.5 s away: still playing at 0.55 s, ended after 0.6 s.
    let (mut h, mut r) = mixer_with(|_| {});
    let v = play(&mut h, noise(4_800), FS, false, 0.5);
    h.flush();
    let out = render_calls(&mut r, 26_400, &[512]);
    h.collect();
    assert!(h.is_playing(v));
    assert!(out[24_000..26_400].iter().any(|&x| x != 0.0));
    // It ends in the block after its last frame, 28 800.
    let _ = render_calls(&mut r, 2_400 + 512, &[512]);
    h.collect();
    assert!(!h.is_playing(v));
}

/// Frequency from zero crossings over `x` (the dsp crate's measure).
fn frequency(x: &[f32]) -> f64 {
    resound_dsp::analysis::zero_crossing_frequency(x, FS).expect("a tone")
}

#[test]
fn a_gliding_delay_shifts_the_pitch_as_doppler_does() {
    // A delay growing 0.05 s per second (a source receding at 17.15 m/s): the read runs at
    // 0.95 of the rate, a 1 000 Hz tone is heard at 950 Hz; shrinking: 1 050 Hz.
    for resampler in RESAMPLERS {
        for (from, to, want) in [(0.0, 0.05, 950.0), (0.05, 0.0, 1050.0)] {
            let (mut h, mut r) = mixer_with(|s| s.resampler = resampler);
            let v = play(&mut h, sine(1000.0, FS, 1.0, 0.0), FS, true, from);
            h.flush();
            let _ = render_calls(&mut r, 4800, &[512]);
            let d = DirectDelay {
                seconds: to,
                glide: 1.0,
                cut: false,
            };
            h.set_delay(v, d).unwrap();
            h.flush();
            let out = render_calls(&mut r, 96_000, &[512]);
            let f = frequency(&out[4800..43_200]);
            assert!((f - want).abs() < 0.5, "{f} vs {want}");
            // After the glide the pitch is back.
            let f = frequency(&out[60_000..96_000]);
            assert!((f - 1000.0).abs() < 0.1, "{f}");
        }
    }
}

/// Plays a 440 Hz sine (amplitude 1; a loop, or with `taps` a one-shot with an echo) with
/// delay 0.1 s and applies `changes` (frame, delay) at their frames, rendering in `calls`.
pub fn scripted(changes: &[(usize, DirectDelay)], calls: &[usize], taps: bool) -> Vec<f32> {
    let (mut h, mut r) = mixer_with(|s| s.resampler = Resampler::Oversampled);
    let v = play(&mut h, sine(440.0, 22_050, 6.0, 0.0), 22_050, !taps, 0.1);
    if taps {
        h.set_taps(v, &echo()).unwrap();
        let p = VoiceParams {
            range: 100.0,
            ..VoiceParams::default()
        };
        h.set_params(v, p).unwrap();
    }
    h.flush();
    let mut out = Vec::new();
    let mut at = 0;
    for &(frame, d) in changes {
        out.extend(render_calls(&mut r, frame - at, calls));
        h.set_delay(v, d).unwrap();
        h.flush();
        at = frame;
    }
    out.extend(render_calls(&mut r, 150_000 - at, calls));
    out
}

fn glide(seconds: f32, glide: f32) -> DirectDelay {
    DirectDelay {
        seconds,
        glide,
        cut: false,
    }
}

fn cut(seconds: f32) -> DirectDelay {
    DirectDelay {
        seconds,
        glide: 0.0,
        cut: true,
    }
}

/// Glides of a source moving at up to 5 % of the speed of sound, a teleport, propagation
/// switched off and on again.
pub fn changes() -> Vec<(usize, DirectDelay)> {
    vec![
        (9_600, glide(0.102, 0.05)),
        (12_000, glide(0.104, 0.05)),
        (14_400, glide(0.102, 0.05)),
        (30_001, cut(0.9)), // a teleport
        (50_000, cut(0.0)), // propagation switched off
        (70_017, cut(0.2)), // and on again
        (90_000, glide(0.205, 0.1)),
        (94_800, glide(0.2, 0.1)),
    ]
}

#[test]
fn glides_and_cuts_are_byte_identical_across_call_sizes() {
    for taps in [false, true] {
        let whole = scripted(&changes(), &[4096], taps);
        for calls in [&[1usize, 7, 64, 333, 1000][..], &[512], &[63, 65]] {
            assert_eq!(
                scripted(&changes(), calls, taps),
                whole,
                "{calls:?} taps {taps}"
            );
        }
        assert!(whole.iter().any(|&x| x != 0.0));
        // The changes do change the output.
        assert_ne!(scripted(&[], &[4096], taps), whole);
    }
}
