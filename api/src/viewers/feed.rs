//! What every viewer stream of one encounter is fed: the log's new events as a viewer sees them,
//! read and rendered once per wave of live events, not once per stream. What a viewer sees
//! depends only on the encounter (who is hidden, who is public), so one feed serves all of the
//! encounter's viewer streams: it wakes on the hub's live events, reads the log after the last
//! event it looked at together with the encounter's state (one read), redacts and renders each
//! event once in both forms (with and without an `event:` line, see `wave.rs`), and hands the
//! wave to its streams through one [`WaveChannel`] (which wakes them a batch at a time); the
//! changes of a short window ([`GATHER`]) make one wave. A feed exists while it has streams, and
//! ends with its encounter.

use super::channel::{Follower, WaveChannel};
use super::redact::viewer_event;
use super::wave::render;
use crate::live::{Hub, LiveEvent, REPLAY_PAGE, Subscription};
use skirmish_db::Store;
use skirmish_domain::encounter::EncounterId;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use tokio::sync::broadcast::error::RecvError;

/// How long a feed gathers after a live event before it reads: the changes committed meanwhile
/// go out as one wave, so each stream is woken and written to once per window rather than once
/// per change (a viewer sees an event at most this much later than a GM's stream).
const GATHER: std::time::Duration = std::time::Duration::from_millis(25);

/// The encounters' feeds, by encounter id.
#[derive(Default)]
pub struct ViewerFeeds {
    feeds: Mutex<HashMap<String, Arc<WaveChannel>>>,
}

impl ViewerFeeds {
    fn lock(&self) -> MutexGuard<'_, HashMap<String, Arc<WaveChannel>>> {
        self.feeds.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The waves of `encounter` from now on (its feed started if it has none).
    pub fn subscribe(
        self: &Arc<Self>,
        hub: &Arc<Hub>,
        store: &Store,
        tenant: &str,
        encounter: &str,
    ) -> Follower {
        let mut feeds = self.lock();
        if let Some(channel) = feeds.get(encounter) {
            return channel.follow();
        }
        let channel = Arc::new(WaveChannel::default());
        let follower = channel.follow();
        feeds.insert(encounter.to_owned(), channel.clone());
        let feed = Feed {
            feeds: self.clone(),
            store: store.clone(),
            tenant: tenant.to_owned(),
            encounter: EncounterId(encounter.to_owned()),
            live: hub.subscribe(encounter),
            channel,
            last: None,
        };
        actix_web::rt::spawn(feed.run());
        follower
    }

    /// Encounters with a feed now (for tests).
    pub fn feed_count(&self) -> usize {
        self.lock().len()
    }
}

struct Feed {
    feeds: Arc<ViewerFeeds>,
    store: Store,
    tenant: String,
    encounter: EncounterId,
    live: Subscription,
    channel: Arc<WaveChannel>,
    /// The last event looked at; unknown until the first live event.
    last: Option<i64>,
}

impl Feed {
    async fn run(mut self) {
        loop {
            let heard = tokio::select! {
                () = self.channel.idle() => None,
                live = self.live.recv() => Some(live),
            };
            let first = match heard {
                None => match self.leave_if_idle() {
                    true => return,
                    false => continue,
                },
                Some(Err(RecvError::Closed)) => break,
                Some(Ok(LiveEvent { seq, .. })) if self.last.is_some_and(|last| seq <= last) => continue,
                Some(Ok(LiveEvent { seq, .. })) => seq,
                Some(Err(RecvError::Lagged(_))) => self.last.map_or(1, |last| last + 1),
            };
            tokio::time::sleep(GATHER).await;
            match self.wave(first).await {
                Ok(true) => {}
                Ok(false) => break,
                Err(error) => {
                    log::error!("the viewer feed of {} cannot read the log: {error}", self.encounter.as_str())
                }
            }
            if self.leave_if_idle() {
                return;
            }
        }
        // The encounter is gone: its viewer streams end.
        self.forget(&mut self.feeds.lock());
        self.channel.end().await;
    }

    /// Removes the feed if no stream follows it any more, under the lock streams subscribe
    /// under (so none can join a feed that is ending). Whether it did.
    fn leave_if_idle(&self) -> bool {
        let mut feeds = self.feeds.lock();
        if self.channel.followers() > 0 {
            return false;
        }
        self.forget(&mut feeds);
        true
    }

    /// Removes the feed, so that a stream opened from now on starts another.
    fn forget(&self, feeds: &mut HashMap<String, Arc<WaveChannel>>) {
        if feeds.get(self.encounter.as_str()).is_some_and(|channel| Arc::ptr_eq(channel, &self.channel)) {
            feeds.remove(self.encounter.as_str());
        }
    }

    /// Reads, renders and broadcasts the events after the last one looked at (or, the first
    /// time, from `first`, the first live event heard). `false` when the encounter is gone.
    async fn wave(&mut self, first: i64) -> Result<bool, String> {
        loop {
            let after = self.last.unwrap_or(first - 1);
            let (store, tenant, id) = (self.store.clone(), self.tenant.clone(), self.encounter.clone());
            let Some((events, visibility)) = super::read_page(store, tenant, id, after).await? else {
                return Ok(false);
            };
            let full = events.len() as i64 >= REPLAY_PAGE;
            let Some(last) = events.last().map(|event| event.seq) else { return Ok(true) };
            let wave = render(after, last, events, |event| viewer_event(&visibility, event));
            self.last = Some(last);
            self.channel.send(Arc::new(wave)).await;
            if !full {
                return Ok(true);
            }
        }
    }
}
