//! The acoustic tick: [`Ticker`] holds the worker link and the tick's own counters. Per tick it
//! applies the worker's finished results, decides classes, echo sets and jobs over the
//! [`Voices`] ([`crate::schedule`]), and sends them with a copy-on-write world snapshot to the
//! worker ([`crate::worker`]). It also runs the inline trace a new voice gets before its first
//! buffer, within the inline cell budget.

use std::collections::{BTreeMap, BTreeSet};

use resound_acoustics::airpath::DirectSound;
use resound_acoustics::cache::RETRACE_AFTER_TICKS;
use resound_acoustics::model::own::cell_centre;
use resound_acoustics::queue::Job;
use resound_acoustics::room::distance_fade;
use resound_acoustics::{
    AcousticModel, AcousticResult, Budget, Mode, Paths, RoomResult, SoundRequest, WorldProbe,
};

use super::shared::Shared;
use super::voices::{Group, Kind, Traced, Voices};
use crate::builder::{Budgets, Pacing};
use crate::error::TickError;
use crate::model::Model;
use crate::schedule::{
    AUDIBLE, Candidate, Class, EchoFacts, FREE_DISTANCE, IMPULSIVE_DISTANCE, IMPULSIVE_POWER,
    MOTION_EPSILON, classify, deserves_echo, distance_jump, loudness, timer_due,
};
use crate::source::Source;
use crate::worker::{TickMsg, TickReply, WorkerLink, air_line, search_once};

/// Host room cache key: listener cell, world epoch and revision, range bits.
type RoomKey = ([i32; 3], u64, u64, u64);

/// The tick's state: the worker link, the tick count and timing, the inline budget left and
/// the listener's room measured on the host.
#[derive(Debug)]
pub(crate) struct Ticker {
    worker: WorkerLink,
    worker_gone: bool,
    /// Ticks run.
    pub(crate) tick: u64,
    /// Frames per tick (render-clock pacing).
    pub(crate) tick_frames: u64,
    /// Seconds per tick.
    tick_seconds: f64,
    /// The frame at which the last render-clock tick ran.
    last_tick_frame: Option<u64>,
    /// Inline cells left this tick.
    inline_left: u64,
    host_room: Option<(RoomKey, RoomResult)>,
}

impl Ticker {
    /// A ticker over `worker`, `tick_frames` frames per tick at `rate`.
    pub(crate) fn new(worker: WorkerLink, tick_frames: u64, rate: u32, inline_cells: u64) -> Self {
        Self {
            worker,
            worker_gone: false,
            tick: 0,
            tick_frames,
            tick_seconds: tick_frames as f64 / f64::from(rate),
            last_tick_frame: None,
            inline_left: inline_cells,
            host_room: None,
        }
    }

    /// Ticks sent to the worker and not answered yet.
    pub(crate) fn in_flight(&self) -> usize {
        self.worker.in_flight()
    }

    /// Fault injection: the worker panics at its next tick.
    pub(crate) fn inject_worker_panic(&mut self) {
        self.worker.inject_panic();
    }

    /// With render-clock pacing: true (once) when a tick is due at the frame `frames`.
    pub(crate) fn due_at(&mut self, frames: u64) -> bool {
        if frames.is_multiple_of(self.tick_frames) && self.last_tick_frame != Some(frames) {
            self.last_tick_frame = Some(frames);
            return true;
        }
        false
    }

    fn gone(&mut self) -> TickError {
        self.worker_gone = true;
        TickError::WorkerGone
    }

    /// Waits for the worker to answer every tick sent and applies the results.
    ///
    /// # Errors
    /// [`TickError::WorkerGone`].
    pub(crate) fn settle(
        &mut self,
        shared: &mut Shared,
        voices: &mut Voices,
    ) -> Result<(), TickError> {
        let replies = self.worker.wait_all().map_err(|()| self.gone())?;
        for r in replies {
            self.apply_reply(shared, voices, r);
        }
        self.note_restarts(shared, voices);
        Ok(())
    }

    /// After a worker restart the jobs in flight are lost: every voice is traced again.
    fn note_restarts(&mut self, shared: &mut Shared, voices: &mut Voices) {
        let n = self.worker.take_restarts();
        if n > 0 {
            shared.status.worker_restarts += n;
            voices.lost_jobs();
        }
    }

    /// One tick: (live) the replies ready, the world's changes, this tick's jobs to the worker,
    /// (`wait`) its replies.
    ///
    /// # Errors
    /// [`TickError::WorkerGone`].
    pub(crate) fn run(
        &mut self,
        shared: &mut Shared,
        voices: &mut Voices,
        wait: bool,
    ) -> Result<(), TickError> {
        if self.worker_gone {
            return Err(TickError::WorkerGone);
        }
        if !wait {
            let ready = self.worker.try_replies().map_err(|()| self.gone())?;
            for r in ready {
                self.apply_reply(shared, voices, r);
            }
            self.note_restarts(shared, voices);
        }
        voices.reap(shared);
        let changes = shared.world.take_changes();
        if !changes.is_empty() {
            for v in voices.map.values_mut() {
                let touched = v.result.as_ref().and_then(|r| r.telemetry.touched);
                if let Some(b) = touched
                    && changes.iter().any(|c| b.contains(c.section))
                {
                    v.dirty = true;
                }
            }
        }
        let jobs = self.schedule(shared, voices);
        let msg = TickMsg {
            tick: self.tick,
            snapshot: shared.world.snapshot(),
            changes,
            jobs,
            cancel: voices.take_cancels(),
        };
        if !self.worker.send(msg) {
            return Err(self.gone());
        }
        if wait {
            let replies = self.worker.wait_all().map_err(|()| self.gone())?;
            for r in replies {
                self.apply_reply(shared, voices, r);
            }
        }
        self.note_restarts(shared, voices);
        self.tick += 1;
        shared.status.ticks = self.tick;
        self.inline_left = shared.budgets.inline_cells;
        Ok(())
    }

    /// Classes, echo sets and the jobs of this tick.
    fn schedule(&mut self, shared: &mut Shared, voices: &mut Voices) -> Vec<Job> {
        if shared.mode == Mode::Off {
            return Vec::new();
        }
        let listener = shared.listener.position;
        let now = shared.time();
        let retraces = shared.world.retraces();
        let ids: Vec<u64> = voices
            .map
            .iter()
            .filter(|(_, v)| !v.source.relative)
            .map(|(id, _)| *id)
            .collect();
        let candidates: Vec<Candidate> = ids
            .iter()
            .filter_map(|id| {
                let v = voices.map.get(id)?;
                let d = (v.source.position - listener).length();
                Some(Candidate {
                    id: *id,
                    loud: loudness(v.source.volume, d, v.source.range),
                    distance: d,
                    impulsive_full: v.source.impulsive
                        && v.source.power >= IMPULSIVE_POWER
                        && d <= IMPULSIVE_DISTANCE,
                    previous: v.class,
                })
            })
            .collect();
        let classes = classify(&candidates);
        // Echo sets: the loudest events among Full voices that deserve an echo.
        let mut events: BTreeMap<Group, f64> = BTreeMap::new();
        if shared.mode >= Mode::Reflect {
            for (c, class) in candidates.iter().zip(&classes) {
                let Some(v) = voices.map.get(&c.id) else {
                    continue;
                };
                let facts = EchoFacts {
                    looping: v.source.looping,
                    relative: v.source.relative,
                    volume: v.source.volume,
                    range: v.source.range,
                    length_s: v.length_s,
                    // "< 70 % played" gates acquiring a set; a voice keeps the set it has.
                    played: if v.echo {
                        0.0
                    } else if v.length_s > 0.0 {
                        (now - v.start_s) / v.length_s
                    } else {
                        1.0
                    },
                };
                if *class == Class::Full && deserves_echo(&facts) {
                    let e = events.entry(v.group(c.id)).or_insert(0.0);
                    *e = e.max(c.loud);
                }
            }
        }
        let mut ranked: Vec<(Group, f64)> = events.into_iter().collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let echo_groups: BTreeSet<Group> = ranked
            .into_iter()
            .take(shared.capacities.echo_voices)
            .map(|(g, _)| g)
            .collect();

        let mut jobs = Vec::new();
        let mut led: BTreeSet<Group> = BTreeSet::new();
        let mut push = Vec::new();
        let mut cancels = Vec::new();
        let (tick, tick_seconds, mode) = (self.tick, self.tick_seconds, shared.mode);
        for (c, class) in candidates.iter().zip(classes) {
            let Some(v) = voices.map.get_mut(&c.id) else {
                continue;
            };
            let group = v.group(c.id);
            let old = v.class;
            v.class = Some(class);
            if class == Class::Free {
                if old != Some(Class::Free) {
                    if v.outstanding {
                        cancels.push(c.id);
                    }
                    v.outstanding = false;
                    v.result = None;
                    v.direct = None;
                    v.result_kind = None;
                    v.echo = false;
                    v.traced = None;
                    push.push(c.id);
                }
                continue;
            }
            let echo = echo_groups.contains(&group);
            if echo != v.echo {
                v.echo = echo;
                push.push(c.id);
            }
            if !led.insert(group) {
                // A layer of an event already led by a lower id: shares its result.
                continue;
            }
            let moved = v.traced.is_none_or(|t| {
                t.source.distance(v.source.position) > MOTION_EPSILON
                    || t.listener.distance(listener) > MOTION_EPSILON
            });
            let want = Kind {
                paths: if class == Class::Full {
                    Paths::Nine
                } else {
                    Paths::One
                },
                mode,
                echo,
            };
            let served = v.result_kind.is_some_and(|k| k.covers(want))
                || (v.outstanding && v.sent_kind.is_some_and(|k| k.covers(want)));
            let need = (v.result.is_none() && !v.outstanding)
                || v.traced.is_none()
                || !served
                || v.is_dirty(retraces)
                || v.retrace_at.is_some_and(|t| tick >= t)
                || (moved
                    && v.traced.is_some_and(|t| {
                        distance_jump(t.distance, c.distance)
                            || timer_due(tick, c.id, c.distance, tick_seconds)
                    }));
            if !need {
                continue;
            }
            let request = SoundRequest {
                source: v.source.position,
                listener,
                range: f64::from(v.source.range),
                paths: if class == Class::Full {
                    Paths::Nine
                } else {
                    Paths::One
                },
                measure_source_space: echo,
            };
            if request.validate().is_err() {
                continue;
            }
            jobs.push(Job {
                id: c.id,
                request,
                mode,
                loudness: c.loud,
                impulsive: v.source.impulsive,
                echo,
            });
            v.traced = Some(Traced {
                source: v.source.position,
                listener,
                distance: c.distance,
            });
            v.sent_tick = Some(tick);
            v.sent_kind = Some(want);
            v.outstanding = true;
            v.dirty = false;
            v.retraces = retraces;
            v.retrace_at = None;
        }
        for id in cancels {
            voices.cancel(id);
        }
        for id in push {
            voices.push(shared, id);
        }
        jobs
    }

    fn apply_reply(&mut self, shared: &mut Shared, voices: &mut Voices, mut r: TickReply) {
        if r.is_stale(WorldProbe::epoch(&shared.world)) {
            // Computed on a world since replaced: dropped (its voices are dirty, re-traced).
            r.discarded += r.completed.len() as u64;
            r.completed.clear();
        }
        let s = &mut shared.status;
        s.cells += r.occlusion_cells + r.echo_cells;
        s.last_tick_occlusion_cells = r.occlusion_cells;
        s.last_tick_echo_cells = r.echo_cells;
        s.max_tick_occlusion_cells = s.max_tick_occlusion_cells.max(r.occlusion_cells);
        s.max_tick_echo_cells = s.max_tick_echo_cells.max(r.echo_cells);
        s.air_cells += r.air.cells;
        s.max_tick_air_cells = s.max_tick_air_cells.max(r.air.cells);
        s.air_searches += r.air.searches;
        s.air_around += r.air.around;
        s.air_fallbacks += r.air.fallbacks;
        s.worker_time += r.wall;
        s.last_tick_worker_time = r.wall;
        s.queue_len = r.queued;
        let st = r.stats;
        s.cache_hits = st.occlusion.hits + st.echo.hits + st.room.hits;
        s.cache_misses = st.occlusion.misses + st.echo.misses + st.room.misses;
        s.discarded += r.discarded;
        for done in r.completed {
            let (c, air) = (done.job, done.air);
            let lead_ok = shared.mode != Mode::Off
                && voices.map.get(&c.id).is_some_and(|v| {
                    v.outstanding
                        && v.sent_tick.is_some_and(|t| t <= r.tick)
                        && v.class.is_some_and(|k| k != Class::Free)
                });
            if !lead_ok {
                shared.status.discarded += 1;
                continue;
            }
            let Some(group) = voices.map.get(&c.id).map(|v| v.group(c.id)) else {
                continue;
            };
            let members: Vec<u64> = voices
                .map
                .iter()
                .filter(|(id, v)| {
                    v.group(**id) == group && v.class.is_some_and(|k| k != Class::Free)
                })
                .map(|(id, _)| *id)
                .collect();
            let t = c.result.telemetry;
            shared.count(&t);
            shared.status.results_applied += 1;
            for id in members {
                let tick = self.tick;
                if let Some(v) = voices.map.get_mut(&id) {
                    v.outstanding = false;
                    v.applied_tick = Some(tick);
                    v.results += 1;
                    v.retrace_at = if air.retry {
                        // The tick's air budget ran out before this voice's search: again soon.
                        Some(tick + 1)
                    } else {
                        t.met_unknown.then_some(tick + RETRACE_AFTER_TICKS)
                    };
                    v.result = Some(c.result.clone());
                    v.direct = air.direct;
                    v.result_kind = v.sent_kind;
                }
                voices.push(shared, id);
            }
        }
    }

    /// The acoustics a new voice starts with, before its first buffer, within the inline cell
    /// budget: live, one path (the worker refines it); offline (render clock, or a device
    /// stream `before_start`), the whole evaluation of the mode, synchronously, so the voice
    /// starts at its final values. The listener's room is measured once for all sources
    /// (cached on the host by listener cell).
    pub(crate) fn inline_trace(
        &mut self,
        shared: &mut Shared,
        source: &Source,
        echo: bool,
        before_start: bool,
    ) -> Option<(AcousticResult, Kind, Option<DirectSound>)> {
        let allowance = if before_start {
            self.inline_left.max(Budgets::offline().inline_cells)
        } else {
            self.inline_left
        };
        let listener = shared.listener.position;
        if shared.mode == Mode::Off || source.relative || allowance == 0 {
            return None;
        }
        let d = (source.position - listener).length();
        if d > FREE_DISTANCE || loudness(source.volume, d, source.range) < AUDIBLE {
            return None;
        }
        let offline = shared.pacing == Pacing::RenderClock || before_start;
        let request = SoundRequest {
            source: source.position,
            listener,
            range: f64::from(source.range),
            paths: if offline { Paths::Nine } else { Paths::One },
            measure_source_space: offline && echo,
        };
        let mut budget = Budget::new(allowance);
        let (result, kind, direct) = if offline {
            let stages = if echo {
                shared.mode
            } else {
                shared.mode.min(Mode::Direct)
            };
            let mut r = shared
                .model
                .evaluate(&shared.world, &request, stages, &mut budget)
                .ok();
            if let Some(r) = r.as_mut()
                && shared.mode >= Mode::Full
                && !echo
                && let Some(room) = self.listener_room(shared, &mut budget, f64::from(source.range))
            {
                let fade = distance_fade(d, f64::from(source.range)) as f32;
                r.sends = room.sends.map(|x| x * fade);
                r.decay = room.decay;
                r.effective_decay = room.effective_decay;
                r.wet = room.wet;
                r.space = room.space;
            }
            let kind = Kind {
                paths: Paths::Nine,
                mode: shared.mode,
                echo,
            };
            // Offline the voice starts round its corner too (own model; the inline budget's
            // rest, at most one worker search's cap): no first tick through the wall.
            let direct = match (r.as_mut(), &shared.model) {
                (Some(r), Model::Own(_)) if shared.budgets.air_cells > 0 => {
                    let mut air = budget.split(shared.budgets.air_job);
                    let d = search_once(&shared.world, &request, r, &mut air);
                    budget.absorb(&air);
                    d.or_else(|| Some(air_line(&request, r)))
                }
                (Some(r), Model::Own(_)) => Some(air_line(&request, r)),
                _ => None,
            };
            (r, kind, direct)
        } else {
            let r = shared
                .model
                .direct(&shared.world, &request, &mut budget)
                .ok()
                .map(|d| {
                    let mut r = AcousticResult::neutral(&request);
                    r.occ = d.occ;
                    r.gain = d.gain;
                    r.hf = d.hf;
                    r.apparent_direction = d.apparent_direction;
                    r.telemetry = d.telemetry;
                    r
                });
            let kind = Kind {
                paths: Paths::One,
                mode: Mode::Direct,
                echo: false,
            };
            (r, kind, None)
        };
        self.inline_left -= budget.used().min(self.inline_left);
        shared.status.inline_cells += budget.used();
        result.map(|r| (r, kind, direct))
    }

    /// The listener's room (listener space only, sends at distance 0), measured once per
    /// listener cell and world state on the host.
    fn listener_room(
        &mut self,
        shared: &Shared,
        budget: &mut Budget,
        range: f64,
    ) -> Option<RoomResult> {
        let position = shared.listener.position;
        let cell = position.floor().as_ivec3();
        let key = (
            cell.to_array(),
            WorldProbe::epoch(&shared.world),
            WorldProbe::revision(&shared.world),
            range.to_bits(),
        );
        if let Some((k, r)) = &self.host_room
            && *k == key
        {
            return Some(*r);
        }
        let centre = cell_centre(position);
        let request = SoundRequest {
            source: centre,
            listener: centre,
            range,
            paths: Paths::One,
            measure_source_space: false,
        };
        let r = shared.model.room(&shared.world, &request, budget).ok()?;
        self.host_room = Some((key, r));
        Some(r)
    }
}
