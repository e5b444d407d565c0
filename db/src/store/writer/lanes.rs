//! The queue of changes and the writer threads ("lanes") that take them, each on a connection of
//! its own. SQLite has one lane: one writer, which batches what queued up behind it (see
//! `batch.rs`). PostgreSQL may have several, so that changes to different encounters commit at
//! once (each encounter's row lock keeps its own changes one after another, on any replica);
//! a lane starts, opening its connection, only when a change is queued while every lane running
//! is busy, so a quiet server holds one writer connection and a busy one at most its bound.

use super::Job;
use super::Shared;
use crate::connection::open_writer;
use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex};
use std::thread::{self, JoinHandle};
use std::time::Instant;

/// A job and when it was queued.
pub(super) struct Queued {
    pub(super) at: Instant,
    pub(super) job: Box<dyn Job>,
}

/// The queue the lanes share.
pub(super) struct Lanes {
    state: Mutex<State>,
    /// Wakes an idle lane when a job is queued (or all of them when closing).
    queued: Condvar,
    /// Every lane's thread, joined when the writer is dropped.
    threads: Mutex<Vec<JoinHandle<()>>>,
}

struct State {
    jobs: VecDeque<Queued>,
    /// Lanes started (running, or opening their connection).
    started: usize,
    /// Lanes waiting for a job.
    idle: usize,
    /// Lanes about to take a job: starting, or answering the batch they committed.
    finishing: usize,
    /// Most lanes: the configured bound, lowered to the lanes running if the database refuses
    /// one more connection.
    most: usize,
    /// No more jobs come: lanes end once the queue is empty.
    closed: bool,
}

impl Lanes {
    /// A queue that at most `most` lanes take jobs from (at least one).
    pub(super) fn new(most: usize) -> Self {
        let state = State {
            jobs: VecDeque::new(),
            started: 0,
            idle: 0,
            finishing: 0,
            most: most.max(1),
            closed: false,
        };
        Self { state: Mutex::new(state), queued: Condvar::new(), threads: Mutex::default() }
    }

    /// Starts the first lane on `line`, the connection the writer was opened with.
    pub(super) fn start_first(shared: &Arc<Shared>, line: super::Line) -> std::io::Result<()> {
        {
            let mut state = shared.lanes.state();
            state.started = 1;
            state.finishing = 1;
        }
        let drainer = shared.clone();
        let thread = thread::Builder::new()
            .name("skirmish-writer".into())
            .spawn(move || drainer.drain(&Arc::new(Mutex::new(line))))
            .inspect_err(|_| {
                let mut state = shared.lanes.state();
                state.started = 0;
                state.finishing = 0;
            })?;
        super::lock(&shared.lanes.threads).push(thread);
        Ok(())
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        super::lock(&self.state)
    }

    /// Queues `queued`; wakes an idle lane for it, or starts one more if no lane is idle or
    /// about to be (answering its batch) for each queued job and the bound allows. False if the
    /// writer is closed (the job is dropped unanswered).
    pub(super) fn submit(shared: &Arc<Shared>, queued: Queued) -> bool {
        let mut state = shared.lanes.state();
        if state.closed || state.started == 0 {
            return false;
        }
        state.jobs.push_back(queued);
        if state.idle > 0 {
            shared.lanes.queued.notify_one();
        }
        if state.jobs.len() > state.idle + state.finishing && state.started < state.most {
            state.started += 1;
            state.finishing += 1;
            drop(state);
            Self::start_another(shared);
        }
        true
    }

    /// Starts a lane that opens its own connection first; if it cannot, the bound drops to the
    /// lanes already running (the jobs stay queued for them).
    fn start_another(shared: &Arc<Shared>) {
        let drainer = shared.clone();
        let spawned =
            thread::Builder::new().name("skirmish-writer".into()).spawn(move || {
                match open_writer(&drainer.url) {
                    Ok(connection) => drainer.drain(&Arc::new(Mutex::new(super::Line::new(connection)))),
                    Err(error) => {
                        let mut state = drainer.lanes.state();
                        state.started -= 1;
                        state.finishing -= 1;
                        state.most = state.started.max(1);
                        log::warn!(
                            "cannot open one more writer connection ({error}); keeping {}",
                            state.most
                        );
                    }
                }
            });
        match spawned {
            Ok(thread) => super::lock(&shared.lanes.threads).push(thread),
            Err(error) => {
                let mut state = shared.lanes.state();
                state.started -= 1;
                state.finishing -= 1;
                state.most = state.started.max(1);
                log::warn!("cannot start one more writer thread ({error}); keeping {}", state.most);
            }
        }
    }

    /// The next job, waiting for one; `None` once the writer is closed and the queue empty.
    /// `returning`: the lane is starting, or said it was [`Lanes::finishing`] since it last took
    /// one.
    pub(super) fn take(&self, returning: bool) -> Option<Queued> {
        let mut state = self.state();
        if returning {
            state.finishing -= 1;
        }
        loop {
            if let Some(job) = state.jobs.pop_front() {
                return Some(job);
            }
            if state.closed {
                return None;
            }
            state.idle += 1;
            state = self.queued.wait(state).unwrap_or_else(std::sync::PoisonError::into_inner);
            state.idle -= 1;
        }
    }

    /// A lane committed its batch and is answering it: it takes the next job in a moment, so a
    /// job queued meanwhile needs no new lane.
    pub(super) fn finishing(&self) {
        self.state().finishing += 1;
    }

    /// The next job if one is queued now (to batch it with the one running).
    pub(super) fn try_take(&self) -> Option<Queued> {
        self.state().jobs.pop_front()
    }

    /// Lanes running now (for tests and the log).
    #[cfg(test)]
    pub(super) fn started(&self) -> usize {
        self.state().started
    }

    /// Takes no more jobs: each lane ends once the queue is empty. Joins every lane but the one
    /// calling (the last handle may be dropped by a change running on a lane: that lane ends on
    /// its own).
    pub(super) fn close(&self) {
        self.state().closed = true;
        self.queued.notify_all();
        let threads = std::mem::take(&mut *super::lock(&self.threads));
        for thread in threads {
            if thread.thread().id() != thread::current().id() {
                let _ = thread.join();
            }
        }
    }
}
