//! Undo: a change like any other (same savepoint, `If-Match`, idempotency key, hot copy), whose
//! command puts back a kept earlier state. The version still rises and the log gains an
//! `undone` event; nothing in the log is removed.

use super::history::{HISTORY_DEPTH, state_at};
use super::idempotency::{IdempotencyKey, Reply, StoredResponse};
use super::writer::Written;
use super::{Mutation, Store};
use crate::backend::DbConnection;
use crate::error::MutateError;
use skirmish_domain::encounter::{Encounter, EncounterId, Event};
use std::future::Future;

/// Which versions an undo went from and back to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Undone {
    /// The version the undo replaced.
    pub from_version: i64,
    /// The version whose state the encounter has again.
    pub to_version: i64,
}

/// Why an undo was refused; nothing changed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UndoRefused {
    /// No earlier state is kept (a fresh encounter has had no change yet).
    #[error("nothing to undo: the encounter at version {current} has no earlier state kept")]
    NothingToUndo { current: i64 },
    /// `to_version` is not an earlier version.
    #[error("to_version {to_version} is not before the current version {current}")]
    NotEarlier { to_version: i64, current: i64 },
    /// `to_version` is older than the kept history.
    #[error(
        "to_version {to_version} is no longer kept: undo reaches back {HISTORY_DEPTH} versions \
         (the earliest kept is {earliest})"
    )]
    TooOld { to_version: i64, earliest: i64 },
    /// The encounter is archived: it is put away as it ended, and must be unarchived first.
    #[error("the encounter is archived: unarchive it before undoing its end")]
    Archived,
}

impl Store {
    /// Puts the tenant's encounter back to its state at `to_version` (default: the version before
    /// the current one) as a new version, with an `undone` event; `render` makes the response as
    /// for [`Store::mutate`]. A refusal becomes the domain error `E`.
    pub fn undo<E: From<UndoRefused>>(
        &self,
        tenant: &str,
        id: &EncounterId,
        to_version: Option<i64>,
        expected_version: Option<i64>,
        key: Option<&IdempotencyKey>,
        render: impl FnOnce(Mutation<Undone>) -> Result<StoredResponse, E>,
    ) -> Result<Reply, MutateError<E>> {
        self.change(tenant, id, expected_version, key, undo_to(to_version), render)
    }

    /// [`Store::undo`] for an async caller (see [`Store::mutate_async`]).
    pub fn undo_async<R, E>(
        &self,
        tenant: String,
        id: EncounterId,
        to_version: Option<i64>,
        expected_version: Option<i64>,
        key: Option<IdempotencyKey>,
        render: R,
    ) -> impl Future<Output = Written<Result<Reply, MutateError<E>>>> + Send + use<R, E>
    where
        R: FnOnce(Mutation<Undone>) -> Result<StoredResponse, E> + Send + 'static,
        E: From<UndoRefused> + Send + 'static,
    {
        self.change_async(tenant, id, expected_version, key, undo_to(to_version), render)
    }
}

/// The command of an undo to `to_version` (default: the version before the current one).
fn undo_to<E: From<UndoRefused>>(
    to_version: Option<i64>,
) -> impl FnOnce(&mut DbConnection, &mut Encounter) -> Result<(Vec<Event>, Undone), MutateError<E>> + Send + 'static
{
    move |conn, encounter| {
        let current = encounter.version;
        let target = to_version.unwrap_or(current - 1);
        let refuse = |why: UndoRefused| Err(MutateError::Domain(E::from(why)));
        if Store::is_archived(conn, &encounter.id)? {
            return refuse(UndoRefused::Archived);
        }
        if to_version.is_some() && target >= current {
            return refuse(UndoRefused::NotEarlier { to_version: target, current });
        }
        let Some(mut restored) = state_at(conn, encounter, target)? else {
            return match to_version {
                None => refuse(UndoRefused::NothingToUndo { current }),
                Some(_) => {
                    let earliest = (current - HISTORY_DEPTH).max(1);
                    refuse(UndoRefused::TooOld { to_version: target, earliest })
                }
            };
        };
        restored.version = current;
        *encounter = restored;
        let undone = Undone { from_version: current, to_version: target };
        Ok((vec![Event::Undone { from_version: current, to_version: target }], undone))
    }
}
