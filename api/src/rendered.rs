//! Encounters as last answered to `GET /v1/encounters/{id}`, kept by version with the tenant that
//! owns them. An encounter's JSON at one version never changes (every change bumps the version),
//! so the kept body is the answer whenever the encounter is still at the kept version: known with
//! no SQL when the store's record of its own commits says so (`Store::settled_version`, trusted
//! because a server holds its database file exclusively), else checked with one statement.
//! Otherwise the encounter is read in full and rendered again.

use actix_web::http::header::{HeaderValue, InvalidHeaderValue};
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
    answer: Answer,
    tenant: String,
}

/// The answer to `GET` of one encounter at one version: its JSON and its `ETag`, made once
/// (cloning shares both).
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    pub version: i64,
    pub etag: HeaderValue,
    pub json: Bytes,
}

impl Answer {
    pub fn new(version: i64, json: Bytes) -> Result<Self, InvalidHeaderValue> {
        Ok(Self { version, etag: HeaderValue::try_from(format!("\"{version}\""))?, json })
    }
}

impl RenderedEncounters {
    fn kept(&self) -> MutexGuard<'_, Kept> {
        self.kept.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The version of the kept body of `id`, if one is kept.
    pub fn version_of(&self, id: &str) -> Option<i64> {
        self.kept().bodies.get(id).map(|body| body.answer.version)
    }

    /// The kept answer for `id` at `version`.
    pub fn body(&self, id: &str, version: i64) -> Option<Answer> {
        let kept = self.kept();
        let body = kept.bodies.get(id)?;
        (body.answer.version == version).then(|| body.answer.clone())
    }

    /// The kept answer for `id` at `version` if it belongs to `tenant`.
    pub fn body_of_tenant(&self, id: &str, tenant: &str, version: i64) -> Option<Answer> {
        let kept = self.kept();
        let body = kept.bodies.get(id)?;
        (body.answer.version == version && body.tenant == tenant).then(|| body.answer.clone())
    }

    /// Keeps `answer` for `id`, owned by `tenant`, unless it is older than `settled` (the version
    /// the store last recorded as committed) or than the answer kept: a read that raced a change
    /// never puts back an older body.
    pub fn keep(&self, id: String, tenant: &str, answer: Answer, settled: Option<i64>) {
        if settled.is_some_and(|settled| answer.version < settled) {
            return;
        }
        let mut kept = self.kept();
        if kept.bodies.get(&id).is_some_and(|body| body.answer.version > answer.version) {
            return;
        }
        let size = answer.json.len();
        if kept.bytes + size > MAX_BYTES {
            kept.bodies.clear();
            kept.bytes = 0;
        }
        kept.bytes += size;
        if let Some(old) = kept.bodies.insert(id, Body { answer, tenant: tenant.to_owned() }) {
            kept.bytes -= old.answer.json.len();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(version: i64, json: &'static [u8]) -> Answer {
        Answer::new(version, Bytes::from_static(json)).unwrap()
    }

    #[test]
    fn a_body_is_given_only_for_its_own_version_and_a_newer_one_replaces_it() {
        let rendered = RenderedEncounters::default();
        rendered.keep("enc_1".into(), "t", answer(3, b"{\"version\":3}"), None);

        let at_three = rendered.body("enc_1", 3);
        let at_four = rendered.body("enc_1", 4);
        rendered.keep("enc_1".into(), "t", answer(4, b"{\"version\":4}"), Some(4));

        assert_eq!(
            at_three.map(|a| (a.json, a.etag)),
            Some((Bytes::from_static(b"{\"version\":3}"), HeaderValue::from_static("\"3\"")))
        );
        assert_eq!(at_four, None);
        assert_eq!(rendered.version_of("enc_1"), Some(4));
        assert_eq!(rendered.body("enc_1", 3), None);
        assert_eq!(rendered.kept().bytes, 13, "the replaced body no longer counts");
    }

    #[test]
    fn an_older_body_than_the_kept_or_the_settled_version_is_not_kept() {
        let rendered = RenderedEncounters::default();
        rendered.keep("enc_1".into(), "t", answer(5, b"5"), None);

        rendered.keep("enc_1".into(), "t", answer(4, b"4"), None);
        rendered.keep("enc_2".into(), "t", answer(2, b"2"), Some(3));

        assert_eq!(rendered.version_of("enc_1"), Some(5), "a read that raced a change came late");
        assert_eq!(rendered.version_of("enc_2"), None, "the store already recorded version 3");
    }

    #[test]
    fn a_body_is_given_to_its_own_tenant_only() {
        let rendered = RenderedEncounters::default();
        rendered.keep("enc_1".into(), "alpha", answer(1, b"1"), None);

        assert_eq!(rendered.body_of_tenant("enc_1", "alpha", 1), Some(answer(1, b"1")));
        assert_eq!(rendered.body_of_tenant("enc_1", "beta", 1), None);
        assert_eq!(rendered.body_of_tenant("enc_1", "alpha", 2), None);
    }
}
