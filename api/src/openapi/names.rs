//! Schema names are unique. utoipa keys the document's schemas by name (about 430 of them are
//! written by hand, `#[schema(as = …)]`), and a second type published under a name already taken
//! silently replaces the first. So every schema the document is built from is collected here
//! with its name — each route's (as utoipa-actix-web gathers them), the document's own
//! components and the ruleset registry's walk — and one name may stand for one schema only.

use super::{ApiDoc, rulesets};
use crate::routes::{Register, RoutePattern, register};
use actix_web::dev::HttpServiceFactory;
use std::collections::{BTreeMap, BTreeSet};
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::Schema;
use utoipa::{OpenApi, PartialSchema, ToSchema};
use utoipa_actix_web::OpenApiFactory;

type Named = Vec<(String, RefOr<Schema>)>;

/// Collects each route's schemas, as the OpenAPI builder does.
struct Collect(Named);

impl Register for Collect {
    fn add<F: HttpServiceFactory + OpenApiFactory + RoutePattern + 'static>(&mut self, factory: F) {
        factory.schemas(&mut self.0);
    }
}

/// Every schema the document is built from, with its name.
fn every_schema() -> Named {
    let mut collect = Collect(Vec::new());
    register(&mut collect);
    let mut named = collect.0;
    for (name, schema) in ApiDoc::openapi().components.into_iter().flat_map(|c| c.schemas) {
        named.push((name, schema));
    }
    crate::error::Problem::schemas(&mut named);
    crate::wire::ViewerEventResponse::schemas(&mut named);
    named.extend(rulesets::ruleset_schemas());
    named
}

/// The names that stand for more than one schema, each with how many; `shape_only` compares the
/// schemas without their descriptions.
fn shared_names(named: &Named, shape_only: bool) -> Vec<(String, usize)> {
    let mut by_name: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    for (name, schema) in named {
        let mut value =
            serde_json::to_value(schema).unwrap_or_else(|error| format!("unwritable: {error}").into());
        if shape_only {
            drop_descriptions(&mut value);
        }
        by_name.entry(name).or_default().insert(value.to_string());
    }
    by_name
        .into_iter()
        .filter(|(_, schemas)| schemas.len() > 1)
        .map(|(n, s)| (n.to_owned(), s.len()))
        .collect()
}

fn drop_descriptions(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(fields) => {
            fields.remove("description");
            fields.values_mut().for_each(drop_descriptions);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(drop_descriptions),
        _ => {}
    }
}

#[test]
fn no_two_schemas_share_a_name() {
    let named = every_schema();

    let shared = shared_names(&named, false);

    assert!(named.len() > 400, "only {} schemas collected", named.len());
    assert!(shared.is_empty(), "names published for more than one schema (one silently wins): {shared:?}");
}

#[test]
fn the_per_ruleset_schemas_made_for_the_document_take_no_name_in_use() {
    let taken: BTreeSet<String> = every_schema().into_iter().map(|(name, _)| name).collect();

    let clashes: Vec<String> =
        rulesets::made_names().into_iter().filter(|name| taken.contains(name)).collect();

    assert!(clashes.is_empty(), "names made per ruleset that a type already has: {clashes:?}");
}

#[test]
fn a_name_shared_by_two_schemas_is_found() {
    let mut named = every_schema();

    named.push(("Problem".to_owned(), crate::wire::MutationResponse::schema()));

    let shared = shared_names(&named, true);

    assert_eq!(shared, [("Problem".to_owned(), 2)]);
}
