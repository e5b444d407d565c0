//! Starship attack options (adeva-d100.txt, "Action List", "Special Starship Attack Options":
//! Boarding and Ram).
//!
//! Decisions:
//! - Boarding's "modified by your Marines" is the caller's list of Marine modifiers, each with its
//!   reason; it may be empty. A hit deals the Marines' damage to the Hull, ignoring AP and TB, with
//!   the Subdual quality: stated in notes, since the Marines' profile is not part of the action.
//! - Ram's approach follows Charge: the target within the Charge Move (Half Move × 3) and a straight
//!   run of at least 4 squares at the end.
//! - Ram: the rammed ship strikes back only when the ram hits ("after this" follows the hit); a
//!   dodged or missed ram has no collision.
//! - Size is a whole number from 0 to 100 and Strength Bonus from 0 to 100; both bound the
//!   arithmetic only.

use super::charge::CHARGE_STRAIGHT_SQUARES;
use super::{
    ActionKind, ActionSpec, ActionSubtype, ActionType, CharacteristicName, Evasion, HitRule, TestSpec,
};
use crate::dice::Dice;
use crate::rulesets::RuleError;
use crate::rulesets::adeva_d100::movement::MoveKind;
use crate::rulesets::adeva_d100::test_modifiers::{
    CallerModifier, Modifier, ModifierCode, caller, check_modifiers,
};
use serde::{Deserialize, Serialize};

/// Largest Size or Strength Bonus a Ram accepts.
pub const MAX_SIZE: u32 = 100;

/// Boarding as declared.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100Boarding))]
#[serde(deny_unknown_fields)]
pub struct Boarding {
    pub target_is_starship: bool,
    /// The Marines' modifiers to the WS test.
    #[serde(default)]
    pub marines: Vec<CallerModifier>,
}

/// Boarding: a half action against another starship; a WS test modified by the Marines, evaded by
/// dodging, deflecting or repelling boarders (adeva-d100.txt, "Boarding").
pub fn boarding(input: &Boarding) -> Result<ActionSpec, RuleError> {
    if !input.target_is_starship {
        return Err(RuleError::invalid(
            "target_is_starship",
            "Boarding is only possible against another starship",
        ));
    }
    let marines = caller(&input.marines);
    check_modifiers("marines", &marines)?;
    let mut test =
        TestSpec::attack("boarding", CharacteristicName::Ws, marines, HitRule::Single);
    test.evasions = vec![Evasion::Dodge, Evasion::Deflect, Evasion::RepelBoarders];
    Ok(ActionSpec::new(
        ActionKind::Boarding,
        ActionType::Half,
        vec![ActionSubtype::Attack, ActionSubtype::Melee],
    )
    .with_test(test)
    .with_note("a hit deals the Marines' damage to the Hull, ignoring AP and TB, with the Subdual quality"))
}

/// One ship in a Ram.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100RamShip))]
#[serde(deny_unknown_fields)]
pub struct RamShip {
    #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::points")]
    #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 100))]
    pub strength_bonus: u32,
    #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::points")]
    #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 100))]
    pub size: u32,
}

/// A Ram as declared: the approach, as for a Charge, and both ships.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100Ram))]
#[serde(deny_unknown_fields)]
pub struct Ram {
    #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::squares")]
    #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 1000))]
    pub distance_squares: u32,
    #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::squares")]
    #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 1000))]
    pub half_move_squares: u32,
    #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::squares")]
    #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 1000))]
    pub straight_line_squares: u32,
    pub rammer: RamShip,
    pub target: RamShip,
}

/// Impact damage: 1d10 plus a bonus, with a Penetration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100ImpactDamage))]
pub struct ImpactDamage {
    /// Added to the 1d10.
    pub bonus: u32,
    pub penetration: u32,
}

impl ImpactDamage {
    /// Rolls the 1d10 and adds the bonus.
    pub fn roll(self, dice: &mut Dice, purpose: &str) -> Result<u32, RuleError> {
        Ok(dice.roll(10, purpose)? + self.bonus)
    }
}

/// Both blows of a Ram.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100RamDamage))]
pub struct RamDamage {
    /// Dealt to the target on a hit: 1d10 + SB + 2 × Size, Penetration 2 × Size.
    pub to_target: ImpactDamage,
    /// Dealt back to the rammer after a hit: 1d10 + the target's SB + its Size, Penetration its Size.
    pub to_rammer: ImpactDamage,
}

fn check_ship(ship: &RamShip, field: &str) -> Result<(), RuleError> {
    if ship.strength_bonus > MAX_SIZE {
        return Err(RuleError::invalid(
            format!("{field}.strength_bonus"),
            format!("must be at most {MAX_SIZE}"),
        ));
    }
    if ship.size > MAX_SIZE {
        return Err(RuleError::invalid(format!("{field}.size"), format!("must be at most {MAX_SIZE}")));
    }
    Ok(())
}

/// Ram: a full action; charge into the target, a WS test at +20 that may be dodged (as a free
/// action) or deflected but not parried; on a hit both ships take impact damage (adeva-d100.txt,
/// "Ram").
pub fn ram(input: &Ram) -> Result<ActionSpec, RuleError> {
    let damage = ram_damage(input)?;
    let mut test =
        TestSpec::attack("ram", CharacteristicName::Ws, vec![Modifier::coded(ModifierCode::Ram, "ram", 20)], HitRule::Single);
    test.evasions = vec![Evasion::Dodge, Evasion::Deflect];
    Ok(ActionSpec::new(
        ActionKind::Ram,
        ActionType::Full,
        vec![ActionSubtype::Attack, ActionSubtype::Melee, ActionSubtype::Movement],
    )
    .with_test(test)
    .with_note("the target's dodge against a ram is a free action")
    .with_note(format!(
        "on a hit: 1d10+{} impact, Penetration {} to the target; then 1d10+{} impact, Penetration {} back to the rammer",
        damage.to_target.bonus, damage.to_target.penetration, damage.to_rammer.bonus, damage.to_rammer.penetration
    )))
}

/// The two blows of a Ram, after checking the approach (adeva-d100.txt, "Ram"; "Movement" for the
/// Charge Move).
pub fn ram_damage(input: &Ram) -> Result<RamDamage, RuleError> {
    let reach = input.half_move_squares.saturating_mul(MoveKind::Charge.multiple());
    if input.distance_squares > reach {
        return Err(RuleError::invalid(
            "distance_squares",
            format!("the target is beyond the Charge Move ({reach} squares)"),
        ));
    }
    if input.straight_line_squares < CHARGE_STRAIGHT_SQUARES
        || input.straight_line_squares > input.distance_squares
    {
        return Err(RuleError::invalid(
            "straight_line_squares",
            format!(
                "a ram ends with a straight run of at least {CHARGE_STRAIGHT_SQUARES} squares, within the distance moved"
            ),
        ));
    }
    check_ship(&input.rammer, "rammer")?;
    check_ship(&input.target, "target")?;
    let to_target = ImpactDamage {
        bonus: input.rammer.strength_bonus + 2 * input.rammer.size,
        penetration: 2 * input.rammer.size,
    };
    let to_rammer = ImpactDamage {
        bonus: input.target.strength_bonus + input.target.size,
        penetration: input.target.size,
    };
    Ok(RamDamage { to_target, to_rammer })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ram_input() -> Ram {
        Ram {
            distance_squares: 9,
            half_move_squares: 4,
            straight_line_squares: 5,
            rammer: RamShip { strength_bonus: 6, size: 3 },
            target: RamShip { strength_bonus: 4, size: 2 },
        }
    }

    #[test]
    fn boarding_is_a_half_action_modified_by_the_marines() {
        let input =
            Boarding { target_is_starship: true, marines: vec![CallerModifier::of("veteran marines", 10)] };
        let spec = boarding(&input).unwrap();
        assert_eq!(
            (spec.action_type, spec.subtypes.clone()),
            (ActionType::Half, vec![ActionSubtype::Attack, ActionSubtype::Melee])
        );
        let test = &spec.tests[0];
        assert_eq!((test.characteristic, test.modifier_sum()), (CharacteristicName::Ws, 10));
        assert_eq!(test.evasions, vec![Evasion::Dodge, Evasion::Deflect, Evasion::RepelBoarders]);
    }

    #[test]
    fn boarding_needs_a_starship_target() {
        let input = Boarding { target_is_starship: false, marines: vec![] };
        assert!(
            matches!(boarding(&input), Err(RuleError::Invalid { field, .. }) if field == "target_is_starship")
        );
        let input = Boarding { target_is_starship: true, marines: vec![CallerModifier::of(" ", 10)] };
        assert!(
            matches!(boarding(&input), Err(RuleError::Invalid { field, .. }) if field == "marines[0].reason")
        );
    }

    #[test]
    fn a_ram_hits_at_plus_twenty_and_both_ships_take_impact() {
        // Rammer SB 6, Size 3: 1d10 + 6 + 2 × 3 = 1d10 + 12, Pen 6.
        // Target SB 4, Size 2: 1d10 + 4 + 2 = 1d10 + 6, Pen 2.
        let damage = ram_damage(&ram_input()).unwrap();
        assert_eq!(damage.to_target, ImpactDamage { bonus: 12, penetration: 6 });
        assert_eq!(damage.to_rammer, ImpactDamage { bonus: 6, penetration: 2 });
        let spec = ram(&ram_input()).unwrap();
        assert_eq!(spec.action_type, ActionType::Full);
        assert_eq!(spec.subtypes, vec![ActionSubtype::Attack, ActionSubtype::Melee, ActionSubtype::Movement]);
        assert_eq!(spec.tests[0].modifiers, vec![Modifier::coded(ModifierCode::Ram, "ram", 20)]);
        assert_eq!(spec.tests[0].evasions, vec![Evasion::Dodge, Evasion::Deflect]);
        // Die 7 + 12 = 19.
        let mut dice = Dice::scripted(vec![7], 0).unwrap();
        assert_eq!(damage.to_target.roll(&mut dice, "ram damage").unwrap(), 19);
    }

    #[test]
    fn a_ram_needs_the_charge_approach() {
        // Half Move 2 → Charge Move 6 < 9 squares.
        let mut input = ram_input();
        input.half_move_squares = 2;
        assert!(matches!(ram(&input), Err(RuleError::Invalid { field, .. }) if field == "distance_squares"));
        let mut input = ram_input();
        input.straight_line_squares = 3;
        assert!(
            matches!(ram(&input), Err(RuleError::Invalid { field, .. }) if field == "straight_line_squares")
        );
        let mut input = ram_input();
        input.target.size = 101;
        assert!(matches!(ram(&input), Err(RuleError::Invalid { field, .. }) if field == "target.size"));
    }
}
