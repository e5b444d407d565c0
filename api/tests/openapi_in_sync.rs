//! The checked-in `openapi/openapi.json` must be exactly what the code generates.
//! To refresh it: `cargo run --bin skirmish -- openapi > openapi/openapi.json`.

use std::path::Path;

#[test]
fn checked_in_openapi_document_matches_the_code() {
    let generated = skirmish_api::openapi::openapi_json().expect("the document serialises");
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../openapi/openapi.json");
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        generated == checked_in,
        "openapi/openapi.json is stale; regenerate it with `cargo run --bin skirmish -- openapi > openapi/openapi.json`"
    );
}

#[test]
fn every_route_is_documented_with_its_problem_responses() {
    let spec = skirmish_api::openapi::openapi();
    let paths: Vec<&str> = spec.paths.paths.keys().map(String::as_str).collect();
    for expected in [
        "/healthz",
        "/v1/dice/roll",
        "/v1/rulesets",
        "/v1/rulesets/cepheus-engine/attacks",
        "/v1/rulesets/cepheus-engine/damage",
        "/v1/rulesets/adeva-d100/attacks",
        "/v1/rulesets/adeva-d100/damage",
        "/v1/encounters",
        "/v1/encounters/{id}",
        "/v1/encounters/{id}/combatants",
        "/v1/encounters/{id}/combatants/{cid}",
        "/v1/encounters/{id}/initiative",
        "/v1/encounters/{id}/advance",
        "/v1/encounters/{id}/effects",
        "/v1/encounters/{id}/effects/{eid}",
        "/v1/encounters/{id}/events",
        "/v1/encounters/{id}/cepheus-engine/attacks",
        "/v1/encounters/{id}/cepheus-engine/damage",
        "/v1/encounters/{id}/cepheus-engine/actions",
        "/v1/encounters/{id}/adeva-d100/attacks",
        "/v1/encounters/{id}/adeva-d100/damage",
        "/v1/encounters/{id}/adeva-d100/actions",
    ] {
        assert!(paths.contains(&expected), "{expected} is missing from the OpenAPI document");
    }
    let json = serde_json::to_value(&spec).expect("the document serialises");
    let create = &json["paths"]["/v1/encounters"]["post"]["responses"];
    assert!(
        create["422"]["content"]["application/problem+json"].is_object(),
        "problem responses are documented"
    );
}
