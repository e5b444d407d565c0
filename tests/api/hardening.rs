//! Hardening, round two (issue 30), over HTTP: one path for routing, authentication and the log;
//! every `Content-Encoding` header read; whole-number floats read exactly; webhook destinations
//! that carry a private address refused; a receiver's answer body read with a cap; deliveries
//! from a process with no CA store. Items needing the real binary (its log, its environment)
//! start it as a child process.

use crate::helpers::{cepheus, skirmish_binary, spawn_app, spawn_app_with, spawn_app_with_keys, text};
use crate::webhook_receiver::{Receiver, plain};
use reqwest::Method;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::time::{Duration, Instant};

#[tokio::test]
async fn a_percent_encoded_v1_path_is_authenticated_like_the_plain_one() {
    let (app, keys) = spawn_app_with_keys(&["guild"]).await;
    let cases = [
        (Method::POST, "/%76%31/dice/roll", Some(json!({"expression": "1d6"}))),
        (Method::POST, "/%76%31/encounters", Some(json!({"ruleset": "arrgs", "name": "x"}))),
        (Method::GET, "/%76%31/webhooks", None),
        (Method::GET, "/%76%31/rulesets", None),
        (Method::GET, "/v1/%65ncounters", None),
        (Method::GET, "/%2576%31/encounters", None),
    ];

    for (method, path, body) in &cases {
        let reply = app.send(method.clone(), path, body.as_ref(), &[]).await;
        let expected = if path.contains("%25") { 404 } else { 401 };
        reply.assert_problem(expected, None, &format!("{method} {path} without a key"));
    }
    let keyed = app.with_key(&keys[0]);
    let listed = keyed.get("/%76%31/encounters").await.expect_status(200, "the decoded route with a key");
    assert_eq!(listed.body["total"], json!(0));
}
