//! /v1/webhooks over the real app: subscriptions, signed deliveries from the outbox, retries
//! with the same `webhook-id`, deliveries resumed after a SIGKILL, Discord's body and limits, and
//! the destination rule. A receiver on 127.0.0.1 (`webhook_receiver.rs`) plays the subscriber.

use crate::binary::{Binary, install_tls_provider};
use crate::helpers::{TestApp, cepheus, spawn_app, spawn_app_with, spawn_app_with_keys, text};
use crate::webhook_receiver::{Received, Receiver, plain, signature_is_valid};
use base64::Engine;
use reqwest::Method;
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashSet};
use std::time::Duration;

/// Longest wait for deliveries (they normally arrive within milliseconds of the commit).
const DELIVERY_WAIT: Duration = Duration::from_secs(15);

/// The app with private destinations allowed (the receiver is on loopback) and retries after
/// about 50 ms instead of 5 s.
async fn webhook_app() -> TestApp {
    spawn_app_with(&[], |settings| {
        settings.webhooks.webhooks_allow_private = true;
        settings.webhooks.webhooks_retry_base_ms = 50;
    })
    .await
    .0
}

async fn subscribe(app: &TestApp, body: Value) -> (String, String) {
    let created = app.post_json("/v1/webhooks", &body).await.expect_status(201, "create a webhook").body;
    (text(&created["id"]), text(&created["secret"]))
}

/// The ids of requests answered 2xx.
fn delivered_ids(received: &[Received]) -> HashSet<String> {
    received
        .iter()
        .filter(|r| (200..300).contains(&r.answered))
        .map(|r| r.header("webhook-id").to_owned())
        .collect()
}

/// What a subscriber that applies each `webhook-id` once ends up with: seq → body.
fn applied_once(received: &[Received]) -> BTreeMap<i64, Value> {
    let mut seen = HashSet::new();
    let mut applied = BTreeMap::new();
    for request in received.iter().filter(|r| (200..300).contains(&r.answered)) {
        if seen.insert(request.header("webhook-id").to_owned()) {
            let body = request.json();
            let seq = body["data"]["seq"].as_i64().unwrap_or_else(|| panic!("no seq in {body}"));
            assert!(applied.insert(seq, body).is_none(), "event {seq} delivered under two ids");
        }
    }
    applied
}

#[tokio::test]
async fn a_subscription_shows_its_secret_once_and_is_listed_fetched_and_deleted_per_tenant() {
    let (app, keys) = spawn_app_with_keys(&["guild", "rivals"]).await;
    let (guild, rivals) = (app.with_key(&keys[0]), app.with_key(&keys[1]));
    let body = json!({"url": "https://93.184.215.14/hooks/skirmish", "kinds": ["turn_started"], "format": "discord"});

    let created = guild.post_json("/v1/webhooks", &body).await.expect_status(201, "create").body;

    let id = text(&created["id"]);
    let secret = text(&created["secret"]);
    let raw =
        base64::engine::general_purpose::STANDARD.decode(secret.strip_prefix("whsec_").unwrap()).unwrap();
    assert_eq!(raw.len(), 32, "whsec_ + base64 of 32 random bytes");
    assert_eq!(created["kinds"], json!(["turn_started"]));
    assert_eq!((created["format"].clone(), created["encounter_id"].clone()), (json!("discord"), Value::Null));
    let listed = guild.get("/v1/webhooks").await.expect_status(200, "list").body;
    assert_eq!(listed["webhooks"].as_array().map(Vec::len), Some(1));
    assert!(listed["webhooks"][0].get("secret").is_none(), "never listed again: {listed}");
    let fetched = guild.get(&format!("/v1/webhooks/{id}")).await.expect_status(200, "get").body;
    assert!(fetched.get("secret").is_none());
    assert_eq!(fetched["url"], json!("https://93.184.215.14/hooks/skirmish"));
    assert_eq!(rivals.get("/v1/webhooks").await.body, json!({"webhooks": []}));
    rivals.get(&format!("/v1/webhooks/{id}")).await.expect_status(404, "another tenant's");
    rivals
        .send(Method::DELETE, &format!("/v1/webhooks/{id}"), None, &[])
        .await
        .expect_status(404, "not theirs");
    guild.send(Method::DELETE, &format!("/v1/webhooks/{id}"), None, &[]).await.expect_status(204, "delete");
    guild.get(&format!("/v1/webhooks/{id}")).await.expect_status(404, "deleted");
}

#[tokio::test]
async fn refused_subscriptions_name_the_field_and_store_nothing() {
    let app = spawn_app().await;
    let cases = [
        (json!({"url": "http://127.0.0.1:9/hook"}), "url", "loopback, without the self-hosting setting"),
        (json!({"url": "http://[::1]:9/hook"}), "url", "IPv6 loopback"),
        (json!({"url": "http://10.0.0.7/hook"}), "url", "a private address"),
        (json!({"url": "http://169.254.169.254/latest"}), "url", "link-local (cloud metadata)"),
        (json!({"url": "ftp://93.184.215.14/hook"}), "url", "not http(s)"),
        (json!({"url": format!("https://93.184.215.14/{}", "a".repeat(2100))}), "url", "too long"),
        (
            json!({"url": "https://93.184.215.14/", "kinds": vec!["turn_started"; 65]}),
            "kinds",
            "too many kinds",
        ),
        (json!({"url": "https://93.184.215.14/", "kinds": ["Turn Started"]}), "kinds[0]", "not a kind"),
    ];
    for (body, field, what) in cases {
        let reply = app.post_json("/v1/webhooks", &body).await.expect_status(422, what);
        assert_eq!(reply.body["field"], json!(field), "{what}: {}", reply.body);
    }
    let unknown =
        app.post_json("/v1/webhooks", &json!({"url": "https://93.184.215.14/", "secret": "x"})).await;
    unknown.expect_status(400, "an unknown field");
    assert_eq!(app.get("/v1/webhooks").await.body, json!({"webhooks": []}));
}

#[tokio::test]
async fn deliveries_are_signed_retried_after_a_500_under_the_same_id_and_applied_once() {
    let receiver = Receiver::start(|n, _| if n == 0 { plain(500, "not yet") } else { plain(204, "") });
    let app = webhook_app().await;
    let (hook, secret) = subscribe(&app, json!({"url": receiver.url})).await;

    let encounter = app.create_encounter_id("cepheus-engine", "Hooked").await;
    app.add_combatant(&encounter, "Ash", "crew", cepheus(7)).await;
    app.add_combatant(&encounter, "Kane", "crew", cepheus(8)).await;

    let events = app.events(&encounter).await;
    let received = receiver
        .wait_until(DELIVERY_WAIT, "every event delivered", |r| delivered_ids(r).len() == events.len())
        .await;
    assert!(received.iter().all(|r| signature_is_valid(&secret, r)), "every attempt is signed");
    let first = &received[0];
    assert_eq!(first.answered, 500);
    let retried: Vec<&Received> =
        received.iter().filter(|r| r.header("webhook-id") == first.header("webhook-id")).collect();
    assert_eq!(retried.len(), 2, "the 500 is retried once, under the same webhook-id");
    assert_eq!(retried[0].body, retried[1].body, "the same body");
    assert_eq!(received.len(), events.len() + 1, "one retry, no duplicate of a delivered event");
    let applied = applied_once(&received);
    assert_eq!(applied.keys().copied().collect::<Vec<_>>(), (1..=events.len() as i64).collect::<Vec<_>>());
    for (event, body) in events.iter().zip(applied.values()) {
        assert_eq!(body["type"], event["kind"]);
        assert_eq!(body["timestamp"], event["at"]);
        let expected = json!({"encounter_id": encounter, "seq": event["seq"], "kind": event["kind"],
                              "summary": event["summary"], "data": event["data"]});
        assert_eq!(body["data"], expected);
    }
    let first_seq = first.json()["data"]["seq"].as_i64().unwrap();
    let listed = wait_for_statuses(&app, &hook, events.len()).await;
    let retried_entry = &listed[first_seq as usize - 1];
    assert_eq!(retried_entry["id"], json!(first.header("webhook-id")));
    assert_eq!(super_statuses(&retried_entry["attempts"]), [json!(500), json!(204)]);
    assert_eq!(retried_entry["next_attempt_at"], Value::Null);
    let scrape =
        app.client.get(format!("{}/metrics", app.address)).send().await.unwrap_or_else(|e| panic!("{e}"));
    let metrics = scrape.text().await.unwrap_or_else(|e| panic!("{e}"));
    let outcomes = ["delivered", "retrying", "rate_limited", "failed"].map(|outcome| {
        let series = format!("skirmish_webhook_deliveries_total{{outcome=\"{outcome}\"}} ");
        metrics.lines().find_map(|line| line.strip_prefix(series.as_str())).map(str::to_owned)
    });
    let expected = [events.len().to_string(), "1".into(), "0".into(), "0".into()].map(Some);
    assert_eq!(outcomes, expected, "/metrics counts each attempt by what followed it");
}

fn super_statuses(attempts: &Value) -> Vec<Value> {
    attempts
        .as_array()
        .map(|list| list.iter().map(|a| a["status_code"].clone()).collect())
        .unwrap_or_default()
}

/// The subscription's deliveries once `count` of them are delivered.
async fn wait_for_statuses(app: &TestApp, hook: &str, count: usize) -> Vec<Value> {
    for _ in 0..500 {
        let page = app
            .get(&format!("/v1/webhooks/{hook}/deliveries?limit=100"))
            .await
            .expect_status(200, "deliveries");
        let list = page.body["deliveries"].as_array().cloned().unwrap_or_default();
        if list.iter().filter(|d| d["status"] == json!("delivered")).count() == count {
            return list;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("{count} deliveries of {hook} never showed as delivered");
}

#[tokio::test]
async fn kinds_and_encounter_filters_choose_what_is_delivered() {
    let receiver = Receiver::start(|_, _| plain(200, "ok"));
    let app = webhook_app().await;
    let watched = app.create_encounter_id("cepheus-engine", "Watched").await;
    let (hook, _) =
        subscribe(&app, json!({"url": receiver.url, "kinds": ["combatant_added"], "encounter_id": watched}))
            .await;
    let other = app.create_encounter_id("cepheus-engine", "Other").await;

    app.add_combatant(&other, "Elsewhere", "crew", cepheus(7)).await;
    app.add_combatant(&watched, "Ash", "crew", cepheus(7)).await;

    let received = receiver.wait_until(DELIVERY_WAIT, "one delivery", |r| !r.is_empty()).await;
    wait_for_statuses(&app, &hook, 1).await;
    let body = received[0].json();
    assert_eq!(
        (body["type"].clone(), body["data"]["encounter_id"].clone()),
        (json!("combatant_added"), json!(watched))
    );
    assert_eq!(body["data"]["summary"], json!("Ash joins the fight (crew)"));
    assert_eq!(receiver.received().len(), 1, "nothing else was wanted");
}

#[tokio::test]
async fn a_failing_destination_is_given_up_after_the_configured_attempts() {
    let receiver = Receiver::start(|_, _| plain(503, "down"));
    let (app, _) = spawn_app_with(&[], |settings| {
        settings.webhooks.webhooks_allow_private = true;
        settings.webhooks.webhooks_retry_base_ms = 20;
        settings.webhooks.webhooks_max_attempts = 3;
    })
    .await;
    let watched = app.create_encounter_id("cepheus-engine", "Doomed").await;
    let (hook, _) = subscribe(&app, json!({"url": receiver.url, "encounter_id": watched})).await;

    app.add_combatant(&watched, "Ash", "crew", cepheus(7)).await;

    receiver.wait_until(DELIVERY_WAIT, "three attempts", |r| r.len() >= 3).await;
    let mut listed = Value::Null;
    for _ in 0..500 {
        listed = app.get(&format!("/v1/webhooks/{hook}/deliveries")).await.body;
        if listed["deliveries"][0]["status"] == json!("failed") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let delivery = &listed["deliveries"][0];
    assert_eq!(delivery["status"], json!("failed"), "{listed}");
    assert_eq!(super_statuses(&delivery["attempts"]), [json!(503), json!(503), json!(503)]);
    assert_eq!(delivery["next_attempt_at"], Value::Null);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(receiver.received().len(), 3, "no attempt after giving up");
}

// ---- Discord ----

fn chars(value: &Value) -> usize {
    value.as_str().map_or(0, |s| s.chars().count())
}

fn over(broken: &mut Vec<String>, what: &str, value: &Value, max: usize) {
    if chars(value) > max {
        broken.push(format!("{what}: {} > {max}", chars(value)));
    }
}

/// Every documented Discord limit the body breaks (empty when it fits).
fn discord_violations(body: &Value) -> Vec<String> {
    let mut broken = Vec::new();
    over(&mut broken, "content", &body["content"], 2000);
    let embeds = body["embeds"].as_array().cloned().unwrap_or_default();
    if embeds.len() > 10 {
        broken.push(format!("{} embeds > 10", embeds.len()));
    }
    let mut total = 0;
    for embed in &embeds {
        let fields = embed["fields"].as_array().cloned().unwrap_or_default();
        over(&mut broken, "title", &embed["title"], 256);
        over(&mut broken, "description", &embed["description"], 4096);
        over(&mut broken, "footer.text", &embed["footer"]["text"], 2048);
        over(&mut broken, "author.name", &embed["author"]["name"], 256);
        if fields.len() > 25 {
            broken.push(format!("{} fields > 25", fields.len()));
        }
        for field in &fields {
            over(&mut broken, "field name", &field["name"], 256);
            over(&mut broken, "field value", &field["value"], 1024);
            total += chars(&field["name"]) + chars(&field["value"]);
        }
        total += chars(&embed["title"]) + chars(&embed["description"]) + chars(&embed["footer"]["text"]);
        total += chars(&embed["author"]["name"]);
    }
    if total > 6000 {
        broken.push(format!("embed texts {total} > 6000"));
    }
    if chars(&body["content"]) == 0 && embeds.is_empty() {
        broken.push("neither content nor embeds".into());
    }
    if body["allowed_mentions"] != json!({"parse": []}) {
        broken.push(format!("allowed_mentions {} would let a summary ping", body["allowed_mentions"]));
    }
    broken
}

/// A receiver that behaves as Discord documents: 400 for a body past a limit, 429 with
/// `retry_after` (seconds) to the first request, 204 otherwise.
fn discord_receiver() -> Receiver {
    Receiver::start(|n, request| {
        let body: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
        let broken = discord_violations(&body);
        if !broken.is_empty() {
            return plain(400, &json!({"message": "Invalid Form Body", "broken": broken}).to_string());
        }
        if n == 0 {
            let limited =
                json!({"message": "You are being rate limited.", "retry_after": 0.4, "global": false});
            return (429, vec![("Content-Type".into(), "application/json".into())], limited.to_string());
        }
        plain(204, "")
    })
}

#[tokio::test]
async fn discord_bodies_fit_every_limit_even_for_a_huge_summary_and_a_429_retry_after_is_waited() {
    let receiver = discord_receiver();
    let app = webhook_app().await;
    let (hook, _) = subscribe(
        &app,
        json!({"url": receiver.url, "format": "discord", "kinds": ["combatant_added", "action_taken"]}),
    )
    .await;
    let encounter = app.create_encounter_id("arrgs", "Big blast").await;
    let thrower = app
        .add_combatant(&encounter, "Thrower", "us", json!({"agility": 11, "initiative": 20, "vitality": 14}))
        .await;
    let mut occupants = Vec::new();
    for n in 0..45 {
        // 100 characters, the longest name allowed, and an @everyone a careless bot would ping.
        let name = format!("@everyone Troll {n:02} {}", "of the Long Name ".repeat(6));
        let name: String = name.chars().take(100).collect();
        let troll =
            json!({"agility": 8, "initiative": 10, "vitality": 60, "checks": {"reflex": {"skill": 2}}});
        occupants.push(json!({"combatant_id": app.add_combatant(&encounter, &name, "them", troll).await}));
    }
    app.roll_initiative(&encounter, json!({})).await;
    app.advance(&encounter, "next_turn").await;
    let grenade =
        json!({"name": "Grenade", "kind": "ranged", "damage": 6, "types": ["fire"], "range_increment": 5});
    let blast = json!({"attacker_id": thrower, "rolls": [18],
                       "stage": {"type": "attack", "distance": 1, "weapon": grenade, "occupants": occupants}});
    app.post_json(&format!("/v1/encounters/{encounter}/arrgs/area-attacks"), &blast)
        .await
        .expect_status(200, "the area attack");

    let log = app.events(&encounter).await;
    let wanted: Vec<&Value> = log
        .iter()
        .filter(|e| e["kind"] == json!("combatant_added") || e["kind"] == json!("action_taken"))
        .collect();
    let blast_summary = text(&wanted.last().unwrap()["summary"]);
    assert!(blast_summary.chars().count() > 4096, "the summary is longer than an embed description");
    let received = receiver
        .wait_until(DELIVERY_WAIT * 2, "every wanted event", |r| delivered_ids(r).len() == wanted.len())
        .await;

    let refused: Vec<String> = received
        .iter()
        .filter(|r| r.answered == 400)
        .map(|r| String::from_utf8_lossy(&r.body).into())
        .collect();
    assert!(refused.is_empty(), "bodies past Discord's limits: {refused:?}");
    assert_eq!(received[0].answered, 429);
    assert_eq!(
        received[1].header("webhook-id"),
        received[0].header("webhook-id"),
        "the limited one goes first again"
    );
    let waited = received[1].at - received[0].at;
    assert!(waited >= Duration::from_millis(400), "retry_after 0.4 s was honoured: waited {waited:?}");
    let bodies: Vec<Value> = received.iter().skip(1).map(Received::json).collect();
    assert_eq!(
        bodies[0],
        json!({"content": "Thrower joins the fight (us)", "allowed_mentions": {"parse": []}})
    );
    let embed = &bodies.last().unwrap()["embeds"][0];
    let description = text(&embed["description"]);
    assert_eq!(description.chars().count(), 4096, "cut to the limit exactly");
    assert!(description.ends_with('…'));
    assert!(blast_summary.starts_with(description.trim_end_matches('…')));
    assert_eq!(embed["title"], json!("Action taken"));
    wait_for_statuses(&app, &hook, wanted.len()).await;
}

// ---- a real binary killed with SIGKILL ----

/// `skirmish serve` on the SQLite file `db`, delivering to loopback and retrying after 50 ms.
async fn start_server(db: &std::path::Path) -> Binary {
    let env = [
        ("SKIRMISH_DATABASE_URL", db.display().to_string()),
        ("SKIRMISH_WEBHOOKS_ALLOW_PRIVATE", "true".to_owned()),
        ("SKIRMISH_WEBHOOKS_RETRY_BASE_MS", "50".to_owned()),
        ("RUST_LOG", "error".to_owned()),
    ];
    Binary::start(&env).await
}

async fn post(client: &reqwest::Client, server: &Binary, path: &str, body: Value) -> Value {
    let response = client.post(format!("{}{path}", server.address)).json(&body).send().await;
    let response = response.unwrap_or_else(|e| panic!("POST {path}: {e}"));
    assert!(response.status().is_success(), "POST {path}: {}", response.status());
    response.json().await.unwrap_or_else(|e| panic!("POST {path}: {e}"))
}

#[tokio::test]
async fn deliveries_pending_when_the_server_is_killed_are_delivered_after_a_restart() {
    let receiver = Receiver::start(|_, _| plain(500, "down for maintenance"));
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let db = dir.path().join("killed.db");
    install_tls_provider();
    let client = reqwest::Client::builder().no_proxy().build().unwrap_or_else(|e| panic!("{e}"));
    let mut server = start_server(&db).await;
    let hook = post(&client, &server, "/v1/webhooks", json!({"url": receiver.url})).await;
    let secret = text(&hook["secret"]);
    let encounter =
        post(&client, &server, "/v1/encounters", json!({"ruleset": "cepheus-engine", "name": "Doomed"}))
            .await;
    let encounter = text(&encounter["id"]);
    let add = json!({"name": "Ash", "side": "crew", "stats": cepheus(7)});
    post(&client, &server, &format!("/v1/encounters/{encounter}/combatants"), add).await;
    let before = receiver.wait_until(DELIVERY_WAIT, "both events tried", |r| {
        r.iter().map(|x| x.header("webhook-id")).collect::<HashSet<_>>().len() == 2
    });
    let before = before.await;

    server.kill();
    drop(server);
    receiver.answer_with(|_, _| plain(200, "ok"));
    let restarted = start_server(&db).await;

    let after = receiver
        .wait_until(DELIVERY_WAIT, "both delivered after the restart", |r| delivered_ids(r).len() == 2)
        .await;
    let tried: HashSet<String> = before.iter().map(|r| r.header("webhook-id").to_owned()).collect();
    assert!(before.iter().all(|r| r.answered == 500), "nothing was delivered before the kill");
    assert_eq!(delivered_ids(&after), tried, "the same ids, resumed from the database");
    assert!(after.iter().all(|r| signature_is_valid(&secret, r)));
    let applied = applied_once(&after);
    assert_eq!(applied.keys().copied().collect::<Vec<_>>(), [1, 2]);
    assert_eq!(applied[&2]["data"]["summary"], json!("Ash joins the fight (crew)"));
    drop(restarted);
}
