//! A viewer's stream, as the response body itself: the log after `Last-Event-ID`, read with the
//! encounter's current state so that every event is judged against who is hidden or public now
//! (see `redact.rs`), then the encounter's viewer feed (`feed.rs`), which reads and renders each
//! wave of live events once for all its viewer streams. The body has no task of its own: actix
//! polls it when the connection can take more, and it looks, in turn, at a log read under way,
//! its revocation watch, its heartbeat and the feed's next wave (`channel.rs`), so a wave costs
//! a stream one wake and one write. A stream only reads the log itself to catch up: when it
//! joins a feed past its last event, or falls more than the feed's buffer behind. Withheld
//! events are skipped but counted as seen, so `Last-Event-ID` resumes correctly. A revoked or
//! expired link ends its streams: at once on a revoke in this process, otherwise at the next
//! event or heartbeat. A client that leaves drops the body, and with it the stream's place.

use super::ViewerGrants;
use super::channel::{Follower, Polled};
use super::redact::{Visibility, viewer_event};
use super::wave::{ViewerWave, viewer_frame};
use crate::live::{HEARTBEAT, REPLAY_PAGE, StreamPermit};
use actix_web::body::{BodySize, MessageBody};
use actix_web::web::{self, Bytes, BytesMut};
use skirmish_db::{Store, StoredEvent, ViewerGrant};
use skirmish_domain::encounter::EncounterId;
use std::collections::VecDeque;
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::sync::watch;
use tokio::time::{Instant, Interval, MissedTickBehavior, interval_at};

/// What a viewer stream starts from.
pub struct ViewerStreamStart {
    pub store: Store,
    pub grant: ViewerGrant,
    pub grants: Arc<ViewerGrants>,
    pub revocations: watch::Receiver<u64>,
    /// The last event the client has (`Last-Event-ID`).
    pub last: i64,
    /// The encounter's viewer feed, followed since before the first page was read.
    pub feed: Follower,
    pub permit: StreamPermit,
    pub heartbeat: Duration,
    /// Name each event by its kind (`event:`), as a GM's stream does; without it every event is
    /// an SSE `message`, which an `EventSource`'s `onmessage` receives whatever its kind.
    pub named: bool,
}

/// Why a viewer stream ends (the client leaving drops it instead).
#[derive(Debug)]
enum End {
    Revoked,
    Deleted,
    LogUnreadable(String),
}

/// A page of the log and the encounter's state when it was read.
pub type Page = (Vec<StoredEvent>, Visibility);

type Reading = Pin<Box<dyn Future<Output = Result<Option<Page>, String>>>>;
type Watching = Pin<Box<dyn Future<Output = Option<watch::Receiver<u64>>>>>;

pub struct ViewerStream {
    store: Store,
    grant: ViewerGrant,
    grants: Arc<ViewerGrants>,
    /// The next revoke in this process.
    revoke: Watching,
    /// The last event looked at (sent or withheld).
    last: i64,
    feed: Follower,
    ticks: Interval,
    named: bool,
    /// Frames ready to go, in order.
    ready: VecDeque<Bytes>,
    /// A log read under way, and the wave that waits for it (already caught up to).
    reading: Option<Reading>,
    held: Option<Arc<ViewerWave>>,
    ended: bool,
    _permit: StreamPermit,
}

fn watch_revocations(mut revocations: watch::Receiver<u64>) -> Watching {
    Box::pin(async move { revocations.changed().await.ok().map(|()| revocations) })
}

impl ViewerStream {
    /// The stream of `start`, beginning with `first` (the page of the log already read).
    pub fn new(start: ViewerStreamStart, first: Page) -> Self {
        let mut ticks = interval_at(Instant::now() + start.heartbeat, start.heartbeat);
        ticks.set_missed_tick_behavior(MissedTickBehavior::Delay);
        let mut stream = Self {
            store: start.store,
            grant: start.grant,
            grants: start.grants,
            revoke: watch_revocations(start.revocations),
            last: start.last,
            feed: start.feed,
            ticks,
            named: start.named,
            ready: VecDeque::new(),
            reading: None,
            held: None,
            ended: false,
            _permit: start.permit,
        };
        if let Err(end) = stream.take_page(first) {
            stream.finish(end);
        }
        stream
    }

    /// The next frame, or the end.
    fn step(&mut self, cx: &mut Context<'_>) -> Poll<Result<Bytes, End>> {
        loop {
            if let Some(frame) = self.ready.pop_front() {
                return Poll::Ready(Ok(frame));
            }
            if let Some(reading) = self.reading.as_mut() {
                let page = std::task::ready!(reading.as_mut().poll(cx));
                self.reading = None;
                self.take_page(page.map_err(End::LogUnreadable)?.ok_or(End::Deleted)?)?;
                continue;
            }
            if let Some(wave) = self.held.take() {
                self.take_wave(&wave, true)?;
                continue;
            }
            if let Poll::Ready(revocations) = self.revoke.as_mut().poll(cx) {
                self.revoke = watch_revocations(revocations.ok_or(End::Revoked)?);
                self.check_grant()?;
                continue;
            }
            if self.ticks.poll_tick(cx).is_ready() {
                self.check_grant()?;
                return Poll::Ready(Ok(Bytes::from_static(HEARTBEAT.as_bytes())));
            }
            match std::task::ready!(self.feed.poll_wave(cx)) {
                Polled::Wave(wave) => self.take_wave(&wave, false)?,
                // Fallen behind the feed: the log has everything.
                Polled::Lagged => self.start_read(),
                Polled::Ended => return Poll::Ready(Err(End::Deleted)),
            }
        }
    }

    fn check_grant(&self) -> Result<(), End> {
        if self.grants.still_valid(&self.grant.viewer_id) { Ok(()) } else { Err(End::Revoked) }
    }

    /// Queues what `wave` holds after the last event looked at; first the log's gap if it starts
    /// past it (unless `caught_up`: the log was read for it already).
    fn take_wave(&mut self, wave: &Arc<ViewerWave>, caught_up: bool) -> Result<(), End> {
        if wave.last <= self.last {
            return Ok(());
        }
        if wave.after > self.last && !caught_up {
            // Joined the feed past this stream's last event: the gap from the log first.
            self.held = Some(wave.clone());
            self.start_read();
            return Ok(());
        }
        self.check_grant()?;
        if wave.after == self.last {
            self.queue(wave.frames(self.named).clone());
        } else {
            let mut frames = BytesMut::new();
            for (_, shown) in wave.events.iter().filter(|(seq, _)| *seq > self.last) {
                if let Some((named, plain)) = shown {
                    frames.extend_from_slice(if self.named { named } else { plain });
                }
            }
            self.queue(frames.freeze());
        }
        self.last = self.last.max(wave.last);
        Ok(())
    }

    /// Queues what a viewer may see of `page`, and reads the next page if it was full.
    fn take_page(&mut self, (events, visibility): Page) -> Result<(), End> {
        self.check_grant()?;
        let full = events.len() as i64 >= REPLAY_PAGE;
        let mut frames = BytesMut::new();
        for event in events {
            let seq = event.seq;
            if seq <= self.last {
                continue;
            }
            if let Some(seen) = viewer_event(&visibility, event) {
                frames.extend_from_slice(viewer_frame(&seen, self.named).as_bytes());
            }
            self.last = seq;
        }
        self.queue(frames.freeze());
        if full {
            self.start_read();
        }
        Ok(())
    }

    fn queue(&mut self, frames: Bytes) {
        if !frames.is_empty() {
            self.ready.push_back(frames);
        }
    }

    /// Starts reading the log after the last event looked at.
    fn start_read(&mut self) {
        let encounter = EncounterId(self.grant.encounter_id.clone());
        let read = read_page(self.store.clone(), self.grant.tenant.clone(), encounter, self.last);
        self.reading = Some(Box::pin(read));
    }

    fn finish(&mut self, end: End) {
        self.ended = true;
        self.ready.clear();
        let id = &self.grant.encounter_id;
        match end {
            End::LogUnreadable(error) => log::error!("a viewer stream of {id} cannot read the log: {error}"),
            other => log::debug!("a viewer stream of {id} ended: {other:?}"),
        }
    }
}

impl MessageBody for ViewerStream {
    type Error = Infallible;

    fn size(&self) -> BodySize {
        BodySize::Stream
    }

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Bytes, Infallible>>> {
        let stream = self.get_mut();
        if stream.ended {
            return Poll::Ready(None);
        }
        match stream.step(cx) {
            Poll::Ready(Ok(frame)) => Poll::Ready(Some(Ok(frame))),
            Poll::Ready(Err(end)) => {
                stream.finish(end);
                Poll::Ready(None)
            }
            Poll::Pending => Poll::Pending,
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
