//! What feeds a viewer's stream: the log after `Last-Event-ID`, read with the encounter's current
//! state so that every event is judged against who is hidden or public now (see `redact.rs`),
//! then the encounter's viewer feed (`feed.rs`), which reads and renders each wave of live events
//! once for all its viewer streams. A stream only reads the log itself to catch up: when it joins
//! a feed past its last event, or falls more than the feed's buffer behind. Withheld events are
//! skipped but counted as seen, so `Last-Event-ID` resumes correctly. A revoked or expired link
//! ends its streams: at once on a revoke in this process, otherwise at the next event or
//! heartbeat.

use super::ViewerGrants;
use super::feed::{ViewerWave, viewer_frame};
use super::redact::{Visibility, viewer_event};
use crate::live::{HEARTBEAT, REPLAY_PAGE, StreamPermit};
use actix_web::web::{self, Bytes};
use skirmish_db::{Store, StoredEvent, ViewerGrant};
use skirmish_domain::encounter::EncounterId;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::{broadcast, mpsc, watch};
use tokio::time::{Instant, MissedTickBehavior, interval_at};

pub struct ViewerPump {
    pub store: Store,
    pub grant: ViewerGrant,
    pub grants: Arc<ViewerGrants>,
    pub revocations: watch::Receiver<u64>,
    /// The last event looked at (sent or withheld).
    pub last: i64,
    /// The encounter's viewer feed.
    pub feed: broadcast::Receiver<Arc<ViewerWave>>,
    pub permit: StreamPermit,
    pub heartbeat: Duration,
    pub frames: mpsc::Sender<Bytes>,
    /// Name each event by its kind (`event:`), as a GM's stream does; without it every event is
    /// an SSE `message`, which an `EventSource`'s `onmessage` receives whatever its kind.
    pub named: bool,
}

/// Why a viewer stream ends.
#[derive(Debug)]
enum End {
    ClientLeft,
    Revoked,
    Deleted,
    LogUnreadable(String),
}

/// A page of the log and the encounter's state when it was read.
pub type Page = (Vec<StoredEvent>, Visibility);

impl ViewerPump {
    /// Sends `first` (already read) and the rest of the log, then follows live events.
    pub async fn run(mut self, first: Page) {
        let end = match self.send_pages(first).await {
            Ok(()) => self.follow().await,
            Err(end) => end,
        };
        let id = &self.grant.encounter_id;
        match end {
            End::LogUnreadable(error) => log::error!("a viewer stream of {id} cannot read the log: {error}"),
            other => log::debug!("a viewer stream of {id} ended: {other:?}"),
        }
        drop(self.permit);
    }

    async fn follow(&mut self) -> End {
        let mut ticks = interval_at(Instant::now() + self.heartbeat, self.heartbeat);
        ticks.set_missed_tick_behavior(MissedTickBehavior::Delay);
        loop {
            let step = tokio::select! {
                () = self.frames.closed() => Err(End::ClientLeft),
                changed = self.revocations.changed() => match changed {
                    Ok(()) => self.check_grant(),
                    Err(_) => Err(End::Revoked),
                },
                _ = ticks.tick() => match self.check_grant() {
                    Ok(()) => self.send(Bytes::from_static(HEARTBEAT.as_bytes())).await,
                    Err(end) => Err(end),
                },
                wave = self.feed.recv() => self.on_wave(wave).await,
            };
            if let Err(end) = step {
                return end;
            }
        }
    }

    fn check_grant(&self) -> Result<(), End> {
        if self.grants.still_valid(&self.grant.viewer_id) { Ok(()) } else { Err(End::Revoked) }
    }

    async fn on_wave(&mut self, wave: Result<Arc<ViewerWave>, RecvError>) -> Result<(), End> {
        let wave = match wave {
            Ok(wave) if wave.last <= self.last => return Ok(()),
            Ok(wave) => wave,
            // Fallen behind the feed: the log has everything.
            Err(RecvError::Lagged(_)) => return self.catch_up().await,
            Err(RecvError::Closed) => return Err(End::Deleted),
        };
        if wave.after > self.last {
            // Joined the feed past this stream's last event: the gap from the log first.
            self.catch_up().await?;
        }
        self.check_grant()?;
        if wave.after == self.last {
            let frames = wave.frames(self.named).clone();
            if !frames.is_empty() {
                self.send(frames).await?;
            }
        } else {
            let newer = wave.events.iter().filter(|(seq, _)| *seq > self.last);
            for (_, frames) in newer {
                if let Some((named, plain)) = frames {
                    self.send(if self.named { named.clone() } else { plain.clone() }).await?;
                }
            }
        }
        self.last = self.last.max(wave.last);
        Ok(())
    }

    /// Sends what the log holds after the last event looked at.
    async fn catch_up(&mut self) -> Result<(), End> {
        let page = self.read_after_last().await?;
        self.send_pages(page).await
    }

    /// Sends what a viewer may see of `page` and of every later page of the log.
    async fn send_pages(&mut self, mut page: Page) -> Result<(), End> {
        loop {
            self.check_grant()?;
            let (events, visibility) = page;
            let full = events.len() as i64 >= REPLAY_PAGE;
            for event in events {
                let seq = event.seq;
                if seq <= self.last {
                    continue;
                }
                if let Some(seen) = viewer_event(&visibility, event) {
                    self.send(Bytes::from(viewer_frame(&seen, self.named))).await?;
                }
                self.last = seq;
            }
            if !full {
                return Ok(());
            }
            page = self.read_after_last().await?;
        }
    }

    async fn send(&self, frame: Bytes) -> Result<(), End> {
        self.frames.send(frame).await.map_err(|_| End::ClientLeft)
    }

    async fn read_after_last(&self) -> Result<Page, End> {
        let encounter = EncounterId(self.grant.encounter_id.clone());
        match read_page(self.store.clone(), self.grant.tenant.clone(), encounter, self.last).await {
            Ok(Some(page)) => Ok(page),
            Ok(None) => Err(End::Deleted),
            Err(error) => Err(End::LogUnreadable(error)),
        }
    }
}

/// The events after `after` and the encounter's visibility as it is now; `None` if the
/// encounter is gone.
pub async fn read_page(
    store: Store,
    tenant: String,
    encounter: EncounterId,
    after: i64,
) -> Result<Option<Page>, String> {
    let read = web::block(move || {
        // The state is read after the events, so it is at least as new as they are.
        let Some(events) = store.events(&tenant, &encounter, after, REPLAY_PAGE)? else { return Ok(None) };
        let Some(stored) = store.get(&tenant, &encounter)? else { return Ok(None) };
        Ok::<_, skirmish_db::DbError>(Some((events, Visibility::of(&stored.encounter))))
    })
    .await;
    match read {
        Ok(Ok(page)) => Ok(page),
        Ok(Err(error)) => Err(error.to_string()),
        Err(error) => Err(error.to_string()),
    }
}
