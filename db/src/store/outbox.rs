//! The webhook outbox: one delivery row per (subscription, event), written in the savepoint of
//! the change that appends the event, so a delivery exists exactly when its event does. The
//! deliverer (api `webhooks/`) sends due rows and records each attempt here.

use super::Store;
use super::keys::hex;
use super::types::{StoredEvent, now_ms};
use super::webhooks::{Webhook, tenant_webhooks};
use crate::backend::DbConnection;
use crate::error::DbError;
use crate::schema::{events, webhook_attempts, webhook_deliveries, webhooks};
use diesel::prelude::*;
use sha2::{Digest, Sha256};
use std::sync::Arc;

/// A delivery's state.
pub const PENDING: &str = "pending";
pub const DELIVERED: &str = "delivered";
pub const FAILED: &str = "failed";

/// A pending delivery that is due, with what sending it needs.
#[derive(Debug, Clone, PartialEq, Eq, Queryable)]
pub struct DueDelivery {
    /// Its row (the order it was written in).
    pub n: i64,
    pub id: String,
    pub webhook_id: String,
    pub url: String,
    pub format: String,
    pub secret: String,
    pub encounter_id: String,
    pub seq: i64,
    pub kind: String,
    pub event_at: String,
    pub summary: String,
    /// The event's data as the log holds it (JSON text); `None` once its encounter was deleted.
    pub data: Option<String>,
    /// Attempts made so far.
    pub attempts: i32,
    /// Failed attempts so far (rate-limit answers excluded).
    pub failures: i32,
}

/// What follows an attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AfterAttempt {
    Delivered,
    /// Try again at this time (unix ms); `counted` if the attempt counts towards giving up.
    RetryAt {
        at_ms: i64,
        counted: bool,
    },
    /// Given up.
    Failed,
}

/// One attempt at sending a delivery.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attempt {
    pub at_ms: i64,
    pub status_code: Option<i32>,
    pub error: Option<String>,
}

/// A delivery as listed, with its attempts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeliveryInfo {
    /// Its place in the subscription's list (the page cursor).
    pub n: i64,
    pub id: String,
    pub encounter_id: String,
    pub seq: i64,
    pub kind: String,
    pub status: String,
    pub next_attempt_ms: Option<i64>,
    pub created_at: String,
    pub attempts: Vec<Attempt>,
}

/// How long a delivery taken by a replica (PostgreSQL) is its own before another may take it, by
/// default: longer than an attempt can last (its timeout), short enough that a dead replica's
/// deliveries are soon sent by another. A server may choose another lease within
/// [`MIN_LEASE_MS`]..=[`MAX_LEASE_MS`] (`--webhooks-lease-ms`).
pub const LEASE_MS: i64 = 60_000;

/// The shortest lease a server may choose: one second.
pub const MIN_LEASE_MS: i64 = 1_000;

/// The longest lease a server may choose: one hour.
pub const MAX_LEASE_MS: i64 = 3_600_000;

/// Most deliveries one page lists.
pub const MAX_DELIVERIES_PAGE: i64 = 100;

#[derive(Queryable)]
struct DeliveryRow {
    n: i64,
    id: String,
    encounter_id: String,
    seq: i64,
    kind: String,
    status: String,
    next_attempt_ms: Option<i64>,
    created_at: String,
}

/// The delivery id of `event` for `webhook`: the same whoever computes it, so it names the
/// delivery for good (every retry carries it).
fn delivery_id(webhook: &str, encounter: &str, seq: i64) -> String {
    let digest = Sha256::digest(format!("{webhook}\n{encounter}\n{seq}").as_bytes());
    format!("msg_{}", &hex(&digest)[..32])
}

/// Writes the deliveries of `events` for every subscription in `hooks` that wants them, due at
/// once (`now_ms`). Runs inside the change's transaction. True if it wrote any. On PostgreSQL
/// they go in one multi-row insert; on SQLite one kept statement each (diesel runs a multi-row
/// insert there in a transaction of its own, which cannot nest in the writer's savepoint).
pub(crate) fn enqueue(
    conn: &mut DbConnection,
    hooks: &[Webhook],
    encounter: &str,
    events: &[StoredEvent],
    now_ms: i64,
) -> Result<bool, DbError> {
    let mut rows = Vec::new();
    for event in events {
        for hook in hooks.iter().filter(|hook| hook.wants(encounter, &event.kind)) {
            let row = (
                webhook_deliveries::id.eq(delivery_id(&hook.id, encounter, event.seq)),
                webhook_deliveries::webhook_id.eq(&hook.id),
                webhook_deliveries::encounter_id.eq(encounter),
                webhook_deliveries::seq.eq(event.seq),
                webhook_deliveries::kind.eq(&event.kind),
                webhook_deliveries::event_at.eq(&event.created_at),
                webhook_deliveries::summary.eq(event
                    .data
                    .get("summary")
                    .and_then(|s| s.as_str())
                    .unwrap_or_default()),
                webhook_deliveries::status.eq(PENDING),
                webhook_deliveries::next_attempt_ms.eq(Some(now_ms)),
                webhook_deliveries::created_at.eq(&event.created_at),
            );
            rows.push(row);
        }
    }
    match conn {
        DbConnection::Pg(pg) if !rows.is_empty() => {
            diesel::insert_into(webhook_deliveries::table).values(&rows).execute(pg)?;
        }
        _ => {
            for row in &rows {
                diesel::insert_into(webhook_deliveries::table).values(row).execute(conn)?;
            }
        }
    }
    Ok(!rows.is_empty())
}

impl Store {
    /// Writes the deliveries of `events` (just appended to `encounter`'s log in the transaction
    /// on `conn`) for the tenant's subscriptions that want them. Nothing to do, and no query, when
    /// the tenant has no subscription (`has_hooks`: whether it has any, when the change already
    /// read that in its transaction). True if it wrote any (then the deliverer is woken after
    /// the commit: see `after_commit` in `encounters.rs`).
    pub(super) fn enqueue_deliveries(
        &self,
        conn: &mut DbConnection,
        tenant: &str,
        encounter: &str,
        events: &[StoredEvent],
        has_hooks: Option<bool>,
    ) -> Result<bool, DbError> {
        if events.is_empty() || has_hooks == Some(false) {
            return Ok(false);
        }
        // On PostgreSQL another replica may have changed the tenant's subscriptions a moment ago
        // (its notice may not have arrived yet): they are read in this change's transaction.
        let hooks = match conn {
            DbConnection::Pg(_) => {
                Some(tenant_webhooks(conn, tenant)?.into()).filter(|h: &Arc<[Webhook]>| !h.is_empty())
            }
            DbConnection::Sqlite(_) => self.subscriptions.of(tenant),
        };
        match hooks {
            Some(hooks) => enqueue(conn, &hooks, encounter, events, now_ms()),
            None => Ok(false),
        }
    }

    /// Deliveries waiting in the outbox (pending: not yet delivered nor given up).
    pub fn pending_deliveries(&self) -> Result<i64, DbError> {
        let pending = webhook_deliveries::table.filter(webhook_deliveries::status.eq(PENDING));
        Ok(pending.count().get_result(&mut *self.read()?)?)
    }

    /// Up to `limit` pending deliveries due by `now_ms`, in the order they were written, skipping those of the
    /// subscriptions in `busy` (being sent to already).
    ///
    /// On PostgreSQL each is leased to this replica first: its next attempt moves [`LEASE_MS`]
    /// on, in a transaction that skips rows another replica is leasing (`FOR UPDATE SKIP
    /// LOCKED`), so one replica sends it; if that replica dies before recording the attempt, the
    /// delivery is due again when the lease ends, with the same id.
    pub fn due_deliveries(
        &self,
        now_ms: i64,
        limit: i64,
        busy: &[String],
    ) -> Result<Vec<DueDelivery>, DbError> {
        self.due_deliveries_leased_for(now_ms, limit, busy, LEASE_MS)
    }

    /// [`Store::due_deliveries`] with a lease of `lease_ms` (kept within [`MIN_LEASE_MS`] and
    /// [`MAX_LEASE_MS`]) instead of [`LEASE_MS`].
    pub fn due_deliveries_leased_for(
        &self,
        now_ms: i64,
        limit: i64,
        busy: &[String],
        lease_ms: i64,
    ) -> Result<Vec<DueDelivery>, DbError> {
        use webhook_deliveries as d;
        let lease_ms = lease_ms.clamp(MIN_LEASE_MS, MAX_LEASE_MS);
        let leased = match self.backend() {
            crate::Backend::Postgres => Some(self.lease(now_ms, limit, busy, lease_ms)?),
            crate::Backend::Sqlite => None,
        };
        let due = d::status.eq(PENDING).and(d::next_attempt_ms.le(now_ms));
        let chosen: Box<
            dyn BoxableExpression<_, _, SqlType = diesel::sql_types::Nullable<diesel::sql_types::Bool>>,
        > = match leased {
            Some(ns) => Box::new(d::n.eq_any(ns).nullable()),
            None => Box::new(due.and(d::webhook_id.ne_all(busy))),
        };
        Ok(d::table
            .inner_join(webhooks::table)
            .left_join(events::table.on(events::encounter_id.eq(d::encounter_id).and(events::seq.eq(d::seq))))
            .filter(chosen)
            .order(d::n)
            .limit(limit)
            .select((
                d::n,
                d::id,
                d::webhook_id,
                webhooks::url,
                webhooks::format,
                webhooks::secret,
                d::encounter_id,
                d::seq,
                d::kind,
                d::event_at,
                d::summary,
                events::data.nullable(),
                d::attempts,
                d::failures,
            ))
            .load(&mut *self.read()?)?)
    }

    /// Leases up to `limit` due deliveries (see [`Store::due_deliveries`]); their row numbers.
    fn lease(&self, now_ms: i64, limit: i64, busy: &[String], lease_ms: i64) -> Result<Vec<i64>, DbError> {
        #[derive(QueryableByName)]
        struct Leased {
            #[diesel(sql_type = diesel::sql_types::BigInt)]
            n: i64,
        }
        use diesel::sql_types::{Array, BigInt, Text};
        self.write(|conn| {
            let DbConnection::Pg(pg) = conn else { return Ok(Vec::new()) };
            let leased: Vec<Leased> = diesel::sql_query(
                "UPDATE webhook_deliveries SET next_attempt_ms = $1 WHERE n IN (SELECT n FROM \
                 webhook_deliveries WHERE status = $2 AND next_attempt_ms <= $3 AND webhook_id <> ALL($4) \
                 ORDER BY n LIMIT $5 FOR UPDATE SKIP LOCKED) RETURNING n",
            )
            .bind::<BigInt, _>(now_ms.saturating_add(lease_ms))
            .bind::<Text, _>(PENDING)
            .bind::<BigInt, _>(now_ms)
            .bind::<Array<Text>, _>(busy)
            .bind::<BigInt, _>(limit)
            .load(pg)?;
            Ok::<_, DbError>(leased.into_iter().map(|row| row.n).collect())
        })
    }

    /// Gives back deliveries `ns` that [`Store::due_deliveries`] leased and that were not
    /// attempted: due again at `at_ms` (PostgreSQL; nothing to give back on SQLite).
    pub fn release_deliveries(&self, ns: &[i64], at_ms: i64) -> Result<(), DbError> {
        use webhook_deliveries as d;
        if self.backend() == crate::Backend::Sqlite || ns.is_empty() {
            return Ok(());
        }
        let leased = d::table.filter(d::n.eq_any(ns).and(d::status.eq(PENDING)));
        self.write(|conn| {
            diesel::update(leased).set(d::next_attempt_ms.eq(at_ms)).execute(conn)?;
            Ok(())
        })
    }

    /// When the next pending delivery is due (unix ms), if any is pending.
    pub fn next_due_ms(&self) -> Result<Option<i64>, DbError> {
        use webhook_deliveries as d;
        Ok(d::table
            .filter(d::status.eq(PENDING))
            .select(diesel::dsl::min(d::next_attempt_ms))
            .get_result(&mut *self.read()?)?)
    }

    /// Records an attempt at delivery `id` and what follows it. `hold_until_ms` (a rate-limit
    /// answer) also holds back every other pending delivery of the same subscription until then.
    pub fn record_attempt(
        &self,
        delivery: &DueDelivery,
        attempt: &Attempt,
        after: AfterAttempt,
        hold_until_ms: Option<i64>,
    ) -> Result<(), DbError> {
        use webhook_deliveries as d;
        let number = delivery.attempts.saturating_add(1);
        let (status, next, failed) = match after {
            AfterAttempt::Delivered => (DELIVERED, None, 0),
            AfterAttempt::RetryAt { at_ms, counted } => (PENDING, Some(at_ms), i32::from(counted)),
            AfterAttempt::Failed => (FAILED, None, 1),
        };
        self.write(|conn| {
            let updated = diesel::update(d::table.find(delivery.n))
                .set((
                    d::status.eq(status),
                    d::attempts.eq(number),
                    d::failures.eq(d::failures + failed),
                    d::next_attempt_ms.eq(next),
                ))
                .execute(conn)?;
            if updated == 0 {
                // Its subscription was deleted while it was being sent: nothing left to record.
                return Ok(());
            }
            diesel::insert_into(webhook_attempts::table)
                .values((
                    webhook_attempts::delivery_n.eq(delivery.n),
                    webhook_attempts::attempt.eq(number),
                    webhook_attempts::at_ms.eq(attempt.at_ms),
                    webhook_attempts::status_code.eq(attempt.status_code),
                    webhook_attempts::error.eq(&attempt.error),
                ))
                .execute(conn)?;
            if let Some(until) = hold_until_ms {
                diesel::update(
                    d::table.filter(
                        d::webhook_id
                            .eq(&delivery.webhook_id)
                            .and(d::status.eq(PENDING))
                            .and(d::next_attempt_ms.lt(until)),
                    ),
                )
                .set(d::next_attempt_ms.eq(until))
                .execute(conn)?;
            }
            Ok(())
        })
    }

    /// The tenant's subscription's deliveries after cursor `after`, oldest first, with their
    /// attempts; `None` if the tenant has no such subscription.
    pub fn deliveries(
        &self,
        tenant: &str,
        webhook: &str,
        after: i64,
        limit: i64,
    ) -> Result<Option<Vec<DeliveryInfo>>, DbError> {
        use webhook_deliveries as d;
        let mut conn = self.read()?;
        let owned = webhooks::table
            .filter(webhooks::id.eq(webhook).and(webhooks::tenant.eq(tenant)))
            .select(webhooks::id)
            .get_result::<String>(&mut *conn)
            .optional()?;
        if owned.is_none() {
            return Ok(None);
        }
        let rows: Vec<DeliveryRow> = d::table
            .filter(d::webhook_id.eq(webhook).and(d::n.gt(after)))
            .order(d::n)
            .limit(limit.clamp(1, MAX_DELIVERIES_PAGE))
            .select((
                d::n,
                d::id,
                d::encounter_id,
                d::seq,
                d::kind,
                d::status,
                d::next_attempt_ms,
                d::created_at,
            ))
            .load(&mut *conn)?;
        let ns: Vec<i64> = rows.iter().map(|row| row.n).collect();
        let attempts: Vec<(i64, i64, Option<i32>, Option<String>)> = webhook_attempts::table
            .filter(webhook_attempts::delivery_n.eq_any(&ns))
            .order((webhook_attempts::delivery_n, webhook_attempts::attempt))
            .select((
                webhook_attempts::delivery_n,
                webhook_attempts::at_ms,
                webhook_attempts::status_code,
                webhook_attempts::error,
            ))
            .load(&mut *conn)?;
        Ok(Some(rows.into_iter().map(|row| with_attempts(row, &attempts)).collect()))
    }
}

fn with_attempts(row: DeliveryRow, attempts: &[(i64, i64, Option<i32>, Option<String>)]) -> DeliveryInfo {
    let attempts = attempts
        .iter()
        .filter(|(n, ..)| *n == row.n)
        .map(|(_, at_ms, status_code, error)| Attempt {
            at_ms: *at_ms,
            status_code: *status_code,
            error: error.clone(),
        })
        .collect();
    let DeliveryRow { n, id, encounter_id, seq, kind, status, next_attempt_ms, created_at } = row;
    DeliveryInfo { n, id, encounter_id, seq, kind, status, next_attempt_ms, created_at, attempts }
}
