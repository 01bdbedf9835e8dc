//! The acoustic worker: one thread running [`resound_acoustics::queue::Evaluator`] (model,
//! caches, priority queue, cell budgets) on copy-on-write world snapshots. The host sends one
//! [`TickMsg`] per tick over a crossbeam channel and receives one [`TickReply`].
//!
//! A job id is the lead voice of an event. The worker forwards a finished job only if the host
//! still waits for it (`outstanding`): a re-trace the evaluator scheduled by itself for a job the
//! host has since replaced or cancelled is dropped and counted as superseded.

use std::collections::BTreeSet;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};
use resound_acoustics::Change;
use resound_acoustics::queue::{Completed, Evaluator, EvaluatorStats, Job, QueueSettings};

use crate::model::Model;

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
    pub completed: Vec<Completed>,
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
}

/// The worker's state; runs on the worker thread or inline.
#[derive(Debug)]
pub(crate) struct WorkerCore {
    evaluator: Evaluator<Model>,
    outstanding: BTreeSet<u64>,
    delay: Duration,
}

impl WorkerCore {
    pub fn new(model: Model, settings: QueueSettings, delay: Duration) -> Self {
        Self {
            evaluator: Evaluator::new(model, settings),
            outstanding: BTreeSet::new(),
            delay,
        }
    }

    fn absorb(&mut self, msg: &TickMsg) {
        if !msg.changes.is_empty() {
            self.evaluator.world_changed(&msg.changes);
        }
        for id in &msg.cancel {
            self.outstanding.remove(id);
        }
        for job in &msg.jobs {
            // Requests were validated by the host; an invalid one is simply not queued.
            if self.evaluator.enqueue(*job).is_ok() {
                self.outstanding.insert(job.id);
            }
        }
    }

    /// Runs one tick over one or more messages (a late worker catches up on the newest
    /// snapshot with every message's changes and jobs).
    pub fn run(&mut self, msgs: &[TickMsg]) -> TickReply {
        if !self.delay.is_zero() {
            std::thread::sleep(self.delay);
        }
        let started = Instant::now();
        for m in msgs {
            self.absorb(m);
        }
        let Some(last) = msgs.last() else {
            return TickReply::default();
        };
        let report = self.evaluator.run_tick(&last.snapshot);
        let mut reply = TickReply {
            tick: last.tick,
            occlusion_cells: report.occlusion_cells,
            echo_cells: report.echo_cells,
            discarded: report.discarded,
            queued: report.queued,
            stats: self.evaluator.stats(),
            ..TickReply::default()
        };
        for c in report.completed {
            if self.outstanding.remove(&c.id) {
                reply.completed.push(c);
            } else {
                reply.discarded += 1;
            }
        }
        reply.wall = started.elapsed();
        reply
    }
}

/// The host's end: a thread or the inline core.
#[derive(Debug)]
pub(crate) enum WorkerLink {
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

impl WorkerLink {
    pub fn start(core: WorkerCore, inline: bool) -> std::io::Result<Self> {
        if inline {
            return Ok(Self::Inline {
                core: Box::new(core),
                replies: Vec::new(),
            });
        }
        let (tx, work) = crossbeam_channel::unbounded::<TickMsg>();
        let (done, rx) = crossbeam_channel::unbounded::<TickReply>();
        let handle = std::thread::Builder::new()
            .name("resound-acoustics".to_owned())
            .spawn(move || worker_loop(core, &work, &done))?;
        Ok(Self::Thread {
            tx: Some(tx),
            rx,
            handle: Some(handle),
            in_flight: 0,
        })
    }

    /// Sends a tick; false if the worker is gone.
    pub fn send(&mut self, msg: TickMsg) -> bool {
        match self {
            Self::Thread { tx, in_flight, .. } => {
                let ok = tx.as_ref().is_some_and(|t| t.send(msg).is_ok());
                if ok {
                    *in_flight += 1;
                }
                ok
            }
            Self::Inline { core, replies } => {
                let r = core.run(std::slice::from_ref(&msg));
                replies.push(r);
                true
            }
        }
    }

    /// Replies that are ready (never waits).
    pub fn try_replies(&mut self) -> Result<Vec<TickReply>, ()> {
        match self {
            Self::Thread { rx, in_flight, .. } => {
                let mut out = Vec::new();
                loop {
                    match rx.try_recv() {
                        Ok(r) => {
                            *in_flight = in_flight.saturating_sub(1);
                            out.push(r);
                        }
                        Err(crossbeam_channel::TryRecvError::Empty) => return Ok(out),
                        Err(crossbeam_channel::TryRecvError::Disconnected) => {
                            return if out.is_empty() { Err(()) } else { Ok(out) };
                        }
                    }
                }
            }
            Self::Inline { replies, .. } => Ok(std::mem::take(replies)),
        }
    }

    /// Waits until every sent tick has replied and returns the replies.
    pub fn wait_all(&mut self) -> Result<Vec<TickReply>, ()> {
        match self {
            Self::Thread { rx, in_flight, .. } => {
                let mut out = Vec::new();
                while *in_flight > 0 {
                    match rx.recv() {
                        Ok(r) => {
                            *in_flight -= 1;
                            out.push(r);
                        }
                        Err(_) => {
                            *in_flight = 0;
                            return Err(());
                        }
                    }
                }
                Ok(out)
            }
            Self::Inline { replies, .. } => Ok(std::mem::take(replies)),
        }
    }
}

impl Drop for WorkerLink {
    fn drop(&mut self) {
        if let Self::Thread { tx, handle, .. } = self {
            drop(tx.take());
            if let Some(h) = handle.take() {
                // A panicked worker has already been reported as `WorkerGone`.
                let _ = h.join();
            }
        }
    }
}

fn worker_loop(mut core: WorkerCore, work: &Receiver<TickMsg>, done: &Sender<TickReply>) {
    while let Ok(first) = work.recv() {
        let mut msgs = vec![first];
        while let Ok(more) = work.try_recv() {
            msgs.push(more);
        }
        // One reply per message keeps the host's in-flight count exact; the tick's results
        // ride on the last one.
        let n = msgs.len();
        let reply = core.run(&msgs);
        for m in &msgs[..n - 1] {
            let empty = TickReply {
                tick: m.tick,
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
