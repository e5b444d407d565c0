//! Aim (adeva-d100.txt, "Action List", "Aim").
//!
//! Decisions:
//! - A free action that is not an attack (talking, releasing a grapple) does not spend the aim:
//!   the row's "next action" is read as the Overwatch row reads it, free actions aside.
//! - An attack action uses the bonus up, whether it is made this turn or the next; the aim is not
//!   tied to a turn.
//! - Aiming again replaces an unused aim: the newer bonus counts, the old one is gone (aiming is
//!   itself an action other than an attack).

use super::{ActionKind, ActionSpec, ActionSubtype, ActionType, LingeringEffect};
use crate::rulesets::RuleError;
use crate::rulesets::adeva_d100::test_modifiers::Modifier;
use serde::{Deserialize, Serialize};

/// Aim: as a half action or as a full action.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100Aim))]
#[serde(deny_unknown_fields)]
pub struct Aim {
    pub action_type: ActionType,
}

/// Aim: a Concentration action; a half action gives +10 to the next attack test, a full action
/// +20 (adeva-d100.txt, "Aim").
pub fn aim(input: &Aim) -> Result<ActionSpec, RuleError> {
    let (value, reason) = match input.action_type {
        ActionType::Half => (10, "aimed (half action)"),
        ActionType::Full => (20, "aimed (full action)"),
        _ => return Err(RuleError::invalid("action_type", "Aim is a half or a full action")),
    };
    Ok(ActionSpec::new(ActionKind::Aim, input.action_type, vec![ActionSubtype::Concentration])
        .with_effect(LingeringEffect::NextAttack { modifier: Modifier::new(reason, value) })
        .with_note("lost if the next action is not an attack, or if a reaction comes before the attack"))
}

/// What an action does to an unused aim.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100AimFate))]
#[serde(rename_all = "snake_case")]
pub enum AimFate {
    /// The action is an attack: it takes the bonus.
    Used,
    /// The action is a reaction or any other non-free action: the bonus is gone.
    Lost,
    /// A free action that is no attack: the aim waits.
    Kept,
}

/// What `next` does to an aim still unused (adeva-d100.txt, "Aim"; see the decisions).
pub fn aim_fate(next: &ActionSpec) -> AimFate {
    if next.action_type == ActionType::Reaction {
        AimFate::Lost
    } else if next.has_subtype(ActionSubtype::Attack) {
        AimFate::Used
    } else if next.action_type == ActionType::Free {
        AimFate::Kept
    } else {
        AimFate::Lost
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::adeva_d100::actions::attack_actions::{SingleAttack, standard_attack};
    use crate::rulesets::adeva_d100::actions::{Weapon, WeaponClass};

    #[test]
    fn a_half_aim_is_plus_ten_and_a_full_aim_plus_twenty() {
        let half = aim(&Aim { action_type: ActionType::Half }).unwrap();
        assert_eq!(half.action_type, ActionType::Half);
        assert_eq!(half.subtypes, vec![ActionSubtype::Concentration]);
        assert_eq!(
            half.lingering,
            vec![LingeringEffect::NextAttack { modifier: Modifier::new("aimed (half action)", 10) }]
        );
        let full = aim(&Aim { action_type: ActionType::Full }).unwrap();
        assert_eq!(
            full.lingering,
            vec![LingeringEffect::NextAttack { modifier: Modifier::new("aimed (full action)", 20) }]
        );
    }

    #[test]
    fn aim_is_only_half_or_full() {
        let err = aim(&Aim { action_type: ActionType::Free }).unwrap_err();
        assert_eq!(err, RuleError::invalid("action_type", "Aim is a half or a full action"));
    }

    #[test]
    fn attacks_use_the_aim_reactions_and_other_actions_lose_it() {
        let attack =
            standard_attack(&SingleAttack { weapon: Weapon::new("rifle", WeaponClass::Ranged, 1) }).unwrap();
        assert_eq!(aim_fate(&attack), AimFate::Used);
        let dodge = ActionSpec::new(ActionKind::Other("dodge".into()), ActionType::Reaction, vec![]);
        assert_eq!(aim_fate(&dodge), AimFate::Lost);
        let run =
            ActionSpec::new(ActionKind::Other("run".into()), ActionType::Full, vec![ActionSubtype::Movement]);
        assert_eq!(aim_fate(&run), AimFate::Lost);
        let talk = ActionSpec::new(ActionKind::Other("talk".into()), ActionType::Free, vec![]);
        assert_eq!(aim_fate(&talk), AimFate::Kept);
    }
}
