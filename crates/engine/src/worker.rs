//! The acoustic worker: one thread running [`resound_acoustics::queue::Evaluator`] (model,
//! caches, priority queue, cell budgets) on copy-on-write world snapshots. The host sends one
//! [`TickMsg`] per tick over a crossbeam channel and receives one [`TickReply`].
//!
//! A job id is the lead voice of an event. The worker forwards a finished job only if the host
//! still waits for it (`outstanding`): a re-trace the evaluator scheduled by itself for a job the
//! host has since replaced or cancelled is dropped and counted as superseded.
//!
//! Faults (issue 15, `docs/reliability.md`):
//! - **A panicking worker** (a bug in a model, or [`WorkerLink::inject_panic`]) takes down its
//!   thread only: the host sees the channel disconnect, joins the thread and starts a fresh one
//!   with a fresh core (empty caches), counting the restart ([`WorkerLink::take_restarts`]); the
//!   engine then re-sends every voice's job. The inline core runs under `catch_unwind` and is
//!   rebuilt the same way. The mixer never waits on the worker, so the mix keeps the last
//!   parameters throughout.
//! - **A world replaced while a tick is in flight**: every reply carries the epoch of the
//!   snapshot it was computed on; [`TickReply::is_stale`] tells the host to drop results from
//!   an older epoch (counted as discarded).

mod air;

use std::collections::{BTreeMap, BTreeSet};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};
use resound_acoustics::Change;
use resound_acoustics::WorldProbe;
use resound_acoustics::queue::{Completed, Evaluator, EvaluatorStats, Job, QueueSettings};
use resound_acoustics::{Mode, SoundRequest};

pub(crate) use self::air::{AirBudget, AirCount, AirOutcome, line as air_line, search_once};
use self::air::{AirStage, AirTick};
use crate::model::Model;

/// A finished job the host waits for, with what the air stage made of it.
#[derive(Debug, Clone)]
pub(crate) struct Done {
    /// The evaluator's result (gain, high band and direction joined with the air path).
    pub job: Completed,
    /// The air stage's outcome.
    pub air: AirOutcome,
}

/// One tick's work from the host.
#[derive(Debug)]
pub(crate) struct TickMsg {
    /// Host tick.
    pub tick: u64,
    /// The world as the host presents it now.
    pub snapshot: crate::world::Snapshot,
    /// World changes since the previous message.
    pub changes: Vec<Change>,
    /// New or replaced jobs.
    pub jobs: Vec<Job>,
    /// Job ids the host no longer waits for.
    pub cancel: Vec<u64>,
}

/// What a tick produced.
#[derive(Debug, Default)]
pub(crate) struct TickReply {
    /// Host tick of the (last) message the tick served.
    pub tick: u64,
    /// Finished jobs the host waits for.
    pub completed: Vec<Done>,
    /// Air-path counters of the tick.
    pub air: AirCount,
    /// Occlusion cells spent.
    pub occlusion_cells: u64,
    /// Echo and room cells spent.
    pub echo_cells: u64,
    /// Results dropped: world changed under them, or superseded.
    pub discarded: u64,
    /// Jobs still queued.
    pub queued: usize,
    /// Cache counters (cumulative).
    pub stats: EvaluatorStats,
    /// Wall-clock time of the tick (telemetry only).
    pub wall: Duration,
    /// Epoch of the snapshot the results were computed on.
    pub epoch: u64,
}

impl TickReply {
    /// True if the reply's results were computed on a world the host has since replaced (or
    /// moved to another epoch): they must be dropped, not applied.
    pub fn is_stale(&self, world_epoch: u64) -> bool {
        self.epoch != world_epoch && !self.completed.is_empty()
    }
}

/// Builds a fresh worker core: the first one, and one after every restart.
#[derive(Debug, Clone)]
pub(crate) struct CoreSpec {
    model: Model,
    settings: QueueSettings,
    air: AirBudget,
    delay: Duration,
}

impl CoreSpec {
    pub fn new(model: Model, settings: QueueSettings, air: AirBudget, delay: Duration) -> Self {
        Self {
            model,
            settings,
            air,
            delay,
        }
    }

    fn build(&self) -> WorkerCore {
        WorkerCore::new(self.model.clone(), self.settings, self.air, self.delay)
    }
}

/// Injected panics still to happen (fault-injection hook, shared with the worker thread).
type Faults = Arc<AtomicUsize>;

/// Consumes one injected panic, if any is pending.
fn take_fault(faults: &Faults) -> bool {
    faults
        .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1))
        .is_ok()
}

/// The worker's state; runs on the worker thread or inline.
#[derive(Debug)]
pub(crate) struct WorkerCore {
    evaluator: Evaluator<Model>,
    outstanding: BTreeSet<u64>,
    /// The request and mode of every job the host waits for (the air stage's input).
    requests: BTreeMap<u64, (SoundRequest, Mode)>,
    air: AirStage,
    delay: Duration,
}

impl WorkerCore {
    pub fn new(model: Model, settings: QueueSettings, air: AirBudget, delay: Duration) -> Self {
        Self {
            evaluator: Evaluator::new(model, settings),
            outstanding: BTreeSet::new(),
            requests: BTreeMap::new(),
            air: AirStage::new(air),
            delay,
        }
    }

    fn absorb(&mut self, msg: &TickMsg) {
        if !msg.changes.is_empty() {
            self.evaluator.world_changed(&msg.changes);
            self.air.on_changes(&msg.changes);
        }
        for id in &msg.cancel {
            self.outstanding.remove(id);
            self.requests.remove(id);
            self.air.forget(*id);
        }
        for job in &msg.jobs {
            // Requests were validated by the host; an invalid one is simply not queued.
            if self.evaluator.enqueue(*job).is_ok() {
                self.outstanding.insert(job.id);
                self.requests.insert(job.id, (job.request, job.mode));
            }
        }
    }

    /// Air paths for the tick's finished jobs (own model only: SPR stays as SPR computes it).
    fn air_stage(
        &mut self,
        probe: &dyn WorldProbe,
        tick: u64,
        c: &mut Completed,
        now: &mut AirTick,
    ) -> AirOutcome {
        let none = AirOutcome {
            direct: None,
            retry: false,
        };
        if !matches!(self.evaluator.model(), Model::Own(_)) {
            return none;
        }
        let Some((request, mode)) = self.requests.remove(&c.id) else {
            return none;
        };
        if mode == Mode::Off {
            return none;
        }
        self.air
            .apply(probe, tick, c.id, &request, &mut c.result, now)
    }

    /// Runs one tick over one or more messages (a late worker catches up on the newest
    /// snapshot with every message's changes and jobs).
    pub fn run(&mut self, msgs: &[TickMsg]) -> TickReply {
        if !self.delay.is_zero() {
            std::thread::sleep(self.delay);
        }
        let started = clock();
        for m in msgs {
            self.absorb(m);
        }
        let Some(last) = msgs.last() else {
            return TickReply::default();
        };
        let report = self.evaluator.run_tick(&last.snapshot);
        let mut reply = TickReply {
            tick: last.tick,
            epoch: WorldProbe::epoch(&last.snapshot),
            occlusion_cells: report.occlusion_cells,
            echo_cells: report.echo_cells,
            discarded: report.discarded,
            queued: report.queued,
            stats: self.evaluator.stats(),
            ..TickReply::default()
        };
        let mut now = self.air.tick();
        for mut c in report.completed {
            if self.outstanding.remove(&c.id) {
                let air = self.air_stage(&last.snapshot, last.tick, &mut c, &mut now);
                reply.completed.push(Done { job: c, air });
            } else {
                reply.discarded += 1;
            }
        }
        reply.air = now.count;
        reply.wall = started.map_or(Duration::ZERO, |t| t.elapsed());
        reply
    }
}

/// Now, for the tick's wall-clock telemetry; `None` on `wasm32-unknown-unknown`, whose std has
/// no clock (`Instant::now` panics there): the tick's time then reads zero.
fn clock() -> Option<Instant> {
    if cfg!(all(target_arch = "wasm32", target_os = "unknown")) {
        None
    } else {
        Some(Instant::now())
    }
}

/// The host's end: a thread or the inline core, plus what it needs to restart after a panic.
#[derive(Debug)]
pub(crate) struct WorkerLink {
    spec: CoreSpec,
    faults: Faults,
    /// Restarts not yet reported to the engine.
    restarts: u64,
    kind: LinkKind,
}

#[derive(Debug)]
enum LinkKind {
    /// A worker thread.
    Thread {
        tx: Option<Sender<TickMsg>>,
        rx: Receiver<TickReply>,
        handle: Option<JoinHandle<()>>,
        /// Messages sent whose reply has not been received.
        in_flight: usize,
    },
    /// Ticks run on the calling thread.
    Inline {
        core: Box<WorkerCore>,
        replies: Vec<TickReply>,
    },
}

/// Starts a worker thread running a fresh core.
fn spawn(spec: &CoreSpec, faults: &Faults) -> std::io::Result<LinkKind> {
    let (tx, work) = crossbeam_channel::unbounded::<TickMsg>();
    let (done, rx) = crossbeam_channel::unbounded::<TickReply>();
    let core = spec.build();
    let faults = Arc::clone(faults);
    let handle = std::thread::Builder::new()
        .name("resound-acoustics".to_owned())
        .spawn(move || worker_loop(core, &work, &done, &faults))?;
    Ok(LinkKind::Thread {
        tx: Some(tx),
        rx,
        handle: Some(handle),
        in_flight: 0,
    })
}

impl WorkerLink {
    pub fn start(spec: CoreSpec, inline: bool) -> std::io::Result<Self> {
        let faults = Faults::default();
        let kind = if inline {
            LinkKind::Inline {
                core: Box::new(spec.build()),
                replies: Vec::new(),
            }
        } else {
            spawn(&spec, &faults)?
        };
        Ok(Self {
            spec,
            faults,
            restarts: 0,
            kind,
        })
    }

    /// Fault injection: the worker panics at the start of its next tick.
    pub fn inject_panic(&self) {
        self.faults.fetch_add(1, Ordering::AcqRel);
    }

    /// Restarts since the last call (the engine re-sends its jobs and counts them).
    pub fn take_restarts(&mut self) -> u64 {
        std::mem::take(&mut self.restarts)
    }

    /// Ticks sent and not answered.
    pub fn in_flight(&self) -> usize {
        match &self.kind {
            LinkKind::Thread { in_flight, .. } => *in_flight,
            LinkKind::Inline { .. } => 0,
        }
    }

    /// The thread has died: join it and start a fresh one. Err only if no thread can be
    /// started (the engine then reports the worker gone).
    fn restart(&mut self) -> Result<(), ()> {
        if let LinkKind::Thread { tx, handle, .. } = &mut self.kind {
            drop(tx.take());
            if let Some(h) = handle.take() {
                // The panic payload is dropped: the restart is the report.
                let _ = h.join();
            }
        }
        self.restarts += 1;
        self.kind = spawn(&self.spec, &self.faults).map_err(|_| ())?;
        Ok(())
    }

    /// Sends a tick (restarting a dead worker first); false if no worker can be started.
    pub fn send(&mut self, msg: TickMsg) -> bool {
        match &mut self.kind {
            LinkKind::Thread { tx, in_flight, .. } => {
                let msg = match tx.as_ref().map(|t| t.send(msg)) {
                    Some(Ok(())) => {
                        *in_flight += 1;
                        return true;
                    }
                    Some(Err(crossbeam_channel::SendError(msg))) => msg,
                    None => return false,
                };
                if self.restart().is_err() {
                    return false;
                }
                self.send(msg)
            }
            LinkKind::Inline { core, replies } => {
                let faults = &self.faults;
                let run = catch_unwind(AssertUnwindSafe(|| {
                    if take_fault(faults) {
                        panic!("injected acoustic worker fault");
                    }
                    core.run(std::slice::from_ref(&msg))
                }));
                match run {
                    Ok(r) => replies.push(r),
                    Err(_) => {
                        **core = self.spec.build();
                        self.restarts += 1;
                    }
                }
                true
            }
        }
    }

    /// Replies that are ready (never waits). A dead worker is restarted (its replies lost).
    pub fn try_replies(&mut self) -> Result<Vec<TickReply>, ()> {
        let mut out = Vec::new();
        match &mut self.kind {
            LinkKind::Thread { rx, in_flight, .. } => loop {
                match rx.try_recv() {
                    Ok(r) => {
                        *in_flight = in_flight.saturating_sub(1);
                        out.push(r);
                    }
                    Err(crossbeam_channel::TryRecvError::Empty) => return Ok(out),
                    Err(crossbeam_channel::TryRecvError::Disconnected) => {
                        self.restart()?;
                        return Ok(out);
                    }
                }
            },
            LinkKind::Inline { replies, .. } => Ok(std::mem::take(replies)),
        }
    }

    /// Waits until every sent tick has replied and returns the replies. A worker that dies
    /// meanwhile is restarted and the replies it owed are lost.
    pub fn wait_all(&mut self) -> Result<Vec<TickReply>, ()> {
        let mut out = Vec::new();
        match &mut self.kind {
            LinkKind::Thread { rx, in_flight, .. } => {
                while *in_flight > 0 {
                    match rx.recv() {
                        Ok(r) => {
                            *in_flight -= 1;
                            out.push(r);
                        }
                        Err(_) => {
                            *in_flight = 0;
                            self.restart()?;
                            return Ok(out);
                        }
                    }
                }
                Ok(out)
            }
            LinkKind::Inline { replies, .. } => Ok(std::mem::take(replies)),
        }
    }
}

impl Drop for WorkerLink {
    fn drop(&mut self) {
        if let LinkKind::Thread { tx, handle, .. } = &mut self.kind {
            drop(tx.take());
            if let Some(h) = handle.take() {
                // A panicked worker has already been restarted or reported.
                let _ = h.join();
            }
        }
    }
}

fn worker_loop(
    mut core: WorkerCore,
    work: &Receiver<TickMsg>,
    done: &Sender<TickReply>,
    faults: &Faults,
) {
    while let Ok(first) = work.recv() {
        let mut msgs = vec![first];
        while let Ok(more) = work.try_recv() {
            msgs.push(more);
        }
        if take_fault(faults) {
            panic!("injected acoustic worker fault");
        }
        // One reply per message keeps the host's in-flight count exact; the tick's results
        // ride on the last one.
        let n = msgs.len();
        let reply = core.run(&msgs);
        for m in &msgs[..n - 1] {
            let empty = TickReply {
                tick: m.tick,
                epoch: reply.epoch,
                stats: reply.stats,
                queued: reply.queued,
                ..TickReply::default()
            };
            if done.send(empty).is_err() {
                return;
            }
        }
        if done.send(reply).is_err() {
            return;
        }
    }
}
