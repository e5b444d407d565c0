//! Encounter templates (`/v1/templates`): saved setups to start new encounters from.

use serde::{Deserialize, Serialize};
use skirmish_db::Template;
use skirmish_domain::rulesets::{RulesetId, RulesetOptions, StatBlock};
use utoipa::{IntoParams, ToSchema};

/// Keep an encounter's setup as a template.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"encounter_id": "enc_5a1c", "name": "Starport ambush"}))]
pub struct CreateTemplateRequest {
    /// `enc_…`: one of your encounters, in any status; its setup is kept as it is now.
    #[schema(min_length = 1, max_length = 100)]
    pub encounter_id: String,
    /// The template's name, 1 to 100 characters; default: the encounter's name.
    #[schema(min_length = 1, max_length = 100, pattern = r"\S")]
    pub name: Option<String>,
}

/// A combatant as a template keeps it: how it was set up, not how it fought.
#[derive(Debug, Serialize, ToSchema)]
pub struct TemplateCombatant {
    pub name: String,
    pub side: String,
    #[schema(value_type = Object)]
    pub stats: StatBlock,
    pub surprised: bool,
    pub hidden: bool,
    pub public: bool,
    /// The library creature it came from, if any.
    pub creature_id: Option<String>,
    /// The group it shares initiative with, if any.
    pub group: Option<String>,
}

/// A saved setup: what `POST /v1/templates/{template_id}/encounters` starts.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"id": "tpl_7c1d", "name": "Starport ambush", "ruleset": "cepheus-engine",
    "encounter_name": "Ambush at the starport", "options": {}, "combatants": [
        {"name": "Hicks", "side": "marines", "stats": {"str": 7, "dex": 7, "end": 8, "int": 8, "edu": 8, "soc": 7},
         "surprised": false, "hidden": false, "public": true, "creature_id": null, "group": null},
        {"name": "Drone 1", "side": "hostiles", "stats": {"str": 9, "dex": 4, "end": 9, "int": 2, "edu": 0, "soc": 0},
         "surprised": false, "hidden": true, "public": false, "creature_id": "crt_5b2e", "group": "Drones"}],
    "created_at": "2026-12-07T20:00:00.000Z"}))]
pub struct TemplateResponse {
    /// `tpl_…`.
    pub id: String,
    pub name: String,
    pub ruleset: RulesetId,
    /// The name of encounters started from it, unless the start names one.
    pub encounter_name: String,
    /// The ruleset's settings the encounters start with.
    #[schema(value_type = Object)]
    pub options: RulesetOptions,
    /// In the order they joined the encounter.
    pub combatants: Vec<TemplateCombatant>,
    /// RFC 3339.
    pub created_at: String,
}

impl From<Template> for TemplateResponse {
    fn from(template: Template) -> Self {
        let combatants = template
            .combatants
            .into_iter()
            .map(|c| TemplateCombatant {
                name: c.name,
                side: c.side,
                stats: c.stats,
                surprised: c.flags.surprised,
                hidden: c.flags.hidden,
                public: c.flags.public,
                creature_id: c.creature_id,
                group: c.group,
            })
            .collect();
        Self {
            id: template.id,
            name: template.name,
            ruleset: template.ruleset,
            encounter_name: template.encounter_name,
            options: template.options,
            combatants,
            created_at: template.created_at,
        }
    }
}

/// Which templates to list.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct TemplateListQuery {
    /// Only templates of this ruleset.
    pub ruleset: Option<RulesetId>,
}

/// All your templates (at most 100), in name order ignoring case, then by id.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"items": []}))]
pub struct TemplateListResponse {
    pub items: Vec<TemplateResponse>,
}

/// How to start an encounter from a template; the body may be left out.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Starport ambush, session 4"}))]
pub struct StartFromTemplateRequest {
    /// The new encounter's name, 1 to 100 characters; default: the template's `encounter_name`.
    #[schema(min_length = 1, max_length = 100, pattern = r"\S")]
    pub name: Option<String>,
}
