//! Viewer links: a read-only, encounter-scoped token that can GET its encounter and its stream
//! and nothing else, never sees a hidden combatant, and sees stat blocks only of public ones;
//! and the table view page at `/view/{token}`.

use crate::helpers::{Reply, TestApp, cepheus, spawn_app, spawn_app_with_keys, text};
use reqwest::Method;
use serde_json::{Value, json};
use std::time::Duration;

/// Longest wait for one frame (a live event arrives in milliseconds).
const FRAME_WAIT: Duration = Duration::from_secs(10);

/// A fight with a public marine, a goblin whose stats are GM-only and a hidden assassin.
struct Table {
    encounter: String,
    hicks: String,
    goblin: String,
    assassin: String,
}

/// Hicks (public), the Goblin and the hidden Assassin; initiative Hicks 12, Assassin 10,
/// Goblin 8 (2D6 scripted, DEX 7 gives DM +0); an effect on the Assassin and one on the Goblin;
/// advanced to the Goblin's turn, so the last event names the Goblin.
async fn table(app: &TestApp) -> Table {
    let encounter = app.create_encounter_id("cepheus-engine", "Ambush").await;
    let add = |name: &'static str, side: &'static str, flags: Value| {
        let mut body = json!({"name": name, "side": side, "stats": cepheus(7)});
        if let (Some(body), Some(flags)) = (body.as_object_mut(), flags.as_object()) {
            body.extend(flags.clone());
        }
        let path = format!("/v1/encounters/{encounter}/combatants");
        async move { text(&app.post_json(&path, &body).await.expect_status(201, name).body["combatant"]["id"]) }
    };
    let hicks = add("Hicks", "marines", json!({"public": true})).await;
    let goblin = add("Goblin", "raiders", json!({})).await;
    let assassin = add("Assassin", "raiders", json!({"hidden": true})).await;
    app.roll_initiative(&encounter, json!({"rolls": [6, 6, 4, 4, 5, 5]})).await;
    app.advance(&encounter, "next_turn").await;
    let poisoned =
        json!({"name": "poisoned", "target_id": assassin, "ends": {"ends": "after_rounds", "rounds": 2}});
    app.add_effect(&encounter, poisoned).await;
    let stunned =
        json!({"name": "stunned", "target_id": goblin, "ends": {"ends": "after_rounds", "rounds": 3}});
    app.add_effect(&encounter, stunned).await;
    app.advance(&encounter, "next_turn").await;
    app.advance(&encounter, "next_turn").await;
    Table { encounter, hicks, goblin, assassin }
}

/// Makes a viewer link as the GM; returns the whole answer.
async fn make_viewer(app: &TestApp, encounter: &str, body: Value) -> Value {
    let path = format!("/v1/encounters/{encounter}/viewers");
    app.post_json(&path, &body).await.expect_status(201, "create a viewer link").body
}

async fn as_viewer(app: &TestApp, token: &str, method: Method, path: &str, body: Option<&Value>) -> Reply {
    let bearer = format!("Bearer {token}");
    app.send(method, path, body, &[("Authorization", &bearer)]).await
}

/// Asserts that `text` shows nothing of the hidden combatant.
#[track_caller]
fn assert_no_assassin(text: &str, table: &Table, what: &str) {
    assert!(!text.contains(&table.assassin), "{what} names the hidden combatant's id: {text}");
    assert!(!text.contains("Assassin"), "{what} names the hidden combatant: {text}");
}

/// One server-sent event, parsed.
#[derive(Debug)]
struct Frame {
    id: i64,
    event: Option<String>,
    data: Value,
}

/// An open stream, read frame by frame (comments skipped).
struct Stream {
    response: reqwest::Response,
    pending: String,
    /// Everything read, for the leak checks.
    raw: String,
}

impl Stream {
    async fn open(app: &TestApp, path: &str, token: Option<&str>, last_event_id: Option<i64>) -> Self {
        let mut request = app.request(Method::GET, path);
        if let Some(token) = token {
            request = request.header("Authorization", format!("Bearer {token}"));
        }
        if let Some(last) = last_event_id {
            request = request.header("Last-Event-ID", last.to_string());
        }
        let response = request.send().await.unwrap_or_else(|e| panic!("cannot open {path}: {e}"));
        assert_eq!(response.status(), 200, "opening {path}");
        assert_eq!(response.headers()["content-type"], "text/event-stream");
        Self { response, pending: String::new(), raw: String::new() }
    }

    async fn next(&mut self) -> Frame {
        loop {
            if let Some(end) = self.pending.find("\n\n") {
                let block: String = self.pending.drain(..end + 2).collect();
                if let Some(frame) = parse(&block) {
                    return frame;
                }
                continue;
            }
            let chunk = tokio::time::timeout(FRAME_WAIT, self.response.chunk())
                .await
                .unwrap_or_else(|_| panic!("no frame within {FRAME_WAIT:?}; pending {:?}", self.pending))
                .unwrap_or_else(|e| panic!("the stream broke: {e}"))
                .unwrap_or_else(|| panic!("the stream ended; pending {:?}", self.pending));
            let text = String::from_utf8_lossy(&chunk);
            self.raw.push_str(&text);
            self.pending.push_str(&text);
        }
    }

    /// Frames up to and including the one with `seq`.
    async fn until(&mut self, seq: i64) -> Vec<Frame> {
        let mut frames = Vec::new();
        for _ in 0..1000 {
            let frame = self.next().await;
            let id = frame.id;
            frames.push(frame);
            if id >= seq {
                return frames;
            }
        }
        panic!("event {seq} never came");
    }

    /// Whether the server ends the stream within a few seconds.
    async fn ends(mut self) -> bool {
        for _ in 0..100 {
            match tokio::time::timeout(FRAME_WAIT, self.response.chunk()).await {
                Ok(Ok(None)) => return true,
                Ok(Ok(Some(_))) => continue,
                Ok(Err(_)) | Err(_) => return false,
            }
        }
        false
    }
}

/// An event frame, or `None` for a comment (heartbeat).
fn parse(block: &str) -> Option<Frame> {
    let (mut id, mut event, mut data) = (None, None, None);
    for line in block.lines().filter(|line| !line.is_empty()) {
        let (field, value) = line.split_once(':').unwrap_or((line, ""));
        let value = value.strip_prefix(' ').unwrap_or(value);
        match field {
            "" => return None,
            "id" => id = value.parse().ok(),
            "event" => event = Some(value.to_owned()),
            "data" => data = serde_json::from_str(value).ok(),
            other => panic!("unexpected field {other:?} in {block:?}"),
        }
    }
    let id = id.unwrap_or_else(|| panic!("no id in {block:?}"));
    Some(Frame { id, event, data: data.unwrap_or_else(|| panic!("no JSON data in {block:?}")) })
}

/// The GM's log, split into what a viewer must be sent and what it must not: events naming the
/// assassin (by id in their data, or by name in their summary) are withheld.
async fn expected_for_viewer(app: &TestApp, table: &Table) -> (Vec<Value>, Vec<i64>) {
    let (mut shown, mut withheld) = (Vec::new(), Vec::new());
    for event in app.events(&table.encounter).await {
        let names_assassin = event["data"].to_string().contains(&table.assassin)
            || event["summary"].as_str().unwrap_or_default().contains("Assassin");
        match names_assassin {
            true => withheld.push(seq_of(&event)),
            false => shown.push(event),
        }
    }
    (shown, withheld)
}

fn seq_of(event: &Value) -> i64 {
    event["seq"].as_i64().unwrap_or_else(|| panic!("no seq in {event}"))
}

/// Each frame against the GM's event: same seq, kind, summary; `data` in full when it names
/// only public combatants, absent when it names the goblin.
#[track_caller]
fn assert_frames_match(frames: &[Frame], expected: &[Value], table: &Table, named: bool) {
    let seqs: Vec<i64> = frames.iter().map(|f| f.id).collect();
    let wanted: Vec<i64> = expected.iter().map(seq_of).collect();
    assert_eq!(seqs, wanted, "the viewer gets every visible event, in order, once");
    for (frame, event) in frames.iter().zip(expected) {
        assert_eq!(frame.data["seq"], event["seq"]);
        assert_eq!(frame.data["kind"], event["kind"]);
        assert_eq!(frame.data["summary"], event["summary"]);
        assert_eq!(frame.event.as_ref(), named.then_some(&text(&event["kind"])), "event: line");
        let names_goblin = event["data"].to_string().contains(&table.goblin);
        match names_goblin {
            true => assert!(frame.data.get("data").is_none(), "GM-only data sent: {:?}", frame.data),
            false => assert_eq!(frame.data["data"], event["data"], "visible data kept"),
        }
    }
}

#[tokio::test]
async fn a_viewer_token_is_refused_on_every_route_but_its_encounter_and_its_stream() {
    let app = spawn_app().await;
    let table = table(&app).await;
    let token = text(&make_viewer(&app, &table.encounter, json!({})).await["token"]);
    let spec: Value = serde_json::from_str(include_str!("../../openapi/openapi.json")).unwrap();
    let before = app.snapshot(&table.encounter).await;
    let mut checked = 0;

    for (path, item) in spec["paths"].as_object().unwrap() {
        if !path.starts_with("/v1/") {
            continue;
        }
        let concrete = path
            .replace("{id}", &table.encounter)
            .replace("{cid}", &table.hicks)
            .replace("{eid}", "eff_0000000000000000")
            .replace("{viewer_id}", "vwl_0000000000000000");
        for method in item.as_object().unwrap().keys() {
            let method = Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
            let allowed = method == Method::GET
                && (path == "/v1/encounters/{id}" || path == "/v1/encounters/{id}/stream");
            let what = format!("{method} {path}");
            if path.ends_with("/stream") {
                let response = app
                    .request(method.clone(), &concrete)
                    .header("Authorization", format!("Bearer {token}"))
                    .send()
                    .await
                    .unwrap();
                assert_eq!(response.status(), if allowed { 200 } else { 403 }, "{what}");
                checked += 1;
                continue;
            }
            let body = (method != Method::GET && method != Method::DELETE).then(|| json!({}));
            let reply = as_viewer(&app, &token, method.clone(), &concrete, body.as_ref()).await;
            match allowed {
                true => assert_eq!(reply.status, 200, "{what}: {}", reply.body),
                false => reply.assert_problem(403, None, &what),
            }
            checked += 1;
        }
    }
    let alias = format!("/v1/encounters/{}/attack", table.encounter);
    as_viewer(&app, &token, Method::POST, &alias, Some(&json!({}))).await.assert_problem(403, None, "alias");

    assert!(checked > 40, "every documented /v1 route was tried ({checked})");
    assert_eq!(app.snapshot(&table.encounter).await, before, "nothing changed");
}

#[tokio::test]
async fn a_viewer_never_sees_a_hidden_combatant_and_sees_stats_only_of_public_ones() {
    let app = spawn_app().await;
    let table = table(&app).await;
    let created = make_viewer(&app, &table.encounter, json!({"label": "overlay"})).await;
    let token = text(&created["token"]);

    let by_bearer =
        as_viewer(&app, &token, Method::GET, &format!("/v1/encounters/{}", table.encounter), None)
            .await
            .expect_status(200, "viewer GET")
            .body;
    let by_path = app.get(&format!("/view/{token}/encounter")).await.expect_status(200, "view data").body;

    assert_eq!(by_bearer, by_path, "the same redacted encounter either way");
    assert_no_assassin(&by_bearer.to_string(), &table, "the encounter");
    let names: Vec<String> =
        by_bearer["combatants"].as_array().unwrap().iter().map(|c| text(&c["name"])).collect();
    assert_eq!(names, ["Hicks", "Goblin"]);
    let order: Vec<(String, i64)> = by_bearer["turn_order"]
        .as_array()
        .unwrap()
        .iter()
        .map(|slot| (text(&slot["name"]), slot["slot"].as_i64().unwrap()))
        .collect();
    assert_eq!(order, [("Hicks".to_owned(), 1), ("Goblin".to_owned(), 2)], "renumbered: no gap");
    assert_eq!(by_bearer["current_turn"]["combatant_id"], json!(table.goblin));
    let hicks = &by_bearer["combatants"][0];
    let goblin = &by_bearer["combatants"][1];
    assert_eq!(hicks["stats"], cepheus(7), "public: stat block shown");
    assert!(hicks["initiative"]["explanation"].is_string());
    assert!(goblin.get("stats").is_none() && goblin.get("state").is_none(), "GM-only: {goblin}");
    assert!(goblin["initiative"].get("explanation").is_none(), "{goblin}");
    assert_eq!(goblin["initiative"]["score"], json!(8));
    let effects: Vec<String> =
        by_bearer["effects"].as_array().unwrap().iter().map(|e| text(&e["name"])).collect();
    assert_eq!(effects, ["stunned"], "the effect on the hidden combatant is left out");

    // Making the goblin public shows its stat block.
    let patch = json!({"public": true});
    app.patch_json(&format!("/v1/encounters/{}/combatants/{}", table.encounter, table.goblin), &patch)
        .await
        .expect_status(200, "make the goblin public");
    let after = app.get(&format!("/view/{token}/encounter")).await.body;
    assert_eq!(after["combatants"][1]["stats"], cepheus(7));
}

#[tokio::test]
async fn a_viewers_stream_withholds_the_hidden_combatant_live_and_when_resumed() {
    let app = spawn_app().await;
    let table = table(&app).await;
    let token = text(&make_viewer(&app, &table.encounter, json!({})).await["token"]);
    let (shown, withheld) = expected_for_viewer(&app, &table).await;
    let last = shown.last().unwrap()["seq"].as_i64().unwrap();
    assert!(!withheld.is_empty(), "the scenario has events about the assassin");

    let v1_path = format!("/v1/encounters/{}/stream", table.encounter);
    let mut by_bearer = Stream::open(&app, &v1_path, Some(&token), None).await;
    let mut by_path = Stream::open(&app, &format!("/view/{token}/stream"), None, None).await;
    let bearer_frames = by_bearer.until(last).await;
    let path_frames = by_path.until(last).await;

    assert_frames_match(&bearer_frames, &shown, &table, true);
    assert_frames_match(&path_frames, &shown, &table, false);

    // Live: the assassin acts (its turn, an effect on it), then the round turns over.
    let poisoned_too =
        json!({"name": "marked", "target_id": table.assassin, "ends": {"ends": "end_of_round"}});
    app.add_effect(&table.encounter, poisoned_too).await;
    app.advance(&table.encounter, "next_turn").await;
    app.advance(&table.encounter, "next_turn").await;
    let (shown, _) = expected_for_viewer(&app, &table).await;
    let live: Vec<Value> = shown.into_iter().filter(|e| e["seq"].as_i64().unwrap() > last).collect();
    let newest = live.last().unwrap()["seq"].as_i64().unwrap();
    let live_frames = by_path.until(newest).await;
    assert_frames_match(&live_frames, &live, &table, false);

    // Resumed after the first part: the same live events, nothing about the assassin.
    let mut resumed = Stream::open(&app, &format!("/view/{token}/stream"), None, Some(last)).await;
    let resumed_frames = resumed.until(newest).await;
    assert_frames_match(&resumed_frames, &live, &table, false);

    for (stream, what) in
        [(&by_bearer, "the /v1 stream"), (&by_path, "the /view stream"), (&resumed, "resumed")]
    {
        assert_no_assassin(&stream.raw, &table, what);
    }
}

#[tokio::test]
async fn revoked_and_expired_viewer_tokens_are_refused_and_a_revoke_ends_open_streams() {
    let app = spawn_app().await;
    let table = table(&app).await;
    let expired_id = "vwl_expired0000000";
    let new = skirmish_db::NewViewer {
        id: expired_id,
        token: "vwr_expired_token_made_in_the_database",
        label: None,
        expires_in_seconds: Some(0),
    };
    let encounter_id = skirmish_domain::encounter::EncounterId(table.encounter.clone());
    app.store().create_viewer("default", &encounter_id, &new).expect("stored");
    let created = make_viewer(&app, &table.encounter, json!({"expires_in_seconds": 3600})).await;
    let (token, viewer_id) = (text(&created["token"]), text(&created["viewer"]["id"]));
    let get_path = format!("/v1/encounters/{}", table.encounter);
    as_viewer(&app, &token, Method::GET, &get_path, None).await.expect_status(200, "before the revoke");
    let open = Stream::open(&app, &format!("/view/{token}/stream"), None, None).await;

    app.delete(&format!("/v1/encounters/{}/viewers/{viewer_id}", table.encounter))
        .await
        .expect_status(204, "revoke");

    assert!(open.ends().await, "the revoke ends the open stream");
    as_viewer(&app, &token, Method::GET, &get_path, None).await.assert_problem(401, None, "revoked");
    as_viewer(&app, new.token, Method::GET, &get_path, None).await.assert_problem(401, None, "expired");
    for token in [token.as_str(), new.token] {
        let page = app.get(&format!("/view/{token}")).await;
        assert_eq!((page.status, page.header("content-type")), (404, Some("text/html; charset=utf-8")));
        assert_eq!(app.get(&format!("/view/{token}/encounter")).await.status, 404);
        assert_eq!(app.get(&format!("/view/{token}/stream")).await.status, 404);
    }
    let listed = app.get(&format!("/v1/encounters/{}/viewers", table.encounter)).await.body;
    let items = listed["items"].as_array().unwrap();
    assert_eq!(items.len(), 2);
    assert!(items.iter().all(|item| item.get("token").is_none()), "never the token: {listed}");
    assert!(items.iter().any(|item| item["id"] == json!(viewer_id) && item["revoked_at"].is_string()));
    app.delete(&format!("/v1/encounters/{}/viewers/{viewer_id}", table.encounter)).await.assert_problem(
        404,
        None,
        "revoked twice",
    );
}

#[tokio::test]
async fn a_viewer_of_one_encounter_cannot_read_another_and_another_tenant_cannot_make_links() {
    let (app, keys) = spawn_app_with_keys(&["guild", "rivals"]).await;
    let (guild, rivals) = (app.with_key(&keys[0]), app.with_key(&keys[1]));
    let first = guild.create_encounter_id("cepheus-engine", "First").await;
    let second = guild.create_encounter_id("cepheus-engine", "Second").await;
    let path = format!("/v1/encounters/{first}/viewers");
    let token = text(&guild.post_json(&path, &json!({})).await.expect_status(201, "create").body["token"]);

    let other = as_viewer(&app, &token, Method::GET, &format!("/v1/encounters/{second}"), None).await;
    let other_stream =
        as_viewer(&app, &token, Method::GET, &format!("/v1/encounters/{second}/stream"), None).await;
    let rival_link = rivals.post_json(&path, &json!({})).await;
    let rival_list = rivals.get(&path).await;

    other.assert_problem(404, None, "another encounter");
    other_stream.assert_problem(404, None, "another encounter's stream");
    rival_link.assert_problem(404, None, "another tenant's encounter");
    rival_list.assert_problem(404, None, "another tenant's list");
    let own = as_viewer(&app, &token, Method::GET, &format!("/v1/encounters/{first}"), None).await;
    assert_eq!(own.expect_status(200, "its own").body["name"], json!("First"));
}

#[tokio::test]
async fn viewer_link_requests_are_checked_and_bounded() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Checks").await;
    let path = format!("/v1/encounters/{encounter}/viewers");
    let cases = [
        (json!({"expires_in_seconds": 59}), 422, Some("expires_in_seconds")),
        (json!({"expires_in_seconds": 2_592_001}), 422, Some("expires_in_seconds")),
        (json!({"expires_in_seconds": -1}), 400, Some("expires_in_seconds")),
        (json!({"label": "x".repeat(101)}), 422, Some("label")),
        (json!({"color": "red"}), 400, None),
        // JSON `null` is a body, not "no body": it is not the object the spec publishes.
        (json!(null), 400, None),
    ];
    for (body, status, field) in cases {
        let reply = app.post_json(&path, &body).await;
        assert_eq!(reply.status, status, "{body}: {}", reply.body);
        if let Some(field) = field {
            assert_eq!(reply.body["field"], json!(field), "{body}");
        }
    }
    assert_eq!(app.get(&path).await.body["items"], json!([]), "nothing stored");
    let no_body = app.send(Method::POST, &path, None, &[]).await.expect_status(201, "no body").body;
    let token = text(&no_body["token"]);
    assert!(token.starts_with("vwr_") && token.len() == 68, "{token}");
    assert_eq!(no_body["view_url"], json!(format!("/view/{token}")));
    assert_eq!(no_body["viewer"]["expires_at"], Value::Null);
    for n in 1..32 {
        app.post_json(&path, &json!({"label": format!("link {n}")}))
            .await
            .expect_status(201, "within the cap");
    }
    app.post_json(&path, &json!({})).await.assert_problem(409, None, "the 33rd link");
    app.post_json("/v1/encounters/enc_missing/viewers", &json!({}))
        .await
        .assert_problem(404, None, "missing");
}

#[tokio::test]
async fn the_table_view_is_a_self_contained_page_under_a_strict_policy_with_no_secret_in_it() {
    let app = spawn_app().await;
    let table = table(&app).await;
    let token = text(&make_viewer(&app, &table.encounter, json!({})).await["token"]);

    let page = app.get(&format!("/view/{token}")).await;
    let script = app.get("/view-assets/table.js").await;
    let style = app.get("/view-assets/table.css").await;
    let unknown = app.get("/view/vwr_0000000000000000000000000000000000000000000000000000000000000000").await;

    assert_eq!(page.status, 200);
    assert_eq!(page.header("content-type"), Some("text/html; charset=utf-8"));
    let csp = page.header("content-security-policy").unwrap_or_default();
    assert!(csp.contains("default-src 'none'") && csp.contains("script-src 'self'"), "{csp}");
    assert!(!csp.contains("unsafe-inline") && !csp.contains("http"), "{csp}");
    assert_eq!(page.header("referrer-policy"), Some("no-referrer"));
    let html = page.body.as_str().unwrap();
    for needle in
        ["<header", "<main", "<ol id=\"turn-order\"", "aria-live=\"polite\"", "/view-assets/table.js"]
    {
        assert!(html.contains(needle), "the page has {needle}");
    }
    for secret in [token.as_str(), "sk_", "Assassin", "Hicks", "http://", "https://"] {
        assert!(!html.contains(secret), "the page holds no {secret}");
    }
    let script = script.body.as_str().unwrap();
    assert!(script.contains("aria-current") && script.contains("EventSource"));
    assert!(!script.contains("innerHTML") && !script.contains("http"), "no HTML parsing, no other origin");
    assert_eq!(style.header("content-type"), Some("text/css; charset=utf-8"));
    assert_eq!(unknown.status, 404);
    assert!(unknown.body.as_str().unwrap().contains("No such table view"));
}
