//! One attack's hits on one target: its evasion, soak, then per landed hit the damage, critical
//! and wounds (adeva-d100.txt, "Attacking", Steps Four to Seven; "Unarmed Attacks").
use super::super::attack_sequence::HitResult;
use super::super::critical::{CriticalInput, confirm_critical, wounds_dealt};
use super::super::damage::{DamageDice, roll_hit_damage};
use super::super::decay;
use super::super::evasion::{EvasionSpec, roll_evasion};
use super::super::test_modifiers::Modifier;
use super::super::test_roll::ModifiedTest;
use super::super::unarmed::unarmed_damage;
use super::super::wounds::{WoundsLoss, lose_wounds, negated, past_soak, soak};
use super::super::{Characteristic, bonus};
use super::core::{AttackInput, TargetOutcome, TargetSide, effective};
use crate::dice::Dice;
use crate::rulesets::RuleError;
use crate::rulesets::adeva_d100::bounds::Unsigned;

/// What every hit of one attack shares.
pub(super) struct HitRoll<'a> {
    pub(super) input: &'a AttackInput<'a>,
    pub(super) attack_test: &'a ModifiedTest,
    /// The attacker's tested characteristic, which confirms criticals.
    pub(super) characteristic: Characteristic,
    pub(super) damage_dice: &'a DamageDice,
    pub(super) strength_bonus_value: u32,
    /// SB added to damage (not for ranged weapons).
    pub(super) strength_bonus: Option<u32>,
}

/// One target's evasion, soak and hits; the attack's degrees of success go to the landed hit the
/// attacker named (`dos_countdown` counts down the landed hits before it, across targets: the hit
/// rolled when it is 1 takes them; 1 at the start is the first hit, as before).
pub(super) fn resolve_target(
    roll: &HitRoll,
    target: &TargetSide,
    evasion: Option<&EvasionSpec>,
    hits: u32,
    dos_countdown: &mut u32,
    dice: &mut Dice,
) -> Result<TargetOutcome, RuleError> {
    let evasion = match evasion {
        Some(spec) if hits > 0 => Some(roll_evasion(spec, target.surprised, hits, dice)?),
        _ => None,
    };
    let landed = evasion.as_ref().map_or(hits, |e| e.outcome.hits_left);
    let toughness = bonus(effective(target.stats, decay::CharacteristicName::T)?) as u32;
    let soaked = soak(toughness, target.stats.armour.n(), roll.input.penetration);
    let before = target.stats.current_wounds();
    let mut outcome = TargetOutcome {
        hits_allocated: hits,
        evasion,
        hits_landed: landed,
        soak: soaked,
        hits: Vec::new(),
        wounds: WoundsLoss { before, lost: 0, after: before, dead: false, lethal_damage: false, past_zero: 0 },
        fatigue_levels: 0,
    };
    for number in 1..=landed {
        let dos = (*dos_countdown == 1).then(|| roll.attack_test.test.degrees_of_success());
        *dos_countdown = dos_countdown.saturating_sub(1);
        resolve_hit(roll, target, toughness, number, dos, &mut outcome, dice)?;
    }
    Ok(outcome)
}

/// Rolls one landed hit's damage and critical, and takes its wounds off `outcome`.
fn resolve_hit(
    roll: &HitRoll,
    target: &TargetSide,
    toughness: u32,
    number: u32,
    dos: Option<u32>,
    outcome: &mut TargetOutcome,
    dice: &mut Dice,
) -> Result<(), RuleError> {
    let label = format!("{}: hit {number}", target.field);
    let (damage, fatigue) = if roll.input.unarmed {
        let hit = unarmed_damage(roll.strength_bonus_value, toughness, dos, dice, &format!("damage: {label}"))?;
        (hit.damage, hit.fatigue)
    } else {
        let damage = roll_hit_damage(roll.damage_dice, roll.strength_bonus, dos, dice, &format!("damage: {label}"))?;
        (damage, false)
    };
    outcome.fatigue_levels += u32::from(fatigue);
    let past = past_soak(damage.damage, &outcome.soak);
    let confirm_modifiers: Vec<Modifier> = target.attacks_against.iter().cloned().collect();
    let critical = if damage.natural_maximum {
        let critical_input = CriticalInput {
            characteristic: roll.characteristic,
            confirm_modifiers: &confirm_modifiers,
            damage_past_soak: past,
            lethal_damage_table: roll.input.lethal_damage_table,
            label: &label,
        };
        Some(confirm_critical(&critical_input, dice)?)
    } else {
        None
    };
    let lost = wounds_dealt(past, critical.as_ref());
    let wounds = lose_wounds(outcome.wounds.after, target.stats.fate_points.n(), lost);
    let total = &mut outcome.wounds;
    total.lost = total.lost.saturating_add(lost);
    total.after = wounds.after;
    total.dead |= wounds.dead;
    total.lethal_damage |= wounds.lethal_damage;
    total.past_zero = total.past_zero.saturating_add(wounds.past_zero);
    outcome.hits.push(HitResult {
        hit: number,
        negated: negated(damage.damage, &outcome.soak),
        past_soak: past,
        critical,
        wounds,
        fatigue,
        damage,
    });
    Ok(())
}
