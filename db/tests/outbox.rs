#![expect(clippy::unwrap_used, reason = "a failed step should fail the test loudly")]
//! The webhook outbox: one delivery per (subscription, wanted event), written in the change's own
//! savepoint, so a refused change leaves none; deliveries are due at once, and keep their id.

mod common;
use common::{add_goblin, created_for, version_body};
use skirmish_db::{
    AfterAttempt, Attempt, IdempotencyKey, Mutation, NewWebhook, Store, StoredResponse, now_ms,
};
use skirmish_domain::encounter::EncounterError;

const TENANT: &str = "guild";

fn store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("outbox.db").display().to_string()).unwrap();
    (dir, store)
}

fn hook(id: &str, tenant: &str, kinds: &[&str]) -> NewWebhook {
    NewWebhook {
        id: id.into(),
        tenant: tenant.into(),
        url: "http://127.0.0.1:9/hook".into(),
        kinds: kinds.iter().map(|k| (*k).to_owned()).collect(),
        encounter_id: None,
        format: "standard".into(),
        secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw".into(),
    }
}

fn due(store: &Store) -> Vec<(String, i64, String)> {
    let due = store.due_deliveries(now_ms() + 1, 100, &[]).unwrap();
    due.into_iter().map(|d| (d.webhook_id, d.seq, d.kind)).collect()
}

/// A response that cannot be rendered: it fails after the events and their deliveries were
/// written, so only the savepoint's rollback can take them back.
fn unrenderable(_: Mutation<()>) -> Result<StoredResponse, EncounterError> {
    Err(EncounterError::Conflict("cannot render".into()))
}

#[test]
fn each_subscription_gets_one_delivery_per_wanted_event_of_its_tenant() {
    let (_dir, store) = store();
    store.create_webhook(&hook("wh_all", TENANT, &[])).unwrap().unwrap();
    store.create_webhook(&hook("wh_adds", TENANT, &["combatant_added"])).unwrap().unwrap();
    store.create_webhook(&hook("wh_other", "rivals", &[])).unwrap().unwrap();

    let id = created_for(&store, TENANT, "enc_1");
    store.mutate(TENANT, &id, None, None, add_goblin, version_body::<(), EncounterError>).unwrap();

    let mut listed = due(&store);
    listed.sort();
    assert_eq!(
        listed,
        [
            ("wh_adds".into(), 2, "combatant_added".into()),
            ("wh_all".into(), 1, "encounter_created".into()),
            ("wh_all".into(), 2, "combatant_added".into()),
        ]
    );
}

#[test]
fn no_subscription_or_a_rolled_back_change_writes_no_delivery() {
    let (_dir, store) = store();
    let id = created_for(&store, TENANT, "enc_1");
    store.mutate(TENANT, &id, None, None, add_goblin, version_body::<(), EncounterError>).unwrap();
    assert!(due(&store).is_empty(), "nobody subscribed");

    store.create_webhook(&hook("wh_all", TENANT, &[])).unwrap().unwrap();
    // A response that a key keeps is rendered in the savepoint; its failure rolls the change back.
    let key = IdempotencyKey { key: "k1".into(), fingerprint: "f1".into() };
    let outcome = store.mutate(TENANT, &id, None, Some(&key), add_goblin, unrenderable);

    assert!(outcome.is_err());
    assert!(due(&store).is_empty(), "the rolled-back savepoint took its deliveries with it");
}

#[test]
fn subscriptions_are_capped_per_tenant_and_deleting_one_stops_its_deliveries() {
    let (_dir, store) = store();
    for n in 0..skirmish_db::MAX_WEBHOOKS_PER_TENANT {
        assert!(store.create_webhook(&hook(&format!("wh_{n}"), TENANT, &["none"])).unwrap().is_some());
    }
    assert!(store.create_webhook(&hook("wh_one_more", TENANT, &[])).unwrap().is_none(), "capped");
    assert!(store.delete_webhook(TENANT, "wh_0").unwrap());
    store.create_webhook(&hook("wh_all", TENANT, &[])).unwrap().unwrap();
    created_for(&store, TENANT, "enc_1");
    assert_eq!(due(&store).len(), 1);

    assert!(!store.delete_webhook("rivals", "wh_all").unwrap(), "not theirs");
    assert!(store.delete_webhook(TENANT, "wh_all").unwrap());

    assert!(due(&store).is_empty());
    assert!(store.deliveries(TENANT, "wh_all", 0, 10).unwrap().is_none());
}

#[test]
fn the_store_knows_without_a_query_whether_any_subscription_exists() {
    let (dir, store) = store();
    assert!(!store.has_webhooks());
    store.create_webhook(&hook("wh_all", TENANT, &[])).unwrap().unwrap();
    created_for(&store, TENANT, "enc_1");
    assert!(store.has_webhooks());
    assert_eq!(due(&store).len(), 1);

    let reopened = Store::open(&dir.path().join("outbox.db").display().to_string()).unwrap();
    assert!(reopened.has_webhooks(), "loaded when the store opens");
    assert!(store.delete_webhook(TENANT, "wh_all").unwrap());

    assert!(!store.has_webhooks());
    assert!(due(&store).is_empty(), "no subscription, so nothing pending: the deliverer may skip the outbox");
}

#[test]
fn an_attempt_is_recorded_and_a_retry_keeps_the_delivery_id() {
    let (_dir, store) = store();
    store.create_webhook(&hook("wh_all", TENANT, &[])).unwrap().unwrap();
    created_for(&store, TENANT, "enc_1");
    let first = store.due_deliveries(now_ms() + 1, 10, &[]).unwrap().remove(0);
    let failed = Attempt { at_ms: 1_000, status_code: Some(500), error: None };

    store.record_attempt(&first, &failed, AfterAttempt::RetryAt { at_ms: 0, counted: true }, None).unwrap();

    let again = store.due_deliveries(now_ms() + 1, 10, &[]).unwrap().remove(0);
    assert_eq!((again.id.clone(), again.attempts, again.failures), (first.id.clone(), 1, 1));
    assert!(first.id.starts_with("msg_"));
    let delivered = Attempt { at_ms: 2_000, status_code: Some(204), error: None };
    store.record_attempt(&again, &delivered, AfterAttempt::Delivered, None).unwrap();
    assert!(due(&store).is_empty());
    let listed = store.deliveries(TENANT, "wh_all", 0, 10).unwrap().unwrap();
    assert_eq!(listed[0].status, "delivered");
    assert_eq!(listed[0].attempts.iter().map(|a| a.status_code).collect::<Vec<_>>(), [Some(500), Some(204)]);
    assert!(store.deliveries("rivals", "wh_all", 0, 10).unwrap().is_none(), "another tenant's");
}
