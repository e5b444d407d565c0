//! One attack check against one target and what it does: the target's Reaction Defence as the
//! DC, the roll with its criticals, an optional Defence manoeuvre by the target, and the effect —
//! damage through resistance, or one of the manoeuvres that replace it (arrgs.txt, "Attacks",
//! "Defence Manoeuvre", "Disarm Manoeuvre", "Reposition Manoeuvre", "Sunder Manoeuvre", "Trip",
//! "Unconscious", "Dying [n]").
//!
//! Decisions:
//! - The DC is the target's Reaction Defence check (Reflex unless the request names another;
//!   Disarm, Trip and Reposition always use Reflex). A target offering no defence has DC 0; an
//!   Unconscious target's Reflex and Willpower are 0 and fail automatically, which is DC 0 too.
//! - A Dying target makes its Dying check when it makes the Reaction check, before the roll; a
//!   target offering no defence makes no Reaction check, so no Dying check either ("Dying [n]":
//!   "including any Reaction check").
//! - The Defence manoeuvre is declared with the attack and made only if the attack succeeds; its
//!   DC is the first Attack check's result, and each point above it takes 1 from the Success
//!   Value (a Trip fails when the Defence check exceeds the Attack check).
//! - The Size modifier also adjusts base damage ("related rolls such as damage") and Magnitude
//!   scales base damage like the attack check.
//! - Only damaging attacks inflict Dying on a critical hit; Disarm, Sunder, Trip and Reposition
//!   replace the damage.
//! - Reposition moves the target the squares the attacker chooses, at most the Success Value ("the
//!   number of squares the target may be moved"; default all of it); a collision at the end costs
//!   the target and what it hit 1 Vitality per square moved, directly, not as typed damage.
//! - Sunder: an item is Broken once its damage reaches half its Vitality, destroyed at all of it;
//!   the item's damage is kept in the target's state (see `items`).
//! - Disarm knocks the named item (or the only one held) out of the target's hands.
//! - An Assisted modifier from Aid Another on a Defence kind (Reflex, Fortitude, Willpower) is
//!   used by the target's next check of that kind: its Reaction Defence, or its Defence
//!   manoeuvre ("Aid Another Manoeuvre": "the next Skill Check (of the same type)").

use super::attack::{AttackLine, AttackRoll, roll_attack};
use super::check::{Against, Check, against_mover, magnitude, multiple_actions, size_modifier, standing_modifiers, take_assist};
use super::damage_types::{DamageSteps, apply_resistance};
use super::defence::{DefenceAction, DefenceActionReport, DefenceKind, can_pay_defence, defend};
use super::fighter::{Fighter, Scene, Standing};
pub use super::items::Item;
pub use super::state::ItemState;
use super::items::{disarm_target, knock_away, sunder, sunder_target};
use super::modifier::{Modifier, ModifierCode};
use super::bonuses::{Bonuses, CheckKind};
use super::vitality::{SurvivalCheck, inflict_dying, react};
use super::weapon::Weapon;
use crate::dice::Dice;
use crate::encounter::CombatantId;
use crate::rulesets::RuleError;
use crate::score::Score;
use serde::{Deserialize, Serialize};

/// What a Reposition pushes the target into.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsCollision))]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Collision {
    /// A solid object.
    Object,
    /// Another combatant (one size category smaller or larger, or any solid creature).
    Combatant {
        #[cfg_attr(feature = "schema", schema(value_type = String))]
        combatant_id: CombatantId,
    },
}

impl crate::bare_or_tagged::BareOrTagged for Collision {
    const TAG: &'static str = "type";
    const BARE: &'static [&'static str] = &["object"];
}

/// What a successful attack does instead of, or as, damage.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsAttackEffect))]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Effect {
    /// The Attack Manoeuvre: damage.
    #[default]
    Damage,
    /// Disarm: the item flies Success Value squares (at most 5); the item named, or the only one
    /// the target holds.
    Disarm {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        item: Option<String>,
    },
    /// Sunder: the damage goes to an item.
    Sunder { item: Item },
    /// Trip: the target falls Prone.
    Trip,
    /// Reposition: the target may be moved up to Success Value squares.
    Reposition {
        /// What the target is moved into at the end of its movement.
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "crate::bare_or_tagged::deserialize_option"
        )]
        #[cfg_attr(feature = "schema", schema(schema_with = crate::bare_or_tagged::schema_option::<Collision>))]
        collision: Option<Collision>,
        /// Squares the attacker chooses to move the target (the Success Value caps them; default:
        /// the whole Success Value).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        squares: Option<Score<1, 1000>>,
    },
}

impl crate::bare_or_tagged::BareOrTagged for Effect {
    const TAG: &'static str = "type";
    const BARE: &'static [&'static str] = &["damage", "disarm", "trip", "reposition"];
}

impl Effect {
    pub fn name(&self) -> &'static str {
        match self {
            Self::Damage => "attack",
            Self::Disarm { .. } => "disarm",
            Self::Sunder { .. } => "sunder",
            Self::Trip => "trip",
            Self::Reposition { .. } => "reposition",
        }
    }
}

/// What the attack did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsStrikeResult))]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum StrikeResult {
    /// The attack failed (see the roll's failure).
    Miss,
    /// The Defence manoeuvre took the Success Value to 0 (or beat the Trip).
    Foiled,
    Damage {
        steps: DamageSteps,
        /// A critical hit added one application of Dying.
        dying_inflicted: bool,
    },
    Disarm {
        squares: i32,
        /// The item knocked out of the target's hands.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        item: Option<String>,
    },
    Sunder {
        item: String,
        damage: i32,
        damage_taken: i32,
        state: ItemState,
    },
    Trip {
        prone: bool,
    },
    Reposition {
        squares: i32,
        /// Vitality lost by the target and by what it hit (1 per square).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        collision_loss: Option<i32>,
    },
}

/// One attack against one target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsStrike))]
pub struct Strike {
    /// The Vitality this attack drained (later attacks of a Repeated Attack).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vitality_cost: Option<i32>,
    /// The target's Dying check for making its Reaction check.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reaction_check: Option<SurvivalCheck>,
    /// The target's Reaction Defence check (the DC); absent when it offers no defence (was
    /// `defence`, still read: a request's `defence` is the Reaction Defence kind).
    #[serde(rename = "defence_check", alias = "defence", default, skip_serializing_if = "Option::is_none")]
    pub defence: Option<Check>,
    /// The base Success Value and what changed it before the margin.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_success_value: Option<i32>,
    pub roll: AttackRoll,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defence_action: Option<DefenceActionReport>,
    /// The Success Value after the Defence manoeuvre.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_success_value: Option<i32>,
    pub result: StrikeResult,
}

/// How one attack is made.
#[derive(Debug, Clone)]
pub struct StrikeSpec<'a> {
    pub weapon: &'a Weapon,
    pub effect: &'a Effect,
    pub ability: Option<super::bonuses::Ability>,
    pub bonuses: &'a Bonuses,
    pub target_bonuses: &'a Bonuses,
    pub defence: DefenceKind,
    pub no_defence: bool,
    /// Modifiers decided by the manoeuvre (Multiple Actions, range, charge, repeated, assist).
    pub extra: Vec<Modifier>,
    pub defence_action: Option<&'a DefenceAction>,
}

/// The target's Reaction Defence check (arrgs.txt, "Attacks": reactions use 10; "Unconscious").
/// An Assisted modifier waiting for the target's next check of this kind is used up by it ("Aid
/// Another Manoeuvre").
pub fn reaction_defence(target: &mut Fighter, attacker: &Fighter, spec: &StrikeSpec<'_>) -> Check {
    let kind = spec.defence.check();
    let scale = magnitude(target.stats.magnitude(), attacker.stats.magnitude(), spec.defence.against());
    let mut modifiers = standing_modifiers(target, kind, None, spec.target_bonuses, scale.is_none());
    modifiers.extend(multiple_actions(target.state.round.points_used()));
    modifiers.extend(take_assist(target, kind));
    let legs = target.stats.legs();
    if matches!(spec.effect, Effect::Trip) && legs > 2 {
        modifiers.push(Modifier::new(ModifierCode::ExtraLegs, legs - 2, format!("{legs} legs")));
    }
    let mut check = Check::reaction(kind, modifiers, scale);
    if target.state.unconscious && kind != CheckKind::Fortitude {
        check.result = 0;
        check.automatic_failure = true;
    }
    check
}

/// Makes one attack by `attacker` on `target` and applies what it does.
pub fn strike(
    attacker: &mut Fighter,
    target: &mut Fighter,
    bystander: Option<&mut Fighter>,
    spec: &StrikeSpec<'_>,
    scene: &Scene,
    dice: &mut Dice,
) -> Result<Strike, RuleError> {
    let reaction_check = if spec.no_defence {
        None
    } else {
        react(target, multiple_actions(target.state.round.points_used()), dice)?
    };
    let defence = (!spec.no_defence).then(|| reaction_defence(target, attacker, spec));
    let dc = defence.as_ref().map_or(0, |d| d.result);
    let line = attack_line(attacker, target, spec, dc);
    let purpose = format!("{} check: {} → {}", spec.effect.name(), attacker.name, target.name);
    let roll = roll_attack(&line, dice, &purpose)?;
    let mut strike = Strike {
        vitality_cost: None,
        reaction_check,
        defence,
        base_success_value: line.base,
        final_success_value: roll.success_value.filter(|_| roll.succeeded()),
        roll,
        defence_action: None,
        result: StrikeResult::Miss,
    };
    if !strike.roll.succeeded() {
        return Ok(strike);
    }
    if let Some(action) = spec.defence_action.filter(|_| can_pay_defence(target, scene)) {
        let report = defend(target, attacker, action, strike.roll.first_result(), scene, dice)?;
        let foiled = match strike.final_success_value {
            Some(value) => {
                let left = (value - report.reduction).max(0);
                strike.final_success_value = Some(left);
                left == 0
            }
            None => report.check.result > report.dc,
        };
        strike.defence_action = Some(report);
        if foiled {
            strike.result = StrikeResult::Foiled;
            return Ok(strike);
        }
    }
    strike.result = apply_effect(target, bystander, spec, strike.final_success_value.unwrap_or(0), strike.roll.critical_hit)?;
    Ok(strike)
}

fn attack_line(attacker: &mut Fighter, target: &Fighter, spec: &StrikeSpec<'_>, dc: i32) -> AttackLine {
    let kind = spec.weapon.kind.check();
    let scale = magnitude(attacker.stats.magnitude(), target.stats.magnitude(), Against::Attack);
    let mut modifiers = standing_modifiers(attacker, kind, spec.ability, spec.bonuses, scale.is_none());
    modifiers.extend(spec.extra.iter().cloned());
    modifiers.extend(against_mover(target));
    let base = match spec.effect {
        Effect::Trip => None,
        Effect::Disarm { .. } | Effect::Reposition { .. } => Some(1),
        Effect::Damage | Effect::Sunder { .. } => Some(base_damage(attacker, spec, scale)),
    };
    AttackLine {
        kind,
        modifiers,
        magnitude: scale,
        base,
        dc,
        critical_from: spec.weapon.critical_from(),
        spell_difficulty: spec.weapon.spell_difficulty(),
        chain: base.is_some(),
    }
}

/// Weapon damage, with the Size modifier of the check's ability and the Magnitude modifier
/// (Appendix, "Size Modifier", "Magnitude Modifier").
fn base_damage(attacker: &Fighter, spec: &StrikeSpec<'_>, scale: Option<super::check::Magnitude>) -> i32 {
    let mut base = spec.weapon.damage();
    if scale.is_none()
        && let Some(ability) = spec.ability.or(spec.weapon.kind.check().usual_ability())
    {
        base += size_modifier(attacker.stats.size(), attacker.stats.size_modifier(), ability);
    }
    scale.map_or(base, |m| m.apply(base))
}

fn apply_effect(
    target: &mut Fighter,
    bystander: Option<&mut Fighter>,
    spec: &StrikeSpec<'_>,
    success_value: i32,
    critical: bool,
) -> Result<StrikeResult, RuleError> {
    Ok(match spec.effect {
        Effect::Damage => {
            let steps = apply_resistance(success_value, &spec.weapon.types, &target.stats.resistances, &target.stats.vulnerabilities);
            target.lose_vitality(steps.damage);
            if critical {
                inflict_dying(target);
            }
            StrikeResult::Damage { steps, dying_inflicted: critical }
        }
        Effect::Disarm { item } => {
            let item = disarm_target(target, item.as_deref(), "effect.item")?;
            if let Some(name) = &item {
                knock_away(target, name);
            }
            StrikeResult::Disarm { squares: success_value.min(5), item }
        }
        Effect::Sunder { item } => {
            let tracked = sunder(target, sunder_target(target, item)?, success_value);
            StrikeResult::Sunder { item: tracked.name, damage: success_value, damage_taken: tracked.damage_taken, state: tracked.condition }
        }
        Effect::Trip => {
            target.state.prone = true;
            StrikeResult::Trip { prone: true }
        }
        Effect::Reposition { collision, squares } => {
            let moved = squares.map_or(success_value, |chosen| chosen.get().min(success_value));
            let collision_loss = collision.as_ref().map(|_| moved);
            if let Some(loss) = collision_loss {
                target.lose_vitality(loss);
                if let Some(other) = bystander {
                    other.lose_vitality(loss);
                }
            }
            StrikeResult::Reposition { squares: moved, collision_loss }
        }
    })
}

/// Standing of a fighter.
pub fn standing(fighter: &Fighter) -> Standing {
    fighter.standing()
}
