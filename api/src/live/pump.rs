//! What feeds one stream: the events missed since `Last-Event-ID`, read from the log, then the
//! live ones as they are committed, each exactly once and in order, with a heartbeat while idle.
//!
//! The subscription is taken before the log is read, so nothing committed in between is lost;
//! a live event already sent from the log is skipped; and a live event that arrives ahead of one
//! not yet seen (changes committed together are told in any order) sends the gap from the log
//! first — everything before a told event is committed by then. A stream that falls further
//! behind than the hub's buffer is closed; its client resumes with `Last-Event-ID`. That holds
//! for a client that stops reading too: while a frame waits for room, the live events that
//! arrive meanwhile are held (and counted against the buffer), not left unread.

use super::frames::{HEARTBEAT, event_frame};
use super::hub::{LiveEvent, Subscription};
use super::limits::StreamPermit;
use super::revoked::{Revoked, is_revoked};
use actix_web::web::{self, Bytes};
use skirmish_db::{Store, StoredEvent};
use skirmish_domain::encounter::EncounterId;
use std::time::Duration;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::{mpsc, watch};
use tokio::time::{Instant, MissedTickBehavior, interval_at};

/// Events read from the log per query while replaying.
pub const REPLAY_PAGE: i64 = 500;

pub struct Pump {
    pub store: Store,
    pub tenant: String,
    pub encounter: EncounterId,
    /// The last event sent (or known to the client).
    pub last: i64,
    pub subscription: Subscription,
    pub permit: StreamPermit,
    pub heartbeat: Duration,
    pub frames: mpsc::Sender<Bytes>,
    /// The API key the stream was opened with, and which keys are revoked: the stream ends with
    /// its key.
    pub key: std::sync::Arc<str>,
    pub revoked: watch::Receiver<Revoked>,
}

/// Why a stream ends.
enum End {
    ClientLeft,
    KeyRevoked,
    Lagged(u64),
    Deleted,
    LogUnreadable(String),
}

impl Pump {
    /// Sends `first` (the first page of the replay, already read), the rest of the replay, then
    /// live events until the client leaves, the stream lags or the encounter is deleted.
    pub async fn run(mut self, first: Vec<StoredEvent>) {
        let end = match self.replay(first).await {
            Ok(()) => self.follow().await,
            Err(end) => end,
        };
        let id = self.encounter.as_str();
        match end {
            End::ClientLeft => log::debug!("a stream of {id} ended: the client left"),
            End::KeyRevoked => log::info!("a stream of {id} ended: its API key was revoked"),
            End::Deleted => log::debug!("a stream of {id} ended: the encounter was deleted"),
            End::Lagged(missed) => log::info!("a stream of {id} was closed {missed} events behind"),
            End::LogUnreadable(error) => log::error!("a stream of {id} cannot read the log: {error}"),
        }
        drop(self.permit);
    }

    /// Sends `page` and every later page of the log.
    async fn replay(&mut self, mut page: Vec<StoredEvent>) -> Result<(), End> {
        loop {
            let full = page.len() as i64 >= REPLAY_PAGE;
            for event in page {
                self.send_stored(event).await?;
            }
            if !full {
                return Ok(());
            }
            page = self.read_after_last().await?;
        }
    }

    async fn follow(&mut self) -> End {
        let mut ticks = interval_at(Instant::now() + self.heartbeat, self.heartbeat);
        // After a wait on a slow client, one heartbeat, not a burst of the missed ones.
        ticks.set_missed_tick_behavior(MissedTickBehavior::Delay);
        loop {
            let step = tokio::select! {
                () = self.frames.closed() => Err(End::ClientLeft),
                changed = self.revoked.changed() => self.check_key(changed.is_ok()),
                _ = ticks.tick() => self.send(Bytes::from_static(HEARTBEAT.as_bytes())).await,
                live = self.subscription.recv() => self.on_live(live).await,
            };
            if let Err(end) = step {
                return end;
            }
        }
    }

    /// Ends the stream if its key is revoked (or nobody can tell any more).
    fn check_key(&self, watched: bool) -> Result<(), End> {
        if !watched || is_revoked(&self.revoked, &self.key) { Err(End::KeyRevoked) } else { Ok(()) }
    }

    async fn on_live(&mut self, live: Result<LiveEvent, RecvError>) -> Result<(), End> {
        match live {
            Ok(live) if live.seq <= self.last => Ok(()),
            Ok(live) if live.seq == self.last + 1 => {
                self.send(live.frame).await?;
                self.last = live.seq;
                Ok(())
            }
            Ok(_) => {
                let gap = self.read_after_last().await?;
                self.replay(gap).await
            }
            Err(RecvError::Lagged(missed)) => Err(End::Lagged(missed)),
            Err(RecvError::Closed) => Err(End::Deleted),
        }
    }

    async fn send_stored(&mut self, event: StoredEvent) -> Result<(), End> {
        if event.seq <= self.last {
            return Ok(());
        }
        let seq = event.seq;
        self.send(event_frame(event)).await?;
        self.last = seq;
        Ok(())
    }

    /// Sends `frame` once the client has room for it, holding the live events that arrive
    /// meanwhile; ends the stream if they pass the buffer.
    async fn send(&mut self, frame: Bytes) -> Result<(), End> {
        loop {
            tokio::select! {
                biased;
                room = self.frames.reserve() => {
                    room.map_err(|_| End::ClientLeft)?.send(frame);
                    return Ok(());
                }
                changed = self.revoked.changed() => self.check_key(changed.is_ok())?,
                held = self.subscription.hold_next() => match held {
                    Ok(()) => {}
                    Err(RecvError::Lagged(missed)) => return Err(End::Lagged(missed)),
                    Err(RecvError::Closed) => return Err(End::Deleted),
                },
            }
        }
    }

    /// The next page of the log after the last event sent.
    async fn read_after_last(&self) -> Result<Vec<StoredEvent>, End> {
        let (store, tenant, id, after) =
            (self.store.clone(), self.tenant.clone(), self.encounter.clone(), self.last);
        let read = web::block(move || store.events(&tenant, &id, after, REPLAY_PAGE)).await;
        match read {
            Ok(Ok(Some(page))) => Ok(page),
            Ok(Ok(None)) => Err(End::Deleted),
            Ok(Err(error)) => Err(End::LogUnreadable(error.to_string())),
            Err(error) => Err(End::LogUnreadable(error.to_string())),
        }
    }
}
