//! Encounters as last answered to `GET /v1/encounters/{id}`, kept by version with the tenant that
//! owns them. An encounter's JSON at one version never changes (every change bumps the version),
//! so the kept body is the answer whenever the encounter is still at the kept version: known with
//! no SQL when the store's record of its own commits says so (`Store::settled_version`, trusted
//! because a server holds its database file exclusively), else checked with one statement.
//! Otherwise the encounter is read in full and rendered again.

use actix_web::web::Bytes;
use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};

/// Most bytes of bodies kept; past it the memory starts afresh.
const MAX_BYTES: usize = 16 * 1024 * 1024;

#[derive(Default)]
pub struct RenderedEncounters {
    kept: Mutex<Kept>,
}

#[derive(Default)]
struct Kept {
    /// Encounter id → its body as kept.
    bodies: HashMap<String, Body>,
    bytes: usize,
}

struct Body {
    version: i64,
    tenant: String,
    json: Bytes,
}

impl RenderedEncounters {
    fn kept(&self) -> MutexGuard<'_, Kept> {
        self.kept.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The version of the kept body of `id`, if one is kept.
    pub fn version_of(&self, id: &str) -> Option<i64> {
        self.kept().bodies.get(id).map(|body| body.version)
    }

    /// The kept body of `id` at `version`.
    pub fn body(&self, id: &str, version: i64) -> Option<Bytes> {
        let kept = self.kept();
        let body = kept.bodies.get(id)?;
        (body.version == version).then(|| body.json.clone())
    }

    /// The kept body of `id` at `version` if it belongs to `tenant`.
    pub fn body_of_tenant(&self, id: &str, tenant: &str, version: i64) -> Option<Bytes> {
        let kept = self.kept();
        let body = kept.bodies.get(id)?;
        (body.version == version && body.tenant == tenant).then(|| body.json.clone())
    }

    /// Keeps `json` as the body of `id` at `version`, owned by `tenant`, unless it is older than
    /// `settled` (the version the store last recorded as committed) or than the body kept: a read
    /// that raced a change never puts back an older body.
    pub fn keep(&self, id: String, tenant: &str, version: i64, json: Bytes, settled: Option<i64>) {
        if settled.is_some_and(|settled| version < settled) {
            return;
        }
        let mut kept = self.kept();
        if kept.bodies.get(&id).is_some_and(|body| body.version > version) {
            return;
        }
        if kept.bytes + json.len() > MAX_BYTES {
            kept.bodies.clear();
            kept.bytes = 0;
        }
        kept.bytes += json.len();
        let body = Body { version, tenant: tenant.to_owned(), json };
        if let Some(old) = kept.bodies.insert(id, body) {
            kept.bytes -= old.json.len();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_is_given_only_for_its_own_version_and_a_newer_one_replaces_it() {
        let rendered = RenderedEncounters::default();
        rendered.keep("enc_1".into(), "t", 3, Bytes::from_static(b"{\"version\":3}"), None);

        let at_three = rendered.body("enc_1", 3);
        let at_four = rendered.body("enc_1", 4);
        rendered.keep("enc_1".into(), "t", 4, Bytes::from_static(b"{\"version\":4}"), Some(4));

        assert_eq!(at_three.as_deref(), Some(&b"{\"version\":3}"[..]));
        assert_eq!(at_four, None);
        assert_eq!(rendered.version_of("enc_1"), Some(4));
        assert_eq!(rendered.body("enc_1", 3), None);
        assert_eq!(rendered.kept().bytes, 13, "the replaced body no longer counts");
    }

    #[test]
    fn an_older_body_than_the_kept_or_the_settled_version_is_not_kept() {
        let rendered = RenderedEncounters::default();
        rendered.keep("enc_1".into(), "t", 5, Bytes::from_static(b"5"), None);

        rendered.keep("enc_1".into(), "t", 4, Bytes::from_static(b"4"), None);
        rendered.keep("enc_2".into(), "t", 2, Bytes::from_static(b"2"), Some(3));

        assert_eq!(rendered.version_of("enc_1"), Some(5), "a read that raced a change came late");
        assert_eq!(rendered.version_of("enc_2"), None, "the store already recorded version 3");
    }

    #[test]
    fn a_body_is_given_to_its_own_tenant_only() {
        let rendered = RenderedEncounters::default();
        rendered.keep("enc_1".into(), "alpha", 1, Bytes::from_static(b"1"), None);

        assert_eq!(rendered.body_of_tenant("enc_1", "alpha", 1).as_deref(), Some(&b"1"[..]));
        assert_eq!(rendered.body_of_tenant("enc_1", "beta", 1), None);
        assert_eq!(rendered.body_of_tenant("enc_1", "alpha", 2), None);
    }
}
