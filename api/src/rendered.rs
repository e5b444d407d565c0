//! Encounters as last answered to `GET /v1/encounters/{id}`, kept by version. An encounter's JSON
//! at one version never changes (every change bumps the version), so when a read transaction
//! finds the encounter still at the kept version (one statement) the kept body is the answer;
//! otherwise the encounter is read in full and rendered again. Changes made by another process
//! bump the version too, so they are never missed.

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
    /// Encounter id → its version and body.
    bodies: HashMap<String, (i64, Bytes)>,
    bytes: usize,
}

impl RenderedEncounters {
    fn kept(&self) -> MutexGuard<'_, Kept> {
        self.kept.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The version of the kept body of `id`, if one is kept.
    pub fn version_of(&self, id: &str) -> Option<i64> {
        self.kept().bodies.get(id).map(|(version, _)| *version)
    }

    /// The kept body of `id` at `version`.
    pub fn body(&self, id: &str, version: i64) -> Option<Bytes> {
        let kept = self.kept();
        let (kept_version, body) = kept.bodies.get(id)?;
        (*kept_version == version).then(|| body.clone())
    }

    pub fn keep(&self, id: String, version: i64, body: Bytes) {
        let mut kept = self.kept();
        if kept.bytes + body.len() > MAX_BYTES {
            kept.bodies.clear();
            kept.bytes = 0;
        }
        kept.bytes += body.len();
        if let Some((_, old)) = kept.bodies.insert(id, (version, body)) {
            kept.bytes -= old.len();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_is_given_only_for_its_own_version_and_a_newer_one_replaces_it() {
        let rendered = RenderedEncounters::default();
        rendered.keep("enc_1".into(), 3, Bytes::from_static(b"{\"version\":3}"));

        let at_three = rendered.body("enc_1", 3);
        let at_four = rendered.body("enc_1", 4);
        rendered.keep("enc_1".into(), 4, Bytes::from_static(b"{\"version\":4}"));

        assert_eq!(at_three.as_deref(), Some(&b"{\"version\":3}"[..]));
        assert_eq!(at_four, None);
        assert_eq!(rendered.version_of("enc_1"), Some(4));
        assert_eq!(rendered.body("enc_1", 3), None);
        assert_eq!(rendered.kept().bytes, 13, "the replaced body no longer counts");
    }
}
