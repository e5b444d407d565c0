use super::event::EventNotice;
use serde::{Deserialize, Serialize, Serializer};
use skirmish_domain::encounter::{Combatant, Encounter};
use skirmish_domain::rulesets::status::{CombatantStatus, status_of};
use skirmish_domain::rulesets::{RulesetId, RulesetState, StatBlock};
use utoipa::ToSchema;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "name": "Vasquez", "side": "marines",
    "stats": {"str": 8, "dex": 10, "end": 9, "int": 7, "edu": 7, "soc": 6}
}))]
pub struct AddCombatantRequest {
    /// 1 to 100 characters.
    #[schema(min_length = 1, max_length = 100, pattern = r"\S")]
    pub name: String,
    /// Which side the combatant fights on (1 to 100 characters), e.g. "party" or "bandits".
    #[schema(min_length = 1, max_length = 100, pattern = r"\S")]
    pub side: String,
    /// The ruleset's stat block; see `GET /v1/rulesets` for each ruleset's fields.
    #[schema(value_type = Object)]
    pub stats: serde_json::Value,
    /// Unaware of its opponents when combat starts.
    #[serde(default)]
    pub surprised: bool,
    /// Absent from everything a viewer link shows.
    #[serde(default)]
    pub hidden: bool,
    /// A viewer link sees its stat block and state (hidden from viewers otherwise).
    #[serde(default)]
    pub public: bool,
    /// A named group (1 to 100 characters) whose members share one initiative and act one after
    /// another in join order (see docs/groups.md).
    #[schema(min_length = 1, max_length = 100, pattern = r"\S")]
    pub group: Option<String>,
}

/// Fields to change; absent fields stay as they are.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"defeated": true}))]
pub struct PatchCombatantRequest {
    #[schema(min_length = 1, max_length = 100, pattern = r"\S", nullable = false)]
    #[serde(default, deserialize_with = "super::lenient::not_null")]
    pub name: Option<String>,
    #[schema(min_length = 1, max_length = 100, pattern = r"\S", nullable = false)]
    #[serde(default, deserialize_with = "super::lenient::not_null")]
    pub side: Option<String>,
    /// A whole new stat block for the encounter's ruleset.
    #[schema(value_type = Option<Object>)]
    pub stats: Option<serde_json::Value>,
    pub surprised: Option<bool>,
    pub defeated: Option<bool>,
    pub hidden: Option<bool>,
    pub public: Option<bool>,
    /// Joins (or moves to) this group; `null` leaves its group. Its initiative stays as it is.
    #[schema(value_type = Option<String>, min_length = 1, max_length = 100, pattern = r"\S")]
    #[serde(default, deserialize_with = "super::lenient::nullable")]
    pub group: Option<Option<String>>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct InitiativeScore {
    pub score: i32,
    /// Roll-off dice that broke a tie, in order.
    pub roll_off: Vec<u32>,
    /// How the score was reached, e.g. "2D6 (4+3) + DEX DM +1 = 8".
    pub explanation: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CombatantResponse {
    pub id: String,
    /// The ruleset the stat block and state follow (the encounter's).
    pub ruleset: RulesetId,
    pub name: String,
    pub side: String,
    #[schema(value_type = Object)]
    pub stats: StatBlock,
    pub initiative: Option<InitiativeScore>,
    pub surprised: bool,
    pub defeated: bool,
    pub hidden: bool,
    /// Viewer links see its stat block and state.
    pub public: bool,
    /// Has had its turn this round.
    pub acted_this_round: bool,
    /// Holding its action this round (see `advance` with `delay` / `act_now`).
    pub delaying: bool,
    /// What the ruleset tracks during the fight (one-round initiative changes, penalties,
    /// stance, aim, …); managed by the server.
    #[schema(value_type = Object)]
    pub state: StateJson,
    /// What the combatant is now, in ruleset-neutral terms: health, conditions (derived and from
    /// effects, with their remaining duration), what it may still do, and a one-line summary.
    /// Derived by the server from `stats`, `state` and the encounter's effects.
    pub status: CombatantStatus,
    /// The library creature it was added from (`crt_…`), if any; it may have been changed or
    /// deleted since.
    pub creature_id: Option<String>,
    /// The group it shares initiative with, if any.
    pub group: Option<String>,
}

impl CombatantResponse {
    /// The combatant as `encounter` holds it, with its status.
    pub fn new(encounter: &Encounter, combatant: &Combatant) -> Self {
        Self {
            id: combatant.id.0.clone(),
            ruleset: combatant.stats.ruleset(),
            name: combatant.name.clone(),
            side: combatant.side.clone(),
            stats: combatant.stats.clone(),
            initiative: combatant.initiative.as_ref().map(|i| InitiativeScore {
                score: i.score,
                roll_off: i.roll_off.clone(),
                explanation: i.explanation.clone(),
            }),
            surprised: combatant.flags.surprised,
            defeated: combatant.flags.defeated,
            hidden: combatant.flags.hidden,
            public: combatant.flags.public,
            acted_this_round: combatant.acted_this_round,
            delaying: combatant.delaying,
            state: StateJson(combatant.state.clone()),
            status: status_of(encounter, combatant),
            creature_id: combatant.creature_id.clone(),
            group: combatant.group.clone(),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CombatantMutationResponse {
    /// The encounter's new version.
    pub version: i64,
    pub combatant: CombatantResponse,
    /// The log entries this change appended.
    pub events: Vec<EventNotice>,
}

/// The result of a change that returns nothing else.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"version": 4, "events": [{"seq": 4, "at": "2026-11-21T10:00:00.000Z", "kind": "combatant_removed",
    "summary": "Hicks leaves the fight"}]}))]
pub struct MutationResponse {
    /// The encounter's new version.
    pub version: i64,
    pub events: Vec<EventNotice>,
}

/// A combatant's ruleset state as the wire shows it: the state itself, without the ruleset key
/// the database stores (`{}` for a ruleset that keeps none).
#[derive(Debug, Clone, PartialEq)]
pub struct StateJson(pub RulesetState);

impl Serialize for StateJson {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize_untagged(serializer)
    }
}

impl StateJson {
    /// Whether the state is written as `{}` (a ruleset that keeps no state). A state that cannot
    /// be written counts as not empty, so that writing the answer fails visibly.
    pub fn is_empty(&self) -> bool {
        serde_json::to_value(self).is_ok_and(|value| value.as_object().is_some_and(serde_json::Map::is_empty))
    }
}
