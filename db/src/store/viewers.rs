//! Viewer links: read-only tokens scoped to one encounter. Like API keys, only a SHA-256 digest
//! of each token is stored; the token itself is shown once, when it is made.

use super::Store;
use super::clock::{unix_seconds, utc_now, utc_text};
use super::keys::digest;
use super::postgres::Notice;
use super::types::now_ms;
use crate::error::DbError;
use crate::schema::{encounters, viewers};
use diesel::dsl::count_star;
use diesel::prelude::*;
use skirmish_domain::encounter::EncounterId;

/// Most viewer links (active or not) an encounter holds.
pub const MAX_VIEWERS_PER_ENCOUNTER: i64 = 32;

/// A viewer link as listed: never the token.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = viewers)]
pub struct ViewerInfo {
    pub id: String,
    pub encounter_id: String,
    pub label: Option<String>,
    pub created_at: String,
    pub expires_at: Option<String>,
    pub revoked_at: Option<String>,
}

/// What an active token grants: one encounter of one tenant, until `expires_at` (Unix seconds).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ViewerGrant {
    pub viewer_id: String,
    pub tenant: String,
    pub encounter_id: String,
    pub expires_at: Option<i64>,
}

/// A viewer link to make.
#[derive(Debug, Clone)]
pub struct NewViewer<'a> {
    pub id: &'a str,
    pub token: &'a str,
    pub label: Option<&'a str>,
    /// Seconds from now; `None` for a link that lasts until revoked. The caller bounds it.
    pub expires_in_seconds: Option<u32>,
}

/// The outcome of [`Store::create_viewer`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ViewerCreated {
    Created(Box<(ViewerInfo, ViewerGrant)>),
    NoEncounter,
    TooMany,
}

/// The columns of an active grant (the expiry as stored text).
type GrantColumns = (String, String, String, String, Option<String>);

fn grant_columns()
-> (viewers::id, viewers::token_hash, viewers::tenant, viewers::encounter_id, viewers::expires_at) {
    (viewers::id, viewers::token_hash, viewers::tenant, viewers::encounter_id, viewers::expires_at)
}

/// A grant by its token digest, the expiry read as Unix seconds.
fn grant_of((viewer_id, hash, tenant, encounter_id, expires_at): GrantColumns) -> (String, ViewerGrant) {
    let expires_at = expires_at.as_deref().and_then(unix_seconds);
    (hash, ViewerGrant { viewer_id, tenant, encounter_id, expires_at })
}

impl Store {
    /// Stores a new viewer link (its token's digest) for the tenant's encounter.
    pub fn create_viewer(
        &self,
        tenant: &str,
        encounter: &EncounterId,
        new: &NewViewer,
    ) -> Result<ViewerCreated, DbError> {
        let expires = new
            .expires_in_seconds
            .map(|seconds| utc_text(now_ms().saturating_add(i64::from(seconds) * 1000)));
        self.write(|conn| {
            let exists: i64 = encounters::table
                .filter(encounters::id.eq(encounter.as_str()).and(encounters::tenant.eq(tenant)))
                .select(count_star())
                .get_result(conn)?;
            if exists == 0 {
                return Ok(ViewerCreated::NoEncounter);
            }
            let held: i64 = viewers::table
                .filter(viewers::encounter_id.eq(encounter.as_str()))
                .select(count_star())
                .get_result(conn)?;
            if held >= MAX_VIEWERS_PER_ENCOUNTER {
                return Ok(ViewerCreated::TooMany);
            }
            diesel::insert_into(viewers::table)
                .values((
                    viewers::id.eq(new.id),
                    viewers::tenant.eq(tenant),
                    viewers::encounter_id.eq(encounter.as_str()),
                    viewers::token_hash.eq(digest(new.token)),
                    viewers::label.eq(new.label),
                    viewers::expires_at.eq(&expires),
                    viewers::created_at.eq(utc_now()),
                ))
                .execute(conn)?;
            let info = viewers::table.find(new.id).select(ViewerInfo::as_select()).get_result(conn)?;
            let (_, grant) = grant_of(viewers::table.find(new.id).select(grant_columns()).get_result(conn)?);
            Ok(ViewerCreated::Created(Box::new((info, grant))))
        })
    }

    /// The encounter's viewer links, oldest first; `None` if the tenant has no such encounter.
    pub fn list_viewers(
        &self,
        tenant: &str,
        encounter: &EncounterId,
    ) -> Result<Option<Vec<ViewerInfo>>, DbError> {
        let mut conn = self.read()?;
        let exists: i64 = encounters::table
            .filter(encounters::id.eq(encounter.as_str()).and(encounters::tenant.eq(tenant)))
            .select(count_star())
            .get_result(&mut *conn)?;
        if exists == 0 {
            return Ok(None);
        }
        let list = viewers::table
            .filter(viewers::encounter_id.eq(encounter.as_str()).and(viewers::tenant.eq(tenant)))
            .order((viewers::created_at, viewers::id))
            .select(ViewerInfo::as_select())
            .load(&mut *conn)?;
        Ok(Some(list))
    }

    /// Revokes a viewer link of the tenant's encounter. False if there is no such active link.
    pub fn revoke_viewer(
        &self,
        tenant: &str,
        encounter: &EncounterId,
        viewer_id: &str,
    ) -> Result<bool, DbError> {
        let target = viewers::table.filter(
            viewers::id
                .eq(viewer_id)
                .and(viewers::tenant.eq(tenant))
                .and(viewers::encounter_id.eq(encounter.as_str()))
                .and(viewers::revoked_at.is_null()),
        );
        let updated = self.write(|conn| {
            let updated =
                diesel::update(target).set(viewers::revoked_at.eq(Some(utc_now()))).execute(conn)?;
            if updated > 0 {
                self.tell(conn, &Notice::ViewerRevoked { viewer: viewer_id.to_owned() })?;
            }
            Ok::<_, DbError>(updated)
        })?;
        Ok(updated > 0)
    }

    /// The viewer link not revoked whose token has `digest` (expired or not: the caller checks
    /// the time), if any.
    pub fn viewer_grant(&self, digest: &str) -> Result<Option<ViewerGrant>, DbError> {
        let row: Option<GrantColumns> = viewers::table
            .filter(viewers::token_hash.eq(digest).and(viewers::revoked_at.is_null()))
            .select(grant_columns())
            .get_result(&mut *self.read()?)
            .optional()?;
        Ok(row.map(|row| grant_of(row).1))
    }

    /// Every viewer link not revoked (expired ones included: the caller checks the time), by
    /// token digest, to hold in memory.
    pub fn active_viewer_grants(&self) -> Result<Vec<(String, ViewerGrant)>, DbError> {
        let rows: Vec<GrantColumns> = viewers::table
            .filter(viewers::revoked_at.is_null())
            .select(grant_columns())
            .load(&mut *self.read()?)?;
        Ok(rows.into_iter().map(grant_of).collect())
    }
}

/// The digest under which a viewer token is stored and looked up.
pub fn viewer_token_digest(token: &str) -> String {
    digest(token)
}
