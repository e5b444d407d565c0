//! Gives every member of a union a name (issue 27, item 6). utoipa writes the variants of a
//! tagged enum inline in its `oneOf`, and generators then name them by position
//! (`CepheusEngineActionsRequestType13`, `LurAskoAttackReportType2`): a name that says nothing
//! and changes when a variant is added before it. Each inline member becomes a component of its
//! own, named after its union and what tells it apart:
//!
//! - an object with a one-value tag property (`"action": "move"`): `{Union}{Tag}`, e.g.
//!   `CepheusEngineActionsRequestMove`, `LurAskoAttackReportHit`;
//! - an object with one required property and no tag (serde's external tagging, `{"other": …}`):
//!   `{Union}{Property}`, e.g. `AdevaD100ActionKindOther`;
//! - the one-value string members of a union (plain unit variants beside variants with data)
//!   become one string enum, `{Union}Name`, listing each value with its description.
//!
//! `null` members (an optional field) and members already named stay as they are. The document
//! accepts and describes exactly the same bodies; only where the schemas live changes. Run after
//! [`super::generators::GeneratorFriendly`], whose merged objects are what gets named.

use utoipa::openapi::schema::{Object, Schema, SchemaType, Type};
use utoipa::openapi::{OpenApi, Ref, RefOr};

/// The modifier (see the module docs).
pub struct NamedVariants;

impl utoipa::Modify for NamedVariants {
    fn modify(&self, openapi: &mut OpenApi) {
        let Some(components) = openapi.components.as_mut() else { return };
        let mut added: Vec<(String, RefOr<Schema>)> = Vec::new();
        for (union_name, schema) in components.schemas.iter_mut() {
            let RefOr::T(Schema::OneOf(one_of)) = schema else { continue };
            let mut names = Vec::new();
            let mut plain: Vec<(String, Option<String>)> = Vec::new();
            let mut plain_at = None;
            for (at, member) in one_of.items.iter_mut().enumerate() {
                let RefOr::T(Schema::Object(object)) = member else { continue };
                if let Some(value) = plain_string(object) {
                    plain_at.get_or_insert(at);
                    plain.push((value, object.description.clone()));
                    continue;
                }
                let Some(suffix) = variant_suffix(object) else { continue };
                let name = unique(format!("{union_name}{suffix}"), &names);
                names.push(name.clone());
                let named = std::mem::replace(member, RefOr::Ref(Ref::from_schema_name(&name)));
                added.push((name, named));
            }
            if let Some(at) = plain_at {
                let name = format!("{union_name}Name");
                one_of.items.retain(
                    |member| !matches!(member, RefOr::T(Schema::Object(o)) if plain_string(o).is_some()),
                );
                one_of.items.insert(at.min(one_of.items.len()), RefOr::Ref(Ref::from_schema_name(&name)));
                added.push((name, RefOr::T(Schema::Object(string_enum(&plain)))));
            }
        }
        let derived = derived_enum_names(components.schemas.iter().chain(added.iter().map(|(n, s)| (n, s))));
        for (name, schema) in added {
            if derived.contains(&name) {
                let renamed = format!("{name}Variant");
                rename_reference(&mut components.schemas, &name, &renamed);
                components.schemas.entry(renamed).or_insert(schema);
            } else {
                components.schemas.entry(name).or_insert(schema);
            }
        }
    }
}

/// Points the union members that name `from` at `to` instead.
fn rename_reference(schemas: &mut std::collections::BTreeMap<String, RefOr<Schema>>, from: &str, to: &str) {
    let from = Ref::from_schema_name(from);
    for schema in schemas.values_mut() {
        let RefOr::T(Schema::OneOf(one_of)) = schema else { continue };
        for member in &mut one_of.items {
            if matches!(member, RefOr::Ref(reference) if *reference == from) {
                *member = RefOr::Ref(Ref::from_schema_name(to));
            }
        }
    }
}

/// The names generators give the inline enums of object properties (`{Schema}{Property}`, as
/// openapi-python-client does): a member named `GrappleAction` beside a member `Grapple` with an
/// `action` tag would take the name of the other's tag enum, so such a member is renamed.
fn derived_enum_names<'a>(schemas: impl Iterator<Item = (&'a String, &'a RefOr<Schema>)>) -> Vec<String> {
    let mut names = Vec::new();
    for (name, schema) in schemas {
        let RefOr::T(Schema::Object(object)) = schema else { continue };
        for (property, value) in &object.properties {
            if matches!(value, RefOr::T(Schema::Object(inner)) if inner.enum_values.is_some()) {
                names.push(format!("{name}{}", pascal(property)));
            }
        }
    }
    names
}

/// `name`, or `name2`, `name3`, … when a member of the same union already took it.
fn unique(name: String, taken: &[String]) -> String {
    if !taken.contains(&name) {
        return name;
    }
    (2..).map(|n| format!("{name}{n}")).find(|candidate| !taken.contains(candidate)).unwrap_or(name)
}

/// The value of a one-value string member (`{"type": "string", "enum": ["burst"]}`).
fn plain_string(object: &Object) -> Option<String> {
    if object.schema_type != SchemaType::Type(Type::String) {
        return None;
    }
    match object.enum_values.as_deref() {
        Some([serde_json::Value::String(value)]) => Some(value.clone()),
        _ => None,
    }
}

/// What tells an object member apart: its one-value tag, else its only required property.
fn variant_suffix(object: &Object) -> Option<String> {
    if object.schema_type != SchemaType::Type(Type::Object) {
        return None;
    }
    let tag = object.properties.values().find_map(|property| match property {
        RefOr::T(Schema::Object(tag)) => plain_string(tag),
        _ => None,
    });
    match (tag, object.required.as_slice()) {
        (Some(value), _) => Some(pascal(&value)),
        (None, [only]) if object.properties.len() == 1 => Some(pascal(only)),
        _ => None,
    }
}

/// `raise_shield` → `RaiseShield`.
fn pascal(snake: &str) -> String {
    snake
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|first| first.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// One string enum of `values`, each value's description listed in the enum's.
fn string_enum(values: &[(String, Option<String>)]) -> Object {
    let mut object = Object::with_type(Type::String);
    object.enum_values = Some(values.iter().map(|(value, _)| value.clone().into()).collect());
    let lines: Vec<String> = values
        .iter()
        .map(|(value, description)| match description {
            Some(text) => format!("- `{value}`: {text}"),
            None => format!("- `{value}`"),
        })
        .collect();
    object.description = Some(lines.join("\n"));
    object
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    fn schemas() -> serde_json::Map<String, Value> {
        let spec = serde_json::to_value(crate::openapi::openapi()).unwrap();
        spec["components"]["schemas"].as_object().unwrap().clone()
    }

    #[test]
    fn no_union_member_is_left_unnamed() {
        for (name, schema) in schemas() {
            for key in ["oneOf", "anyOf"] {
                for member in schema.get(key).and_then(Value::as_array).into_iter().flatten() {
                    let named = member.get("$ref").is_some() || member["type"] == "null";
                    assert!(named, "{name}.{key} has an inline member: {member}");
                }
            }
        }
    }

    #[test]
    fn a_tagged_variant_is_named_after_its_tag() {
        let schemas = schemas();
        let members = schemas["CepheusEngineActionsRequest"]["oneOf"].as_array().unwrap();
        let moving =
            members.iter().find(|m| m["$ref"] == "#/components/schemas/CepheusEngineActionsRequestMove");
        assert!(moving.is_some(), "{members:?}");
        let schema = &schemas["CepheusEngineActionsRequestMove"];
        assert_eq!(schema["properties"]["action"]["enum"], serde_json::json!(["move"]));
        assert!(schemas.contains_key("LurAskoAttackReportHit"));
    }

    #[test]
    fn plain_members_become_one_enum_beside_the_other_variants() {
        let schemas = schemas();
        let members = schemas["AdevaD100ActionKind"]["oneOf"].as_array().unwrap();
        let refs: Vec<&str> = members.iter().filter_map(|m| m["$ref"].as_str()).collect();
        assert!(refs.contains(&"#/components/schemas/AdevaD100ActionKindName"), "{refs:?}");
        assert!(refs.contains(&"#/components/schemas/AdevaD100ActionKindOther"), "{refs:?}");
        let values = schemas["AdevaD100ActionKindName"]["enum"].as_array().unwrap();
        assert!(values.contains(&Value::from("charge")), "{values:?}");
    }

    #[test]
    fn pascal_case_joins_words() {
        assert_eq!(super::pascal("raise_shield"), "RaiseShield");
        assert_eq!(super::pascal("move"), "Move");
        assert_eq!(super::pascal("stopped_by_shielding"), "StoppedByShielding");
    }
}
