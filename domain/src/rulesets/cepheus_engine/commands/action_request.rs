//! The declared-action request of cepheus-engine (`POST …/cepheus-engine/actions`): one
//! action, tagged by `action` (see `actions.rs` for the decisions).

use super::super::allocation::{DamageSplit, Overflow};
use super::super::attack_request::MeleeCharacteristic;
use super::super::explosion::ExplosionResponse;
use super::super::grapple::GrappleChoice;
use super::super::stance::Stance;
use super::healing::{Facility, HealMethod};
use super::CharacteristicName;
use crate::encounter::CombatantId;
use crate::score::{Measure, Score};
use serde::{Deserialize, Serialize};

/// Longest note on a free or miscellaneous action, in characters.
pub const MAX_NOTE_CHARS: usize = 200;

/// Most blast damage accepted.
pub const MAX_EXPLOSION_DAMAGE: i32 = 10_000;

/// A vehicle's speed in km/h.
pub type SpeedKph = Measure<0, 5000>;

/// A reaction declared on its own, against something the engine does not model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineStandaloneReaction))]
#[serde(rename_all = "snake_case")]
pub enum StandaloneReaction {
    Dodge,
    Parry,
}

/// `POST /v1/encounters/{id}/cepheus-engine/actions`: one declared action, tagged by `action`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineAction))]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    Hasten {
        combatant_id: CombatantId,
    },
    React {
        combatant_id: CombatantId,
        reaction: StandaloneReaction,
    },
    Aim {
        combatant_id: CombatantId,
        target_id: CombatantId,
    },
    AimForKill {
        combatant_id: CombatantId,
        target_id: CombatantId,
    },
    ChangeStance {
        combatant_id: CombatantId,
        stance: Stance,
    },
    Leadership {
        combatant_id: CombatantId,
        target_id: CombatantId,
        #[serde(default)]
        characteristic: Option<CharacteristicName>,
    },
    Tactics {
        combatant_id: CombatantId,
        unit_ids: Vec<CombatantId>,
        #[serde(default)]
        characteristic: Option<CharacteristicName>,
    },
    Comms {
        combatant_id: CombatantId,
        in_contact: bool,
    },
    Fatigue {
        combatant_id: CombatantId,
    },
    StartExtendedAction {
        combatant_id: CombatantId,
        skill: String,
        /// 2 to 1,000 rounds.
        rounds: Score<2, 1000>,
    },
    AbandonExtendedAction {
        combatant_id: CombatantId,
    },
    Grapple {
        combatant_id: CombatantId,
        target_id: CombatantId,
        #[serde(default)]
        characteristic: Option<MeleeCharacteristic>,
        #[serde(default)]
        target_characteristic: Option<MeleeCharacteristic>,
        /// What the combatant does if it wins.
        #[serde(default)]
        choice: Option<GrappleChoice>,
        /// What the target does if it wins an established grapple.
        #[serde(default)]
        target_choice: Option<GrappleChoice>,
        /// The loser's allocation of grapple damage.
        #[serde(default)]
        overflow_to: Option<Overflow>,
        #[serde(default)]
        allocation: Option<DamageSplit>,
    },
    Explosion {
        combatant_id: CombatantId,
        /// Blast damage before the response and armour, 0 to 10,000.
        damage: Score<0, 10_000>,
        #[serde(default)]
        response: ExplosionResponse,
        #[serde(default)]
        overflow_to: Option<Overflow>,
        #[serde(default)]
        allocation: Option<DamageSplit>,
    },
    Move {
        combatant_id: CombatantId,
        /// Metres moved, 0 to 6 (less when crouched, prone or seriously wounded).
        #[serde(default)]
        metres: Option<Measure<0, 6>>,
    },
    DrawOrReload {
        combatant_id: CombatantId,
    },
    OtherMinor {
        combatant_id: CombatantId,
        #[serde(default)]
        note: Option<String>,
    },
    OtherSignificant {
        combatant_id: CombatantId,
        #[serde(default)]
        note: Option<String>,
    },
    Free {
        combatant_id: CombatantId,
        note: String,
    },
    Collision {
        combatant_id: CombatantId,
        /// 0 to 5,000 km/h.
        speed_kph: SpeedKph,
        #[serde(default)]
        target_ids: Vec<CombatantId>,
        #[serde(default)]
        unsecured_ids: Vec<CombatantId>,
        #[serde(default)]
        secured_ids: Vec<CombatantId>,
        #[serde(default)]
        overflow_to: Option<Overflow>,
    },
    EvasiveAction {
        combatant_id: CombatantId,
        skill: String,
        #[serde(default)]
        characteristic: Option<CharacteristicName>,
    },
    Ram {
        combatant_id: CombatantId,
        skill: String,
        target_id: CombatantId,
        speed_kph: SpeedKph,
        #[serde(default)]
        characteristic: Option<CharacteristicName>,
        /// The referee's DM for the ram, −10 to +10.
        #[serde(default)]
        #[serde(rename = "value", alias = "dm")]
        dm: Score<-10, 10>,
        #[serde(default)]
        target_solid: bool,
        #[serde(default)]
        unsecured_ids: Vec<CombatantId>,
        #[serde(default)]
        secured_ids: Vec<CombatantId>,
        #[serde(default)]
        overflow_to: Option<Overflow>,
    },
    Stunt {
        combatant_id: CombatantId,
        skill: String,
        #[serde(default)]
        characteristic: Option<CharacteristicName>,
        /// The stunt's difficulty DM, −10 to +10.
        #[serde(default)]
        #[serde(rename = "value", alias = "dm")]
        dm: Score<-10, 10>,
    },
    Weave {
        combatant_id: CombatantId,
        skill: String,
        /// 1 to 250, and at most speed ÷ 20 rounded up.
        weaving_number: Score<1, 250>,
        speed_kph: SpeedKph,
        #[serde(default)]
        characteristic: Option<CharacteristicName>,
    },
    Drive {
        combatant_id: CombatantId,
        #[serde(default)]
        demanding: bool,
    },
    RegainConsciousness {
        combatant_id: CombatantId,
        /// Checks failed before, 0 to 1,000. Derived when the engine knocked the combatant out
        /// (`state.wake_checks_failed`): a different number is refused.
        #[serde(default)]
        failed_checks: Option<Score<0, 1000>>,
    },
    Rest {
        combatant_id: CombatantId,
    },
    Heal {
        combatant_id: CombatantId,
        method: HealMethod,
        /// 1 to 365.
        #[serde(default)]
        days: Option<Score<1, 365>>,
        #[serde(default)]
        medic_id: Option<CombatantId>,
        /// An outside medic's Medicine level, −3 (unskilled) to 15.
        #[serde(default)]
        medic_skill: Option<Score<-3, 15>>,
        #[serde(default)]
        split: Option<DamageSplit>,
        /// Where the patient is treated; required for surgery and medical care.
        #[serde(default)]
        facility: Option<Facility>,
    },
}

impl Action {
    /// The acting combatant.
    pub fn combatant_id(&self) -> &CombatantId {
        match self {
            Action::Hasten { combatant_id }
            | Action::React { combatant_id, .. }
            | Action::Aim { combatant_id, .. }
            | Action::AimForKill { combatant_id, .. }
            | Action::ChangeStance { combatant_id, .. }
            | Action::Leadership { combatant_id, .. }
            | Action::Tactics { combatant_id, .. }
            | Action::Comms { combatant_id, .. }
            | Action::Fatigue { combatant_id }
            | Action::StartExtendedAction { combatant_id, .. }
            | Action::AbandonExtendedAction { combatant_id }
            | Action::Grapple { combatant_id, .. }
            | Action::Explosion { combatant_id, .. }
            | Action::Move { combatant_id, .. }
            | Action::DrawOrReload { combatant_id }
            | Action::OtherMinor { combatant_id, .. }
            | Action::OtherSignificant { combatant_id, .. }
            | Action::Free { combatant_id, .. }
            | Action::Collision { combatant_id, .. }
            | Action::EvasiveAction { combatant_id, .. }
            | Action::Ram { combatant_id, .. }
            | Action::Stunt { combatant_id, .. }
            | Action::Weave { combatant_id, .. }
            | Action::Drive { combatant_id, .. }
            | Action::RegainConsciousness { combatant_id, .. }
            | Action::Rest { combatant_id }
            | Action::Heal { combatant_id, .. } => combatant_id,
        }
    }

    /// The `action` tag.
    pub fn name(&self) -> &'static str {
        match self {
            Action::Hasten { .. } => "hasten",
            Action::React { .. } => "react",
            Action::Aim { .. } => "aim",
            Action::AimForKill { .. } => "aim_for_kill",
            Action::ChangeStance { .. } => "change_stance",
            Action::Leadership { .. } => "leadership",
            Action::Tactics { .. } => "tactics",
            Action::Comms { .. } => "comms",
            Action::Fatigue { .. } => "fatigue",
            Action::StartExtendedAction { .. } => "start_extended_action",
            Action::AbandonExtendedAction { .. } => "abandon_extended_action",
            Action::Grapple { .. } => "grapple",
            Action::Explosion { .. } => "explosion",
            Action::Move { .. } => "move",
            Action::DrawOrReload { .. } => "draw_or_reload",
            Action::OtherMinor { .. } => "other_minor",
            Action::OtherSignificant { .. } => "other_significant",
            Action::Free { .. } => "free",
            Action::Collision { .. } => "collision",
            Action::EvasiveAction { .. } => "evasive_action",
            Action::Ram { .. } => "ram",
            Action::Stunt { .. } => "stunt",
            Action::Weave { .. } => "weave",
            Action::Drive { .. } => "drive",
            Action::RegainConsciousness { .. } => "regain_consciousness",
            Action::Rest { .. } => "rest",
            Action::Heal { .. } => "heal",
        }
    }
}
