//! API keys. Only a SHA-256 digest of each key is stored; keys are 256-bit random secrets, so a
//! fast hash is enough (no password stretching needed) and lookups go straight to the digest.

use super::Store;
use super::clock::utc_now;
use super::postgres::Notice;
use crate::error::DbError;
use crate::schema::api_keys;
use diesel::prelude::*;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::{Duration, Instant};

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
    hex(&Sha256::digest(secret.as_bytes()))
}

/// Lower-case hex of `bytes`, without a formatter call per byte.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        out.push(char::from(DIGITS[usize::from(byte >> 4)]));
        out.push(char::from(DIGITS[usize::from(byte & 0x0f)]));
    }
    out
}

impl Store {
    /// Stores a new key (its digest) for a tenant.
    pub fn create_key(&self, id: &str, tenant: &str, secret: &str) -> Result<(), DbError> {
        let row = (api_keys::id.eq(id), api_keys::tenant.eq(tenant), api_keys::key_hash.eq(digest(secret)));
        self.write(|conn| {
            diesel::insert_into(api_keys::table).values(row).execute(conn).map_err(DbError::from)
        })?;
        self.keys.exist.store(true, Ordering::SeqCst);
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
            let updated =
                diesel::update(target).set(api_keys::revoked_at.eq(Some(utc_now()))).execute(conn)?;
            if updated > 0 {
                self.tell(conn, &Notice::KeyRevoked)?;
            }
            Ok::<_, DbError>(updated)
        })?;
        self.keys.forget_owners();
        Ok(updated > 0)
    }

    /// The owner of an active key, if the secret is one, read from the database (and remembered:
    /// see [`Store::known_key_owner`]).
    pub fn key_owner(&self, secret: &str) -> Result<Option<KeyOwner>, DbError> {
        let hash = digest(secret);
        let row: Option<(String, String)> = api_keys::table
            .filter(api_keys::key_hash.eq(&hash).and(api_keys::revoked_at.is_null()))
            .select((api_keys::id, api_keys::tenant))
            .get_result(&mut *self.read()?)
            .optional()?;
        let owner = row.map(|(key_id, tenant)| KeyOwner { key_id, tenant });
        if let Some(owner) = &owner {
            self.keys.remember(hash, owner.clone());
        }
        Ok(owner)
    }

    /// The owner of an active key when it is known without reading the database: the key was
    /// found active less than [`KEYS_RECHECK`] ago and not revoked by this process since. A key
    /// revoked by another process (`skirmish keys revoke` while the server runs) is refused
    /// within that time; in this process at once. Unknown keys are never remembered.
    pub fn known_key_owner(&self, secret: &str) -> Option<KeyOwner> {
        self.keys.owner(&digest(secret))
    }

    /// The key with this secret, revoked or not.
    pub fn key_by_secret(&self, secret: &str) -> Result<Option<ApiKeyInfo>, DbError> {
        Ok(api_keys::table
            .filter(api_keys::key_hash.eq(digest(secret)))
            .select(ApiKeyInfo::as_select())
            .get_result(&mut *self.read()?)
            .optional()?)
    }

    /// Whether any key was ever created, revoked ones included, read from the database. Once
    /// one was, every API request needs a key: revoking the last key locks the service rather
    /// than reopening it.
    pub fn has_keys(&self) -> Result<bool, DbError> {
        let mut checked = self.keys.checked();
        let exist = self.keys.exist.load(Ordering::SeqCst)
            || diesel::select(diesel::dsl::exists(api_keys::table.select(api_keys::id)))
                .get_result(&mut *self.read()?)?;
        self.keys.exist.fetch_or(exist, Ordering::SeqCst);
        *checked = Some(Instant::now());
        Ok(exist)
    }

    /// [`Store::has_keys`] when it is known without reading the database: always once a key
    /// exists, and for [`KEYS_RECHECK`] after a read found none. `None` when a read is due.
    pub fn keys_known(&self) -> Option<bool> {
        if self.keys.exist.load(Ordering::SeqCst) {
            return Some(true);
        }
        let recent = self.keys.checked().is_some_and(|at| at.elapsed() < KEYS_RECHECK);
        recent.then_some(false)
    }
}
/// How stale what is known of keys may be: a key made by another process (`skirmish keys
/// create` while the server runs open) ends open mode within this time, and a key revoked by
/// another process is refused within it. In this process both take effect at once.
pub const KEYS_RECHECK: Duration = Duration::from_secs(1);

/// Whether any key exists, known in memory so that open mode reads nothing per request. Shared
/// by every [`Store`] on the same database file in this process. Keys are never deleted (only
/// revoked), so once true it stays true.
pub(crate) struct KeysKnown {
    exist: AtomicBool,
    checked: Mutex<Option<Instant>>,
    /// Active keys found recently: digest → owner and when it was read.
    owners: Mutex<HashMap<String, (KeyOwner, Instant)>>,
}

/// Most active keys remembered at once; past it the memory starts afresh.
const MAX_REMEMBERED_KEYS: usize = 4096;

impl KeysKnown {
    pub(crate) fn for_path(path: &str) -> Arc<Self> {
        static KNOWN: OnceLock<Mutex<HashMap<String, Arc<KeysKnown>>>> = OnceLock::new();
        let mut known = KNOWN.get_or_init(Mutex::default).lock().unwrap_or_else(PoisonError::into_inner);
        let fresh = || {
            let owners = Mutex::default();
            Arc::new(KeysKnown { exist: AtomicBool::new(false), checked: Mutex::new(None), owners })
        };
        known.entry(path.to_owned()).or_insert_with(fresh).clone()
    }

    fn checked(&self) -> MutexGuard<'_, Option<Instant>> {
        self.checked.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn owners(&self) -> MutexGuard<'_, HashMap<String, (KeyOwner, Instant)>> {
        self.owners.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn remember(&self, digest: String, owner: KeyOwner) {
        let mut owners = self.owners();
        if owners.len() >= MAX_REMEMBERED_KEYS {
            owners.clear();
        }
        owners.insert(digest, (owner, Instant::now()));
    }

    fn owner(&self, digest: &str) -> Option<KeyOwner> {
        let owners = self.owners();
        let (owner, read_at) = owners.get(digest)?;
        (read_at.elapsed() < KEYS_RECHECK).then(|| owner.clone())
    }

    pub(super) fn forget_owners(&self) {
        self.owners().clear();
    }
}
