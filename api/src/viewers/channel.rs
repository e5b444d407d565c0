//! How a feed hands its waves to its viewer streams: the last [`WAVES_BUFFERED`] waves, kept in
//! one place every stream reads from, and the wakers of the streams waiting for the next one.
//!
//! The streams' response bodies poll it themselves (`stream.rs`), so a wave costs each stream one
//! wake and one write, no task of its own. The feed wakes them [`WAKE_BATCH`] at a time and
//! yields between batches: the tokio scheduler polls the sockets before it runs the feed again,
//! so a request of another tenant that arrived meanwhile waits behind one batch of streams,
//! not behind every stream of the encounter (issue 30, item 11).

use super::wave::ViewerWave;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll, Waker};
use tokio::sync::Notify;

/// Waves a viewer stream may fall behind before it reads the log itself.
const WAVES_BUFFERED: usize = 64;

/// Streams woken at a time before the feed lets the scheduler poll the sockets again.
const WAKE_BATCH: usize = 32;

/// What a stream finds when it looks for the next wave.
#[derive(Debug)]
pub enum Polled {
    Wave(Arc<ViewerWave>),
    /// Waves it had not read were dropped: the log has them.
    Lagged,
    /// The encounter is gone.
    Ended,
}

#[derive(Default)]
struct Held {
    /// The last waves sent, oldest first; the first is wave number `sent - waves.len()`.
    waves: VecDeque<Arc<ViewerWave>>,
    sent: u64,
    ended: bool,
    followers: usize,
    next_follower: u64,
    /// The streams waiting for the next wave, by follower number (one waker each).
    waiting: HashMap<u64, Waker>,
}

#[derive(Default)]
pub struct WaveChannel {
    held: Mutex<Held>,
    /// Told when the last follower leaves.
    idle: Notify,
}

impl WaveChannel {
    fn lock(&self) -> MutexGuard<'_, Held> {
        self.held.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A follower of the waves sent from now on.
    pub fn follow(self: &Arc<Self>) -> Follower {
        let mut held = self.lock();
        held.followers += 1;
        held.next_follower += 1;
        Follower { channel: self.clone(), number: held.next_follower, next: held.sent }
    }

    pub fn followers(&self) -> usize {
        self.lock().followers
    }

    /// Returns once no stream follows (possibly at once, or spuriously: check [`Self::followers`]).
    pub async fn idle(&self) {
        let told = self.idle.notified();
        if self.followers() == 0 {
            return;
        }
        told.await;
    }

    /// Sends `wave` to every follower, waking the waiting ones a batch at a time.
    pub async fn send(&self, wave: Arc<ViewerWave>) {
        let waiting = {
            let mut held = self.lock();
            held.waves.push_back(wave);
            if held.waves.len() > WAVES_BUFFERED {
                held.waves.pop_front();
            }
            held.sent += 1;
            std::mem::take(&mut held.waiting)
        };
        wake_in_batches(waiting.into_values().collect()).await;
    }

    /// The encounter is gone: every follower ends.
    pub async fn end(&self) {
        let waiting = {
            let mut held = self.lock();
            held.ended = true;
            std::mem::take(&mut held.waiting)
        };
        wake_in_batches(waiting.into_values().collect()).await;
    }
}

async fn wake_in_batches(wakers: Vec<Waker>) {
    let mut batches = wakers.chunks(WAKE_BATCH).peekable();
    while let Some(batch) = batches.next() {
        batch.iter().for_each(Waker::wake_by_ref);
        if batches.peek().is_some() {
            // Deferred by tokio until it has polled the sockets: what is ready there runs first.
            tokio::task::yield_now().await;
        }
    }
}

/// One stream's place in its feed.
pub struct Follower {
    channel: Arc<WaveChannel>,
    number: u64,
    /// The number of the next wave it reads.
    next: u64,
}

impl Follower {
    /// The next wave; when there is none yet, the caller is woken when there is.
    pub fn poll_wave(&mut self, cx: &Context<'_>) -> Poll<Polled> {
        let mut held = self.channel.lock();
        let oldest = held.sent - held.waves.len() as u64;
        if self.next < oldest {
            self.next = oldest;
            return Poll::Ready(Polled::Lagged);
        }
        if let Some(wave) = usize::try_from(self.next - oldest).ok().and_then(|at| held.waves.get(at)) {
            let wave = wave.clone();
            self.next += 1;
            return Poll::Ready(Polled::Wave(wave));
        }
        if held.ended {
            return Poll::Ready(Polled::Ended);
        }
        match held.waiting.get_mut(&self.number) {
            Some(waker) => waker.clone_from(cx.waker()),
            None => {
                held.waiting.insert(self.number, cx.waker().clone());
            }
        }
        Poll::Pending
    }
}

impl Drop for Follower {
    fn drop(&mut self) {
        let mut held = self.channel.lock();
        held.waiting.remove(&self.number);
        held.followers = held.followers.saturating_sub(1);
        if held.followers == 0 {
            self.channel.idle.notify_one();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::web::Bytes;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::task::Wake;

    struct Count(AtomicUsize);
    impl Wake for Count {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    fn wave(last: i64) -> Arc<ViewerWave> {
        let (named, plain) = (Bytes::new(), Bytes::new());
        Arc::new(ViewerWave { after: last - 1, last, named, plain, events: Vec::new() })
    }

    fn last_of(polled: Poll<Polled>) -> Option<i64> {
        match polled {
            Poll::Ready(Polled::Wave(wave)) => Some(wave.last),
            _ => None,
        }
    }

    #[tokio::test]
    async fn a_follower_reads_each_wave_once_is_woken_once_and_lags_past_the_buffer() {
        let channel = Arc::new(WaveChannel::default());
        let count = Arc::new(Count(AtomicUsize::new(0)));
        let waker = Waker::from(count.clone());
        let cx = Context::from_waker(&waker);
        let (mut early, mut slow) = (channel.follow(), channel.follow());

        assert!(early.poll_wave(&cx).is_pending());
        assert!(early.poll_wave(&cx).is_pending(), "polled twice, one waker kept");
        channel.send(wave(1)).await;
        let first = last_of(early.poll_wave(&cx));
        for seq in 2..=(WAVES_BUFFERED as i64 + 2) {
            channel.send(wave(seq)).await;
        }
        let lagged = slow.poll_wave(&cx);
        let resumed = last_of(slow.poll_wave(&cx));
        drop((early, slow));
        channel.idle().await;

        assert_eq!(count.0.load(Ordering::SeqCst), 1);
        assert_eq!(first, Some(1));
        assert!(matches!(lagged, Poll::Ready(Polled::Lagged)));
        assert_eq!(resumed, Some(3), "the oldest wave still buffered");
        assert_eq!(channel.followers(), 0);
    }
}
