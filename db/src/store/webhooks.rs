//! Webhook subscriptions. Every change asks which of its tenant's subscriptions want its events,
//! so the subscriptions are kept in memory (loaded when the store opens, refreshed by every
//! create and delete): with none, a change costs one atomic load.

use super::Store;
use super::clock::utc_now;
use super::postgres::Notice;
use crate::backend::DbConnection;
use crate::error::DbError;
use crate::schema::webhooks;
use diesel::dsl::count_star;
use diesel::prelude::*;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock, PoisonError, RwLock};

/// Most subscriptions one tenant may hold.
pub const MAX_WEBHOOKS_PER_TENANT: i64 = 25;

/// A subscription as listed: never its secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Webhook {
    pub id: String,
    pub tenant: String,
    pub url: String,
    /// Event kinds it wants; empty = every kind.
    pub kinds: Vec<String>,
    /// The one encounter it follows, if any.
    pub encounter_id: Option<String>,
    /// `standard` or `discord`.
    pub format: String,
    pub created_at: String,
}

impl Webhook {
    /// Whether it wants an event of `kind` in `encounter`.
    pub fn wants(&self, encounter: &str, kind: &str) -> bool {
        self.encounter_id.as_deref().is_none_or(|only| only == encounter)
            && (self.kinds.is_empty() || self.kinds.iter().any(|k| k == kind))
    }
}

/// A subscription to store: its secret is kept to sign deliveries.
#[derive(Debug, Clone)]
pub struct NewWebhook {
    pub id: String,
    pub tenant: String,
    pub url: String,
    pub kinds: Vec<String>,
    pub encounter_id: Option<String>,
    pub format: String,
    pub secret: String,
}

#[derive(Queryable, Selectable)]
#[diesel(table_name = webhooks)]
struct WebhookRow {
    id: String,
    tenant: String,
    url: String,
    kinds: String,
    encounter_id: Option<String>,
    format: String,
    created_at: String,
}

impl TryFrom<WebhookRow> for Webhook {
    type Error = DbError;

    fn try_from(row: WebhookRow) -> Result<Self, DbError> {
        let kinds =
            serde_json::from_str(&row.kinds).map_err(|e| DbError::Corrupt(format!("webhook kinds: {e}")))?;
        let WebhookRow { id, tenant, url, encounter_id, format, created_at, .. } = row;
        Ok(Self { id, tenant, url, kinds, encounter_id, format, created_at })
    }
}

/// Subscriptions by tenant, as the database holds them, and who to wake when a change wrote
/// deliveries.
#[derive(Default)]
pub(crate) struct Subscriptions {
    any: AtomicBool,
    by_tenant: RwLock<HashMap<String, Arc<[Webhook]>>>,
    wake: OnceLock<Box<dyn Fn() + Send + Sync>>,
}

impl Subscriptions {
    /// The tenant's subscriptions, if it has any; nothing is locked when no tenant has one.
    pub(crate) fn of(&self, tenant: &str) -> Option<Arc<[Webhook]>> {
        if !self.any.load(Ordering::Acquire) {
            return None;
        }
        self.by_tenant.read().unwrap_or_else(PoisonError::into_inner).get(tenant).cloned()
    }

    pub(super) fn replace(&self, tenant: &str, hooks: Vec<Webhook>) {
        let mut by_tenant = self.by_tenant.write().unwrap_or_else(PoisonError::into_inner);
        if hooks.is_empty() {
            by_tenant.remove(tenant);
        } else {
            by_tenant.insert(tenant.to_owned(), hooks.into());
        }
        self.any.store(!by_tenant.is_empty(), Ordering::Release);
    }

    /// Tells the deliverer that deliveries were committed.
    pub(crate) fn wake(&self) {
        if let Some(wake) = self.wake.get() {
            wake();
        }
    }
}

impl Store {
    /// Loads every subscription into memory (once, when the store opens).
    pub(super) fn load_subscriptions(&self) -> Result<(), DbError> {
        let rows: Vec<WebhookRow> = webhooks::table
            .order(webhooks::created_at)
            .select(WebhookRow::as_select())
            .load(&mut *self.read()?)?;
        let mut by_tenant: HashMap<String, Vec<Webhook>> = HashMap::new();
        for row in rows {
            let hook = Webhook::try_from(row)?;
            by_tenant.entry(hook.tenant.clone()).or_default().push(hook);
        }
        for (tenant, hooks) in by_tenant {
            self.subscriptions.replace(&tenant, hooks);
        }
        Ok(())
    }

    /// Whether any tenant holds a subscription (known in memory, no query). With none, no
    /// delivery is pending either: a subscription's deliveries are deleted with it.
    pub fn has_webhooks(&self) -> bool {
        self.subscriptions.any.load(Ordering::Acquire)
    }

    /// Calls `wake` after every commit that wrote deliveries. One per store; false if set.
    pub fn wake_deliverer_with(&self, wake: impl Fn() + Send + Sync + 'static) -> bool {
        self.subscriptions.wake.set(Box::new(wake)).is_ok()
    }

    /// Stores a subscription; `None` if its tenant already holds [`MAX_WEBHOOKS_PER_TENANT`].
    pub fn create_webhook(&self, new: &NewWebhook) -> Result<Option<Webhook>, DbError> {
        let kinds = serde_json::to_string(&new.kinds).map_err(|e| DbError::Corrupt(e.to_string()))?;
        let created = self.write(|conn| {
            let held: i64 = webhooks::table
                .filter(webhooks::tenant.eq(&new.tenant))
                .select(count_star())
                .get_result(conn)?;
            if held >= MAX_WEBHOOKS_PER_TENANT {
                return Ok::<_, DbError>(None);
            }
            let row = (
                webhooks::id.eq(&new.id),
                webhooks::tenant.eq(&new.tenant),
                webhooks::url.eq(&new.url),
                webhooks::kinds.eq(&kinds),
                webhooks::encounter_id.eq(&new.encounter_id),
                webhooks::format.eq(&new.format),
                webhooks::secret.eq(&new.secret),
                webhooks::created_at.eq(utc_now()),
            );
            diesel::insert_into(webhooks::table).values(row).execute(conn)?;
            self.tell(conn, &Notice::WebhooksChanged { tenant: new.tenant.clone() })?;
            let all = tenant_webhooks(conn, &new.tenant)?;
            let made = all.iter().find(|hook| hook.id == new.id).cloned();
            Ok(made.map(|made| (made, all)))
        })?;
        Ok(created.map(|(made, all)| {
            self.subscriptions.replace(&new.tenant, all);
            made
        }))
    }

    /// The tenant's subscriptions, oldest first.
    pub fn webhooks(&self, tenant: &str) -> Result<Vec<Webhook>, DbError> {
        tenant_webhooks(&mut *self.read()?, tenant)
    }

    /// The tenant's subscription `id`, if it has one.
    pub fn webhook(&self, tenant: &str, id: &str) -> Result<Option<Webhook>, DbError> {
        let row: Option<WebhookRow> = webhooks::table
            .filter(webhooks::id.eq(id).and(webhooks::tenant.eq(tenant)))
            .select(WebhookRow::as_select())
            .get_result(&mut *self.read()?)
            .optional()?;
        row.map(Webhook::try_from).transpose()
    }

    /// Deletes the tenant's subscription with its deliveries; false if there is none.
    pub fn delete_webhook(&self, tenant: &str, id: &str) -> Result<bool, DbError> {
        let target = webhooks::table.filter(webhooks::id.eq(id).and(webhooks::tenant.eq(tenant)));
        let remaining = self.write(|conn| {
            let deleted = diesel::delete(target).execute(conn)?;
            if deleted > 0 {
                self.tell(conn, &Notice::WebhooksChanged { tenant: tenant.to_owned() })?;
            }
            let remaining = if deleted > 0 { Some(tenant_webhooks(conn, tenant)?) } else { None };
            Ok::<_, DbError>(remaining)
        })?;
        let deleted = remaining.is_some();
        if let Some(remaining) = remaining {
            self.subscriptions.replace(tenant, remaining);
        }
        Ok(deleted)
    }
}

pub(super) fn tenant_webhooks(conn: &mut DbConnection, tenant: &str) -> Result<Vec<Webhook>, DbError> {
    let rows: Vec<WebhookRow> = webhooks::table
        .filter(webhooks::tenant.eq(tenant))
        .order((webhooks::created_at, webhooks::id))
        .select(WebhookRow::as_select())
        .load(conn)?;
    rows.into_iter().map(Webhook::try_from).collect()
}
