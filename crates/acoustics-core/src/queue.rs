//! Budgeted, cached, deterministic evaluation of many sounds per tick (spec §3.3, §3.4).
//!
//! [`Evaluator`] holds a model, the caches and a queue of [`Job`]s. Each [`Evaluator::run_tick`]
//! works through the queue in priority order (impulsive first, then `loud·(1 + age)`, then id)
//! on one world snapshot, spending at most the per-tick cell budgets. A job starts a phase only
//! if its per-job cap still fits, so no tick ever exceeds its budget and every job finishes
//! (a job that hits its cap finishes with `budget_exhausted` set). Unfinished work stays queued.
//! Results whose traces met Unknown are re-traced after [`RETRACE_AFTER_TICKS`] ticks.

use glam::{DVec3, IVec3};

use crate::budget::Budget;
use crate::cache::{
    CacheStats, EchoCache, OcclusionCache, RETRACE_AFTER_TICKS, Region, RoomCache, echo_cache,
    occlusion_cache, room_cache, room_region,
};
use crate::model::own::cell_centre;
use crate::model::{
    AcousticModel, AcousticResult, DirectResult, EchoResult, Mode, Paths, RoomResult, SoundRequest,
};
use crate::room::distance_fade;
use crate::world::probe::{SectionBox, WorldProbe, section_of};
use crate::world::store::Change;

/// Per-tick budgets and per-job caps (cells).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueueSettings {
    /// Occlusion cells per tick (worker: 400 000).
    pub occlusion_budget: u64,
    /// Echo and room cells per tick (worker: 240 000).
    pub echo_budget: u64,
    /// Cap of one direct job (9 paths).
    pub occlusion_job: u64,
    /// Cap of one echo search.
    pub echo_job: u64,
    /// Cap of one room measurement (source space: 60 000).
    pub room_job: u64,
}

impl Default for QueueSettings {
    fn default() -> Self {
        Self {
            occlusion_budget: 400_000,
            echo_budget: 240_000,
            occlusion_job: 20_000,
            echo_job: 60_000,
            room_job: 60_000,
        }
    }
}

/// One sound to evaluate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Job {
    /// Voice or event id (ties are broken by it; a new job with the same id replaces the old).
    pub id: u64,
    /// The request.
    pub request: SoundRequest,
    /// Stages to run.
    pub mode: Mode,
    /// Audibility `volume·distance_gain(d)`.
    pub loudness: f64,
    /// Impulsive events jump the queue.
    pub impulsive: bool,
    /// Echo-eligible (`deserves_echo`): echoes and a source-space measurement.
    pub echo: bool,
}

/// A finished job.
#[derive(Clone, Debug, PartialEq)]
pub struct Completed {
    /// Job id.
    pub id: u64,
    /// The result. Its telemetry describes the traces that produced it (possibly cached
    /// earlier); [`TickReport`] holds what this tick spent.
    pub result: AcousticResult,
}

/// What one tick did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TickReport {
    /// The tick.
    pub tick: u64,
    /// Occlusion cells spent.
    pub occlusion_cells: u64,
    /// Echo + room cells spent.
    pub echo_cells: u64,
    /// Finished jobs, in processing order.
    pub completed: Vec<Completed>,
    /// Jobs still queued.
    pub queued: usize,
    /// Phase results dropped because the world changed under them.
    pub discarded: u64,
}

#[derive(Clone, Debug)]
struct Pending {
    job: Job,
    since: u64,
    direct: Option<DirectResult>,
    echo: Option<EchoResult>,
    room: Option<RoomResult>,
}

/// Cache counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EvaluatorStats {
    /// Occlusion cache.
    pub occlusion: CacheStats,
    /// Echo cache.
    pub echo: CacheStats,
    /// Room cache.
    pub room: CacheStats,
}

/// Model + caches + queue.
#[derive(Debug)]
pub struct Evaluator<M: AcousticModel> {
    model: M,
    settings: QueueSettings,
    occlusion: OcclusionCache<DirectResult>,
    echoes: EchoCache<EchoResult>,
    rooms: RoomCache<RoomResult>,
    pending: Vec<Pending>,
    retrace: Vec<(u64, Job)>,
    tick: u64,
    epoch: u64,
    /// Phase results of queued jobs dropped by world changes since the last tick.
    dropped: u64,
}

fn block2(p: DVec3) -> [i32; 3] {
    let c = p.floor().as_ivec3();
    IVec3::new(c.x >> 1, c.y >> 1, c.z >> 1).to_array()
}

fn cell(p: DVec3) -> [i32; 3] {
    p.floor().as_ivec3().to_array()
}

fn region_of(b: Option<SectionBox>) -> Region {
    b.map_or(Region::Nothing, Region::Box)
}

/// The echo invalidation region: the sections of the tap anchors (sorted, deduplicated).
fn anchor_region(e: &EchoResult) -> Region {
    let mut anchors: Vec<IVec3> = e.taps.iter().map(|t| section_of(t.anchor)).collect();
    anchors.sort_by_key(|s| s.to_array());
    anchors.dedup();
    Region::Sections(anchors)
}

impl<M: AcousticModel> Evaluator<M> {
    /// An evaluator over a model.
    #[must_use]
    pub fn new(model: M, settings: QueueSettings) -> Self {
        Self {
            model,
            settings,
            occlusion: occlusion_cache(),
            echoes: echo_cache(),
            rooms: room_cache(),
            pending: Vec::new(),
            retrace: Vec::new(),
            tick: 0,
            epoch: 0,
            dropped: 0,
        }
    }

    /// The model.
    pub fn model(&self) -> &M {
        &self.model
    }

    /// The current tick (advanced by [`Evaluator::run_tick`]).
    #[must_use]
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// Jobs queued (not counting scheduled re-traces).
    #[must_use]
    pub fn queued(&self) -> usize {
        self.pending.len()
    }

    /// Cache counters.
    #[must_use]
    pub fn stats(&self) -> EvaluatorStats {
        EvaluatorStats {
            occlusion: self.occlusion.stats,
            echo: self.echoes.stats,
            room: self.rooms.stats,
        }
    }

    /// Queues a job (replacing a queued job with the same id; an invalid request is dropped
    /// and reported as `Err`).
    ///
    /// # Errors
    /// [`crate::RequestError`] for invalid positions or range.
    pub fn enqueue(&mut self, job: Job) -> Result<(), crate::RequestError> {
        job.request.validate()?;
        let p = Pending {
            job,
            since: self.tick,
            direct: None,
            echo: None,
            room: None,
        };
        match self.pending.iter_mut().find(|q| q.job.id == job.id) {
            Some(q) => *q = p,
            None => self.pending.push(p),
        }
        Ok(())
    }

    /// World edits (from [`crate::WorldStore::changes_since`]). Besides the caches, the
    /// finished phases of queued jobs whose region holds a changed section are dropped and
    /// redone (a result computed before an overlapping edit is never delivered).
    pub fn world_changed(&mut self, changes: &[Change]) {
        self.occlusion.on_changes(changes);
        self.echoes.on_changes(changes);
        self.rooms.on_changes(changes);
        let hit = |region: &Region| changes.iter().any(|c| region.touches(c.section));
        for p in &mut self.pending {
            if p.direct
                .is_some_and(|d| hit(&region_of(d.telemetry.touched)))
            {
                p.direct = None;
                self.dropped += 1;
            }
            if p.echo.as_ref().is_some_and(|e| hit(&anchor_region(e))) {
                p.echo = None;
                self.dropped += 1;
            }
            if p.room.is_some_and(|r| hit(&region_of(r.telemetry.touched))) {
                p.room = None;
                self.dropped += 1;
            }
        }
    }

    /// A new epoch clears every cache and the finished phases of queued jobs (they were
    /// computed in the old world).
    pub fn set_epoch(&mut self, epoch: u64) {
        if epoch != self.epoch {
            self.epoch = epoch;
            self.occlusion.set_epoch(epoch);
            self.echoes.set_epoch(epoch);
            self.rooms.set_epoch(epoch);
            for p in &mut self.pending {
                let had = [p.direct.is_some(), p.echo.is_some(), p.room.is_some()];
                self.dropped += had.iter().map(|h| u64::from(*h)).sum::<u64>();
                p.direct = None;
                p.echo = None;
                p.room = None;
            }
        }
    }

    fn order(&mut self) {
        let tick = self.tick;
        let prio = |p: &Pending| p.job.loudness * (1.0 + (tick - p.since.min(tick)) as f64);
        self.pending.sort_by(|a, b| {
            b.job
                .impulsive
                .cmp(&a.job.impulsive)
                .then(prio(b).total_cmp(&prio(a)))
                .then(b.job.loudness.total_cmp(&a.job.loudness))
                .then(a.job.id.cmp(&b.job.id))
        });
    }

    /// Runs one tick on `probe` and advances the tick counter.
    pub fn run_tick(&mut self, probe: &dyn WorldProbe) -> TickReport {
        self.set_epoch(probe.epoch());
        let tick = self.tick;
        let due: Vec<Job> = {
            let (now, later): (Vec<_>, Vec<_>) =
                self.retrace.drain(..).partition(|(t, _)| *t <= tick);
            self.retrace = later;
            now.into_iter().map(|(_, j)| j).collect()
        };
        for job in due {
            if !self.pending.iter().any(|p| p.job.id == job.id) {
                self.pending.push(Pending {
                    job,
                    since: tick,
                    direct: None,
                    echo: None,
                    room: None,
                });
            }
        }
        self.order();
        let mut occ_budget = Budget::new(self.settings.occlusion_budget);
        let mut echo_budget = Budget::new(self.settings.echo_budget);
        let mut report = TickReport {
            tick,
            discarded: std::mem::take(&mut self.dropped),
            ..TickReport::default()
        };
        let revision = probe.revision();
        let mut pending = std::mem::take(&mut self.pending);
        let mut keep = Vec::new();
        for mut p in pending.drain(..) {
            self.advance(
                probe,
                &mut p,
                revision,
                &mut occ_budget,
                &mut echo_budget,
                &mut report,
            );
            if let Some(result) = Self::finish(&p) {
                if result.telemetry.met_unknown {
                    self.retrace.push((tick + RETRACE_AFTER_TICKS, p.job));
                }
                report.completed.push(Completed {
                    id: p.job.id,
                    result,
                });
            } else {
                keep.push(p);
            }
        }
        self.pending = keep;
        report.occlusion_cells = occ_budget.used();
        report.echo_cells = echo_budget.used();
        report.queued = self.pending.len();
        self.tick += 1;
        report
    }

    fn advance(
        &mut self,
        probe: &dyn WorldProbe,
        p: &mut Pending,
        revision: u64,
        occ_budget: &mut Budget,
        echo_budget: &mut Budget,
        report: &mut TickReport,
    ) {
        let tick = self.tick;
        let job = p.job;
        if job.mode == Mode::Off {
            return;
        }
        let req = job.request;
        if p.direct.is_none() {
            let key = (
                block2(req.source),
                block2(req.listener),
                u8::from(req.paths == Paths::Nine),
                req.range.to_bits(),
            );
            if let Some(hit) = self.occlusion.get(&key, tick) {
                p.direct = Some(hit.value);
            } else if occ_budget.remaining() >= self.settings.occlusion_job {
                let mut b = occ_budget.split(self.settings.occlusion_job);
                let r = self.model.direct(probe, &req, &mut b);
                occ_budget.absorb(&b);
                if let Ok(r) = r {
                    let region = region_of(r.telemetry.touched);
                    if self.occlusion.insert(
                        key,
                        r,
                        region,
                        revision,
                        tick,
                        r.telemetry.met_unknown,
                    ) {
                        p.direct = Some(r);
                    } else {
                        report.discarded += 1;
                    }
                }
            }
        }
        if job.mode >= Mode::Reflect && job.echo && p.echo.is_none() {
            let key = (cell(req.source), cell(req.listener));
            if let Some(hit) = self.echoes.get(&key, tick) {
                p.echo = Some(hit.value);
            } else if echo_budget.remaining() >= self.settings.echo_job {
                let centred = SoundRequest {
                    source: cell_centre(req.source),
                    listener: cell_centre(req.listener),
                    ..req
                };
                let mut b = echo_budget.split(self.settings.echo_job);
                let r = self.model.reflections(probe, &centred, &mut b);
                echo_budget.absorb(&b);
                if let Ok(r) = r {
                    let met = r.telemetry.met_unknown;
                    if self
                        .echoes
                        .insert(key, r.clone(), anchor_region(&r), revision, tick, met)
                    {
                        p.echo = Some(r);
                    } else {
                        report.discarded += 1;
                    }
                }
            }
        }
        if job.mode >= Mode::Full && p.room.is_none() {
            let affordable = echo_budget.remaining() >= self.settings.room_job;
            if job.echo {
                if affordable {
                    // Source space measured in the echo job (uncached), listener + source mix.
                    let mut b = echo_budget.split(self.settings.room_job);
                    let r = self.model.room(
                        probe,
                        &SoundRequest {
                            measure_source_space: true,
                            ..req
                        },
                        &mut b,
                    );
                    echo_budget.absorb(&b);
                    p.room = r.ok();
                }
            } else {
                let key = cell(req.listener);
                let base = match self.rooms.get(&key, tick) {
                    // A fresh entry costs no cells.
                    Some(hit) if hit.fresh => Some(hit.value),
                    stale if affordable => {
                        let centre = cell_centre(req.listener);
                        let listener_only = SoundRequest {
                            source: centre,
                            listener: centre,
                            measure_source_space: false,
                            ..req
                        };
                        let mut b = echo_budget.split(self.settings.room_job);
                        let r = self.model.room(probe, &listener_only, &mut b);
                        echo_budget.absorb(&b);
                        match r {
                            Ok(r) => {
                                let region = room_region(IVec3::from_array(key));
                                if self.rooms.insert(
                                    key,
                                    r,
                                    region,
                                    revision,
                                    tick,
                                    r.telemetry.met_unknown,
                                ) {
                                    Some(r)
                                } else {
                                    // Measured before an overlapping edit: dropped like the
                                    // other phases (the stale value, if any, is older still).
                                    report.discarded += 1;
                                    None
                                }
                            }
                            Err(_) => stale.map(|h| h.value),
                        }
                    }
                    // No budget now: the old value is used while the new one waits (§3.4).
                    stale => stale.map(|h| h.value),
                };
                // Cached at distance 0 (fade 1): apply this sound's send fade.
                p.room = base.map(|mut r| {
                    let fade = distance_fade(req.distance(), req.range) as f32;
                    r.sends = r.sends.map(|s| s * fade);
                    r
                });
            }
        }
    }

    fn finish(p: &Pending) -> Option<AcousticResult> {
        let job = p.job;
        let mut out = AcousticResult::neutral(&job.request);
        if job.mode == Mode::Off {
            return Some(out);
        }
        let d = p.direct?;
        out.occ = d.occ;
        out.gain = d.gain;
        out.hf = d.hf;
        out.apparent_direction = d.apparent_direction;
        out.telemetry.merge(&d.telemetry);
        if job.mode >= Mode::Reflect && job.echo {
            let e = p.echo.as_ref()?;
            out.taps.clone_from(&e.taps);
            out.telemetry.merge(&e.telemetry);
        }
        if job.mode >= Mode::Full {
            let r = p.room?;
            out.sends = r.sends;
            out.decay = r.decay;
            out.effective_decay = r.effective_decay;
            out.wet = r.wet;
            out.space = r.space;
            out.telemetry.merge(&r.telemetry);
        }
        Some(out)
    }
}
