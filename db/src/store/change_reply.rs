//! A change between its savepoint and its reply: what the savepoint hands back (a reply made
//! there, or the change as stored with its renderer) and what the writer keeps until the commit
//! (`encounters.rs` runs the change; this module answers it).

use super::idempotency::{IdempotencyKey, Reply, StoredResponse, remember};
use super::types::{Mutation, StoredEncounter, StoredEvent};
use crate::backend::DbConnection;
use crate::error::MutateError;
use skirmish_domain::encounter::{EncounterId, Event};
use std::sync::Arc;

/// An encounter as a change starts from, with its last event's `seq` when that is known.
pub(super) type Loaded = (Arc<StoredEncounter>, Option<i64>);

/// A change as stored, before it is rendered: its encounter is shared with the writer's hot copy
/// (see `hot.rs`), so that copying it for the renderer can wait until the writer is released.
pub(super) struct Stored<T> {
    pub(super) encounter: Arc<StoredEncounter>,
    pub(super) events: Vec<StoredEvent>,
    pub(super) output: T,
}

impl<T> Stored<T> {
    /// The change for its renderer, which shares the encounter with the hot copy.
    fn into_mutation(self) -> Mutation<T> {
        Mutation { encounter: self.encounter, events: self.events, output: self.output }
    }
}

/// What a change's savepoint hands back: the reply, when it was made in the savepoint (a replay,
/// or a response an idempotency key keeps), or the change as stored with its renderer, to render
/// once the writer is released.
pub(super) enum Done<T, R> {
    Replied(Reply),
    Unrendered(Stored<T>, R),
}

impl<T, R> Done<T, R> {
    /// The reply, rendered now if the savepoint left that for later.
    pub(super) fn reply<E>(self) -> Result<Reply, MutateError<E>>
    where
        R: FnOnce(Mutation<T>) -> Result<StoredResponse, E>,
    {
        match self {
            Done::Replied(reply) => Ok(reply),
            Done::Unrendered(stored, render) => {
                let response = render(stored.into_mutation()).map_err(MutateError::Domain)?;
                Ok(Reply { response, replayed: false })
            }
        }
    }
}

/// A change as its savepoint left it, until it is answered after the commit.
pub(super) struct Applied<T, R> {
    pub(super) id: EncounterId,
    pub(super) done: Done<T, R>,
    /// Its events, for the listeners (empty when nobody listens).
    pub(super) told: Vec<StoredEvent>,
    /// Whether it queued webhook deliveries.
    pub(super) enqueued: bool,
    /// The encounter as it was before the change and the events as the command made them,
    /// freed only once the writer is done with the change.
    pub(super) retired: Option<(Arc<StoredEncounter>, Vec<Event>)>,
}

impl<T, R> Applied<T, R> {
    pub(super) fn replied(id: &EncounterId, reply: Reply) -> Self {
        let done = Done::Replied(reply);
        Self { id: id.clone(), done, told: Vec::new(), enqueued: false, retired: None }
    }

    /// The reply, rendered now if the savepoint left that for later.
    pub(super) fn reply<E>(self) -> Result<Reply, MutateError<E>>
    where
        R: FnOnce(Mutation<T>) -> Result<StoredResponse, E>,
    {
        let Self { done, retired, .. } = self;
        drop(retired);
        done.reply()
    }
}

/// With an idempotency key, renders the response and keeps it for the key in the change's
/// savepoint (a retry must find it in the same commit as the change); without one, leaves the
/// rendering for after the commit, outside the writer.
pub(super) fn answer<T, E, R>(
    conn: &mut DbConnection,
    tenant: &str,
    key: Option<&IdempotencyKey>,
    encounter: &EncounterId,
    stored: Stored<T>,
    render: R,
) -> Result<Done<T, R>, MutateError<E>>
where
    R: FnOnce(Mutation<T>) -> Result<StoredResponse, E>,
{
    let Some(key) = key else { return Ok(Done::Unrendered(stored, render)) };
    let response = render(stored.into_mutation()).map_err(MutateError::Domain)?;
    remember(conn, tenant, key, Some(encounter.as_str()), &response)?;
    Ok(Done::Replied(Reply { response, replayed: false }))
}
