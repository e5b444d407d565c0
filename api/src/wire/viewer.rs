//! Viewer links, and what a viewer sees: the encounter and its events with hidden combatants
//! left out and GM-only fields (stat blocks, ruleset state) kept only for public combatants.

use super::combatant::StateJson;
use super::effect::EffectResponse;
use super::encounter::{CurrentTurn, StatusWire, TurnSlotResponse};
use serde::{Deserialize, Serialize};
use skirmish_db::ViewerInfo;
use skirmish_domain::rulesets::status::CombatantStatus;
use skirmish_domain::rulesets::{RulesetId, StatBlock};
use utoipa::ToSchema;

/// Shortest and longest lifetime a viewer link may be given.
pub const VIEWER_EXPIRY_SECONDS: std::ops::RangeInclusive<u32> = 60..=2_592_000;
/// Longest label.
pub const MAX_VIEWER_LABEL_LEN: usize = 100;

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"label": "stream overlay", "expires_in_seconds": 14400}))]
pub struct CreateViewerRequest {
    /// What the link is for (up to 100 characters), shown in the list.
    #[schema(max_length = 100)]
    pub label: Option<String>,
    /// The link stops working this many seconds from now (60 to 2592000, i.e. 30 days).
    /// Absent: it works until revoked.
    #[schema(minimum = 60, maximum = 2592000)]
    #[serde(default, deserialize_with = "super::lenient::optional_whole")]
    pub expires_in_seconds: Option<u32>,
}

/// A viewer link as listed (never its token).
#[derive(Debug, Serialize, ToSchema)]
pub struct ViewerResponse {
    /// `vwl_…`: the id to revoke it by.
    pub id: String,
    pub encounter_id: String,
    pub label: Option<String>,
    /// RFC 3339.
    pub created_at: String,
    /// RFC 3339; `null` for a link that lasts until revoked.
    pub expires_at: Option<String>,
    /// RFC 3339; `null` while active.
    pub revoked_at: Option<String>,
}

impl From<ViewerInfo> for ViewerResponse {
    fn from(info: ViewerInfo) -> Self {
        Self {
            id: info.id,
            encounter_id: info.encounter_id,
            label: info.label,
            created_at: info.created_at,
            expires_at: info.expires_at,
            revoked_at: info.revoked_at,
        }
    }
}

/// A new viewer link: the token is shown only this once.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "viewer": {"id": "vwl_5c0ffee5c0ffee51", "encounter_id": "enc_5a1c", "label": "stream overlay",
        "created_at": "2026-11-25T10:00:00.000Z", "expires_at": "2026-11-25T14:00:00.000Z", "revoked_at": null},
    "token": "vwr_3b5d…",
    "view_url": "/view/vwr_3b5d…"
}))]
pub struct ViewerCreatedResponse {
    pub viewer: ViewerResponse,
    /// `vwr_` and 64 hex digits. Send as `Authorization: Bearer <token>` to read the encounter
    /// and its stream, or open `view_url`. Only its digest is stored: it cannot be shown again.
    pub token: String,
    /// The table view page for this link (relative to the server).
    pub view_url: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"items": [{"id": "vwl_5c0ffee5c0ffee51", "encounter_id": "enc_5a1c",
    "label": "stream overlay", "created_at": "2026-11-25T10:00:00.000Z", "expires_at": null, "revoked_at": null}]}))]
pub struct ViewerListResponse {
    /// Oldest first, revoked ones included.
    pub items: Vec<ViewerResponse>,
}

/// A combatant's initiative as a viewer sees it.
#[derive(Debug, Serialize, ToSchema)]
pub struct ViewerInitiative {
    pub score: i32,
    /// Roll-off dice that broke a tie, in order.
    pub roll_off: Vec<u32>,
    /// How the score was reached; only for public combatants (it names stat modifiers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explanation: Option<String>,
}

/// A combatant as a viewer sees it: never a hidden one; `stats` and `state` only when public.
#[derive(Debug, Serialize, ToSchema)]
pub struct ViewerCombatant {
    pub id: String,
    pub ruleset: RulesetId,
    pub name: String,
    pub side: String,
    /// Its stat block and state are shown to viewers.
    pub public: bool,
    /// The stat block, for public combatants only.
    #[schema(value_type = Option<Object>)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stats: Option<StatBlock>,
    /// The ruleset's combat state, for public combatants only.
    #[schema(value_type = Option<Object>)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<StateJson>,
    /// Its status (health, conditions, what it may still do, summary), for public combatants
    /// only, like `state`; the conditions list only effects the viewer sees.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<CombatantStatus>,
    pub initiative: Option<ViewerInitiative>,
    pub surprised: bool,
    pub defeated: bool,
    /// Has had its turn this round.
    pub acted_this_round: bool,
    pub delaying: bool,
}

/// An encounter as a viewer link sees it (`GET /v1/encounters/{id}` with a viewer token, or
/// `GET /view/{token}/encounter`).
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"id": "enc_5a1c", "ruleset": "cepheus-engine", "name": "Ambush at the starport",
    "status": "active", "round": 1, "current_turn": {"combatant_id": "cmb_1f2e", "name": "Hicks"}, "version": 6,
    "updated_at": "2026-11-21T10:02:00.000Z",
    "combatants": [{"id": "cmb_1f2e", "ruleset": "cepheus-engine", "name": "Hicks", "side": "marines", "public": false,
        "initiative": {"score": 11, "roll_off": []}, "surprised": false, "defeated": false,
        "acted_this_round": false, "delaying": false}],
    "turn_order": [{"combatant_id": "cmb_1f2e", "name": "Hicks", "initiative": 11, "slot": 1, "simultaneous": false,
        "acted": false, "defeated": false}],
    "effects": []}))]
pub struct ViewerEncounterResponse {
    pub id: String,
    pub ruleset: RulesetId,
    pub name: String,
    pub status: StatusWire,
    /// 0 during setup, then 1, 2, …
    pub round: u32,
    /// `null` between turns, and while a hidden combatant acts.
    pub current_turn: Option<CurrentTurn>,
    pub version: i64,
    /// RFC 3339.
    pub updated_at: String,
    /// Visible combatants, in the order they joined.
    pub combatants: Vec<ViewerCombatant>,
    /// Visible combatants in the order they act (slots renumbered without hidden ones).
    pub turn_order: Vec<TurnSlotResponse>,
    /// Effects that name no hidden combatant.
    pub effects: Vec<EffectResponse>,
}

/// One event as a viewer's stream sends it. Events that name a hidden combatant (or one no
/// longer in the encounter) are not sent at all; `data` is left out when the event names a
/// combatant that is not public.
#[derive(Debug, Serialize, ToSchema)]
pub struct ViewerEventResponse {
    pub seq: i64,
    /// RFC 3339.
    pub at: String,
    pub kind: String,
    pub summary: String,
    /// The event's fields (the same object as an `EventResponse`'s `data`), when every
    /// combatant it names is public.
    #[schema(value_type = Option<skirmish_domain::encounter::Event>)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<serde_json::Value>,
}
