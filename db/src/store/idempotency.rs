//! Idempotent POSTs. The first successful response to a tenant's `Idempotency-Key` is stored in
//! the same transaction as the change it reports, so a retry — even one racing the first request,
//! or arriving after a crash — returns that response and applies nothing again.

use super::Store;
use super::clock::{utc_now, utc_text};
use super::types::now_ms;
use crate::backend::DbConnection;
use crate::error::{DbError, MutateError};
use crate::schema::idempotency_records as records;
use diesel::prelude::*;
use serde::{Deserialize, Serialize};

/// How long a stored response is replayed, in hours.
pub const IDEMPOTENCY_TTL_HOURS: u32 = 24;

/// A client's idempotency key and a digest of the request it came with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdempotencyKey {
    pub key: String,
    /// Method, path and body digest: the same key with another request is refused.
    pub fingerprint: String,
}

/// A response as sent, kept for replays.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredResponse {
    pub status: u16,
    pub body: String,
    pub headers: Vec<(String, String)>,
}

/// A response, and whether it replays an earlier one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    pub response: StoredResponse,
    pub replayed: bool,
}

#[derive(Queryable, Selectable)]
#[diesel(table_name = records)]
struct RecordRow {
    fingerprint: String,
    status: i32,
    body: String,
    headers: String,
}

/// Records younger than [`IDEMPOTENCY_TTL_HOURS`] (the stored times are text that sorts as time).
fn fresh_enough() -> diesel::dsl::Gt<records::created_at, String> {
    let ttl_ms = i64::from(IDEMPOTENCY_TTL_HOURS) * 3_600_000;
    records::created_at.gt(utc_text(now_ms() - ttl_ms))
}

/// The stored reply for this key, if any; a mismatch if the key came with another request.
///
/// On PostgreSQL it first takes a lock on the (tenant, key) pair held until the transaction
/// ends, so the same key sent to two replicas at once is applied by one: the other waits, then
/// finds the first one's reply here.
pub(crate) fn replay<E>(
    conn: &mut DbConnection,
    tenant: &str,
    key: &IdempotencyKey,
) -> Result<Option<Reply>, MutateError<E>> {
    if let DbConnection::Pg(pg) = conn {
        diesel::sql_query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))")
            .bind::<diesel::sql_types::Text, _>(format!("{tenant}\n{}", key.key))
            .execute(pg)?;
    }
    let row: Option<RecordRow> = records::table
        .filter(records::tenant.eq(tenant).and(records::key.eq(&key.key)).and(fresh_enough()))
        .select(RecordRow::as_select())
        .get_result(conn)
        .optional()?;
    let Some(row) = row else { return Ok(None) };
    if row.fingerprint != key.fingerprint {
        return Err(MutateError::IdempotencyMismatch);
    }
    let headers =
        serde_json::from_str(&row.headers).map_err(|e| DbError::Corrupt(format!("headers: {e}")))?;
    let status = u16::try_from(row.status).map_err(|e| DbError::Corrupt(format!("status: {e}")))?;
    Ok(Some(Reply { response: StoredResponse { status, body: row.body, headers }, replayed: true }))
}

/// Stores a successful response under the key (expired records are cleared first). A record
/// about an encounter goes when the encounter is deleted: a replay must not report a change to
/// something that no longer exists.
pub(crate) fn remember(
    conn: &mut DbConnection,
    tenant: &str,
    key: &IdempotencyKey,
    encounter_id: Option<&str>,
    response: &StoredResponse,
) -> Result<(), DbError> {
    if !(200..300).contains(&response.status) {
        return Ok(());
    }
    diesel::delete(records::table.filter(diesel::dsl::not(fresh_enough()))).execute(conn)?;
    diesel::delete(records::table.filter(records::tenant.eq(tenant).and(records::key.eq(&key.key))))
        .execute(conn)?;
    let headers = serde_json::to_string(&response.headers).map_err(|e| DbError::Corrupt(e.to_string()))?;
    diesel::insert_into(records::table)
        .values((
            records::tenant.eq(tenant),
            records::key.eq(&key.key),
            records::fingerprint.eq(&key.fingerprint),
            records::status.eq(i32::from(response.status)),
            records::body.eq(&response.body),
            records::headers.eq(headers),
            records::created_at.eq(utc_now()),
            records::encounter_id.eq(encounter_id),
        ))
        .execute(conn)?;
    Ok(())
}

/// Forgets the tenant's records whose reply made `resource` (an encounter, creature or template
/// id, kept in the `encounter_id` column), once it is deleted: a retry must then make it again,
/// not replay an answer naming something gone.
pub(crate) fn forget_replies_about(
    conn: &mut DbConnection,
    tenant: &str,
    resource: &str,
) -> Result<(), DbError> {
    diesel::delete(records::table.filter(records::tenant.eq(tenant).and(records::encounter_id.eq(resource))))
        .execute(conn)?;
    Ok(())
}

impl Store {
    /// Makes something of the tenant's that is not an encounter (a creature, a template) in one
    /// write transaction honouring `key` as every change does: a retry replays the first answer
    /// and makes nothing. `make` stores it (or refuses) and answers its id and what `render`
    /// answers from; the kept reply is tied to that id, so deleting it voids the replay (see
    /// [`forget_replies_about`]).
    pub(super) fn make_once<T, E>(
        &self,
        tenant: &str,
        key: Option<&IdempotencyKey>,
        make: impl FnOnce(&mut DbConnection) -> Result<(String, T), MutateError<E>>,
        render: impl FnOnce(&T) -> Result<StoredResponse, E>,
    ) -> Result<Reply, MutateError<E>> {
        self.write(|conn| {
            if let Some(reply) = key.map(|key| replay(conn, tenant, key)).transpose()?.flatten() {
                return Ok(reply);
            }
            let (id, made) = make(conn)?;
            let response = render(&made).map_err(MutateError::Domain)?;
            if let Some(key) = key {
                remember(conn, tenant, key, Some(&id), &response)?;
            }
            Ok(Reply { response, replayed: false })
        })
    }

    /// Runs `compute` (a POST that stores no encounter state, e.g. a dice roll) so that a repeated
    /// idempotency key replays the first response. Without a key it simply computes.
    pub fn idempotent<E>(
        &self,
        tenant: &str,
        key: Option<&IdempotencyKey>,
        compute: impl FnOnce() -> Result<StoredResponse, E>,
    ) -> Result<Reply, MutateError<E>> {
        let Some(key) = key else {
            return compute()
                .map(|response| Reply { response, replayed: false })
                .map_err(MutateError::Domain);
        };
        self.write(|conn| {
            if let Some(reply) = replay(conn, tenant, key)? {
                return Ok(reply);
            }
            let response = compute().map_err(MutateError::Domain)?;
            remember(conn, tenant, key, None, &response)?;
            Ok(Reply { response, replayed: false })
        })
    }
}
