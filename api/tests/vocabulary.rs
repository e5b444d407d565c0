//! One vocabulary for all five rulesets (issue 27, item 1; the table is `docs/api-conventions.md`),
//! enforced on the published spec where a rule can be checked mechanically, one test per ruleset
//! so each ruleset's names can be read (and fixed) on their own, and the field tables of
//! `docs/rulesets/*.md` checked against the schemas they document (item 5).

use serde_json::Value;
use skirmish_domain::rulesets::{Ruleset, RulesetVisitor, for_each_ruleset};
use std::collections::BTreeSet;

fn spec() -> Value {
    serde_json::to_value(skirmish_api::openapi::openapi())
        .unwrap_or_else(|error| panic!("the document serialises: {error}"))
}

/// Names that must appear in no schema, with the name to use instead.
const RETIRED: [(&str, &str); 3] = [
    ("actor_id", "combatant_id (the acting combatant of a stored operation)"),
    ("dm", "value (every modifier is {code, value, reason})"),
    ("standing", "standings (always the list of every combatant the operation changed)"),
];

/// A schema's properties (`{}` for a schema without).
fn properties(schema: &Value) -> Vec<(&str, &Value)> {
    schema["properties"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(name, value)| (name.as_str(), value))
        .collect()
}

fn required(schema: &Value) -> BTreeSet<&str> {
    schema["required"].as_array().into_iter().flatten().filter_map(Value::as_str).collect()
}

/// Whether a property schema admits exactly one string (a serde tag).
fn is_tag(property: &Value) -> bool {
    property["enum"].as_array().is_some_and(|values| values.len() == 1) || property.get("const").is_some()
}

/// The names of every schema a request body reaches (what a client writes).
fn written_by_clients(spec: &Value) -> BTreeSet<String> {
    fn reach<'a>(spec: &'a Value, schema: &'a Value, seen: &mut BTreeSet<String>) {
        if let Some(name) = schema["$ref"].as_str().and_then(|reference| reference.rsplit('/').next()) {
            if seen.insert(name.to_owned()) {
                reach(spec, &spec["components"]["schemas"][name], seen);
            }
            return;
        }
        for (_, property) in properties(schema) {
            reach(spec, property, seen);
        }
        for key in ["oneOf", "anyOf", "allOf"] {
            for member in schema[key].as_array().into_iter().flatten() {
                reach(spec, member, seen);
            }
        }
        for key in ["items", "additionalProperties"] {
            if schema[key].is_object() {
                reach(spec, &schema[key], seen);
            }
        }
    }
    let mut seen = BTreeSet::new();
    for (_, item) in spec["paths"].as_object().into_iter().flatten() {
        for (_, operation) in item.as_object().into_iter().flatten() {
            for (_, body) in operation["requestBody"]["content"].as_object().into_iter().flatten() {
                reach(spec, &body["schema"], &mut seen);
            }
        }
    }
    seen
}

/// Every name offered bare (a string enum beside a `$ref` in one `oneOf`, the shape of
/// `bare_or_tagged::schema`), by the schema the `$ref` names.
fn bare_names(spec: &Value) -> BTreeSet<(String, String)> {
    fn visit(schema: &Value, found: &mut BTreeSet<(String, String)>) {
        if let Some(members) = schema["oneOf"].as_array() {
            let reference = members.iter().find_map(|member| member["$ref"].as_str());
            let names = members.iter().filter_map(|member| member["enum"].as_array()).flatten();
            if let Some(reference) = reference {
                let union = reference.rsplit('/').next().unwrap_or_default();
                found.extend(names.filter_map(Value::as_str).map(|name| (union.to_owned(), name.to_owned())));
            }
        }
        match schema {
            Value::Object(map) => map.values().for_each(|value| visit(value, found)),
            Value::Array(items) => items.iter().for_each(|value| visit(value, found)),
            _ => {}
        }
    }
    let mut found = BTreeSet::new();
    visit(&spec["components"], &mut found);
    found
}

/// Whether the tag-only member `name` (tag value `tag`) is also offered as a bare name.
fn offered_bare(bare: &BTreeSet<(String, String)>, name: &str, tag: &Value) -> bool {
    let value = tag["enum"][0].as_str().or(tag["const"].as_str()).unwrap_or_default();
    bare.iter().any(|(union, bare_name)| bare_name == value && name.starts_with(union.as_str()))
}

/// What breaks the conventions in the schemas whose names start with `prefix`.
fn breaches(spec: &Value, prefix: &str) -> Vec<String> {
    let written = written_by_clients(spec);
    let bare = bare_names(spec);
    let mut found = Vec::new();
    for (name, schema) in spec["components"]["schemas"].as_object().into_iter().flatten() {
        if !name.starts_with(prefix) {
            continue;
        }
        let answer = ["Report", "Response", "Outcome", "Result"].iter().any(|part| name.contains(part));
        for (property, _) in properties(schema) {
            if let Some((_, instead)) = RETIRED.iter().find(|(retired, _)| *retired == property) {
                found.push(format!("{name}.{property}: use {instead}"));
            }
            if answer && ["attacker_name", "target_name"].contains(&property) {
                found.push(format!("{name}.{property}: a report names combatants `attacker` / `target`"));
            }
            if name.ends_with("InlineRequest") && property == "name" {
                found.push(format!("{name}.name: a stateless request names its target `target_name`"));
            }
        }
        let props = properties(schema);
        if props.len() == 1
            && is_tag(props[0].1)
            && written.contains(name)
            && !offered_bare(&bare, name, props[0].1)
        {
            found.push(format!(
                "{name}: an object holding only its tag `{}`; a variant without fields is a plain string",
                props[0].0
            ));
        }
        let modifier = name.ends_with("Modifier")
            && !name.ends_with("CallerModifier")
            && !name.ends_with("ExtraModifier");
        if modifier || name.ends_with("DamageStep") {
            let have = required(schema);
            for part in ["code", "value", "reason"] {
                if !have.contains(part) {
                    found.push(format!("{name}: every modifier and damage step carries `{part}`"));
                }
            }
        }
    }
    found
}

/// What is known not to follow the conventions yet (issue 27, item 1 in progress), one line per
/// breach as the checks print it: a ratchet. A new breach fails, and so does a listed one that
/// was fixed (take its line out), so the list only shrinks.
const PENDING: &str = include_str!("vocabulary_pending.txt");

fn pending(prefix: &str) -> Vec<String> {
    PENDING.lines().filter(|line| line.starts_with(prefix)).map(str::to_owned).collect()
}

/// Fails on what `found` has beyond the pending list, and on what the list has that is fixed.
fn assert_only_pending(found: &[String], prefix: &str, what: &str) {
    let known = pending(prefix);
    let new: Vec<&String> = found.iter().filter(|line| !known.contains(line)).collect();
    let fixed: Vec<&String> = known.iter().filter(|line| !found.contains(line)).collect();
    assert!(
        new.is_empty() && fixed.is_empty(),
        "{what}: new (fix them):\n{}\nfixed (take them out of api/tests/vocabulary_pending.txt):\n{}",
        new.iter().map(|line| line.as_str()).collect::<Vec<_>>().join("\n"),
        fixed.iter().map(|line| line.as_str()).collect::<Vec<_>>().join("\n")
    );
}

fn assert_conventions(prefix: &str) {
    assert_only_pending(&breaches(&spec(), prefix), prefix, "breaches of docs/api-conventions.md");
}

#[test]
fn adeva_d100_speaks_the_common_vocabulary() {
    assert_conventions("AdevaD100");
}

#[test]
fn arrgs_speaks_the_common_vocabulary() {
    assert_conventions("Arrgs");
}

#[test]
fn cepheus_engine_speaks_the_common_vocabulary() {
    assert_conventions("CepheusEngine");
}

#[test]
fn lur_asko_speaks_the_common_vocabulary() {
    assert_conventions("LurAsko");
}

#[test]
fn spycraft2_speaks_the_common_vocabulary() {
    assert_conventions("Spycraft2");
}

#[test]
fn the_checks_catch_what_they_describe() {
    let spec = serde_json::json!({"paths": {"/x": {"post": {"requestBody": {"content": {"application/json":
        {"schema": {"$ref": "#/components/schemas/XActionsRequestBrace"}}}}}}}, "components": {"schemas": {
        "XActionsRequestBrace": {"type": "object", "properties": {"action": {"type": "string", "enum": ["brace"]}}},
        "XModifier": {"type": "object", "required": ["code", "reason", "dm"],
            "properties": {"code": {}, "reason": {}, "dm": {}}},
        "XAttackReport": {"type": "object", "properties": {"attacker_name": {}, "standing": {}}},
        "XDamageInlineRequest": {"type": "object", "properties": {"name": {}, "actor_id": {}}},
        "YModifier": {"type": "object", "properties": {"dm": {}}},
        "XAttackOutcomeMiss": {"type": "object", "properties": {"result": {"type": "string", "enum": ["miss"]}}}
    }}});
    let found = breaches(&spec, "X");
    assert_eq!(found.len(), 7, "{found:#?}");
}

// ---- Field tables (item 5) ----

/// Every ruleset doc's `<!-- fields: Schema -->` tables: (doc, schema, documented field names).
fn field_tables() -> Vec<(String, String, Vec<String>)> {
    let docs = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/rulesets");
    let mut tables = Vec::new();
    for entry in std::fs::read_dir(docs).unwrap_or_else(|error| panic!("docs/rulesets: {error}")) {
        let path = entry.unwrap_or_else(|error| panic!("docs/rulesets: {error}")).path();
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
        let doc = path.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
        let mut lines = text.lines();
        while let Some(line) = lines.next() {
            let Some(schema) =
                line.trim().strip_prefix("<!-- fields:").and_then(|rest| rest.strip_suffix("-->"))
            else {
                continue;
            };
            let rows: Vec<String> = lines
                .by_ref()
                .skip_while(|row| row.trim().is_empty())
                .take_while(|row| row.starts_with('|'))
                .filter_map(field_of_row)
                .collect();
            tables.push((doc.clone(), schema.trim().to_owned(), rows));
        }
    }
    tables
}

/// The field a table row documents: the first backticked name of its first cell, up to a `.`,
/// `[` or `?` (`weapon.damage` documents `weapon`); `None` for the header and rule rows.
fn field_of_row(row: &str) -> Option<String> {
    let cell = row.trim_start_matches('|').split('|').next()?.trim();
    let name = cell.strip_prefix('`')?.split('`').next()?;
    let field = name.split(['.', '[', '?', ' ']).next()?;
    (!field.is_empty()).then(|| field.to_owned())
}

/// Every property a body of `schema` may carry: its own, or for a union its members' together.
fn schema_fields(spec: &Value, schema: &Value) -> BTreeSet<String> {
    if let Some(reference) = schema["$ref"].as_str() {
        let name = reference.rsplit('/').next().unwrap_or_default();
        return schema_fields(spec, &spec["components"]["schemas"][name]);
    }
    let mut fields: BTreeSet<String> =
        properties(schema).into_iter().map(|(name, _)| name.to_owned()).collect();
    for key in ["oneOf", "anyOf", "allOf"] {
        for member in schema[key].as_array().into_iter().flatten() {
            fields.extend(schema_fields(spec, member));
        }
    }
    fields
}

#[test]
fn every_field_table_in_the_ruleset_docs_names_only_fields_of_its_schema() {
    let spec = spec();
    let mut wrong = Vec::new();
    for (doc, schema, rows) in field_tables() {
        let Some(found) = spec["components"]["schemas"].get(&schema) else {
            wrong.push(format!("{doc}: `<!-- fields: {schema} -->` names no schema of the spec"));
            continue;
        };
        let fields = schema_fields(&spec, found);
        for row in &rows {
            if !fields.contains(row) {
                wrong.push(format!("{doc}: {schema} has no field `{row}` (it has: {fields:?})"));
            }
        }
        if rows.is_empty() {
            wrong.push(format!("{doc}: the table after `<!-- fields: {schema} -->` documents no field"));
        }
        for name in required(found) {
            if !rows.iter().any(|row| row == name) {
                wrong.push(format!("{doc}: {schema}'s required `{name}` is not in its table"));
            }
        }
    }
    assert!(wrong.is_empty(), "{} field-table error(s):\n{}", wrong.len(), wrong.join("\n"));
}

/// The request schema of every typed stored operation of a ruleset (`/v1/encounters/{id}/<ruleset>/<op>`).
fn operation_requests(spec: &Value, ruleset: &str) -> Vec<String> {
    let mut found = Vec::new();
    let prefix = format!("/v1/encounters/{{id}}/{ruleset}/");
    for (path, item) in spec["paths"].as_object().into_iter().flatten() {
        if !path.starts_with(&prefix) {
            continue;
        }
        let schema = &item["post"]["requestBody"]["content"]["application/json"]["schema"]["$ref"];
        if let Some(reference) = schema.as_str() {
            found.push(reference.rsplit('/').next().unwrap_or_default().to_owned());
        }
    }
    found
}

#[test]
fn every_ruleset_doc_has_a_field_table_for_each_operation_request() {
    struct Ids(Vec<&'static str>);
    impl RulesetVisitor for Ids {
        fn ruleset<R: Ruleset>(&mut self) {
            self.0.push(R::ID.as_str());
        }
    }
    let mut ids = Ids(Vec::new());
    for_each_ruleset(&mut ids);
    let spec = spec();
    let tables = field_tables();
    let mut missing = Vec::new();
    for ruleset in ids.0 {
        for request in operation_requests(&spec, ruleset) {
            let doc = format!("{ruleset}.md");
            if !tables.iter().any(|(at, schema, _)| *at == doc && *schema == request) {
                missing.push(format!("docs/rulesets/{doc}: no `<!-- fields: {request} -->` table"));
            }
        }
    }
    assert_only_pending(&missing, "docs/rulesets/", "operations without a field table");
}

/// One name, one meaning (issue 27): arrgs' `defence` is the Reaction Defence kind wherever it
/// appears, in requests and reports alike; the target's check against it is `defence_check`.
#[test]
fn arrgs_defence_always_names_the_reaction_defence_kind() {
    let spec = spec();
    let mut wrong = Vec::new();
    for (name, schema) in spec["components"]["schemas"].as_object().into_iter().flatten() {
        if !name.starts_with("Arrgs") {
            continue;
        }
        for (property, value) in properties(schema) {
            if property == "defence" && !value.to_string().contains("#/components/schemas/ArrgsDefenceKind") {
                wrong.push(format!("{name}.defence is not an ArrgsDefenceKind: {value}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Every `$ref` of the document names a schema it holds (a field spelled by hand, like the
/// bare-or-tagged ones, refers to its type by name only; generators and fuzzers drop such a part).
#[test]
fn every_reference_of_the_spec_resolves() {
    fn walk(value: &Value, refs: &mut BTreeSet<String>) {
        match value {
            Value::Object(map) => {
                if let Some(Value::String(reference)) = map.get("$ref") {
                    refs.insert(reference.clone());
                }
                map.values().for_each(|inner| walk(inner, refs));
            }
            Value::Array(items) => items.iter().for_each(|inner| walk(inner, refs)),
            _ => {}
        }
    }
    let spec = spec();
    let mut refs = BTreeSet::new();
    walk(&spec, &mut refs);
    let dangling: Vec<&String> = refs
        .iter()
        .filter(|reference| {
            let name = reference.trim_start_matches("#/components/schemas/");
            spec["components"]["schemas"].get(name).is_none()
        })
        .collect();
    assert!(dangling.is_empty(), "references to no schema: {dangling:?}");
}
