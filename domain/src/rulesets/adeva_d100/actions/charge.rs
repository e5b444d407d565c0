//! Charge (adeva-d100.txt, "Action List", "Charge"; "Movement" for the Charge Move): a full
//! action that ends in a melee attack, a Grapple or a Knock Down.
//!
//! Decisions:
//! - Charge: the target must be within the Charge Move (Half Move × 3, "Movement"), and the last
//!   stretch must be a straight line of at least 4 squares, no longer than the whole charge. A
//!   Grapple made in place of the attack is a WS test and keeps the +20; a Knock Down in its place
//!   is an opposed Strength test, not an attack test, and gets neither the +20 nor Knock Down's
//!   +10 (a Charge is not a Half Move).

use super::attack_actions::attack_label;
use super::{ActionKind, ActionSpec, ActionSubtype, ActionType, HitRule, LingeringEffect, TestSpec, Weapon};
use crate::rulesets::RuleError;
use crate::rulesets::adeva_d100::movement::MoveKind;
use crate::rulesets::adeva_d100::test_modifiers::{Modifier, ModifierCode};
use serde::{Deserialize, Serialize};

/// Least straight run at the end of a Charge (adeva-d100.txt, "Charge").
pub const CHARGE_STRAIGHT_SQUARES: u32 = 4;

/// What a Charge ends with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100ChargeStrike))]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum ChargeStrike {
    /// The usual single melee attack.
    Attack { weapon: Weapon },
    /// A Grapple in place of the attack.
    Grapple { hand_free: bool },
    /// A Knock Down in place of the attack.
    KnockDown {},
}

impl crate::bare_or_tagged::BareOrTagged for ChargeStrike {
    const TAG: &'static str = "kind";
    const BARE: &'static [&'static str] = &["knock_down"];
}

/// A Charge: how far, the charger's Half Move, the straight run at the end, and the strike.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100Charge))]
#[serde(deny_unknown_fields)]
pub struct Charge {
    #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::squares")]
    #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 1000))]
    pub distance_squares: u32,
    /// The charger's Half Move, derived from its stat block (Agility Bonus and size, "Movement");
    /// never read from a request.
    #[serde(skip)]
    pub half_move_squares: u32,
    #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::squares")]
    #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 1000))]
    pub straight_line_squares: u32,
    /// What the Charge ends with; `"knock_down"` is `{"kind": "knock_down"}`.
    #[serde(deserialize_with = "crate::bare_or_tagged::deserialize")]
    #[cfg_attr(feature = "schema", schema(schema_with = crate::bare_or_tagged::schema::<ChargeStrike>))]
    pub strike: ChargeStrike,
}

/// Charge: a full action; the target within the Charge Move, a straight run of 4 squares at the
/// end, then one melee attack at WS +20 for one hit, or a Grapple or Knock Down in its place
/// (adeva-d100.txt, "Charge"; "Movement" for the Charge Move).
pub fn charge(input: &Charge) -> Result<ActionSpec, RuleError> {
    let reach = input.half_move_squares.saturating_mul(MoveKind::Charge.multiple());
    if input.distance_squares > reach {
        return Err(RuleError::invalid(
            "distance_squares",
            format!(
                "the target is beyond the Charge Move ({} × 3 = {reach} squares)",
                input.half_move_squares
            ),
        ));
    }
    if input.straight_line_squares < CHARGE_STRAIGHT_SQUARES {
        return Err(RuleError::invalid(
            "straight_line_squares",
            format!("a charge ends with a straight run of at least {CHARGE_STRAIGHT_SQUARES} squares"),
        ));
    }
    if input.straight_line_squares > input.distance_squares {
        return Err(RuleError::invalid(
            "straight_line_squares",
            "the straight run cannot be longer than the charge",
        ));
    }
    let charge_bonus = || Modifier::coded(ModifierCode::Charge, "charge", 20);
    let spec = ActionSpec::new(
        ActionKind::Charge,
        ActionType::Full,
        vec![ActionSubtype::Attack, ActionSubtype::Melee, ActionSubtype::Movement],
    );
    let spec = match &input.strike {
        ChargeStrike::Attack { weapon } => {
            weapon.validate("strike.weapon")?;
            weapon.require_melee("strike.weapon", "a Charge")?;
            let test = TestSpec::attack(
                attack_label(weapon),
                weapon.characteristic(),
                vec![charge_bonus()],
                HitRule::Single,
            );
            spec.with_test(test)
        }
        ChargeStrike::Grapple { hand_free } => {
            let mut test = super::grapple::initiate_test(*hand_free, "strike.hand_free")?;
            test.modifiers.insert(0, charge_bonus());
            spec.with_test(test).with_effect(LingeringEffect::ControlsGrapple)
        }
        ChargeStrike::KnockDown {} => spec.with_test(super::manoeuvres::knock_down_test(false)),
    };
    Ok(spec)
}
