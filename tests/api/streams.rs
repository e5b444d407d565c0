//! GET /v1/encounters/{id}/stream: server-sent events as they commit, resumable with
//! `Last-Event-ID`, capped per key, scoped to the tenant.

use crate::helpers::{ApiKey, Reply, TestApp, cepheus, concurrently, spawn_app, spawn_app_with};
use reqwest::Method;
use serde_json::{Value, json};
use std::time::Duration;

/// Longest wait for one frame before a test fails (a live event arrives in milliseconds).
const FRAME_WAIT: Duration = Duration::from_secs(10);

/// One server-sent event or comment, as parsed from the wire.
#[derive(Debug, Clone, PartialEq)]
struct Frame {
    id: Option<i64>,
    event: Option<String>,
    data: Option<Value>,
    comment: Option<String>,
}

/// An open stream, read frame by frame.
struct EventStream {
    response: reqwest::Response,
    pending: String,
}

impl EventStream {
    /// Opens the stream (as `key` if given, after `last_event_id` if given); panics unless 200.
    async fn open(app: &TestApp, encounter: &str, key: Option<&ApiKey>, last_event_id: Option<i64>) -> Self {
        let response = stream_request(app, encounter, key, last_event_id).await;
        assert_eq!(response.status(), 200, "opening the stream of {encounter}");
        let content_type = response.headers()["content-type"].to_str().unwrap_or_default().to_owned();
        assert_eq!(content_type, "text/event-stream");
        Self { response, pending: String::new() }
    }

    async fn next_frame(&mut self) -> Frame {
        loop {
            if let Some(end) = self.pending.find("\n\n") {
                let block: String = self.pending.drain(..end + 2).collect();
                return parse(&block);
            }
            let chunk = tokio::time::timeout(FRAME_WAIT, self.response.chunk())
                .await
                .unwrap_or_else(|_| panic!("no frame within {FRAME_WAIT:?}; pending {:?}", self.pending))
                .unwrap_or_else(|e| panic!("the stream broke: {e}"))
                .unwrap_or_else(|| panic!("the stream ended; pending {:?}", self.pending));
            self.pending.push_str(&String::from_utf8_lossy(&chunk));
        }
    }

    /// The next `count` events, comments skipped.
    async fn events(&mut self, count: usize) -> Vec<Frame> {
        let mut events = Vec::new();
        while events.len() < count {
            let frame = self.next_frame().await;
            if frame.comment.is_none() {
                events.push(frame);
            }
        }
        events
    }

    /// Whether the server ends the stream (reads past any frames still coming).
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

async fn stream_request(
    app: &TestApp,
    encounter: &str,
    key: Option<&ApiKey>,
    last_event_id: Option<i64>,
) -> reqwest::Response {
    let path = format!("/v1/encounters/{encounter}/stream");
    let mut request = match key {
        Some(key) => app.with_key(key).request(Method::GET, &path),
        None => app.request(Method::GET, &path),
    };
    if let Some(last) = last_event_id {
        request = request.header("Last-Event-ID", last.to_string());
    }
    request.send().await.unwrap_or_else(|e| panic!("cannot open the stream: {e}"))
}

fn parse(block: &str) -> Frame {
    let mut frame = Frame { id: None, event: None, data: None, comment: None };
    for line in block.lines().filter(|line| !line.is_empty()) {
        let (field, value) = line.split_once(':').unwrap_or((line, ""));
        let value = value.strip_prefix(' ').unwrap_or(value);
        match field {
            "" => frame.comment = Some(value.to_owned()),
            "id" => frame.id = Some(value.parse().unwrap_or_else(|e| panic!("id {value:?}: {e}"))),
            "event" => frame.event = Some(value.to_owned()),
            "data" => {
                frame.data =
                    Some(serde_json::from_str(value).unwrap_or_else(|e| panic!("data {value:?}: {e}")))
            }
            other => panic!("unexpected field {other:?} in {block:?}"),
        }
    }
    frame
}

/// What the stream must send for each listed event: its seq, its kind, the listed JSON.
fn as_frames(listed: &[Value]) -> Vec<Frame> {
    listed
        .iter()
        .map(|event| Frame {
            id: event["seq"].as_i64(),
            event: event["kind"].as_str().map(str::to_owned),
            data: Some(event.clone()),
            comment: None,
        })
        .collect()
}

/// A Cepheus encounter where Vasquez (Gun Combat 2) holds the turn, Rook waits: 6 events.
async fn standoff(app: &TestApp) -> (String, String, String) {
    let encounter = app.create_encounter_id("cepheus-engine", "Standoff").await;
    let mut marine = cepheus(10);
    marine["skills"] = json!({"Gun Combat": 2});
    let vasquez = app.add_combatant(&encounter, "Vasquez", "marines", marine).await;
    let rook = app.add_combatant(&encounter, "Rook", "raiders", cepheus(7)).await;
    app.roll_initiative(&encounter, json!({"rolls": [6, 6, 1, 1]})).await;
    app.advance(&encounter, "next_turn").await;
    (encounter, vasquez, rook)
}

/// Vasquez shoots Rook with scripted dice; returns the events the attack appended.
async fn shoot(app: &TestApp, encounter: &str, vasquez: &str, rook: &str) -> Vec<Value> {
    let body = json!({"attacker_id": vasquez, "target_id": rook,
        "weapon": {"weapon_type": "pistol", "damage_dice": 1}, "range_band": "short", "rolls": [4, 4, 3]});
    let reply = app.post_json(&format!("/v1/encounters/{encounter}/attacks"), &body).await;
    let reply = reply.expect_status(200, "Vasquez's shot");
    app.logged(encounter, &reply.body).await.as_array().cloned().unwrap_or_default()
}

#[tokio::test]
async fn a_stream_receives_an_attacks_events_in_order_as_they_commit() {
    let app = spawn_app().await;
    let (encounter, vasquez, rook) = standoff(&app).await;
    let before = app.events(&encounter).await;
    let mut live = EventStream::open(&app, &encounter, None, Some(before.len() as i64)).await;

    let mut appended = shoot(&app, &encounter, &vasquez, &rook).await;
    let shot = live.events(1).await;
    let next_turn = app.advance(&encounter, "next_turn").await;
    appended.extend(app.logged(&encounter, &next_turn).await.as_array().unwrap().clone());
    let ended = live.events(appended.len() - 1).await;

    // Gun Combat 2 + DEX 10 (DM +1) + Pistol at Short (+0) = DM +3; 4 + 4 + 3 = 11 against 8:
    // Effect 3; damage 1D6 (3) + Effect 3 = 6 on Rook's END 7 → 1.
    let summary = shot[0].data.as_ref().map(|data| data["summary"].clone());
    assert_eq!(summary, Some(json!("Vasquez hits Rook (Effect 3): 6 damage to END 7 → 1; Rook is wounded")));
    let log = app.events(&encounter).await;
    assert_eq!(&log[before.len()..], &appended[..], "the log holds what the changes answered");
    let received: Vec<Frame> = shot.into_iter().chain(ended).collect();
    assert_eq!(received, as_frames(&appended), "the stream sends each event, in order, as listed");
    let ids: Vec<i64> = received.iter().filter_map(|frame| frame.id).collect();
    let expected: Vec<i64> = (before.len() as i64 + 1..=log.len() as i64).collect();
    assert_eq!(ids, expected, "ids are the events' seqs, one after another");
    assert!(appended.len() >= 2, "the shot and the next turn: {}", appended.len());
}

#[tokio::test]
async fn a_stream_without_last_event_id_replays_the_whole_log_then_follows() {
    let app = spawn_app().await;
    let (encounter, vasquez, rook) = standoff(&app).await;
    let mut stream = EventStream::open(&app, &encounter, None, None).await;

    let appended = shoot(&app, &encounter, &vasquez, &rook).await;

    let log = app.events(&encounter).await;
    assert_eq!(log.len(), 8 + appended.len(), "created, 2 added, 2 initiatives, round and turn started");
    assert_eq!(stream.events(log.len()).await, as_frames(&log));
}

#[tokio::test]
async fn a_dropped_stream_resumes_with_last_event_id_without_gaps_or_duplicates() {
    let app = spawn_app().await;
    let (encounter, vasquez, rook) = standoff(&app).await;
    let mut first = EventStream::open(&app, &encounter, None, None).await;
    let mut received = first.events(4).await;
    drop(first);

    // Changes made while no stream is open, then one while the resumed stream is open.
    shoot(&app, &encounter, &vasquez, &rook).await;
    app.advance(&encounter, "next_turn").await;
    let last_seen = received.last().and_then(|frame| frame.id).unwrap();
    let mut resumed = EventStream::open(&app, &encounter, None, Some(last_seen)).await;
    app.advance(&encounter, "next_turn").await;
    let log = app.events(&encounter).await;
    received.extend(resumed.events(log.len() - received.len()).await);

    assert_eq!(last_seen, 4);
    assert_eq!(received, as_frames(&log), "every event once, in order, across both connections");
}

#[tokio::test]
async fn changes_committed_together_arrive_once_each_in_order() {
    let app = spawn_app().await;
    let (encounter, _, _) = standoff(&app).await;
    let mut stream = EventStream::open(&app, &encounter, None, Some(8)).await;
    let advance = |_| {
        app.request(Method::POST, &format!("/v1/encounters/{encounter}/advance"))
            .json(&json!({"to": "next_turn"}))
    };

    let replies = concurrently((0..8).map(advance).collect()).await;

    assert!(replies.iter().all(|reply| reply.status == 200), "every advance applies, one after another");
    let log = app.events(&encounter).await;
    assert!(log.len() >= 16, "each advance appended at least one event: {}", log.len());
    assert_eq!(stream.events(log.len() - 8).await, as_frames(&log[8..]));
}

#[tokio::test]
async fn an_idle_stream_hears_a_heartbeat_comment() {
    let (app, _) = spawn_app_with(&[], |settings| settings.streams.sse_heartbeat_ms = 100).await;
    let encounter = app.create_encounter_id("cepheus-engine", "Quiet").await;
    let mut stream = EventStream::open(&app, &encounter, None, Some(1)).await;

    let frame = stream.next_frame().await;

    assert_eq!(frame, Frame { id: None, event: None, data: None, comment: Some("heartbeat".into()) });
}

#[tokio::test]
async fn streams_beyond_the_per_key_cap_get_429_and_a_closed_one_frees_its_place() {
    // The server notices a closed connection when it next writes to it: a short heartbeat.
    let (app, keys) = spawn_app_with(&["guild", "guild"], |settings| {
        settings.streams.sse_max_streams_per_key = 2;
        settings.streams.sse_heartbeat_ms = 50;
    })
    .await;
    let (first_key, second_key) = (&keys[0], &keys[1]);
    let encounter = app.with_key(first_key).create_encounter_id("cepheus-engine", "Crowd").await;
    let one = EventStream::open(&app, &encounter, Some(first_key), None).await;
    let _two = EventStream::open(&app, &encounter, Some(first_key), None).await;

    let refused = Reply::read(stream_request(&app, &encounter, Some(first_key), None).await).await;
    let other_key = EventStream::open(&app, &encounter, Some(second_key), None).await;
    drop(one);
    let reopened = reopen_within(&app, &encounter, first_key, Duration::from_secs(10)).await;

    refused.assert_problem(429, None, "a third stream for one key");
    assert!(refused.body["detail"].as_str().unwrap().contains("2 open streams"), "{}", refused.body);
    assert_eq!(refused.body["type"], json!("urn:skirmish:problem:too-many-streams"));
    drop(other_key);
    assert!(reopened, "a closed stream frees its place");
}

/// Tries to open a stream until it is admitted (the server frees a place once it notices the
/// closed connection), for at most `within`.
async fn reopen_within(app: &TestApp, encounter: &str, key: &ApiKey, within: Duration) -> bool {
    let deadline = tokio::time::Instant::now() + within;
    while tokio::time::Instant::now() < deadline {
        if stream_request(app, encounter, Some(key), None).await.status() == 200 {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    false
}

#[tokio::test]
async fn an_unknown_encounter_gets_404_and_a_bad_last_event_id_400() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Known").await;

    let unknown = Reply::read(stream_request(&app, "enc_missing", None, None).await).await;
    let bad = app
        .send(Method::GET, &format!("/v1/encounters/{encounter}/stream"), None, &[("Last-Event-ID", "-1")])
        .await;
    let words = app
        .send(Method::GET, &format!("/v1/encounters/{encounter}/stream"), None, &[("Last-Event-ID", "x")])
        .await;

    unknown.assert_problem(404, None, "unknown encounter");
    bad.assert_problem(400, Some("Last-Event-ID"), "negative Last-Event-ID");
    words.assert_problem(400, Some("Last-Event-ID"), "Last-Event-ID not a number");
}

#[tokio::test]
async fn another_tenants_encounter_cannot_be_streamed() {
    let (app, keys) = spawn_app_with_two_tenants().await;
    let encounter = app.with_key(&keys[0]).create_encounter_id("cepheus-engine", "Private").await;

    let stranger = Reply::read(stream_request(&app, &encounter, Some(&keys[1]), None).await).await;
    let keyless = Reply::read(stream_request(&app, &encounter, None, None).await).await;

    stranger.assert_problem(404, None, "another tenant's encounter looks missing");
    keyless.assert_problem(401, None, "no key");
}

async fn spawn_app_with_two_tenants() -> (TestApp, Vec<ApiKey>) {
    spawn_app_with(&["red", "blue"], |_| {}).await
}

#[tokio::test]
async fn deleting_the_encounter_ends_its_streams() {
    let app = spawn_app().await;
    let encounter = app.create_encounter_id("cepheus-engine", "Doomed").await;
    let mut stream = EventStream::open(&app, &encounter, None, None).await;
    stream.events(1).await;

    app.delete(&format!("/v1/encounters/{encounter}")).await.expect_status(204, "delete");

    assert!(stream.ends().await, "the stream ends when its encounter is deleted");
}
