//! API keys. Only a SHA-256 digest of each key is stored; keys are 256-bit random secrets, so a
//! fast hash is enough (no password stretching needed) and lookups go straight to the digest.

use super::{NOW, Store};
use crate::error::DbError;
use crate::schema::api_keys;
use diesel::dsl::sql;
use diesel::prelude::*;
use diesel::sql_types::Text;
use sha2::{Digest, Sha256};

/// A key as listed: never the secret itself.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = api_keys)]
pub struct ApiKeyInfo {
    pub id: String,
    pub tenant: String,
    pub created_at: String,
    pub revoked_at: Option<String>,
}

/// Who a presented key belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyOwner {
    pub key_id: String,
    pub tenant: String,
}

/// Hex SHA-256 of a secret.
pub fn digest(secret: &str) -> String {
    Sha256::digest(secret.as_bytes()).iter().map(|byte| format!("{byte:02x}")).collect()
}

impl Store {
    /// Stores a new key (its digest) for a tenant.
    pub fn create_key(&self, id: &str, tenant: &str, secret: &str) -> Result<(), DbError> {
        let row = (api_keys::id.eq(id), api_keys::tenant.eq(tenant), api_keys::key_hash.eq(digest(secret)));
        self.write(|conn| diesel::insert_into(api_keys::table).values(row).execute(conn))??;
        Ok(())
    }

    pub fn list_keys(&self) -> Result<Vec<ApiKeyInfo>, DbError> {
        Ok(api_keys::table
            .order(api_keys::created_at)
            .select(ApiKeyInfo::as_select())
            .load(&mut *self.read()?)?)
    }

    /// Revokes a key by id. False if there is no such active key.
    pub fn revoke_key(&self, id: &str) -> Result<bool, DbError> {
        let target = api_keys::table.filter(api_keys::id.eq(id).and(api_keys::revoked_at.is_null()));
        let updated = self.write(|conn| {
            diesel::update(target)
                .set(api_keys::revoked_at.eq(sql::<diesel::sql_types::Nullable<Text>>(NOW)))
                .execute(conn)
        })??;
        Ok(updated > 0)
    }

    /// The owner of an active key, if the secret is one.
    pub fn key_owner(&self, secret: &str) -> Result<Option<KeyOwner>, DbError> {
        let row: Option<(String, String)> = api_keys::table
            .filter(api_keys::key_hash.eq(digest(secret)).and(api_keys::revoked_at.is_null()))
            .select((api_keys::id, api_keys::tenant))
            .first(&mut *self.read()?)
            .optional()?;
        Ok(row.map(|(key_id, tenant)| KeyOwner { key_id, tenant }))
    }

    /// The key with this secret, revoked or not.
    pub fn key_by_secret(&self, secret: &str) -> Result<Option<ApiKeyInfo>, DbError> {
        Ok(api_keys::table
            .filter(api_keys::key_hash.eq(digest(secret)))
            .select(ApiKeyInfo::as_select())
            .first(&mut *self.read()?)
            .optional()?)
    }

    /// Whether any key was ever created, revoked ones included. Once one was, every API request
    /// needs a key: revoking the last key locks the service rather than reopening it.
    pub fn has_keys(&self) -> Result<bool, DbError> {
        Ok(diesel::select(diesel::dsl::exists(api_keys::table.select(api_keys::id)))
            .get_result(&mut *self.read()?)?)
    }
}
