//! WAL checkpoints off the writer thread.
//!
//! SQLite's automatic checkpoint runs inside the commit of whichever connection pushes the WAL
//! past 1000 pages: here always the writer thread, which then copies those pages into the
//! database file and fsyncs it (`synchronous = FULL`) while every queued change waits — the
//! slowest commits under load. So the writer connection has `wal_autocheckpoint = 0` and a
//! checkpointer thread with a connection of its own does the copying instead:
//!
//! - Every [`CHECKPOINT_CHANGES`] committed changes (150: 400–800 WAL frames, a change writes
//!   3–5 pages) the writer wakes the checkpointer, which runs `PRAGMA wal_checkpoint(PASSIVE)`:
//!   it never takes the write lock, so commits go on meanwhile.
//! - SQLite starts the WAL over only once every frame in it is copied, which the checkpointer
//!   never sees under load (the writer appends while it copies). So once a background run found
//!   the WAL at [`RESTART_FRAMES`] frames or more (1000, SQLite's own threshold), the writer
//!   finishes the job after its next commit with a passive checkpoint of its own: it copies only
//!   the frames committed since that run (one fsync of a few pages instead of ~1000 pages), and
//!   its next transaction starts the WAL over.
//! - The bound: if a reader pins an old snapshot, or the disk is too slow for the checkpointer,
//!   the WAL could grow without limit. Once it holds [`WAL_BOUND_FRAMES`] frames (4000, ~16 MB
//!   at 4 KB pages), or [`BOUND_CHANGES`] changes were committed since a checkpoint last ended, the writer runs `PRAGMA wal_checkpoint(TRUNCATE)` itself (waiting for readers
//!   up to the busy timeout), which also gives the grown file's space back.
//!
//! Nothing here touches durability: a checkpoint copies committed frames, and every commit is
//! fsynced in the WAL before it is answered. No timer: an idle server is never woken.

use crate::connection::open_sqlite_writer;
use crate::error::DbError;
use diesel::prelude::*;
use diesel::sql_types::Integer;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender, TrySendError};
use std::thread::{self, JoinHandle};

/// Committed changes between two background checkpoints.
pub(crate) const CHECKPOINT_CHANGES: usize = 150;
/// WAL frames from which the writer finishes a background checkpoint so the WAL starts over.
pub(crate) const RESTART_FRAMES: i64 = 1000;
/// WAL frames past which the writer checkpoints (TRUNCATE) itself.
pub(crate) const WAL_BOUND_FRAMES: i64 = 4000;
/// Changes committed since a checkpoint last ended past which the writer checkpoints (TRUNCATE)
/// itself: the checkpointer is stuck or too slow.
pub(crate) const BOUND_CHANGES: usize = 4 * CHECKPOINT_CHANGES;

/// What `PRAGMA wal_checkpoint` answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, QueryableByName)]
pub(crate) struct Checkpointed {
    /// 1 if the checkpoint could not run (another one was under way, or a lock was busy).
    #[diesel(sql_type = Integer)]
    pub(crate) busy: i32,
    /// Frames in the WAL.
    #[diesel(sql_type = Integer)]
    pub(crate) log: i32,
    /// Frames of the WAL copied into the database file.
    #[diesel(sql_type = Integer)]
    pub(crate) checkpointed: i32,
}

/// Runs `PRAGMA wal_checkpoint(mode)` on `conn`.
pub(crate) fn checkpoint(conn: &mut SqliteConnection, mode: &str) -> Result<Checkpointed, DbError> {
    Ok(diesel::sql_query(format!("PRAGMA wal_checkpoint({mode})")).get_result(conn)?)
}

/// Counts of what the checkpoints did (for tests and the log).
#[derive(Debug, Default)]
pub(crate) struct Counts {
    /// Checkpoints the background thread completed.
    pub(crate) background: AtomicUsize,
    /// Passive checkpoints the writer ran to finish a background one.
    pub(crate) finishing: AtomicUsize,
    /// TRUNCATE checkpoints the writer ran because the WAL passed its bound.
    pub(crate) bounding: AtomicUsize,
    /// Frames in the WAL at the last background checkpoint (0 once the writer checkpointed
    /// since: see [`Checkpoints::committed`]).
    pub(crate) frames: AtomicUsize,
}

/// What the checkpointer thread and the writer share.
#[derive(Default)]
struct State {
    counts: Counts,
    /// A background checkpoint ended and the writer has not finished it yet.
    ended: AtomicBool,
}

/// The checkpointer thread and the writer's count of changes since it last woke it. Dropping it
/// stops the thread (after a last passive checkpoint) and waits for it.
pub(crate) struct Checkpoints {
    wake: Option<SyncSender<()>>,
    thread: Option<JoinHandle<()>>,
    state: Arc<State>,
    /// Changes committed since the checkpointer was last woken (touched by the writer only).
    since_wake: usize,
    /// Changes committed since a checkpoint (background or the writer's) last ended, as the
    /// writer knows (touched by the writer only).
    since_ended: usize,
}

impl Checkpoints {
    /// Starts the checkpointer thread on a connection of its own to `path`.
    pub(crate) fn start(path: &str) -> Result<Self, DbError> {
        let connection = open_sqlite_writer(path)?;
        let state = Arc::new(State::default());
        let (wake, woken) = mpsc::sync_channel(1);
        let shared = state.clone();
        let thread = thread::Builder::new()
            .name("skirmish-checkpoint".into())
            .spawn(move || run_background(connection, &woken, &shared))
            .map_err(|error| DbError::WriterStopped(format!("cannot start the checkpointer: {error}")))?;
        Ok(Self { wake: Some(wake), thread: Some(thread), state, since_wake: 0, since_ended: 0 })
    }

    /// Called by the writer after each successful commit of `changes` changes, on its
    /// connection: wakes the checkpointer, finishes its last checkpoint, or bounds the WAL.
    pub(crate) fn committed(&mut self, changes: usize, writer: &mut SqliteConnection) {
        self.since_wake += changes;
        self.since_ended += changes;
        let state = self.state.clone();
        let ended = state.ended.swap(false, Ordering::AcqRel);
        if ended {
            self.since_ended = 0;
        }
        let frames = i64::try_from(state.counts.frames.load(Ordering::Relaxed)).unwrap_or(i64::MAX);
        if self.since_ended >= BOUND_CHANGES || frames >= WAL_BOUND_FRAMES {
            self.on_writer("TRUNCATE", &state.counts.bounding, writer);
        } else if ended && frames >= RESTART_FRAMES {
            self.on_writer("PASSIVE", &state.counts.finishing, writer);
            // The checkpointer is woken after the next transaction started the WAL over.
            return;
        }
        if self.since_wake >= CHECKPOINT_CHANGES {
            self.since_wake = 0;
            if let Some(wake) = &self.wake
                && let Err(TrySendError::Disconnected(())) = wake.try_send(())
            {
                log::error!("the checkpointer thread has stopped");
            }
        }
    }

    /// Runs a checkpoint on the writer's connection and counts it in `count`.
    fn on_writer(&mut self, mode: &str, count: &AtomicUsize, writer: &mut SqliteConnection) {
        self.since_ended = 0;
        // The next background run tells how many frames the WAL holds after this; until then
        // none are counted, so a bounding checkpoint that a reader kept from copying everything
        // is tried again only after that run or BOUND_CHANGES more changes, not on every commit.
        match checkpoint(writer, mode) {
            Ok(done) => {
                count.fetch_add(1, Ordering::Relaxed);
                if mode == "TRUNCATE" && (done.busy != 0 || done.checkpointed < done.log) {
                    log::warn!("the WAL holds {} frames and a reader keeps it from being reset", done.log);
                }
            }
            Err(error) => log::warn!("a {mode} checkpoint on the writer failed: {error}"),
        }
        self.state.counts.frames.store(0, Ordering::Relaxed);
    }
}

impl Drop for Checkpoints {
    fn drop(&mut self) {
        drop(self.wake.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The checkpointer thread: a passive checkpoint each time it is woken, and a last one when the
/// writer is gone.
fn run_background(mut connection: SqliteConnection, woken: &Receiver<()>, state: &State) {
    while woken.recv().is_ok() {
        match checkpoint(&mut connection, "PASSIVE") {
            Ok(done) if done.busy == 0 => {
                if i64::from(done.log) >= RESTART_FRAMES {
                    // A wake-up that came during this run waits for the writer's finishing
                    // checkpoint: a run of ours under way would keep the WAL from starting over.
                    while woken.try_recv().is_ok() {}
                }
                state.counts.frames.store(usize::try_from(done.log).unwrap_or(0), Ordering::Relaxed);
                state.counts.background.fetch_add(1, Ordering::Relaxed);
                state.ended.store(true, Ordering::Release);
            }
            Ok(_) => {}
            Err(error) => log::warn!("a background checkpoint failed: {error}"),
        }
    }
    if let Err(error) = checkpoint(&mut connection, "PASSIVE") {
        log::warn!("the last checkpoint failed: {error}");
    }
}

#[cfg(test)]
mod tests {
    use super::super::writer::{Writer, lock};
    use super::*;
    use diesel::connection::SimpleConnection;
    use std::path::{Path, PathBuf};
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    /// A row of 16 KB: four overflow pages and a leaf, so about five WAL frames per change.
    const ROW: &str = "INSERT INTO t VALUES (randomblob(16000))";
    /// Bytes of one WAL frame (a 4 KB page and its 24-byte header).
    const FRAME: u64 = 4096 + 24;

    fn writer(dir: &tempfile::TempDir) -> (Writer, PathBuf) {
        let path = dir.path().join("c.db");
        let text = path.display().to_string();
        let mut connection = crate::connection::open_writer(&text).unwrap();
        connection.batch_execute("CREATE TABLE t (b BLOB NOT NULL)").unwrap();
        let writer = Writer::new(connection, &text, 1, Arc::default(), Arc::default()).unwrap();
        (writer, path)
    }

    fn wal_bytes(db: &Path) -> u64 {
        std::fs::metadata(db.with_extension("db-wal")).map_or(0, |m| m.len())
    }

    fn insert(writer: &Writer) {
        writer.write(|conn| Ok::<_, DbError>(conn.batch_execute(ROW)?)).unwrap();
    }

    /// What the checkpoints did, read without the writer's lock on them (which it holds while
    /// it checkpoints).
    fn counts(writer: &Writer) -> Arc<State> {
        lock(&writer.checkpoints).as_ref().expect("SQLite checkpoints").state.clone()
    }

    fn count(writer: &Writer, which: impl Fn(&Counts) -> &AtomicUsize) -> usize {
        which(&counts(writer).counts).load(Ordering::SeqCst)
    }

    #[test]
    fn the_checkpointer_thread_keeps_the_wal_short_and_the_writer_connection_never_checkpoints() {
        let dir = tempfile::tempdir().unwrap();
        let (writer, path) = writer(&dir);
        let autocheckpoint: Vec<AutoCheckpoint> = writer
            .write(|c| Ok::<_, DbError>(diesel::sql_query("PRAGMA wal_autocheckpoint").load(c)?))
            .unwrap();
        assert_eq!(autocheckpoint[0].wal_autocheckpoint, 0);

        // 4.5 checkpoint intervals, ~3,400 frames: without checkpoints the WAL would hold them all.
        let mut largest = 0;
        for _ in 0..CHECKPOINT_CHANGES * 9 / 2 {
            insert(&writer);
            largest = largest.max(wal_bytes(&path));
        }

        assert!(count(&writer, |c| &c.background) >= 2, "the checkpointer thread ran");
        assert!(count(&writer, |c| &c.finishing) >= 1, "and the writer finished a run of it");
        assert_eq!(count(&writer, |c| &c.bounding), 0, "the WAL never came near its bound");
        assert!(largest < 2_500 * FRAME, "the WAL started over: at most {largest} bytes");
    }

    #[derive(QueryableByName)]
    struct AutoCheckpoint {
        #[diesel(sql_type = Integer)]
        wal_autocheckpoint: i32,
    }

    #[test]
    fn a_reader_pinning_a_snapshot_lets_the_wal_grow_only_to_its_bound() {
        let dir = tempfile::tempdir().unwrap();
        let (writer, path) = writer(&dir);
        insert(&writer);
        let mut reader = open_sqlite_writer(&path.display().to_string()).unwrap();
        reader.batch_execute("BEGIN; SELECT count(*) FROM t").unwrap();
        let state = counts(&writer);
        let frames = || state.counts.frames.load(Ordering::SeqCst);

        let mut largest = 0;
        let started = Instant::now();
        thread::scope(|scope| {
            // The reader lets go of its snapshot once the WAL is known to have passed its bound:
            // the writer's TRUNCATE checkpoint waits for that.
            scope.spawn(|| {
                while i64::try_from(frames()).unwrap() < WAL_BOUND_FRAMES
                    && started.elapsed() < Duration::from_secs(60)
                {
                    thread::sleep(Duration::from_millis(1));
                }
                thread::sleep(Duration::from_millis(20));
                reader.batch_execute("COMMIT").unwrap();
            });
            while state.counts.bounding.load(Ordering::SeqCst) == 0
                && started.elapsed() < Duration::from_secs(60)
            {
                insert(&writer);
                largest = largest.max(wal_bytes(&path));
            }
        });
        let bound = u64::try_from(WAL_BOUND_FRAMES).unwrap() * FRAME;
        assert!(largest > bound, "the pinned WAL grew past its bound: {largest} bytes");
        assert!(largest < bound + 5 * 3 * CHECKPOINT_CHANGES as u64 * FRAME, "but not far: {largest} bytes");
        assert_eq!(count(&writer, |c| &c.bounding), 1, "the writer checkpointed it itself");

        insert(&writer);
        assert!(wal_bytes(&path) < 100 * FRAME, "truncated, the WAL starts over: {} bytes", wal_bytes(&path));
    }
}
