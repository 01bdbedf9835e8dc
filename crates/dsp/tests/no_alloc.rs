//! Proves mechanically that no processor allocates or frees after `new`/`prepare`
//! (STYLE.md §2 item 6, at dsp level). A separate test binary, because the counting
//! allocator is process-global.

use resound_dsp::{
    EchoTaps, OcclusionShelf, OnePoleHighPass, OnePoleLowPass, PeakLimiter, REVERB_SLOTS,
    ReverbBus, ReverbBusSettings, SmoothedGain, StereoPanner, TapParams, render_linear, resample,
    step_for,
};

#[global_allocator]
static ALLOCATOR: resound_testalloc::Probe = resound_testalloc::Probe;

/// Runs `f` and returns how many allocator calls (requests and frees) it made on this thread.
fn count(f: impl FnOnce()) -> usize {
    let ((), usage) = resound_testalloc::on_this_thread(f);
    usize::try_from(usage.calls()).unwrap_or(usize::MAX)
}

#[test]
fn processing_never_allocates() {
    // Setup (allowed to allocate).
    let fs = 48_000.0;
    let block = 512;
    let source: Vec<f32> = (0..96_000)
        .map(|i| ((i * 7919) % 2000) as f32 / 1000.0 - 1.0)
        .collect();
    let mut shelf = OcclusionShelf::new();
    shelf.prepare(fs, block);
    let mut lp = OnePoleLowPass::new(300.0);
    let mut hp = OnePoleHighPass::new(300.0);
    let mut send = SmoothedGain::send();
    let mut pan = StereoPanner::new();
    let mut taps = EchoTaps::new();
    taps.prepare(fs, block);
    let mut bus = ReverbBus::new(ReverbBusSettings::default());
    bus.prepare(fs, block);
    let mut lim = PeakLimiter::default();
    let mut buf = vec![0.0f32; block];
    let mut voice = vec![0.0f32; block];
    let mut sends: Vec<Vec<f32>> = vec![vec![0.0f32; block]; REVERB_SLOTS];
    let (mut l, mut r) = (vec![0.0f32; block], vec![0.0f32; block]);
    // A routed tap's feed (binaural output: a renderer's input).
    let mut feed = vec![0.0f32; block];
    let sets = [
        [
            TapParams {
                delay: 0.05,
                level: 0.3,
                hf: 0.2,
                pan: -0.5,
            },
            TapParams {
                delay: 0.2,
                level: 0.2,
                hf: 0.9,
                pan: 0.5,
            },
        ],
        [
            TapParams {
                delay: 0.051,
                level: 0.5,
                hf: 0.3,
                pan: -0.4,
            },
            TapParams {
                delay: 0.4,
                level: 0.1,
                hf: 0.05,
                pan: 0.9,
            },
        ],
    ];

    let calls = count(|| {
        for b in 0..200 {
            let pos = (b * block) as f64 * 0.75;
            if b % 10 == 0 {
                let k = (b / 10) % 2;
                shelf.set_targets(0.3 + 0.3 * k as f32, 0.01 + 0.5 * k as f32);
                send.set_target(0.5 * k as f32);
                pan.set_target(k as f32 - 0.5, 0.9);
                taps.set_taps(&sets[k]);
                // Route the first tap into its feed every other set (crossfades both ways).
                taps.set_routed(0, b % 20 == 0);
                lp.set_cutoff(200.0 + 100.0 * k as f32);
            }
            render_linear(&source, pos, 0.75, &mut voice);
            let mut loop_pos = (b * block) as u64 * step_for(60_000, 48_000);
            resample(
                &source,
                &mut loop_pos,
                step_for(60_000, 48_000),
                true,
                &mut buf,
            );
            shelf.process(&mut voice);
            lp.process(&mut buf);
            hp.process(&mut buf);
            for s in sends.iter_mut() {
                s.fill(0.0);
                send.mix(&voice, s);
            }
            l.fill(0.0);
            r.fill(0.0);
            pan.mix(&voice, &mut l, &mut r);
            feed.fill(0.0);
            let mut feeds: resound_dsp::tap::Feeds<'_> = Default::default();
            feeds[0] = Some(&mut feed);
            taps.mix_routed(&source, pos, 0.75, &mut l, &mut r, &mut feeds);
            let ins: [&[f32]; REVERB_SLOTS] = core::array::from_fn(|k| sends[k].as_slice());
            bus.mix(ins, &mut l, &mut r);
            lim.process(&mut l, &mut r);
        }
        shelf.reset();
        taps.reset();
        bus.reset();
        lim.reset();
    });
    assert_eq!(calls, 0, "allocator calls while processing");
    // The counter works: an allocation inside `count` is seen.
    assert!(count(|| drop(std::hint::black_box(vec![1u8; 16]))) >= 1);
}

#[test]
fn binaural_rendering_never_allocates() {
    use resound_dsp::hrtf::{BinauralRenderer, HrirSet, HrtfBank, from_azimuth_elevation};
    use std::sync::Arc;
    // Setup (allowed to allocate): 8 rings × 12 directions of 300-tap responses (3 partitions).
    let taps = 300;
    let mut dirs = Vec::new();
    for el in (-40..=100).step_by(20) {
        for az in (0..360).step_by(30) {
            dirs.push(from_azimuth_elevation(az as f32, el.min(90) as f32));
        }
    }
    let irs: Vec<f32> = (0..dirs.len() * taps)
        .map(|i| ((i * 7919) % 2000) as f32 / 1000.0 - 1.0)
        .collect();
    let set = HrirSet::new(48_000.0, taps, &dirs, &irs, &irs).expect("synthetic set");
    let bank = Arc::new(HrtfBank::new(set));
    let mut voices: Vec<BinauralRenderer> = (0..4)
        .map(|_| BinauralRenderer::new(Arc::clone(&bank)))
        .collect();
    let input: Vec<f32> = (0..512).map(|i| (i as f32 * 0.05).sin()).collect();
    let (mut l, mut r) = (vec![0.0f32; 512], vec![0.0f32; 512]);
    let mut moved = 0;
    let calls = count(|| {
        for b in 0..100 {
            for (v, voice) in voices.iter_mut().enumerate() {
                // Every voice moves every block (glide + crossfade), odd split sizes too.
                voice.set_direction(from_azimuth_elevation(
                    (b * 9 + v * 90) as f32 % 360.0,
                    (b % 7) as f32 * 10.0 - 20.0,
                ));
                if b == 50 {
                    voice.set_direction_immediate(from_azimuth_elevation(180.0, 0.0));
                }
                voice.mix(&input[..100], &mut l[..100], &mut r[..100]);
                voice.process(&input[100..], &mut l[100..], &mut r[100..]);
                moved += usize::from(voice.direction() != [0.0, 0.0, -1.0]);
            }
        }
        voices[0].reset();
    });
    assert_eq!(calls, 0, "allocator calls while rendering binaurally");
    assert!(moved > 0 && l.iter().any(|&x| x != 0.0));
}
