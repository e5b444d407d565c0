//! Rewrites three shapes utoipa emits that client generators mishandle, without changing what a
//! request may contain or what a response holds (`scripts/clients.sh` proves the result):
//!
//! - an empty `enum` (the report union of a ruleset with no operations, never built): invalid for
//!   openapi-python-client, which then refuses the whole document. The schema is removed with
//!   every `oneOf` branch naming it, and repeated `oneOf` branches are kept once.
//! - an object `default` beside a `$ref` wrapped in `oneOf`/`allOf` (a `#[serde(default)]` field of
//!   struct type): openapi-python-client drops the schema ("ModelProperty cannot have a default
//!   value") and every schema that uses it. The default says only that the field may be left out,
//!   which `required` already says.
//! - a `oneOf` branch that is `allOf` plain objects (a tagged enum variant wrapping a struct, or a
//!   flattened struct): openapi-python-client cannot type it ("Invalid property in union"). The
//!   branch becomes the one object with all the parts' properties and required fields.
//! - an `allOf` of plain objects and one `oneOf` of plain objects (a struct flattening a tagged
//!   enum): openapi-python-client refuses it ("Cannot take allOf a non-object") and drops every
//!   schema that uses it. It becomes a `oneOf` with one merged object per branch: the same
//!   documents match (`allOf` distributes over `oneOf`).

use std::collections::BTreeMap;

use utoipa::openapi::schema::{
    AdditionalProperties, AllOf, ArrayItems, Object, OneOf, Schema, SchemaType, Type,
};
use utoipa::openapi::{OpenApi, RefOr};

type Schemas = BTreeMap<String, RefOr<Schema>>;

/// The modifier (see the module docs).
pub struct GeneratorFriendly;

impl utoipa::Modify for GeneratorFriendly {
    fn modify(&self, openapi: &mut OpenApi) {
        let Some(components) = openapi.components.as_mut() else { return };
        let schemas = &mut components.schemas;
        let empty: Vec<String> = schemas
            .iter()
            .filter(|(_, schema)| matches!(schema, RefOr::T(Schema::Object(object)) if object.enum_values.as_ref().is_some_and(Vec::is_empty)))
            .map(|(name, _)| format!("#/components/schemas/{name}"))
            .collect();
        schemas.retain(|name, _| !empty.contains(&format!("#/components/schemas/{name}")));
        let snapshot = schemas.clone();
        for schema in schemas.values_mut() {
            rewrite(schema, &snapshot, &empty);
        }
    }
}

/// Applies the rewrites to `schema` and everything inside it.
fn rewrite(schema: &mut RefOr<Schema>, all: &Schemas, empty: &[String]) {
    let RefOr::T(schema) = schema else { return };
    if let Schema::AllOf(all_of) = schema
        && let Some(one_of) = distributed(all_of, all)
    {
        *schema = Schema::OneOf(one_of);
    }
    match schema {
        Schema::Object(object) => {
            for property in object.properties.values_mut() {
                drop_object_default(property);
                rewrite(property, all, empty);
            }
            if let Some(additional) = object.additional_properties.as_deref_mut()
                && let AdditionalProperties::RefOr(inner) = additional
            {
                rewrite(inner, all, empty);
            }
        }
        Schema::Array(array) => {
            if let ArrayItems::RefOrSchema(items) = &mut array.items {
                rewrite(items, all, empty);
            }
        }
        Schema::OneOf(one_of) => {
            let mut kept: Vec<RefOr<Schema>> = Vec::with_capacity(one_of.items.len());
            for mut item in std::mem::take(&mut one_of.items) {
                let named = matches!(&item, RefOr::Ref(reference) if empty.contains(&reference.ref_location));
                if named || kept.contains(&item) {
                    continue;
                }
                if let RefOr::T(Schema::AllOf(all_of)) = &item
                    && let Some(merged) = merged(all_of, all)
                {
                    item = RefOr::T(Schema::Object(merged));
                }
                rewrite(&mut item, all, empty);
                kept.push(item);
            }
            one_of.items = kept;
        }
        Schema::AllOf(all_of) => all_of.items.iter_mut().for_each(|item| rewrite(item, all, empty)),
        Schema::AnyOf(any_of) => any_of.items.iter_mut().for_each(|item| rewrite(item, all, empty)),
        _ => {}
    }
}

/// Removes an object-valued `default` from a `oneOf`/`allOf` wrapper around a reference.
fn drop_object_default(property: &mut RefOr<Schema>) {
    let default = match property {
        RefOr::T(Schema::OneOf(one_of)) => &mut one_of.default,
        RefOr::T(Schema::AllOf(all_of)) => &mut all_of.default,
        _ => return,
    };
    if matches!(default, Some(serde_json::Value::Object(_))) {
        *default = None;
    }
}

/// The `oneOf` equivalent to `all_of` when exactly one part is (or names) a `oneOf` and every
/// branch merged with the other parts is one plain object (see [`merged`]).
fn distributed(all_of: &AllOf, all: &Schemas) -> Option<OneOf> {
    let resolve = |item: &RefOr<Schema>| -> Option<RefOr<Schema>> {
        match item {
            RefOr::Ref(reference) => {
                let name = reference.ref_location.strip_prefix("#/components/schemas/")?;
                all.get(name).cloned()
            }
            inline => Some(inline.clone()),
        }
    };
    let unions: Vec<usize> = (0..all_of.items.len())
        .filter(|&i| matches!(resolve(&all_of.items[i]), Some(RefOr::T(Schema::OneOf(_)))))
        .collect();
    let [at] = unions[..] else { return None };
    let Some(RefOr::T(Schema::OneOf(union))) = resolve(&all_of.items[at]) else { return None };
    let mut one_of = OneOf::new();
    one_of.description = all_of.description.clone().or(union.description.clone());
    for branch in &union.items {
        let mut parts = all_of.clone();
        parts.items[at] = branch.clone();
        parts.description = match resolve(branch)? {
            // Not the `null` of an optional flattened union: `allOf` with it matches nothing.
            RefOr::T(Schema::Object(object)) if object.schema_type == SchemaType::Type(Type::Object) => {
                object.description
            }
            RefOr::T(Schema::AllOf(nested)) => nested.description,
            _ => return None,
        };
        one_of.items.push(RefOr::T(Schema::Object(merged(&parts, all)?)));
    }
    Some(one_of)
}

/// The one object equivalent to `all_of`, when every part is a plain object (inline or named) or
/// itself such an `allOf` (serde's `flatten` nests them).
fn merged(all_of: &AllOf, all: &Schemas) -> Option<Object> {
    let mut parts = Vec::with_capacity(all_of.items.len());
    for item in &all_of.items {
        let part = match item {
            RefOr::Ref(reference) => {
                let name = reference.ref_location.strip_prefix("#/components/schemas/")?;
                all.get(name)?
            }
            inline => inline,
        };
        let object = match part {
            RefOr::T(Schema::Object(object)) => object.clone(),
            RefOr::T(Schema::AllOf(nested)) => merged(nested, all)?,
            _ => return None,
        };
        if object.enum_values.is_some()
            || object
                .additional_properties
                .as_deref()
                .is_some_and(|extra| !matches!(extra, AdditionalProperties::FreeForm(false)))
        {
            return None;
        }
        parts.push(object);
    }
    let mut object = Object::with_type(Type::Object);
    object.description = all_of.description.clone();
    for part in &parts {
        for (name, schema) in &part.properties {
            object.properties.insert(name.clone(), schema.clone());
        }
        for name in &part.required {
            if !object.required.contains(name) {
                object.required.push(name.clone());
            }
        }
    }
    if !parts.is_empty() && parts.iter().all(|part| part.additional_properties.is_some()) {
        object.additional_properties = Some(Box::new(AdditionalProperties::FreeForm(false)));
    }
    Some(object)
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    /// Every `(path, node)` in the served document.
    fn nodes(value: &Value, path: String, out: &mut Vec<(String, Value)>) {
        out.push((path.clone(), value.clone()));
        match value {
            Value::Object(map) => {
                map.iter().for_each(|(key, child)| nodes(child, format!("{path}/{key}"), out))
            }
            Value::Array(items) => {
                items.iter().enumerate().for_each(|(i, child)| nodes(child, format!("{path}/{i}"), out))
            }
            _ => {}
        }
    }

    fn document() -> Vec<(String, Value)> {
        let spec = serde_json::to_value(crate::openapi::openapi()).unwrap();
        let mut out = Vec::new();
        nodes(&spec, String::new(), &mut out);
        out
    }

    #[test]
    fn no_shape_the_python_generator_refuses_is_left() {
        for (path, node) in document() {
            assert_ne!(node.get("enum"), Some(&Value::Array(vec![])), "empty enum at {path}");
            if node.get("oneOf").is_some() || node.get("allOf").is_some() {
                assert!(!node.get("default").is_some_and(Value::is_object), "object default at {path}");
            }
            if let Some(Value::Array(branches)) = node.get("oneOf") {
                assert!(
                    branches.iter().all(|branch| branch.get("allOf").is_none()),
                    "allOf branch at {path}"
                );
                for (i, branch) in branches.iter().enumerate() {
                    assert!(!branches[..i].contains(branch), "repeated oneOf branch at {path}/oneOf/{i}");
                }
            }
        }
    }

    #[test]
    fn no_all_of_has_a_one_of_part() {
        let spec = serde_json::to_value(crate::openapi::openapi()).unwrap();
        let schemas = &spec["components"]["schemas"];
        let is_union = |part: &Value| {
            let named = part["$ref"].as_str().and_then(|r| r.strip_prefix("#/components/schemas/"));
            named.map_or(part, |name| &schemas[name]).get("oneOf").is_some()
        };
        for (path, node) in document() {
            if let Some(Value::Array(parts)) = node.get("allOf") {
                assert!(!parts.iter().any(is_union), "allOf over a oneOf at {path}");
            }
        }
    }

    /// A union's branches, each named one looked up (`variant_names` names every branch).
    fn branches(spec: &Value, union: &Value) -> Vec<Value> {
        let named = |branch: &Value| match branch["$ref"].as_str() {
            Some(reference) => {
                let name = reference.trim_start_matches("#/components/schemas/");
                spec["components"]["schemas"][name].clone()
            }
            None => branch.clone(),
        };
        union["oneOf"].as_array().unwrap().iter().map(named).collect()
    }

    #[test]
    fn a_flattened_union_becomes_one_object_per_branch() {
        // The Lur-Asko attack report flattens its outcome (stopped, defended, hit) beside its own fields.
        let spec = serde_json::to_value(crate::openapi::openapi()).unwrap();
        let report = &spec["components"]["schemas"]["LurAskoAttackReport"];
        let branches = branches(&spec, report);
        let tags: Vec<&Value> =
            branches.iter().map(|branch| &branch["properties"]["outcome"]["enum"][0]).collect();
        assert_eq!(tags, ["stopped_by_shielding", "defended", "hit"]);
        for branch in &branches {
            let required = branch["required"].as_array().unwrap();
            for field in ["outcome", "attacker", "portions", "standings"] {
                assert!(required.iter().any(|name| name == field), "{field} not required in {branch}");
            }
            // The dice are carried next to the report (the answer's and the event's `dice`).
            assert!(branch["properties"].get("dice").is_none(), "dice listed in {branch}");
        }
        assert!(branches[2]["required"].as_array().unwrap().iter().any(|name| name == "injury"));
    }

    #[test]
    fn a_merged_branch_keeps_every_part() {
        // The Adeva `boarding` action: its own fields, the actor's and the `action` tag, all required.
        let spec = serde_json::to_value(crate::openapi::openapi()).unwrap();
        let branches = branches(&spec, &spec["components"]["schemas"]["AdevaD100ActionsRequest"]);
        let boarding =
            branches.iter().find(|branch| branch["properties"]["action"]["enum"][0] == "boarding").unwrap();
        for field in ["action", "combatant_id", "target_id", "damage", "target_is_starship"] {
            assert!(boarding["properties"].get(field).is_some(), "{field} missing");
            assert!(
                boarding["required"].as_array().unwrap().iter().any(|name| name == field),
                "{field} not required"
            );
        }
    }
}
