//! The creature library (`/v1/creatures`) and combatants added from it.

use super::combatant::CombatantResponse;
use super::event::EventNotice;
use serde::{Deserialize, Serialize};
use skirmish_domain::rulesets::{RulesetId, StatBlock};
use utoipa::{IntoParams, ToSchema};

/// Longest creature notes.
pub const MAX_CREATURE_NOTES_LEN: usize = 2000;
/// Longest list cursor (`next_cursor`).
pub const MAX_CREATURE_CURSOR_LEN: usize = 2048;

/// A creature to keep in the tenant's library.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Goblin", "ruleset": "cepheus-engine",
    "stats": {"str": 5, "dex": 8, "end": 5, "int": 4, "edu": 2, "soc": 2}, "side": "goblins",
    "notes": "Flees when half the band is down."}))]
pub struct CreateCreatureRequest {
    /// 1 to 100 characters: combatants added from it are named after it ("Goblin 1", …).
    #[schema(min_length = 1, max_length = 100, pattern = r"\S")]
    pub name: String,
    pub ruleset: RulesetId,
    /// The ruleset's stat block; see `GET /v1/rulesets` for each ruleset's fields.
    #[schema(value_type = Object)]
    pub stats: serde_json::Value,
    /// The side its combatants fight on unless the add names one (1 to 100 characters).
    #[schema(min_length = 1, max_length = 100, pattern = r"\S")]
    pub side: Option<String>,
    /// The GM's notes, up to 2000 characters (never shown to viewers).
    #[schema(max_length = 2000)]
    pub notes: Option<String>,
    /// Its combatants start hidden from viewer links.
    #[serde(default)]
    pub hidden: bool,
    /// Viewer links see its combatants' stat blocks and state.
    #[serde(default)]
    pub public: bool,
}

/// Fields to change; absent fields stay as they are, `null` clears `side` or `notes`. The
/// ruleset cannot change. Combatants already added keep what they were added with.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"notes": null, "stats": {"str": 6, "dex": 8, "end": 5, "int": 4, "edu": 2, "soc": 2}}))]
pub struct PatchCreatureRequest {
    #[schema(min_length = 1, max_length = 100, pattern = r"\S", nullable = false)]
    #[serde(default, deserialize_with = "super::lenient::not_null")]
    pub name: Option<String>,
    /// A whole new stat block for the creature's ruleset.
    #[schema(value_type = Option<Object>)]
    pub stats: Option<serde_json::Value>,
    #[schema(value_type = Option<String>, min_length = 1, max_length = 100, pattern = r"\S")]
    #[serde(default, deserialize_with = "super::lenient::nullable")]
    pub side: Option<Option<String>>,
    #[schema(value_type = Option<String>, max_length = 2000)]
    #[serde(default, deserialize_with = "super::lenient::nullable")]
    pub notes: Option<Option<String>>,
    #[schema(nullable = false)]
    #[serde(default, deserialize_with = "super::lenient::not_null")]
    pub hidden: Option<bool>,
    #[schema(nullable = false)]
    #[serde(default, deserialize_with = "super::lenient::not_null")]
    pub public: Option<bool>,
}

/// A creature of the library.
#[derive(Debug, Serialize, ToSchema)]
pub struct CreatureResponse {
    /// `crt_…`.
    pub id: String,
    pub ruleset: RulesetId,
    pub name: String,
    #[schema(value_type = Object)]
    pub stats: StatBlock,
    /// The default side of its combatants.
    pub side: Option<String>,
    pub notes: Option<String>,
    pub hidden: bool,
    pub public: bool,
    /// RFC 3339.
    pub created_at: String,
    /// RFC 3339: the last change.
    pub updated_at: String,
}

/// Which creatures to list.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct CreatureListQuery {
    /// 1 to 100; default 20.
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
    /// The `next_cursor` of the previous page (send the same filters with it). Opaque
    /// (URL-safe base64).
    #[param(min_length = 1, max_length = 2048, pattern = "^[A-Za-z0-9_-]{1,2048}$")]
    pub cursor: Option<String>,
    /// Only creatures of this ruleset.
    pub ruleset: Option<RulesetId>,
    /// Only creatures whose name starts with this, ignoring case; 1 to 100 characters.
    #[param(min_length = 1, max_length = 100)]
    pub name_prefix: Option<String>,
}

/// One page of the library, in name order (ignoring case), then by id.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"items": [], "total": 0, "limit": 20, "next_cursor": null}))]
pub struct CreatureListResponse {
    pub items: Vec<CreatureResponse>,
    /// Creatures the filters match in all.
    pub total: i64,
    pub limit: i64,
    /// The `cursor` of the next page, if there is one.
    pub next_cursor: Option<String>,
}

/// Combatants to add from a library creature: `count` of them, named after it and numbered past
/// the numbers the encounter already uses ("Goblin 4", "Goblin 5" after "Goblin 3"), each with
/// the creature's stat block as it is now.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"creature_id": "crt_5b2e", "count": 3,
    "instances": [{"name": "Goblin chief", "stats": {"str": 8}}]}))]
pub struct AddFromCreatureRequest {
    /// `crt_…`: a creature of your library of the encounter's ruleset.
    #[schema(min_length = 1, max_length = 100)]
    pub creature_id: String,
    /// How many to add, 1 to 50; default 1.
    #[schema(minimum = 1, maximum = 50)]
    #[serde(default, deserialize_with = "super::lenient::optional_whole")]
    pub count: Option<u32>,
    /// The side of all of them (default: the creature's side; one of the two is needed).
    #[schema(min_length = 1, max_length = 100, pattern = r"\S")]
    pub side: Option<String>,
    /// All of them start unaware of their opponents.
    #[serde(default)]
    pub surprised: bool,
    /// Hidden from viewer links (default: the creature's `hidden`).
    pub hidden: Option<bool>,
    /// Shown in full to viewer links (default: the creature's `public`).
    pub public: Option<bool>,
    /// A group for all of them (1 to 100 characters): they share one initiative and act one
    /// after another (see docs/groups.md). Default: none.
    #[schema(min_length = 1, max_length = 100, pattern = r"\S")]
    pub group: Option<String>,
    /// Overrides for single instances, in order: the first applies to the first added, and so
    /// on; at most `count` entries.
    #[serde(default)]
    #[schema(max_items = 50)]
    pub instances: Vec<CreatureInstance>,
}

/// What one combatant added from a creature has of its own.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreatureInstance {
    /// Its name instead of the numbered one (1 to 100 characters).
    #[schema(min_length = 1, max_length = 100, pattern = r"\S")]
    pub name: Option<String>,
    #[schema(min_length = 1, max_length = 100, pattern = r"\S")]
    pub side: Option<String>,
    /// Changes to the creature's stat block for this one, as a JSON merge patch (RFC 7386):
    /// the fields given replace the creature's, `null` removes an optional one, objects merge.
    #[schema(value_type = Option<Object>)]
    pub stats: Option<serde_json::Value>,
    pub surprised: Option<bool>,
    pub hidden: Option<bool>,
    pub public: Option<bool>,
    /// Its group instead of the request's.
    #[schema(min_length = 1, max_length = 100, pattern = r"\S")]
    pub group: Option<String>,
}

/// The combatants a change added, with the encounter's new version.
#[derive(Debug, Serialize, ToSchema)]
pub struct CombatantsAddedResponse {
    /// The encounter's new version.
    pub version: i64,
    /// In the order they were added.
    pub combatants: Vec<CombatantResponse>,
    /// The log entries this change appended.
    pub events: Vec<EventNotice>,
}
