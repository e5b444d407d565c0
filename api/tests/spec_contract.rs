//! The published contract stays typed: no untyped object in a request body, a response or any
//! schema they reach; every number a client sends has both bounds; every operation has an example.
//! (The same checks as `shared/tools/spec_typed.py`, kept in the test suite.)

use serde_json::Value;
use skirmish_domain::rulesets::{Ruleset, RulesetId, RulesetVisitor, for_each_ruleset};
use std::collections::HashSet;

/// Every registered ruleset's schema prefix (`CepheusEngine`, …), from the registry.
fn schema_prefixes() -> Vec<&'static str> {
    struct Prefixes(Vec<&'static str>);
    impl RulesetVisitor for Prefixes {
        fn ruleset<R: Ruleset>(&mut self) {
            self.0.push(R::SCHEMA_PREFIX);
        }
    }
    let mut prefixes = Prefixes(Vec::new());
    for_each_ruleset(&mut prefixes);
    prefixes.0
}

/// Property names whose values are genuinely free-form maps (a caller's own data).
const FREE_FORM: [&str; 4] = ["notes", "metadata", "labels", "tags"];

struct Walk<'a> {
    spec: &'a Value,
    seen: HashSet<(String, bool)>,
    untyped: Vec<String>,
    unbounded: Vec<String>,
}

impl<'a> Walk<'a> {
    fn schema_named(&self, reference: &str) -> Option<&'a Value> {
        let name = reference.rsplit('/').next()?;
        let spec: &'a Value = self.spec;
        spec.pointer(&format!("/components/schemas/{name}"))
    }

    fn is_untyped(schema: &Value) -> bool {
        let Some(object) = schema.as_object() else { return true };
        if ["$ref", "oneOf", "anyOf", "allOf", "enum", "const"].iter().any(|key| object.contains_key(*key)) {
            return false;
        }
        let kinds: Vec<&str> = match object.get("type") {
            Some(Value::String(kind)) => vec![kind.as_str()],
            Some(Value::Array(kinds)) => {
                kinds.iter().filter_map(Value::as_str).filter(|k| *k != "null").collect()
            }
            _ => vec![],
        };
        if kinds.iter().any(|kind| *kind != "object") {
            return false;
        }
        let has_properties =
            object.get("properties").and_then(Value::as_object).is_some_and(|p| !p.is_empty());
        let typed_values = object
            .get("additionalProperties")
            .is_some_and(|values| values.is_object() && !Self::is_untyped(values));
        !has_properties && !typed_values
    }

    fn visit(&mut self, schema: &'a Value, at: String, request: bool) {
        let (schema, at) = match schema.get("$ref").and_then(Value::as_str) {
            Some(reference) => {
                if !self.seen.insert((reference.to_owned(), request)) {
                    return;
                }
                let Some(named) = self.schema_named(reference) else {
                    self.untyped.push(format!("{at}: dangling {reference}"));
                    return;
                };
                (named, format!("{at}->{}", reference.rsplit('/').next().unwrap_or(reference)))
            }
            None => (schema, at),
        };
        let last = at.rsplit('.').next().unwrap_or_default();
        if Self::is_untyped(schema) {
            if !FREE_FORM.contains(&last) {
                self.untyped.push(at);
            }
            return;
        }
        let numeric = |kind: &str| match schema.get("type") {
            Some(Value::String(k)) => k == kind,
            Some(Value::Array(kinds)) => kinds.iter().any(|k| k == kind),
            _ => false,
        };
        if request && (numeric("integer") || numeric("number")) {
            let bounded = |a: &str, b: &str| schema.get(a).is_some() || schema.get(b).is_some();
            if !bounded("minimum", "exclusiveMinimum") || !bounded("maximum", "exclusiveMaximum") {
                self.unbounded.push(at.clone());
            }
        }
        for key in ["oneOf", "anyOf", "allOf"] {
            for (index, part) in schema.get(key).and_then(Value::as_array).into_iter().flatten().enumerate() {
                self.visit(part, format!("{at}[{key}{index}]"), request);
            }
        }
        for (name, property) in schema.get("properties").and_then(Value::as_object).into_iter().flatten() {
            self.visit(property, format!("{at}.{name}"), request);
        }
        if let Some(items) = schema.get("items") {
            self.visit(items, format!("{at}[]"), request);
        }
        if let Some(values) = schema.get("additionalProperties").filter(|v| v.is_object()) {
            self.visit(values, format!("{at}{{}}"), request);
        }
    }
}

fn spec() -> Value {
    serde_json::to_value(skirmish_api::openapi::openapi())
        .unwrap_or_else(|error| panic!("the document serialises: {error}"))
}

/// Every (method, path, operation) of the document.
fn operations(spec: &Value) -> Vec<(String, String, &Value)> {
    let mut found = Vec::new();
    for (path, item) in spec["paths"].as_object().into_iter().flatten() {
        for (method, operation) in item.as_object().into_iter().flatten() {
            if ["get", "post", "put", "patch", "delete"].contains(&method.as_str()) {
                found.push((method.to_uppercase(), path.clone(), operation));
            }
        }
    }
    found
}

fn walk(spec: &Value) -> Walk<'_> {
    let mut walk = Walk { spec, seen: HashSet::new(), untyped: vec![], unbounded: vec![] };
    for (method, path, operation) in operations(spec) {
        for (_, content) in
            operation.pointer("/requestBody/content").and_then(Value::as_object).into_iter().flatten()
        {
            walk.visit(&content["schema"], format!("{method} {path} body"), true);
        }
        for parameter in operation["parameters"].as_array().into_iter().flatten() {
            let name = parameter["name"].as_str().unwrap_or_default();
            walk.visit(&parameter["schema"], format!("{method} {path} parameter {name}"), true);
        }
        for (status, response) in operation["responses"].as_object().into_iter().flatten() {
            if !status.starts_with('2') {
                continue;
            }
            for (_, content) in response["content"].as_object().into_iter().flatten() {
                walk.visit(&content["schema"], format!("{method} {path} {status}"), false);
            }
        }
    }
    walk
}

#[test]
fn no_request_response_or_ruleset_schema_is_an_untyped_object() {
    let spec = spec();
    let walk = walk(&spec);
    assert!(
        walk.untyped.is_empty(),
        "untyped places (generated clients see Any/unknown):\n{:#?}",
        walk.untyped
    );
    let rulesets = schema_prefixes();
    assert_eq!(rulesets.len(), RulesetId::ALL.len(), "one schema prefix per registered ruleset");
    let mut lonely = Vec::new();
    for (name, schema) in spec["components"]["schemas"].as_object().into_iter().flatten() {
        if rulesets.iter().any(|prefix| name.starts_with(prefix)) && Walk::is_untyped(schema) {
            lonely.push(name.clone());
        }
    }
    assert!(lonely.is_empty(), "untyped ruleset schemas: {lonely:?}");
}

#[test]
fn every_operation_has_an_example() {
    let spec = spec();
    let has_example = |schema: &Value| -> bool {
        let mut stack = vec![schema.clone()];
        while let Some(schema) = stack.pop() {
            if schema.get("example").is_some() || schema.get("examples").is_some() {
                return true;
            }
            if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
                let name = reference.rsplit('/').next().unwrap_or_default();
                stack.push(spec["components"]["schemas"][name].clone());
            }
            for key in ["oneOf", "anyOf", "allOf"] {
                stack.extend(schema.get(key).and_then(Value::as_array).into_iter().flatten().cloned());
            }
            stack.extend(schema.get("items").cloned());
        }
        false
    };
    let mut missing = Vec::new();
    for (method, path, operation) in operations(&spec) {
        let body = operation.pointer("/requestBody/content/application~1json");
        let example = match body {
            Some(content) => content.get("example").is_some() || has_example(&content["schema"]),
            // A bodiless answer (204) has nothing to show.
            None => operation["responses"].as_object().into_iter().flatten().any(|(status, response)| {
                // A stream (server-sent events), a text answer (metrics) or a page (the table view) shows
                // its wire text.
                let streamed = ["text/event-stream", "text/plain", "text/html"]
                    .iter()
                    .any(|kind| response["content"][*kind].get("example").is_some());
                let content = &response["content"]["application/json"];
                status == "204"
                    || streamed
                    || status.starts_with('2')
                        && (content.get("example").is_some() || has_example(&content["schema"]))
            }),
        };
        if !example {
            missing.push(format!("{method} {path}"));
        }
    }
    assert!(missing.is_empty(), "operations without an example: {missing:#?}");
}

#[test]
fn every_number_a_client_sends_has_both_bounds() {
    let spec = spec();
    let walk = walk(&spec);
    assert!(walk.unbounded.is_empty(), "request numbers without minimum and maximum:\n{:#?}", walk.unbounded);
}
