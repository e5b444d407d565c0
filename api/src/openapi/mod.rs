//! The OpenAPI document: paths are collected from the routes themselves (utoipa-actix-web), so
//! the spec cannot drift from what is served. `rulesets.rs` types the ruleset-specific parts
//! from the registry, `generators.rs` rewrites shapes client generators mishandle, and
//! `variant_names.rs` names every member of a union.

mod generators;
#[cfg(test)]
mod names;
mod rulesets;
mod variant_names;

use crate::error::ApiError;
use crate::routes;
use actix_web::{App, HttpResponse, web};
use std::sync::OnceLock;
use utoipa::OpenApi;
use utoipa_actix_web::AppExt;

#[derive(OpenApi)]
#[openapi(
    modifiers(&BearerAuth),
    components(schemas(crate::error::Problem, crate::wire::ViewerEventResponse)),
    security(("bearer" = [])),
    info(
        title = "Skirmish",
        description = "A tabletop-RPG combat engine: encounters, initiative, turns and rounds, effects with \
                       durations, dice, and an event log of every change and every die, for five rule systems.\n\n\
                       Every error is `application/problem+json` (RFC 9457) and names the offending `field`. \
                       Every change returns the encounter's `version` and an `ETag`; send `If-Match` to act only \
                       on the version you saw (412 otherwise). Every roll accepts `seed` (replay) or `rolls` \
                       (physical dice) and returns each die with its purpose. Every POST accepts an \
                       `Idempotency-Key`: a retry with the same key and body replays the first response \
                       (`Idempotent-Replayed: true`) without applying anything again.",
        license(name = "MIT")
    ),
    tags(
        (name = "encounters", description = "Fights: create, read, initiative, advance, event log"),
        (name = "combatants", description = "Who is in the fight"),
        (name = "creatures", description = "Your creature library: stat blocks kept to add combatants from"),
        (name = "templates", description = "Saved encounter setups, and encounters started from them in one request"),
        (name = "effects", description = "Conditions and effects with durations"),
        (name = "operations", description = "Ruleset operations on a stored encounter"),
        (name = "rulesets", description = "The rule systems, and stateless operations with inline stat blocks"),
        (name = "viewers", description = "Read-only viewer links and the table view page"),
        (name = "dice", description = "Dice expressions"),
        (name = "webhooks", description = "Signed deliveries of events to a URL (or a Discord channel), from a durable outbox"),
        (name = "service", description = "Health and metrics"),
    )
)]
struct ApiDoc;

/// `Authorization: Bearer <key>` on every `/v1` route (keys from `skirmish keys create`).
struct BearerAuth;

impl utoipa::Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
        let scheme = HttpBuilder::new()
            .scheme(HttpAuthScheme::Bearer)
            .description(Some(
                "An API key from `skirmish keys create --tenant NAME`. Not needed in open mode. A viewer \
                 token (`vwr_…`, from `POST /v1/encounters/{id}/viewers`) may only GET its encounter \
                 and its stream.",
            ))
            .build();
        openapi
            .components
            .get_or_insert_with(Default::default)
            .add_security_scheme("bearer", SecurityScheme::Http(scheme));
    }
}

/// The full document, as served at `/openapi.json` and checked in as `openapi/openapi.json`.
pub fn openapi() -> utoipa::openapi::OpenApi {
    let (_, mut spec) = App::new()
        .into_utoipa_app()
        .openapi(ApiDoc::openapi())
        .configure(routes::configure)
        .split_for_parts();
    utoipa::Modify::modify(&BareOrTaggedTypes, &mut spec);
    utoipa::Modify::modify(&StrictVariants, &mut spec);
    utoipa::Modify::modify(&rulesets::TypedRulesets, &mut spec);
    utoipa::Modify::modify(&generators::GeneratorFriendly, &mut spec);
    utoipa::Modify::modify(&variant_names::NamedVariants, &mut spec);
    utoipa::Modify::modify(&OptionalBodies, &mut spec);
    spec
}

/// Adds the types a client may name bare (`domain::bare_or_tagged`), which their fields refer to
/// by name only.
struct BareOrTaggedTypes;

impl utoipa::Modify for BareOrTaggedTypes {
    fn modify(&self, spec: &mut utoipa::openapi::OpenApi) {
        let components = spec.components.get_or_insert_with(Default::default);
        for (name, schema) in skirmish_domain::bare_or_tagged::component_schemas() {
            components.schemas.entry(name).or_insert(schema);
        }
    }
}

/// `GET /openapi.json`: the document, built on its first request (on the blocking pool: it takes
/// a moment) and kept as JSON text, so a server nobody asks for it never builds it.
pub async fn serve_openapi() -> Result<HttpResponse, ApiError> {
    static DOCUMENT: OnceLock<Result<web::Bytes, String>> = OnceLock::new();
    let document = match DOCUMENT.get() {
        Some(document) => document,
        None => {
            web::block(|| {
                DOCUMENT.get_or_init(|| {
                    serde_json::to_vec(&openapi()).map(web::Bytes::from).map_err(|e| e.to_string())
                })
            })
            .await?
        }
    };
    let json = document.clone().map_err(|error| ApiError::Internal(error.into()))?;
    Ok(HttpResponse::Ok().content_type("application/json").body(json))
}

/// The document as pretty JSON with a trailing newline.
pub fn openapi_json() -> Result<String, serde_json::Error> {
    serde_json::to_string_pretty(&openapi()).map(|text| text + "\n")
}

/// Tagged request enums refuse unknown fields (`deny_unknown_fields`), but utoipa marks only
/// structs so: mark each variant of those enums `additionalProperties: false` too.
struct StrictVariants;

impl utoipa::Modify for StrictVariants {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::RefOr;
        use utoipa::openapi::schema::{AdditionalProperties, Schema};
        let Some(components) = openapi.components.as_mut() else { return };
        for name in ["ExpiryRequest", "MomentWire"] {
            let Some(RefOr::T(Schema::OneOf(one_of))) = components.schemas.get_mut(name) else { continue };
            for variant in &mut one_of.items {
                if let RefOr::T(Schema::Object(object)) = variant {
                    object.additional_properties = Some(Box::new(AdditionalProperties::FreeForm(false)));
                }
            }
        }
    }
}

/// An optional body (`Option<T>` in a route) is published by utoipa as `oneOf [null, T]` with
/// `required: false`; openapi-python-client then sends its `Unset` placeholder when the body is
/// left out and crashes ("Object of type Unset is not JSON serializable"). Published as `T` with
/// `required: false`, both generators send no body when it is left out, which the server reads
/// as the documented default.
struct OptionalBodies;

impl utoipa::Modify for OptionalBodies {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::RefOr;
        use utoipa::openapi::schema::{Schema, SchemaType, Type};
        let bodies = openapi.paths.paths.values_mut().flat_map(|item| {
            [&mut item.get, &mut item.put, &mut item.post, &mut item.delete, &mut item.patch]
                .into_iter()
                .flatten()
                .filter_map(|operation| operation.request_body.as_mut())
        });
        for body in bodies {
            for content in body.content.values_mut() {
                let Some(RefOr::T(Schema::OneOf(one_of))) = &content.schema else { continue };
                let is_null = |item: &RefOr<Schema>| matches!(item, RefOr::T(Schema::Object(o)) if o.schema_type == SchemaType::Type(Type::Null));
                if let [first, second] = one_of.items.as_slice()
                    && is_null(first)
                    && matches!(second, RefOr::Ref(_))
                {
                    content.schema = Some(second.clone());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_optional_body_is_published_as_its_schema_and_not_required() {
        let spec = serde_json::to_value(super::openapi()).unwrap();
        for path in ["/v1/encounters/{id}/advance", "/v1/encounters/{id}/undo", "/v1/encounters/{id}/viewers"]
        {
            let body = &spec["paths"][path]["post"]["requestBody"];
            assert_ne!(body["required"], true, "{path}");
            let schema = &body["content"]["application/json"]["schema"];
            assert!(schema["$ref"].is_string(), "{path}: {schema}");
        }
    }
}
