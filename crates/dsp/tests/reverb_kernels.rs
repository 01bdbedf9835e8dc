//! The reverb bus's AVX2 kernels give the baseline's bits. Its own test binary (its own
//! process), so no other test toggles the process-wide AVX2 switch while it runs.

use resound_dsp::{REVERB_SLOTS, ReverbBus, ReverbBusSettings};

#[path = "support/spaces.rs"]
mod spaces;

/// A tuned bus fed noise bursts on every slot for `blocks` blocks of uneven sizes.
fn render(avx2: bool) -> Vec<u32> {
    let before = resound_dsp::simd::set_avx2_enabled(avx2);
    assert_eq!(
        resound_dsp::simd::avx2(),
        avx2 && std::is_x86_feature_detected!("avx2")
    );
    let mut bus = ReverbBus::new(ReverbBusSettings::default());
    for (k, d) in spaces::TUNED_SPACES.into_iter().enumerate() {
        bus.set_slot_decays(k, d);
    }
    let mut seed = 0x2545_f491_u32;
    let mut out = Vec::new();
    for (b, n) in [512usize, 7, 300, 1, 129, 512, 1000, 64]
        .iter()
        .cycle()
        .take(40)
        .enumerate()
    {
        let inputs: Vec<Vec<f32>> = (0..REVERB_SLOTS)
            .map(|_| {
                (0..*n)
                    .map(|_| {
                        seed ^= seed << 13;
                        seed ^= seed >> 17;
                        seed ^= seed << 5;
                        // Bursts, then silence so the slots ring down and idle.
                        if b < 12 {
                            (seed as f32 / u32::MAX as f32) - 0.5
                        } else {
                            0.0
                        }
                    })
                    .collect()
            })
            .collect();
        let (mut l, mut r) = (vec![0.0f32; *n], vec![0.0f32; *n]);
        let ins: [&[f32]; REVERB_SLOTS] = core::array::from_fn(|k| inputs[k].as_slice());
        bus.mix(ins, &mut l, &mut r);
        out.extend(l.iter().chain(&r).map(|v| v.to_bits()));
    }
    resound_dsp::simd::set_avx2_enabled(before);
    out
}

#[test]
fn avx2_and_baseline_reverb_give_identical_bits() {
    let wide = render(true);
    let base = render(false);
    assert!(wide.iter().any(|&b| b != 0), "the bus rendered silence");
    let first = wide.iter().zip(&base).position(|(a, b)| a != b);
    assert_eq!(first, None, "first differing sample (of {})", wide.len());
}
