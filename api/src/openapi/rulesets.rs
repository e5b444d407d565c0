//! Types the ruleset-specific parts of the generic schemas, walking the registry: each ruleset gets
//! `<Ruleset>Combatant` and `<Ruleset>Encounter` (its stat block, combat state and options), and the
//! generic `CombatantResponse` / `EncounterResponse` become `oneOf` those with a `discriminator` on
//! `ruleset` — generated clients narrow on it. Request fields that take any ruleset's stat block
//! or options become a `oneOf` of the rulesets' schemas (the encounter's ruleset decides which).

use utoipa::openapi::schema::{Discriminator, OneOfBuilder, Schema};
use utoipa::openapi::{OpenApi, Ref, RefOr};
use utoipa::{PartialSchema, ToSchema};

use skirmish_domain::rulesets::{Ruleset, RulesetVisitor, for_each_ruleset};

type Schemas = std::collections::BTreeMap<String, RefOr<Schema>>;

/// What the walk over the rulesets gathers.
#[derive(Default)]
struct Gathered {
    schemas: Vec<(String, RefOr<Schema>)>,
    /// Per ruleset: id, schema prefix and the names of its stats, state and options schemas.
    rulesets: Vec<(&'static str, &'static str, String, String, String)>,
}

impl RulesetVisitor for Gathered {
    fn ruleset<R: Ruleset>(&mut self) {
        let mut add = |name: String, schema: RefOr<Schema>| self.schemas.push((name, schema));
        add(R::Stats::name().into_owned(), R::Stats::schema());
        for (name, schema) in
            [(R::State::name(), R::State::schema()), (R::Options::name(), R::Options::schema())]
        {
            if !NOTHING.iter().any(|empty| empty.ends_with(name.as_ref())) {
                add(name.into_owned(), schema);
            }
        }
        R::Stats::schemas(&mut self.schemas);
        R::State::schemas(&mut self.schemas);
        R::Options::schemas(&mut self.schemas);
        self.rulesets.push((
            R::ID.as_str(),
            R::SCHEMA_PREFIX,
            R::Stats::name().into_owned(),
            R::State::name().into_owned(),
            R::Options::name().into_owned(),
        ));
    }
}

/// Every schema the registry walk adds, with its name, as [`TypedRulesets`] gathers them.
#[cfg(test)]
pub(super) fn ruleset_schemas() -> Vec<(String, RefOr<Schema>)> {
    let mut gathered = Gathered::default();
    for_each_ruleset(&mut gathered);
    gathered.schemas
}

/// The names [`TypedRulesets`] gives the schemas it makes per ruleset.
#[cfg(test)]
pub(super) fn made_names() -> Vec<String> {
    let mut gathered = Gathered::default();
    for_each_ruleset(&mut gathered);
    let per_ruleset = |(_, prefix, ..): &(&str, &str, String, String, String)| {
        [
            format!("{prefix}Combatant"),
            format!("{prefix}Encounter"),
            format!("{prefix}Creature"),
            format!("{prefix}StatsPatch"),
        ]
    };
    gathered.rulesets.iter().flat_map(per_ruleset).collect()
}

fn reference(name: &str) -> RefOr<Schema> {
    RefOr::Ref(Ref::from_schema_name(name))
}

/// A copy of the object schema `base` with its `ruleset` fixed to `id` and the given properties
/// replaced.
fn specialise(base: &RefOr<Schema>, id: &str, replace: &[(&str, RefOr<Schema>)]) -> Option<RefOr<Schema>> {
    let RefOr::T(Schema::Object(object)) = base else { return None };
    let mut object = object.clone();
    object.description = Some(format!("{} for the {id} ruleset.", object.description.unwrap_or_default()));
    object.example = None;
    let ruleset = utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .enum_values(Some([id]))
        .build();
    object.properties.insert("ruleset".into(), RefOr::T(Schema::Object(ruleset)));
    for (name, schema) in replace {
        if matches!(schema, RefOr::Ref(reference) if NOTHING.iter().any(|empty| reference.ref_location.ends_with(empty)))
        {
            // A ruleset without state or options: the property is always `{}`, so it is not published.
            object.properties.remove(*name);
            object.required.retain(|required| required != name);
        } else {
            object.properties.insert((*name).to_owned(), schema.clone());
        }
    }
    Some(RefOr::T(Schema::Object(object)))
}

/// An encounter as `GET /v1/encounters/{id}` answers it.
const ENCOUNTER_EXAMPLE: &str = r#"{"id": "enc_5a1c", "ruleset": "cepheus-engine", "name": "Ambush at the starport",
  "status": "active", "round": 1, "current_turn": {"combatant_id": "cmb_1f2e", "name": "Hicks"}, "version": 6,
  "created_at": "2026-11-21T10:00:00.000Z", "updated_at": "2026-11-21T10:02:00.000Z",
  "combatants": [{"id": "cmb_1f2e", "ruleset": "cepheus-engine", "name": "Hicks", "side": "marines",
    "stats": {"str": 7, "dex": 7, "end": 8, "int": 8, "edu": 8, "soc": 7},
    "initiative": {"score": 11, "roll_off": [], "explanation": "2D6 (6+5) + DEX DM +0 = 11"},
    "surprised": false, "defeated": false, "hidden": false, "public": false, "acted_this_round": false, "delaying": false,
    "state": {}}],
  "turn_order": [{"combatant_id": "cmb_1f2e", "name": "Hicks", "initiative": 11, "slot": 1, "simultaneous": false,
    "acted": false, "defeated": false}],
  "effects": [], "options": {}}"#;

/// A creature as `GET /v1/creatures/{creature_id}` answers it.
const CREATURE_EXAMPLE: &str = r#"{"id": "crt_5b2e", "ruleset": "cepheus-engine", "name": "Goblin",
  "stats": {"str": 5, "dex": 8, "end": 5, "int": 4, "edu": 2, "soc": 2}, "side": "goblins",
  "notes": "Flees when half the band is down.", "hidden": false, "public": false,
  "created_at": "2026-12-07T20:00:00.000Z", "updated_at": "2026-12-07T20:00:00.000Z"}"#;

/// A ruleset's stat block schema with no field required: a JSON merge patch of such a block
/// (the fields given replace the block's).
fn stats_patch(stats: Option<&RefOr<Schema>>, id: &str) -> Option<RefOr<Schema>> {
    let Some(RefOr::T(Schema::Object(object))) = stats else { return None };
    let mut object = object.clone();
    object.required.clear();
    object.description = Some(format!(
        "Changes to a {id} stat block as a JSON merge patch (RFC 7386): any of its fields, each replacing the block's."
    ));
    object.example = None;
    Some(RefOr::T(Schema::Object(object)))
}

/// The empty state and options of rulesets that keep none.
const NOTHING: [&str; 2] = ["/NoState", "/NoOptions"];

/// `oneOf` the named schemas, with a discriminator on `ruleset` when `mapping` is given; without
/// one, `anyOf`: a value may fit several of them (`{}` is a valid stat block or options object of
/// more than one ruleset), which `oneOf` would call invalid.
fn one_of(names: &[String], mapping: Option<Vec<(String, String)>>) -> RefOr<Schema> {
    let Some(mapping) = mapping else { return any_of(names.iter().map(|name| reference(name))) };
    let mut builder = OneOfBuilder::new();
    for name in names {
        builder = builder.item(reference(name));
    }
    let mut discriminator = Discriminator::new("ruleset");
    for (id, name) in mapping {
        discriminator.mapping.insert(id, format!("#/components/schemas/{name}"));
    }
    builder.discriminator(Some(discriminator)).into()
}

fn any_of(items: impl Iterator<Item = RefOr<Schema>>) -> RefOr<Schema> {
    let mut builder = utoipa::openapi::schema::AnyOfBuilder::new();
    for item in items {
        builder = builder.item(item);
    }
    builder.into()
}

/// `anyOf` the named schemas or `null`, for an optional body field whose `null` means "left out"
/// (serde reads it as `None`).
fn or_null(names: &[String]) -> RefOr<Schema> {
    let null = Schema::Object(
        utoipa::openapi::ObjectBuilder::new().schema_type(utoipa::openapi::schema::Type::Null).build(),
    );
    any_of(std::iter::once(RefOr::T(null)).chain(names.iter().map(|name| reference(name))))
}

/// Replaces the property `property` of the object schema `schema` (if both exist).
fn set_property(schemas: &mut Schemas, schema: &str, property: &str, value: RefOr<Schema>) {
    if let Some(RefOr::T(Schema::Object(object))) = schemas.get_mut(schema)
        && object.properties.contains_key(property)
    {
        object.properties.insert(property.to_owned(), value);
    }
}

/// The modifier (see the module docs).
pub struct TypedRulesets;

impl utoipa::Modify for TypedRulesets {
    fn modify(&self, openapi: &mut OpenApi) {
        let mut gathered = Gathered::default();
        for_each_ruleset(&mut gathered);
        let schemas = &mut openapi.components.get_or_insert_with(Default::default).schemas;
        for (name, schema) in gathered.schemas {
            schemas.entry(name).or_insert(schema);
        }
        let (Some(combatant), Some(encounter)) =
            (schemas.get("CombatantResponse").cloned(), schemas.get("EncounterResponse").cloned())
        else {
            return;
        };
        let creature = schemas.get("CreatureResponse").cloned();
        let (mut creatures, mut creature_map, mut patches) = (vec![], vec![], vec![]);
        let (mut combatants, mut encounters, mut stats, mut options) = (vec![], vec![], vec![], vec![]);
        let mut states = vec![];
        let (mut combatant_map, mut encounter_map) = (vec![], vec![]);
        for (id, prefix, stats_name, state_name, options_name) in &gathered.rulesets {
            let combatant_name = format!("{prefix}Combatant");
            let encounter_name = format!("{prefix}Encounter");
            let typed_combatant = specialise(
                &combatant,
                id,
                &[("stats", reference(stats_name)), ("state", reference(state_name))],
            );
            let list = utoipa::openapi::ArrayBuilder::new().items(reference(&combatant_name)).build();
            let typed_encounter = specialise(
                &encounter,
                id,
                &[("combatants", RefOr::T(Schema::Array(list))), ("options", reference(options_name))],
            );
            if let (Some(typed_combatant), Some(typed_encounter)) = (typed_combatant, typed_encounter) {
                schemas.insert(combatant_name.clone(), typed_combatant);
                schemas.insert(encounter_name.clone(), typed_encounter);
            }
            if let Some(patch) = stats_patch(schemas.get(stats_name), id) {
                schemas.insert(format!("{prefix}StatsPatch"), patch);
                patches.push(format!("{prefix}StatsPatch"));
            }
            let creature_name = format!("{prefix}Creature");
            if let Some(typed) =
                creature.as_ref().and_then(|c| specialise(c, id, &[("stats", reference(stats_name))]))
            {
                schemas.insert(creature_name.clone(), typed);
                creature_map.push(((*id).to_owned(), creature_name.clone()));
                creatures.push(creature_name);
            }
            combatant_map.push(((*id).to_owned(), combatant_name.clone()));
            encounter_map.push(((*id).to_owned(), encounter_name.clone()));
            combatants.push(combatant_name);
            encounters.push(encounter_name);
            stats.push(stats_name.clone());
            if !NOTHING.iter().any(|empty| empty.ends_with(state_name.as_str())) {
                states.push(state_name.clone());
            }
            if !options.contains(options_name) && options_name != "NoOptions" {
                options.push(options_name.clone());
            }
        }
        schemas.insert("CombatantResponse".into(), one_of(&combatants, Some(combatant_map)));
        let mut encounter = one_of(&encounters, Some(encounter_map));
        if let RefOr::T(Schema::OneOf(one_of)) = &mut encounter {
            one_of.example = serde_json::from_str(ENCOUNTER_EXAMPLE).ok();
        }
        schemas.insert("EncounterResponse".into(), encounter);
        if !creatures.is_empty() {
            let mut creature = one_of(&creatures, Some(creature_map));
            if let RefOr::T(Schema::OneOf(one_of)) = &mut creature {
                one_of.example = serde_json::from_str(CREATURE_EXAMPLE).ok();
            }
            schemas.insert("CreatureResponse".into(), creature);
        }
        set_property(schemas, "CreatureInstance", "stats", or_null(&patches));
        let any_stats = one_of(&stats, None);
        set_property(schemas, "AddCombatantRequest", "stats", any_stats.clone());
        set_property(schemas, "PatchCombatantRequest", "stats", or_null(&stats));
        set_property(schemas, "CreateCreatureRequest", "stats", any_stats.clone());
        set_property(schemas, "TemplateCombatant", "stats", any_stats.clone());
        set_property(schemas, "TemplateResponse", "options", one_of(&options, None));
        set_property(schemas, "PatchCreatureRequest", "stats", or_null(&stats));
        set_property(schemas, "ViewerCombatant", "stats", any_stats.clone());
        set_property(schemas, "ViewerCombatant", "state", one_of(&states, None));
        set_property(schemas, "RulesetResponse", "stats_example", any_stats);
        set_property(schemas, "CreateEncounterRequest", "options", or_null(&options));
    }
}
