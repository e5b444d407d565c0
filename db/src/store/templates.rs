//! Encounter templates: each tenant's saved setups (an encounter's name, ruleset, options and
//! combatants), to start new encounters from. Nothing of them is held in memory.

use super::Store;
use super::clock::utc_now;
use super::creatures::creature_name_key;
use super::idempotency::{IdempotencyKey, Reply, StoredResponse, forget_replies_about};
use crate::backend::DbConnection;
use crate::error::{DbError, MutateError};
use crate::schema::templates;
use diesel::dsl::count_star;
use diesel::prelude::*;
use serde::{Deserialize, Serialize};
use skirmish_domain::encounter::{Flags, SetupCombatant};
use skirmish_domain::rulesets::{RulesetId, RulesetOptions};

/// Most templates one tenant keeps (all of them fit one list answer).
pub const MAX_TEMPLATES_PER_TENANT: i64 = 100;

/// A template as stored and read back.
#[derive(Debug, Clone, PartialEq)]
pub struct Template {
    pub id: String,
    pub name: String,
    pub ruleset: RulesetId,
    /// The name encounters started from it take unless the start names one.
    pub encounter_name: String,
    pub options: RulesetOptions,
    pub combatants: Vec<SetupCombatant>,
    pub created_at: String,
}

#[derive(Queryable, Selectable)]
#[diesel(table_name = templates)]
struct TemplateRow {
    id: String,
    name: String,
    ruleset: String,
    encounter_name: String,
    options: String,
    combatants: String,
    created_at: String,
}

/// One combatant of a template, as its JSON column holds it.
#[derive(Serialize, Deserialize)]
struct CombatantJson {
    name: String,
    side: String,
    stats: serde_json::Value,
    surprised: bool,
    hidden: bool,
    public: bool,
    #[serde(default)]
    creature_id: Option<String>,
    #[serde(default)]
    group: Option<String>,
}

fn corrupt(what: &str, error: impl std::fmt::Display) -> DbError {
    DbError::Corrupt(format!("template {what}: {error}"))
}

fn combatants_json(combatants: &[SetupCombatant]) -> Result<String, DbError> {
    let rows = combatants
        .iter()
        .map(|c| {
            Ok(CombatantJson {
                name: c.name.clone(),
                side: c.side.clone(),
                stats: serde_json::to_value(&c.stats).map_err(|e| corrupt("stats", e))?,
                surprised: c.flags.surprised,
                hidden: c.flags.hidden,
                public: c.flags.public,
                creature_id: c.creature_id.clone(),
                group: c.group.clone(),
            })
        })
        .collect::<Result<Vec<_>, DbError>>()?;
    serde_json::to_string(&rows).map_err(|e| corrupt("combatants", e))
}

impl TryFrom<TemplateRow> for Template {
    type Error = DbError;

    fn try_from(row: TemplateRow) -> Result<Self, DbError> {
        let ruleset: RulesetId = row.ruleset.parse().map_err(|e| corrupt("ruleset", e))?;
        let options = ruleset
            .deserialize_options(&mut serde_json::Deserializer::from_str(&row.options))
            .map_err(|e| corrupt("options", e))?;
        let rows: Vec<CombatantJson> =
            serde_json::from_str(&row.combatants).map_err(|e| corrupt("combatants", e))?;
        let combatants = rows
            .into_iter()
            .map(|c| {
                Ok(SetupCombatant {
                    stats: ruleset.deserialize_stats(c.stats).map_err(|e| corrupt("stats", e))?,
                    name: c.name,
                    side: c.side,
                    flags: Flags {
                        surprised: c.surprised,
                        defeated: false,
                        hidden: c.hidden,
                        public: c.public,
                    },
                    creature_id: c.creature_id,
                    group: c.group,
                })
            })
            .collect::<Result<Vec<_>, DbError>>()?;
        let TemplateRow { id, name, encounter_name, created_at, .. } = row;
        Ok(Self { id, name, ruleset, encounter_name, options, combatants, created_at })
    }
}

impl Store {
    /// Keeps `template` for the tenant and answers what `render` makes of it, honouring `key`
    /// (a retry replays the first answer and keeps nothing more). Past the bound: `full()`.
    pub fn create_template<E>(
        &self,
        tenant: &str,
        template: &Template,
        key: Option<&IdempotencyKey>,
        full: impl FnOnce() -> E,
        render: impl FnOnce(&Template) -> Result<StoredResponse, E>,
    ) -> Result<Reply, MutateError<E>> {
        let options = serde_json::to_string(&template.options).map_err(|e| corrupt("options", e))?;
        let combatants = combatants_json(&template.combatants)?;
        let make = |conn: &mut DbConnection| {
            let held: i64 = templates::table
                .filter(templates::tenant.eq(tenant))
                .select(count_star())
                .get_result(conn)?;
            if held >= MAX_TEMPLATES_PER_TENANT {
                return Err(MutateError::Domain(full()));
            }
            diesel::insert_into(templates::table)
                .values((
                    templates::tenant.eq(tenant),
                    templates::id.eq(&template.id),
                    templates::name.eq(&template.name),
                    templates::name_key.eq(creature_name_key(&template.name)),
                    templates::ruleset.eq(template.ruleset.to_string()),
                    templates::encounter_name.eq(&template.encounter_name),
                    templates::options.eq(&options),
                    templates::combatants.eq(&combatants),
                    templates::created_at.eq(&template.created_at),
                ))
                .execute(conn)?;
            Ok((template.id.clone(), template))
        };
        self.make_once(tenant, key, make, |template: &&Template| render(template))
    }

    /// The tenant's template with this id, if any.
    pub fn template(&self, tenant: &str, id: &str) -> Result<Option<Template>, DbError> {
        let row: Option<TemplateRow> = templates::table
            .filter(templates::tenant.eq(tenant).and(templates::id.eq(id)))
            .select(TemplateRow::as_select())
            .get_result(&mut *self.read()?)
            .optional()?;
        row.map(Template::try_from).transpose()
    }

    /// All the tenant's templates (of `ruleset`, if given), in name order ignoring case, then id.
    pub fn list_templates(&self, tenant: &str, ruleset: Option<RulesetId>) -> Result<Vec<Template>, DbError> {
        let mut query = templates::table.filter(templates::tenant.eq(tenant)).into_boxed();
        if let Some(ruleset) = ruleset {
            query = query.filter(templates::ruleset.eq(ruleset.to_string()));
        }
        let rows: Vec<TemplateRow> = query
            .order((templates::name_key, templates::id))
            .limit(MAX_TEMPLATES_PER_TENANT)
            .select(TemplateRow::as_select())
            .load(&mut *self.read()?)?;
        rows.into_iter().map(Template::try_from).collect()
    }

    /// Deletes the tenant's template; false if there is none. Encounters started from it stay; a
    /// retried keep of it (same `Idempotency-Key`) keeps it anew.
    pub fn delete_template(&self, tenant: &str, id: &str) -> Result<bool, DbError> {
        let target = templates::table.filter(templates::tenant.eq(tenant).and(templates::id.eq(id)));
        let deleted = self.write(|conn| {
            forget_replies_about(conn, tenant, id)?;
            Ok::<_, DbError>(diesel::delete(target).execute(conn)?)
        })?;
        Ok(deleted > 0)
    }
}

/// The time a new template is kept at (RFC 3339, as the store writes every time).
pub fn template_time() -> String {
    utc_now()
}
