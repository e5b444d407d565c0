#![expect(clippy::unwrap_used, reason = "a failed step should fail the test loudly")]
//! Viewer links against a real SQLite file: scoped to one tenant's encounter, capped, stored as
//! digests, revoked for good, and deleted with their encounter.

mod common;
use common::created_for;
use skirmish_db::{MAX_VIEWERS_PER_ENCOUNTER, NewViewer, Store, ViewerCreated, viewer_token_digest};
use skirmish_domain::encounter::EncounterId;

fn store(dir: &tempfile::TempDir) -> Store {
    Store::open(&dir.path().join("viewers.db").display().to_string()).unwrap()
}

fn link<'a>(id: &'a str, token: &'a str) -> NewViewer<'a> {
    NewViewer { id, token, label: Some("overlay"), expires_in_seconds: None }
}

#[test]
fn a_link_is_made_only_for_the_tenants_own_encounter_and_only_its_digest_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let store = store(&dir);
    let encounter = created_for(&store, "guild", "e1");

    let made = store.create_viewer("guild", &encounter, &link("vwl_1", "vwr_one")).unwrap();
    let other_tenant = store.create_viewer("rivals", &encounter, &link("vwl_2", "vwr_two")).unwrap();
    let missing = store.create_viewer("guild", &EncounterId("nope".into()), &link("vwl_3", "vwr_3")).unwrap();

    let ViewerCreated::Created(created) = made else { panic!("not created: {made:?}") };
    let (info, grant) = *created;
    assert_eq!((info.id.as_str(), info.label.as_deref(), info.expires_at), ("vwl_1", Some("overlay"), None));
    assert_eq!((grant.tenant.as_str(), grant.encounter_id.as_str()), ("guild", "e1"));
    assert_eq!((other_tenant, missing), (ViewerCreated::NoEncounter, ViewerCreated::NoEncounter));
    assert_eq!(store.list_viewers("rivals", &encounter).unwrap(), None, "another tenant sees no list");
    let grants = store.active_viewer_grants().unwrap();
    assert_eq!(grants.len(), 1);
    assert_eq!(grants[0].0, viewer_token_digest("vwr_one"), "held by digest");
    let raw = std::fs::read(dir.path().join("viewers.db")).unwrap();
    assert!(!raw.windows(7).any(|w| w == b"vwr_one"), "the token itself is not stored");
}

#[test]
fn links_are_capped_revoked_for_good_and_deleted_with_their_encounter() {
    let dir = tempfile::tempdir().unwrap();
    let store = store(&dir);
    let encounter = created_for(&store, "guild", "e1");
    for n in 0..MAX_VIEWERS_PER_ENCOUNTER {
        let (id, token) = (format!("vwl_{n}"), format!("vwr_{n}"));
        let made = store.create_viewer("guild", &encounter, &link(&id, &token)).unwrap();
        assert!(matches!(made, ViewerCreated::Created(_)), "link {n}");
    }

    let one_more = store.create_viewer("guild", &encounter, &link("vwl_x", "vwr_x")).unwrap();
    let by_rival = store.revoke_viewer("rivals", &encounter, "vwl_0").unwrap();
    let revoked = store.revoke_viewer("guild", &encounter, "vwl_0").unwrap();
    let again = store.revoke_viewer("guild", &encounter, "vwl_0").unwrap();

    assert_eq!(one_more, ViewerCreated::TooMany);
    assert_eq!((by_rival, revoked, again), (false, true, false));
    let active = store.active_viewer_grants().unwrap();
    assert_eq!(active.len() as i64, MAX_VIEWERS_PER_ENCOUNTER - 1);
    assert!(active.iter().all(|(_, grant)| grant.viewer_id != "vwl_0"));
    let listed = store.list_viewers("guild", &encounter).unwrap().unwrap();
    assert!(listed.iter().any(|info| info.id == "vwl_0" && info.revoked_at.is_some()));
    assert!(store.delete("guild", &encounter).unwrap());
    assert!(store.active_viewer_grants().unwrap().is_empty(), "deleted with the encounter");
}
