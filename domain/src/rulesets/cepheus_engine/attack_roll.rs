//! The attack check itself: skill DM, characteristic DM, every other DM, and the dice
//! (cepheus-engine.txt, "Attack", "Blind Firing" and "Fighting in Zero Gravity").
//!
//! Decisions:
//! - The modifier list starts with the skill DM, then the characteristic DM, then everything
//!   `attack_modifiers` returns, then the caller's extra modifiers, so every DM on the roll appears
//!   in one list with its reason.
//! - Blind fire counts the skill as level 0 before the zero-gravity cap (see `skill.rs`) and rolls
//!   three dice, dropping the highest (`roll_blind_fire`); otherwise two dice are rolled.
//! - The check is 8+ (`difficulty::TASK_TARGET`): a total of 8 hits with Effect 0.

use super::attack_modifiers::push_attack_modifiers;
use super::attack_request::{AttackKind, AttackRequest, within};
use super::blind_fire::roll_blind_fire;
use super::difficulty::{TASK_TARGET, effect};
use super::modifier::{Modifier, ModifierCode, Reason, total_dm};
use super::{Characteristic, characteristic_dm};
use super::skill::{BLIND_FIRE_SKILL_LEVEL, UNSKILLED_DM, ZeroG, effective_skill};
use crate::dice::Dice;
use crate::rulesets::RuleError;
use serde::{Deserialize, Serialize};

/// The dice and total of one attack check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineAttackCheck))]
pub struct AttackCheck {
    /// The dice that count.
    pub kept: Vec<u32>,
    /// Blind fire's removed highest die.
    pub dropped: Option<u32>,
    pub modifiers: Vec<Modifier>,
    pub total_dm: i32,
    pub roll_total: i32,
    pub effect: i32,
    pub hit: bool,
}

/// Every DM on the attack roll, each with its reason: skill, characteristic, circumstances and
/// the caller's extras (cepheus-engine.txt, "Attack" and table "Common Modifiers to Attacks in
/// Personal Combat").
pub fn attack_roll_modifiers(request: &AttackRequest) -> Result<Vec<Modifier>, RuleError> {
    let kind = request.kind();
    let mut modifiers = Vec::with_capacity(8 + request.extra_modifiers.len());
    modifiers.push(skill_modifier(request)?);
    let (name, value, dm) = request.attacker.characteristic_for(kind);
    modifiers.push(Modifier::new(ModifierCode::CharacteristicDm, characteristic_reason(name, value), dm));
    push_attack_modifiers(&request.circumstances, &mut modifiers).map_err(|error| within("circumstances", error))?;
    modifiers.extend(request.extra_modifiers.iter().cloned());
    Ok(modifiers)
}

/// "DEX 10 (DM +1)".
fn characteristic_reason(name: &'static str, value: Characteristic) -> Reason {
    format!("{name} {} (DM {:+})", value.get(), characteristic_dm(value)).into()
}

/// "gun combat skill 2".
fn plain_skill_reason(kind: AttackKind, level: i32) -> Reason {
    format!("{} {level}", kind.skill_label()).into()
}

/// The skill DM: the weapon skill (Athletics for throws), −3 unskilled, level 0 when firing blind,
/// capped by Zero-G skill in zero gravity (cepheus-engine.txt, "Attack"; "Blind Firing";
/// "Fighting in Zero Gravity").
pub fn skill_modifier(request: &AttackRequest) -> Result<Modifier, RuleError> {
    let circumstances = &request.circumstances;
    let blind = request.blind_fire.is_some();
    let level = if blind { Some(BLIND_FIRE_SKILL_LEVEL) } else { circumstances.skill_level };
    let zero_g = circumstances.zero_g.then_some(ZeroG { zero_g_skill: request.attacker.zero_g_skill });
    let dm = effective_skill(level, zero_g).map_err(|error| match error {
        RuleError::Invalid { ref field, .. } if field == "zero_g_skill" => within("attacker", error),
        other => within("circumstances", other),
    })?;
    Ok(Modifier::new(ModifierCode::Skill, skill_reason(request.kind(), level, blind, zero_g, dm), dm))
}

fn skill_reason(kind: AttackKind, level: Option<i32>, blind: bool, zero_g: Option<ZeroG>, dm: i32) -> Reason {
    let skill = kind.skill_label();
    let zero_g_changed = match zero_g {
        None => false,
        Some(ZeroG { zero_g_skill: None }) => level.is_some(),
        Some(ZeroG { zero_g_skill: Some(_) }) => level.is_some_and(|level| level > dm),
    };
    // The common case, written without `format!`: "gun combat skill 2".
    if let Some(level) = level
        && !blind
        && !zero_g_changed
    {
        return plain_skill_reason(kind, level);
    }
    let base = match level {
        _ if blind => format!("{skill} counts as 0 when firing blind"),
        Some(level) => format!("{skill} {level}"),
        None => format!("unskilled in {skill} ({UNSKILLED_DM})"),
    };
    let text = match zero_g {
        Some(ZeroG { zero_g_skill: None }) if level.is_some() => {
            format!("{base}; no Zero-G skill in zero gravity: unskilled ({UNSKILLED_DM})")
        }
        Some(ZeroG { zero_g_skill: Some(cap) }) if level.is_some_and(|level| level > dm) => {
            format!("{base}, limited to Zero-G {cap} in zero gravity")
        }
        _ => base,
    };
    text.into()
}

/// Rolls the check: 2D6 (or blind fire's 3D6 less the highest) plus every DM, against 8+
/// (cepheus-engine.txt, "Attack"; "Blind Firing").
pub fn roll_attack_check(request: &AttackRequest, dice: &mut Dice) -> Result<AttackCheck, RuleError> {
    let modifiers = attack_roll_modifiers(request)?;
    let total_dm = total_dm(&modifiers);
    let (kept, dropped) = if request.blind_fire.is_some() {
        let blind = roll_blind_fire(dice, "attack roll (blind fire: highest of three dropped)")?;
        (blind.kept.to_vec(), Some(blind.dropped))
    } else {
        (vec![dice.roll_for(6, "attack roll")?, dice.roll_for(6, "attack roll")?], None)
    };
    let roll_total = kept.iter().sum::<u32>() as i32 + total_dm;
    Ok(AttackCheck {
        kept,
        dropped,
        modifiers,
        total_dm,
        roll_total,
        effect: effect(roll_total),
        hit: roll_total >= TASK_TARGET,
    })
}

#[cfg(test)]
mod reason_tests {
    use super::*;

    #[test]
    fn every_characteristic_reason_reads_as_written_with_format() {
        for name in ["STR", "DEX"] {
            for value in 0..=30 {
                let value = Characteristic::new(value).unwrap();
                let dm = characteristic_dm(value);
                let fresh = format!("{name} {} (DM {dm:+})", value.get());
                assert_eq!(characteristic_reason(name, value), fresh);
            }
        }
        let odd = characteristic_reason("END", Characteristic::new(7).unwrap());
        assert_eq!(odd, "END 7 (DM +0)");
    }

    #[test]
    fn every_skill_reason_reads_as_written_with_format() {
        for kind in [AttackKind::Melee, AttackKind::Shooting, AttackKind::Thrown] {
            for level in -1..=17 {
                assert_eq!(plain_skill_reason(kind, level), format!("{} {level}", kind.skill_label()));
            }
        }
    }
}
