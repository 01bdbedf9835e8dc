//! Firewheel 0.14 playing the motion scenes' 100 sounds: one `SamplerNode` (looping, its
//! `speed` the sound's rate over the stream's, times the per-buffer Doppler ratio) into one
//! `SpatialBasicNode` (volume, and an offset whose side gives the pan) per voice, summed at
//! the graph's output. Driven offline: the context's `update()` carries the parameter events
//! (untimed, the game thread's work), `FirewheelProcessor::process()` renders one 512-frame
//! buffer (timed, the audio thread's work).
//!
//! Firewheel's sampler resamples linearly (`PlaybackSpeedQuality::LinearFast`, the only
//! quality 0.14 offers): it does less work per frame than the Modern read it is compared with.

use std::num::NonZeroU32;
use std::time::Duration;

use audioadapter_buffers::direct::InterleavedSlice;
use firewheel::backend::BackendProcessInfo;
use firewheel::diff::{Diff, PathBuilder};
use firewheel::node::{NodeID, StreamStatus};
use firewheel::nodes::sampler::{PlayFrom, RepeatMode, SamplerNode};
use firewheel::nodes::spatial_basic::SpatialBasicNode;
use firewheel::processor::FirewheelProcessor;
use firewheel::{ActivateInfo, FirewheelConfig, FirewheelContext, Volume};
use resound_benchclock::Stopwatch;

use super::{BLOCK, FS, Lcg, REBUILD_EVERY, VOICES, distinct_sound, start_offsets};

/// One voice: its two nodes and the parameters last sent to them.
struct Voice {
    sampler: NodeID,
    spatial: NodeID,
    sampler_params: SamplerNode,
    spatial_params: SpatialBasicNode,
    /// The sound's rate over the stream's (the speed with no Doppler).
    base_speed: f64,
}

/// A running Firewheel graph with the motion scene's voices.
struct Scene {
    /// Declared (so dropped) before the context: a context dropped while its processor lives
    /// waits seconds for it, which made every rebuild sleep.
    processor: FirewheelProcessor,
    ctx: FirewheelContext,
    voices: Vec<Voice>,
    out: Vec<f32>,
}

fn process_info() -> BackendProcessInfo {
    BackendProcessInfo {
        frames: BLOCK,
        process_timestamp: None,
        duration_since_stream_start: Duration::ZERO,
        input_stream_status: StreamStatus::empty(),
        output_stream_status: StreamStatus::empty(),
        dropped_frames: 0,
        process_to_playback_delay: None,
    }
}

impl Scene {
    fn new() -> Self {
        let mut ctx = FirewheelContext::new(FirewheelConfig {
            initial_node_capacity: 2 * VOICES as u32 + 8,
            initial_edge_capacity: 4 * VOICES as u32 + 8,
            // Every voice gets three parameter events a buffer.
            event_queue_capacity: 8 * VOICES,
            immediate_event_capacity: 8 * VOICES,
            ..FirewheelConfig::default()
        });
        let out_node = ctx.graph_out_node_id();
        let offsets = start_offsets(VOICES, 7);
        let mut voices = Vec::with_capacity(VOICES);
        for (i, off) in offsets.iter().enumerate() {
            let (samples, rate) = distinct_sound(i, false);
            let base_speed = f64::from(rate) / f64::from(FS);
            let mut sampler_params = SamplerNode {
                repeat_mode: RepeatMode::RepeatEndlessly,
                speed: base_speed,
                volume: Volume::Linear(1.0),
                ..SamplerNode::default()
            };
            // The same source position the staggered start gives our voice.
            let at = (*off as u64 * u64::from(rate) / u64::from(FS)) % samples.len() as u64;
            sampler_params.start_from(PlayFrom::Frames(at));
            let spatial_params = SpatialBasicNode::default();
            let sampler = ctx.add_node(sampler_params, None).expect("sampler");
            let spatial = ctx.add_node(spatial_params, None).expect("spatial");
            ctx.connect(sampler, spatial, &[(0, 0), (1, 1)], false)
                .expect("sampler -> spatial");
            ctx.connect(spatial, out_node, &[(0, 0), (1, 1)], false)
                .expect("spatial -> out");
            ctx.queue_event_for(
                sampler,
                SamplerNode::set_sample_event(vec![samples.to_vec()]),
            );
            ctx.queue_event_for(sampler, sampler_params.sync_play_from_event());
            ctx.queue_event_for(sampler, sampler_params.sync_play_event());
            voices.push(Voice {
                sampler,
                spatial,
                sampler_params,
                spatial_params,
                base_speed,
            });
        }
        let processor = ctx
            .activate(ActivateInfo {
                sample_rate: NonZeroU32::new(FS).expect("rate"),
                max_block_frames: NonZeroU32::new(BLOCK as u32).expect("block"),
                num_stream_in_channels: 0,
                num_stream_out_channels: 2,
                input_to_output_latency_seconds: 0.0,
            })
            .expect("activate");
        let mut s = Self {
            ctx,
            processor,
            voices,
            out: vec![0.0; 2 * BLOCK],
        };
        // Let the graph compile and the samplers start, then run the motion for as many
        // buffers as the Resound scenes warm up, so the measured state is the moving one.
        let mut rng = Lcg(5);
        for k in 0..24 {
            if k < 4 {
                s.ctx.update().expect("update");
            } else {
                s.step(&mut rng);
            }
            s.block();
        }
        s
    }

    /// The game's tick: every voice a new volume, side (pan) and Doppler speed.
    fn step(&mut self, rng: &mut Lcg) {
        for v in &mut self.voices {
            let old_spatial = v.spatial_params;
            let old_sampler = v.sampler_params;
            let volume = 0.005 + 0.01 * rng.next();
            let pan = 2.0 * rng.next() - 1.0;
            let doppler = 1.0 + 0.06 * (2.0 * rng.next() - 1.0);
            v.spatial_params.volume = Volume::Linear(volume);
            v.spatial_params.offset = [4.0 * pan, 0.0, -3.0].into();
            v.sampler_params.speed = v.base_speed * f64::from(doppler);
            v.spatial_params.diff(
                &old_spatial,
                PathBuilder::default(),
                &mut self.ctx.event_queue(v.spatial),
            );
            v.sampler_params.diff(
                &old_sampler,
                PathBuilder::default(),
                &mut self.ctx.event_queue(v.sampler),
            );
        }
        self.ctx.update().expect("update");
    }

    /// One 512-frame buffer of the audio thread's work.
    #[inline(never)]
    fn block(&mut self) {
        let input = InterleavedSlice::new(&[], 0, 0).expect("no input");
        let mut output = InterleavedSlice::new_mut(&mut self.out, 2, BLOCK).expect("output");
        self.processor.process(&input, &mut output, process_info());
    }
}

/// Times `iters` buffers of Firewheel under the motion scene's motion.
pub fn time_motion(iters: u64) -> Duration {
    let mut total = Duration::ZERO;
    let mut left = iters;
    let mut rng = Lcg(11);
    while left > 0 {
        let n = left.min(REBUILD_EVERY);
        let mut s = Scene::new();
        for _ in 0..n {
            s.step(&mut rng);
            let t = Stopwatch::start();
            s.block();
            total += t.elapsed();
            std::hint::black_box(&s.out);
        }
        left -= n;
    }
    total
}

/// The peak of one buffer after warm-up (the bench checks the graph really sounds).
pub fn warm_peak() -> f32 {
    let mut s = Scene::new();
    let mut rng = Lcg(11);
    for _ in 0..20 {
        s.step(&mut rng);
        s.block();
    }
    s.out.iter().fold(0.0f32, |m, x| m.max(x.abs()))
}
