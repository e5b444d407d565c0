//! One typed route per ruleset operation, with its OpenAPI path and named schemas built from the
//! command's own types: `<Ruleset><Operation>Request` (the ruleset's request plus the dice fields),
//! `<Ruleset><Operation>Response` / `…InlineResponse` (the envelope around the one report type).
//! Generated clients get one typed function per operation (see GUIDE §2a: typed routes beat one
//! route with an undiscriminated `oneOf` body, which generators cannot narrow).

use super::fallback::not_found_or_method_not_allowed;
use super::operations;
use super::registrar::{Register, RoutePattern};
use super::responses::{AuthErrors, DiceErrors, IdempotencyHeader, IfMatchHeader, MutationErrors};
use crate::error::Problem;
use actix_web::dev::{AppService, HttpServiceFactory};
use actix_web::web;
use serde_json::Value;
use skirmish_domain::dice::MAX_SCRIPTED_ROLLS;
use skirmish_domain::rulesets::{Command, CommandVisitor, Ruleset, Stateless, for_each_command};
use utoipa::openapi::path::{
    HttpMethod, Operation, OperationBuilder, ParameterBuilder, ParameterIn, PathItem, Paths,
};
use utoipa::openapi::request_body::RequestBodyBuilder;
use utoipa::openapi::schema::{ArrayBuilder, KnownFormat, ObjectBuilder, Schema, SchemaFormat, Type};
use utoipa::openapi::{ContentBuilder, Ref, RefOr, Required, ResponseBuilder, ResponsesBuilder};
use utoipa::{IntoParams, IntoResponses, ToSchema};
use utoipa_actix_web::OpenApiFactory;

type Schemas = Vec<(String, RefOr<Schema>)>;

/// An actix resource together with its part of the OpenAPI document.
pub struct TypedRoute {
    resource: actix_web::Resource,
    /// `/v1/rulesets/<ruleset>/<name>` or `/v1/encounters/{id}/<ruleset>/<name>`; always `POST`.
    path: String,
    /// Its OpenAPI path item and schemas, built only when asked for (by the OpenAPI document): the
    /// served app never needs them, and building them for every route at start left ~2 MB of
    /// freed but resident heap behind (idle RSS).
    paths: fn() -> Paths,
    schemas: fn() -> Schemas,
}

/// A typed operation's resource: a method its route does not take (`GET` of a `POST`-only path)
/// is answered by the app's own 405 problem with `Allow`, not by actix's empty 405.
fn typed_resource(path: String) -> actix_web::Resource {
    web::resource(path).default_service(web::to(not_found_or_method_not_allowed))
}

/// Registers the typed stored route of every registered operation (documented in the spec).
pub fn register_stored(routes: &mut impl Register) {
    struct Visit<'a, R>(&'a mut R);
    impl<R: Register> CommandVisitor for Visit<'_, R> {
        fn command<C: Command>(&mut self) {
            self.0.add(TypedRoute::stored::<C>());
        }
        fn stateless<C: Stateless>(&mut self) {
            self.command::<C>();
        }
    }
    for_each_command(&mut Visit(routes));
}

/// Registers the typed stateless route of every operation that has one (documented in the spec).
pub fn register_inline(routes: &mut impl Register) {
    struct Visit<'a, R>(&'a mut R);
    impl<R: Register> CommandVisitor for Visit<'_, R> {
        fn command<C: Command>(&mut self) {}
        fn stateless<C: Stateless>(&mut self) {
            self.0.add(TypedRoute::inline::<C>());
        }
    }
    for_each_command(&mut Visit(routes));
}

/// The path pattern and method, without building the OpenAPI operation.
impl RoutePattern for TypedRoute {
    fn pattern(&self) -> (String, Vec<HttpMethod>) {
        (self.path.clone(), vec![HttpMethod::Post])
    }
}

impl HttpServiceFactory for TypedRoute {
    fn register(self, config: &mut AppService) {
        self.resource.register(config);
    }
}

impl OpenApiFactory for TypedRoute {
    fn paths(&self) -> Paths {
        (self.paths)()
    }

    fn schemas(&self, schemas: &mut Schemas) {
        schemas.extend((self.schemas)());
    }
}

/// `attacks` → `Attacks`, `called_shot` → `CalledShot`.
fn pascal(name: &str) -> String {
    name.split(['_', '-'])
        .map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|first| first.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect()
}

fn integer(format: KnownFormat, minimum: f64, maximum: f64, description: &str) -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(Type::Integer)
        .format(Some(SchemaFormat::KnownFormat(format)))
        .minimum(Some(minimum))
        .maximum(Some(maximum))
        .description(Some(description))
        .into()
}

/// The dice fields every operation body takes beside the ruleset's request.
fn dice_fields() -> Vec<(&'static str, RefOr<Schema>)> {
    let seed = integer(
        KnownFormat::Int64,
        0.0,
        crate::wire::MAX_SEED as f64,
        "Seed of the RNG, to replay a roll (a fresh one is drawn and reported when left out).",
    );
    let die =
        integer(KnownFormat::Int32, 1.0, f64::from(skirmish_domain::dice::MAX_SIDES), "One die as rolled");
    let rolls = ArrayBuilder::new()
        .items(die)
        .max_items(Some(MAX_SCRIPTED_ROLLS))
        .description(Some("Dice rolled at the table, used in order before the RNG takes over."))
        .into();
    let strict = ObjectBuilder::new()
        .schema_type(Type::Boolean)
        .description(Some("Refuse (422 naming `rolls`) when `rolls` holds too few or too many dice."))
        .into();
    vec![("seed", seed), ("rolls", rolls), ("strict_rolls", strict)]
}

/// The ruleset's request schema with the dice fields added to it (to each variant of a tagged
/// enum). A variant that is only a reference is wrapped as `allOf [variant, dice fields]`.
fn with_dice_fields(schema: RefOr<Schema>) -> RefOr<Schema> {
    match schema {
        RefOr::T(Schema::Object(mut object)) => {
            for (name, field) in dice_fields() {
                object.properties.insert(name.to_owned(), field);
            }
            RefOr::T(Schema::Object(object))
        }
        RefOr::T(Schema::OneOf(mut one_of)) => {
            one_of.items = one_of.items.into_iter().map(with_dice_fields).collect();
            RefOr::T(Schema::OneOf(one_of))
        }
        RefOr::T(Schema::AllOf(mut all_of)) => {
            let mut dice = ObjectBuilder::new();
            for (name, field) in dice_fields() {
                dice = dice.property(name, field);
            }
            all_of.items.push(dice.into());
            RefOr::T(Schema::AllOf(all_of))
        }
        other => other,
    }
}

fn reference(name: &str) -> RefOr<Schema> {
    RefOr::Ref(Ref::from_schema_name(name))
}

/// The response envelope: `stored` adds the encounter's version and the events.
fn envelope(report: &str, stored: bool) -> RefOr<Schema> {
    let mut object = ObjectBuilder::new();
    if stored {
        object = object
            .property(
                "version",
                integer(KnownFormat::Int64, 1.0, i64::MAX as f64, "The encounter's new version"),
            )
            .required("version");
    }
    let die = reference(&<crate::wire::DieResponse as ToSchema>::name());
    let leftover = ObjectBuilder::new()
        .schema_type(Type::Integer)
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int32)));
    object = object
        .property("seed", integer(KnownFormat::Int64, 0.0, crate::wire::MAX_SEED as f64, "The RNG's seed"))
        .required("seed")
        .property("dice", ArrayBuilder::new().items(die).description(Some("Every die rolled, in order")))
        .required("dice")
        .property(
            "unused_rolls",
            ArrayBuilder::new()
                .items(leftover)
                .description(Some("Scripted values sent in `rolls` that no die used")),
        )
        .required("unused_rolls")
        .property(
            "summary",
            ObjectBuilder::new().schema_type(Type::String).description(Some("The report in one line")),
        )
        .required("summary")
        .property("result", reference(report))
        .required("result");
    if stored {
        let event = reference(&<crate::wire::EventNotice as ToSchema>::name());
        object = object
            .property(
                "events",
                ArrayBuilder::new()
                    .items(event)
                    .description(Some("The log entries appended (their data is in the log and the stream)")),
            )
            .required("events");
    }
    object.into()
}

fn collect<T: ToSchema>(schemas: &mut Schemas) {
    schemas.push((T::name().into_owned(), T::schema()));
    T::schemas(schemas);
}

/// Parses a command's JSON example (a test checks each one reads back as its request).
fn example(text: &str) -> Option<Value> {
    serde_json::from_str(text).ok()
}

/// What the spec says of one operation.
struct OperationDoc<'a> {
    id: String,
    tag: &'a str,
    summary: String,
    description: &'a str,
    /// Schema names of the body and the 200 response.
    body: &'a str,
    response: &'a str,
    example: &'a str,
    stored: bool,
}

fn operation(doc: OperationDoc<'_>) -> Operation {
    let OperationDoc { id, tag, summary, description, body, response, example: example_text, stored } = doc;
    let content = ContentBuilder::new().schema(Some(reference(body))).example(example(example_text)).build();
    let request_body =
        RequestBodyBuilder::new().content("application/json", content).required(Some(Required::True));
    let ok = ResponseBuilder::new()
        .description("The operation's report, every die and (stored) the events it appended")
        .content("application/json", ContentBuilder::new().schema(Some(reference(response))).build());
    let mut responses = ResponsesBuilder::new().response("200", ok);
    let errors = if stored { MutationErrors::responses() } else { DiceErrors::responses() };
    for (status, error) in errors.into_iter().chain(AuthErrors::responses()) {
        responses = responses.response(status, error);
    }
    if !stored {
        let refused = ResponseBuilder::new()
            .description("A combatant sent is dead by its ruleset's rule and may receive nothing more; `field` names it")
            .content("application/problem+json", ContentBuilder::new().schema(Some(reference("Problem"))).build());
        responses = responses.response("409", refused);
    }
    let mut builder = OperationBuilder::new()
        .operation_id(Some(id))
        .tag(tag)
        .summary(Some(summary))
        .description(Some(description))
        .request_body(Some(request_body.build()))
        .responses(responses.build());
    if stored {
        let id = ParameterBuilder::new()
            .name("id")
            .parameter_in(ParameterIn::Path)
            .required(Required::True)
            .description(Some("Encounter id"))
            .schema(Some(ObjectBuilder::new().schema_type(Type::String)))
            .build();
        builder = builder.parameter(id);
        builder = IfMatchHeader::into_params(|| Some(ParameterIn::Header))
            .into_iter()
            .fold(builder, |b, p| b.parameter(p));
    }
    let idempotency = IdempotencyHeader::into_params(|| Some(ParameterIn::Header));
    idempotency.into_iter().fold(builder, |b, p| b.parameter(p)).build()
}

/// What differs between the stored and the stateless route of one command.
struct Form<'a> {
    /// `""` for the stored form, `"Inline"` for the stateless one (schema names).
    kind: &'static str,
    path: String,
    id_suffix: &'static str,
    summary: &'static str,
    example: &'a str,
    stored: bool,
}

impl TypedRoute {
    /// `POST /v1/encounters/{id}/<ruleset>/<name>`.
    pub fn stored<C: Command>() -> Self {
        Self {
            resource: typed_resource(stored_form::<C>().path).route(web::post().to(operations::stored::<C>)),
            path: stored_form::<C>().path,
            paths: || operation_paths::<C>(stored_form::<C>()),
            schemas: schemas::<C, C::Request, true>,
        }
    }

    /// `POST /v1/rulesets/<ruleset>/<name>`.
    pub fn inline<C: Stateless>() -> Self {
        Self {
            resource: typed_resource(inline_form::<C>().path).route(web::post().to(operations::inline::<C>)),
            path: inline_form::<C>().path,
            paths: || operation_paths::<C>(inline_form::<C>()),
            schemas: schemas::<C, C::InlineRequest, false>,
        }
    }
}

fn stored_form<C: Command>() -> Form<'static> {
    Form {
        kind: "",
        path: format!("/v1/encounters/{{id}}/{}/{}", <C::Ruleset as Ruleset>::ID, C::NAME),
        id_suffix: "",
        summary: "on a stored encounter",
        example: C::EXAMPLE,
        stored: true,
    }
}

fn inline_form<C: Stateless>() -> Form<'static> {
    Form {
        kind: "Inline",
        path: format!("/v1/rulesets/{}/{}", <C::Ruleset as Ruleset>::ID, C::NAME),
        id_suffix: "_inline",
        summary: "on inline stat blocks (nothing stored)",
        example: C::INLINE_EXAMPLE,
        stored: false,
    }
}

/// The OpenAPI path item of one form of command `C`.
fn operation_paths<C: Command>(form: Form<'_>) -> Paths {
    let ruleset = <C::Ruleset as Ruleset>::ID;
    let (body, response) = schema_names::<C>(form.kind);
    let operation = operation(OperationDoc {
        id: format!("{}_{}{}", ruleset.as_str(), C::NAME, form.id_suffix).replace('-', "_"),
        tag: ruleset.as_str(),
        summary: format!("{ruleset}: {} {}", C::NAME.replace('_', " "), form.summary),
        description: C::DESCRIPTION,
        body: &body,
        response: &response,
        example: form.example,
        stored: form.stored,
    });
    Paths::builder().path(&form.path, PathItem::new(HttpMethod::Post, operation)).build()
}

/// The names of an operation's body and response schemas.
fn schema_names<C: Command>(kind: &str) -> (String, String) {
    let prefix = format!("{}{}{kind}", <C::Ruleset as Ruleset>::SCHEMA_PREFIX, pascal(C::NAME));
    (format!("{prefix}Request"), format!("{prefix}Response"))
}

/// The schemas of one form of an operation: its body, its report and the envelope.
fn schemas<C: Command, Request: ToSchema, const STORED: bool>() -> Schemas {
    let (body, response) = schema_names::<C>(if STORED { "" } else { "Inline" });
    let mut schemas = Schemas::new();
    Request::schemas(&mut schemas);
    schemas.push((body, with_dice_fields(Request::schema())));
    collect::<C::Report>(&mut schemas);
    schemas.push((response, envelope(&C::Report::name(), STORED)));
    collect::<Problem>(&mut schemas);
    schemas
}

#[cfg(test)]
#[path = "typed_route_tests.rs"]
mod tests;
