//! What the engine tracks per ARRGS combatant during a fight: Vitality lost, the conditions, and
//! what the combatant has used this round (arrgs.txt, "Vitality", "Conditions", "A Turn").

use super::modifier::{Modifier, ModifierCode};
use super::stats::CheckKind;
use serde::{Deserialize, Serialize};

/// Per-combatant combat state. Starts empty: nothing lost, no conditions, nothing used.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsCombatState))]
#[serde(default)]
pub struct CombatState {
    /// Vitality lost since the combatant joined (Current = starting Vitality − this).
    pub vitality_lost: i32,
    /// Applications of the Dying condition (0: not Dying).
    pub dying: u32,
    /// Disabled although Current Vitality is above 0: Dying reached 0 ("Dying [n]"). Disabled at
    /// 0 Vitality or less is read from Vitality itself.
    pub disabled_after_dying: bool,
    pub unconscious: bool,
    pub prone: bool,
    /// Applications of the Staggered condition.
    pub staggered: u32,
    /// Threat Range shift from Change Reach (until the end of combat).
    pub reach_shift: i32,
    /// The Movement Increment reached last round (for the acceleration rule).
    pub last_increment: i32,
    /// The last round whose End of Round checks were made by the `end-of-round` operation.
    pub end_of_round_done: u32,
    /// What the combatant has used this round; cleared at the End of Round.
    pub round: RoundUse,
}

/// Points, actions and one-round modifiers of the current round.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsRoundUse))]
#[serde(default)]
pub struct RoundUse {
    pub action_points_spent: i32,
    pub additional_points_spent: i32,
    /// Action Points swapped for Additional Action Points by Ready.
    pub readied: i32,
    /// The trigger chosen with Ready.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ready_trigger: Option<String>,
    /// Actions performed (not reactions, not complementary actions).
    pub actions: u32,
    pub complementary: u32,
    /// Squares moved this round.
    pub squares_moved: i32,
    /// Penalties lasting until the End of Round.
    pub penalties: Vec<RoundPenalty>,
    /// Assisted modifiers from Aid Another, each for the next check of its kind.
    pub assists: Vec<Assist>,
    /// An area attack that missed and waits for its scatter to be resolved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pending_area: Option<super::area::PendingArea>,
}

impl RoundUse {
    /// Points used this round, AP and AAP together.
    pub fn points_used(&self) -> i32 {
        self.action_points_spent.saturating_add(self.additional_points_spent)
    }
}

/// A penalty until the End of Round, on every check or on Reflex Defence only.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsRoundPenalty))]
pub struct RoundPenalty {
    pub modifier: Modifier,
    /// Only on this kind of check; every check when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub only: Option<CheckKind>,
}

impl RoundPenalty {
    pub fn applies_to(&self, kind: CheckKind) -> bool {
        self.only.is_none_or(|only| only == kind)
    }

    pub fn is(&self, code: ModifierCode) -> bool {
        self.modifier.code == code
    }
}

/// An Assisted modifier for the next check of one kind (arrgs.txt, "Aid Another Manoeuvre").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsAssist))]
pub struct Assist {
    pub kind: CheckKind,
    pub value: i32,
    pub from: String,
}
