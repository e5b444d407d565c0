//! Hardening, round two (issue 30): connections that stop reading are dropped after the write
//! timeout and give their places back; past half the connection cap each address gets only its
//! fair share, so another address still gets in; a stream ends once its API key is revoked.
//! Raw sockets, bound to several loopback addresses (127.0.0.x), so the test controls who
//! connects from where and what is never read.

use crate::helpers::spawn_app_with;
use reqwest::Method;
use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::time::{Duration, Instant};
use tokio::net::TcpSocket;

#[tokio::test]
async fn a_stream_ends_within_seconds_of_its_api_key_being_revoked_and_another_keys_goes_on() {
    let (app, keys) = spawn_app_with(&["guild", "guild"], |_| {}).await;
    let (revoked, kept) = (app.with_key(&keys[0]), app.with_key(&keys[1]));
    let encounter = kept.create_encounter_id("lur-asko", "Revoked").await;
    let path = format!("/v1/encounters/{encounter}/stream");
    let open = |key: &crate::helpers::AsKey<'_>| key.request(Method::GET, &path).send();
    let mut doomed = open(&revoked).await.unwrap_or_else(|e| panic!("{e}"));
    let mut going_on = open(&kept).await.unwrap_or_else(|e| panic!("{e}"));
    let first = tokio::time::timeout(Duration::from_secs(5), doomed.chunk()).await;
    assert!(matches!(first, Ok(Ok(Some(_)))), "the log's first event: {first:?}");

    app.store().revoke_key(&keys[0].id).unwrap_or_else(|e| panic!("{e}"));
    let started = Instant::now();
    let mut ended = false;
    while !ended && started.elapsed() < Duration::from_secs(6) {
        match tokio::time::timeout(Duration::from_secs(6), doomed.chunk()).await {
            Ok(Ok(Some(_))) => {}
            Ok(Ok(None)) | Ok(Err(_)) => ended = true,
            Err(_) => break,
        }
    }
    let took = started.elapsed();
    kept.add_combatant(&encounter, "Late", "crowd", serde_json::json!({})).await;
    let mut seen = String::new();
    while !seen.contains("Late") {
        let chunk = tokio::time::timeout(Duration::from_secs(5), going_on.chunk()).await;
        let chunk = chunk.unwrap_or_else(|_| panic!("the other key's stream stopped: {seen}"));
        let chunk = chunk.unwrap_or_else(|e| panic!("{e}")).unwrap_or_else(|| panic!("ended: {seen}"));
        seen.push_str(&String::from_utf8_lossy(&chunk));
    }

    assert!(ended, "the revoked key's stream is still open after {took:?}");
    assert!(took < Duration::from_secs(3), "{took:?}");
}
