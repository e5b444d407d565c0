//! One broadcast channel per encounter that somebody streams: the store tells the hub of each
//! committed change, and the hub passes every event (rendered once as an SSE frame) to that
//! encounter's subscribers. A channel exists only while it has subscribers.

use super::frames::event_frame;
use actix_web::web::Bytes;
use skirmish_db::{EventSink, StoredEvent};
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use tokio::sync::broadcast;

/// A committed event: its place in the log and its frame, ready to send.
#[derive(Debug, Clone)]
pub struct LiveEvent {
    pub seq: i64,
    pub frame: Bytes,
}

pub struct Hub {
    channels: Mutex<HashMap<String, broadcast::Sender<LiveEvent>>>,
    /// Events a subscriber may fall behind before it hears that it lagged.
    capacity: usize,
}

impl Hub {
    pub fn new(capacity: usize) -> Self {
        Self { channels: Mutex::default(), capacity: capacity.max(1) }
    }

    fn channels(&self) -> MutexGuard<'_, HashMap<String, broadcast::Sender<LiveEvent>>> {
        self.channels.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Every event committed to `encounter` from now on.
    pub fn subscribe(self: &Arc<Self>, encounter: &str) -> Subscription {
        let mut channels = self.channels();
        let sender =
            channels.entry(encounter.to_owned()).or_insert_with(|| broadcast::channel(self.capacity).0);
        let receiver = sender.subscribe();
        Subscription {
            receiver: Some(receiver),
            held: VecDeque::new(),
            hub: self.clone(),
            encounter: encounter.to_owned(),
        }
    }

    /// Encounters with a channel now (for tests and diagnostics).
    pub fn channel_count(&self) -> usize {
        self.channels().len()
    }
}

impl EventSink for Hub {
    fn listens(&self, encounter: &str) -> bool {
        self.channels().contains_key(encounter)
    }

    fn committed(&self, encounter: &str, events: &[StoredEvent]) {
        let Some(sender) = self.channels().get(encounter).cloned() else { return };
        for event in events {
            let live = LiveEvent { seq: event.seq, frame: event_frame(event.clone()) };
            // No receiver left is not an error: the last one went away meanwhile.
            let _ = sender.send(live);
        }
    }

    /// Closes the encounter's streams: their receivers see the channel closed.
    fn deleted(&self, encounter: &str) {
        self.channels().remove(encounter);
    }
}

/// A stream's place in its encounter's channel; dropping it leaves, and the last to leave
/// removes the channel.
pub struct Subscription {
    receiver: Option<broadcast::Receiver<LiveEvent>>,
    /// Events taken off the channel while the stream waited for its client (see [`Self::hold_next`]).
    held: VecDeque<LiveEvent>,
    hub: Arc<Hub>,
    encounter: String,
}

impl Subscription {
    /// The next live event; `Lagged` when more than the capacity went by unread, `Closed` when
    /// the encounter was deleted.
    pub async fn recv(&mut self) -> Result<LiveEvent, broadcast::error::RecvError> {
        if let Some(held) = self.held.pop_front() {
            return Ok(held);
        }
        match &mut self.receiver {
            Some(receiver) => receiver.recv().await,
            None => Err(broadcast::error::RecvError::Closed),
        }
    }
}

impl Subscription {
    /// Waits for the next live event and holds it for a later [`Self::recv`]: what a stream
    /// does while its client is not reading, so that falling behind is noticed then and not
    /// only once the client reads again. `Lagged` once more than the hub's capacity is held
    /// (or went by unread), `Closed` when the encounter was deleted.
    pub async fn hold_next(&mut self) -> Result<(), broadcast::error::RecvError> {
        let Some(receiver) = &mut self.receiver else { return Err(broadcast::error::RecvError::Closed) };
        let live = receiver.recv().await?;
        self.held.push_back(live);
        if self.held.len() > self.hub.capacity {
            return Err(broadcast::error::RecvError::Lagged(self.held.len() as u64));
        }
        Ok(())
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        let mut channels = self.hub.channels();
        self.receiver.take();
        if channels.get(&self.encounter).is_some_and(|sender| sender.receiver_count() == 0) {
            channels.remove(&self.encounter);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn stored(seq: i64) -> StoredEvent {
        let data = json!({"kind": "round_started", "round": seq, "summary": format!("Round {seq}")});
        StoredEvent { seq, kind: "round_started".into(), data, created_at: "2026-11-24T00:00:00.000Z".into() }
    }

    #[tokio::test]
    async fn a_subscriber_hears_committed_events_in_order_and_the_last_to_leave_removes_the_channel() {
        let hub = Arc::new(Hub::new(8));
        let mut first = hub.subscribe("enc_a");
        let second = hub.subscribe("enc_a");

        hub.committed("enc_a", &[stored(1), stored(2)]);
        hub.committed("enc_b", &[stored(1)]);

        assert_eq!(first.recv().await.unwrap().seq, 1);
        assert_eq!(first.recv().await.unwrap().seq, 2);
        assert!(hub.listens("enc_a") && !hub.listens("enc_b"));
        drop(first);
        assert_eq!(hub.channel_count(), 1, "one subscriber is left");
        drop(second);
        assert_eq!(hub.channel_count(), 0);
    }

    #[tokio::test]
    async fn a_subscriber_that_falls_behind_the_buffer_hears_that_it_lagged() {
        let hub = Arc::new(Hub::new(2));
        let mut slow = hub.subscribe("enc_a");

        hub.committed("enc_a", &[stored(1), stored(2), stored(3)]);

        assert_eq!(slow.recv().await.unwrap_err(), broadcast::error::RecvError::Lagged(1));
    }

    #[tokio::test]
    async fn events_held_while_the_client_is_slow_come_first_and_count_against_the_buffer() {
        let hub = Arc::new(Hub::new(2));
        let mut slow = hub.subscribe("enc_a");

        hub.committed("enc_a", &[stored(1), stored(2)]);
        let held = [slow.hold_next().await, slow.hold_next().await];
        hub.committed("enc_a", &[stored(3)]);
        let third = slow.hold_next().await;

        assert_eq!(held, [Ok(()), Ok(())]);
        assert_eq!(third, Err(broadcast::error::RecvError::Lagged(3)), "a third held is beyond the buffer");
        assert_eq!(slow.recv().await.unwrap().seq, 1, "held events come first, in order");
    }

    #[tokio::test]
    async fn deleting_the_encounter_closes_its_streams() {
        let hub = Arc::new(Hub::new(2));
        let mut reader = hub.subscribe("enc_a");

        hub.deleted("enc_a");

        assert_eq!(reader.recv().await.unwrap_err(), broadcast::error::RecvError::Closed);
    }
}
