//! A declared action as a client sends it, tagged by `action`, and the one function that turns any
//! of them into its [`ActionSpec`] (adeva-d100.txt, "Action List").

use super::ActionSpec;
use super::aim::{Aim, aim};
use super::attack_actions::{
    AttackOfOpportunity, CalledShot, CounterAttack, MultiHitAttack, MultipleAttack, SingleAttack,
    attack_of_opportunity, burst, called_shot, counter_attack, flurry, heavy_attack, multiple_attack,
    standard_attack,
};
use super::charge::{Charge, charge};
use super::grapple::{GrappleAction, GrappleInitiate, grapple_action, grapple_initiate};
use super::manoeuvres::{Disarm, KnockDown, TakeDown, disarm, feint, guard_mode, knock_down, take_down};
use super::overwatch::{Overwatch, overwatch};
use super::starship::{Boarding, Ram, boarding, ram};
use super::suppressive::{SuppressiveFire, suppressive_fire};
use crate::rulesets::RuleError;
use serde::{Deserialize, Serialize};

/// An action from the Action List with what it needs, e.g.
/// `{"action": "burst", "weapon": {...}, "declared_hits": 3}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100DeclaredAction))]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
pub enum DeclaredAction {
    StandardAttack(SingleAttack),
    Burst(MultiHitAttack),
    Flurry(MultiHitAttack),
    CalledShot(CalledShot),
    Charge(Charge),
    HeavyAttack(SingleAttack),
    MultipleAttack(MultipleAttack),
    AttackOfOpportunity(AttackOfOpportunity),
    CounterAttack(CounterAttack),
    Overwatch(Overwatch),
    SuppressiveFire(SuppressiveFire),
    Grapple(GrappleInitiate),
    GrappleAction(GrappleAction),
    GuardMode {},
    KnockDown(KnockDown),
    TakeDown(TakeDown),
    Aim(Aim),
    Disarm(Disarm),
    Feint {},
    Boarding(Boarding),
    Ram(Ram),
}

/// The [`ActionSpec`] of any declared action, or why it cannot be taken (adeva-d100.txt, "Action
/// List"; each action's function cites its row).
pub fn action_spec(declared: &DeclaredAction) -> Result<ActionSpec, RuleError> {
    match declared {
        DeclaredAction::StandardAttack(input) => standard_attack(input),
        DeclaredAction::Burst(input) => burst(input),
        DeclaredAction::Flurry(input) => flurry(input),
        DeclaredAction::CalledShot(input) => called_shot(input),
        DeclaredAction::Charge(input) => charge(input),
        DeclaredAction::HeavyAttack(input) => heavy_attack(input),
        DeclaredAction::MultipleAttack(input) => multiple_attack(input),
        DeclaredAction::AttackOfOpportunity(input) => attack_of_opportunity(input),
        DeclaredAction::CounterAttack(input) => counter_attack(input),
        DeclaredAction::Overwatch(input) => overwatch(input),
        DeclaredAction::SuppressiveFire(input) => suppressive_fire(input),
        DeclaredAction::Grapple(input) => grapple_initiate(input),
        DeclaredAction::GrappleAction(input) => grapple_action(input),
        DeclaredAction::GuardMode {} => Ok(guard_mode()),
        DeclaredAction::KnockDown(input) => Ok(knock_down(input)),
        DeclaredAction::TakeDown(input) => take_down(input),
        DeclaredAction::Aim(input) => aim(input),
        DeclaredAction::Disarm(input) => disarm(input),
        DeclaredAction::Feint {} => Ok(feint()),
        DeclaredAction::Boarding(input) => boarding(input),
        DeclaredAction::Ram(input) => ram(input),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::adeva_d100::actions::{ActionKind, ActionType};

    fn parse(json: &str) -> Result<DeclaredAction, serde_json::Error> {
        serde_json::from_str(json)
    }

    #[test]
    fn a_burst_is_read_from_json_and_specified() {
        // +10 burst, 3 hits × −5 = −15.
        let declared = parse(
            r#"{"action": "burst", "declared_hits": 3,
                "weapon": {"name": "Autogun", "class": "ranged", "hit_rating": 4}}"#,
        )
        .unwrap();
        let spec = action_spec(&declared).unwrap();
        assert_eq!((spec.action, spec.action_type), (ActionKind::Burst, ActionType::Half));
        assert_eq!(spec.tests[0].modifier_sum(), -5);
    }

    #[test]
    fn unknown_fields_are_refused_at_every_level() {
        let top = parse(r#"{"action": "feint", "target": "x"}"#);
        assert!(top.is_err(), "unknown field beside the tag");
        let inner = parse(r#"{"action": "aim", "action_type": "half", "bonus": 10}"#);
        assert!(inner.is_err(), "unknown field in a variant's struct");
        let weapon =
            parse(r#"{"action": "standard_attack", "weapon": {"name": "x", "class": "melee", "reach": 2}}"#);
        assert!(weapon.is_err(), "unknown field in the weapon");
        let nested = parse(
            r#"{"action": "grapple_action", "role": "controller",
                "move": {"kind": "grapple", "then": {"kind": "damage", "extra": 1}}}"#,
        );
        assert!(nested.is_err(), "unknown field in a nested tagged enum");
    }

    #[test]
    fn every_table_action_has_a_json_form() {
        let forms = [
            r#"{"action": "guard_mode"}"#,
            r#"{"action": "feint"}"#,
            r#"{"action": "knock_down", "after_half_move": true}"#,
            r#"{"action": "aim", "action_type": "full"}"#,
            r#"{"action": "disarm", "has_talent": true}"#,
            r#"{"action": "grapple", "hand_free": true}"#,
            r#"{"action": "grapple_action", "role": "restrained", "move": {"kind": "break_free", "with": "acrobatics"}}"#,
            r#"{"action": "charge", "distance_squares": 6, "straight_line_squares": 4,
                "strike": {"kind": "knock_down"}}"#,
            r#"{"action": "overwatch", "kill_zone_radius_squares": 12, "attack": {"kind": "standard"},
                "weapon": {"name": "Lasgun", "class": "ranged"},
                "triggers": [{"condition": "enemy_attacks_ally", "ally": "Medic"}]}"#,
            r#"{"action": "suppressive_fire", "mode": "full_auto",
                "weapon": {"name": "Autogun", "class": "ranged", "hit_rating": 3, "full_auto": 10}}"#,
            r#"{"action": "boarding", "target_is_starship": true, "marines": [{"reason": "elite marines", "value": 10}]}"#,
        ];
        for form in forms {
            let mut declared = parse(form).unwrap_or_else(|error| panic!("{form}: {error}"));
            if let DeclaredAction::Charge(charge) = &mut declared {
                // Derived from the charger's stat block by the operations (AB 3 here).
                charge.half_move_squares = 3;
            }
            assert!(action_spec(&declared).is_ok(), "{form}");
        }
    }
}
