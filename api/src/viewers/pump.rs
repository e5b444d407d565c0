//! What feeds a viewer's stream. Unlike a GM's stream it does not forward the hub's frames:
//! each live event only wakes it, and it reads the log after the last event it looked at
//! together with the encounter's current state, so every event is judged against who is
//! hidden or public now (see `redact.rs`). Withheld events are skipped but counted as seen, so
//! `Last-Event-ID` resumes correctly. A revoked or expired link ends its streams: at once on a
//! revoke in this process, otherwise at the next event or heartbeat.

use super::ViewerGrants;
use super::redact::{Visibility, viewer_event};
use crate::live::{HEARTBEAT, REPLAY_PAGE, StreamPermit, Subscription};
use actix_web::web::{self, Bytes};
use skirmish_db::{Store, StoredEvent, ViewerGrant};
use skirmish_domain::encounter::EncounterId;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::{mpsc, watch};
use tokio::time::{Instant, MissedTickBehavior, interval_at};

pub struct ViewerPump {
    pub store: Store,
    pub grant: ViewerGrant,
    pub grants: Arc<ViewerGrants>,
    pub revocations: watch::Receiver<u64>,
    /// The last event looked at (sent or withheld).
    pub last: i64,
    pub subscription: Subscription,
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
                live = self.subscription.recv() => self.on_live(live).await,
            };
            if let Err(end) = step {
                return end;
            }
        }
    }

    fn check_grant(&self) -> Result<(), End> {
        if self.grants.still_valid(&self.grant.viewer_id) { Ok(()) } else { Err(End::Revoked) }
    }

    async fn on_live(&mut self, live: Result<crate::live::LiveEvent, RecvError>) -> Result<(), End> {
        match live {
            Ok(live) if live.seq <= self.last => Ok(()),
            // Falling behind the hub costs nothing here: the log is read anyway.
            Ok(_) | Err(RecvError::Lagged(_)) => {
                let page = self.read_after_last().await?;
                self.send_pages(page).await
            }
            Err(RecvError::Closed) => Err(End::Deleted),
        }
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
                    self.send(viewer_frame(&seen, self.named)).await?;
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

/// The event as an SSE frame for a viewer.
fn viewer_frame(event: &crate::wire::ViewerEventResponse, named: bool) -> Bytes {
    let data = serde_json::to_string(event).unwrap_or_else(|_| format!("{{\"seq\":{}}}", event.seq));
    let name = match named {
        true => format!("event: {}\n", event.kind.replace(['\r', '\n'], " ")),
        false => String::new(),
    };
    Bytes::from(format!("id: {}\n{name}data: {data}\n\n", event.seq))
}
