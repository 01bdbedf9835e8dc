//! Criterion benches of binaural rendering: cost per 512-frame block at 48 kHz for 1, 32 and
//! 100 sources, steady and moving (every source's direction changing every block). With the
//! `hrtf-default` feature the set is IRCAM LISTEN 1040 (558 taps at 48 kHz) and the same
//! moving voices also run through the `hrtf` crate's processor (Fyrox, `firewheel-ircam-hrtf`);
//! without it, a synthetic set of the same size.
//!
//! `cargo bench -p resound-dsp --bench binaural --features hrtf-default -- --quick`
#![allow(missing_docs, clippy::unwrap_used)]

use std::hint::black_box;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use resound_dsp::hrtf::{BinauralRenderer, HrirSet, HrtfBank, from_azimuth_elevation};

const FS: f32 = 48_000.0;
const BLOCK: usize = 512;

fn noise(n: usize, seed: u32) -> Vec<f32> {
    let mut s = seed.max(1);
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            (s as f32 / u32::MAX as f32) * 2.0 - 1.0
        })
        .collect()
}

/// IRCAM 1040 with the feature; otherwise 187 directions of 558 noise taps (same cost).
fn set() -> HrirSet {
    #[cfg(feature = "hrtf-default")]
    {
        HrirSet::ircam_1040(FS).unwrap()
    }
    #[cfg(not(feature = "hrtf-default"))]
    {
        let mut dirs = vec![[0.0, 1.0, 0.0]];
        for el in (-45..=75).step_by(15) {
            for az in (0..360).step_by(18) {
                dirs.push(from_azimuth_elevation(az as f32, el as f32));
            }
        }
        dirs.truncate(187);
        let taps = 558;
        let l = noise(dirs.len() * taps, 3);
        let r = noise(dirs.len() * taps, 4);
        HrirSet::new(FS, taps, &dirs, &l, &r).unwrap()
    }
}

fn direction(voice: usize, block: usize, moving: bool) -> [f32; 3] {
    let az = voice as f32 * 37.0 + if moving { block as f32 * 7.7 } else { 0.0 };
    from_azimuth_elevation(az.rem_euclid(360.0), (voice % 5) as f32 * 10.0 - 10.0)
}

fn binaural(c: &mut Criterion) {
    let bank = Arc::new(HrtfBank::new(set()));
    let input = noise(BLOCK, 1);
    let mut g = c.benchmark_group("binaural");
    for voices in [1usize, 32, 100] {
        for moving in [false, true] {
            let mut rs: Vec<BinauralRenderer> = (0..voices)
                .map(|v| {
                    let mut r = BinauralRenderer::new(Arc::clone(&bank));
                    r.set_direction_immediate(direction(v, 0, moving));
                    r
                })
                .collect();
            let (mut l, mut r) = (vec![0.0f32; BLOCK], vec![0.0f32; BLOCK]);
            let mut block = 0usize;
            let name = format!("{}_{voices}", if moving { "moving" } else { "steady" });
            g.bench_function(name, |b| {
                b.iter(|| {
                    block += 1;
                    l.fill(0.0);
                    r.fill(0.0);
                    for (v, rend) in rs.iter_mut().enumerate() {
                        rend.set_direction(direction(v, block, moving));
                        rend.mix(black_box(&input), &mut l, &mut r);
                    }
                    black_box((&l, &r));
                })
            });
        }
    }
    #[cfg(feature = "hrtf-default")]
    {
        use hrtf::{HrirSphere, HrtfContext, HrtfProcessor, Vec3};
        let bytes: &[u8] = firewheel_ircam_hrtf_bytes();
        let voices = 100;
        // 4 slices of 128 frames = one 512-frame block per call.
        let mut procs: Vec<HrtfProcessor> = (0..voices)
            .map(|_| HrtfProcessor::new(HrirSphere::new(bytes, FS as u32).unwrap(), 4, 128))
            .collect();
        let mut prev: Vec<(Vec<f32>, Vec<f32>, Vec3)> = (0..voices)
            .map(|_| (Vec::new(), Vec::new(), Vec3::new(0.0, 0.0, 1.0)))
            .collect();
        let mut out = vec![(0.0f32, 0.0f32); BLOCK];
        let mut block = 0usize;
        g.bench_function("hrtf_crate_moving_100", |b| {
            b.iter(|| {
                block += 1;
                out.iter_mut().for_each(|o| *o = (0.0, 0.0));
                for (v, p) in procs.iter_mut().enumerate() {
                    let d = direction(v, block, true);
                    let new = Vec3::new(d[0], d[1], d[2]);
                    let (pl, pr, pv) = &mut prev[v];
                    p.process_samples(HrtfContext {
                        source: black_box(&input[..]),
                        output: &mut out,
                        new_sample_vector: new,
                        prev_sample_vector: *pv,
                        prev_left_samples: pl,
                        prev_right_samples: pr,
                        new_distance_gain: 1.0,
                        prev_distance_gain: 1.0,
                    });
                    *pv = new;
                }
                black_box(&out);
            })
        });
    }
    g.finish();
}

/// The IRCAM 1040 sphere bytes the `hrtf` crate reads (what `firewheel-ircam-hrtf` embeds).
#[cfg(feature = "hrtf-default")]
fn firewheel_ircam_hrtf_bytes() -> &'static [u8] {
    resound_dsp::hrtf::ircam::sphere_bytes()
}

criterion_group!(benches, binaural);
criterion_main!(benches);
