//! The rolls a grapple action shares with other actions (adeva-d100.txt, "Grapple (Initiate)",
//! "Knock Down", "Unarmed Attacks"): unarmed damage with a level of Fatigue, and the Either
//! Standard Attack through the attack path.

use super::super::actions::attack_actions::SingleAttack;
use super::super::actions::declared::DeclaredAction;
use super::super::actions::grapple::GrappleWeapon;
use super::super::actions::grapple_strike::{GrappleStrike, strike_weapon};
use super::super::decay::CharacteristicName;
use super::super::damage::check_damage_dice;
use super::super::test_modifiers::within;
use super::attack::{AttackReport, EncounterAttack, paid_attack};
use super::core::effective;
use super::damage::apply;
use super::{refreshed_mut, peek};
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError};

/// Unarmed damage, 1d5 − 3 + SB (not below 0, no penetration), soaked by TB + AP, and one level
/// of Fatigue, dealt by `actor` to `other` (adeva-d100.txt, "Unarmed Attacks"; "Controller:
/// Damage"; "Knock Down": "deal Unarmed damage to the target and inflict a level of fatigue").
/// Decision: the level of Fatigue is the one the row names; Unarmed Attacks' own level for damage
/// of at least TB is not added on top.
pub(super) fn unarmed_and_fatigue(
    encounter: &mut Encounter,
    actor: &CombatantId,
    other: &CombatantId,
    what: &str,
    dice: &mut Dice,
    notes: &mut Vec<String>,
) -> Result<(), EncounterError> {
    let (actor_stats, _, _) = peek(encounter, actor, "combatant_id")?;
    let sb = super::super::bonus(effective(&actor_stats, CharacteristicName::S)?);
    let die = dice.roll(5, format!("{what}: unarmed damage 1d5 − 3 + SB"))?;
    let damage = (die as i32 - 3 + sb).max(0) as u32;
    let (stats, _, flags) = refreshed_mut(encounter, other, "target_id")?;
    let (_, wounds, more) = apply(stats, damage, true, 0, "target_id")?;
    stats.set_wounds_left(wounds.after);
    stats.add_fatigue(1);
    flags.defeated |= wounds.dead;
    notes.push(format!(
        "unarmed damage {die} − 3 + SB {sb} = {damage}: wounds {} → {}; +1 Fatigue",
        wounds.before, wounds.after
    ));
    notes.extend(more);
    Ok(())
}

/// Rolls the grapple's Either Standard Attack through the attack path, already paid for by the
/// grapple action (adeva-d100.txt, "Either: Unarmed/Knife/Natural Weapon Standard Attack"; see
/// `actions/grapple_strike.rs`). Refusals name their field under `base` (e.g. `move.damage`).
/// The strike's damage dice checked before the grapple action spends anything: a weapon other
/// than the bare hand needs dice within bounds (the attack command would refuse them only after
/// the spending; adeva-d100.txt, "Attacking", Step Five).
pub(super) fn check_strike(kind: GrappleWeapon, strike: &GrappleStrike, base: &str) -> Result<(), EncounterError> {
    let (_, damage, unarmed) = strike_weapon(kind, strike.damage);
    match damage {
        None if !unarmed => {
            Err(EncounterError::invalid(format!("{base}.damage"), "a weapon attack needs its damage dice"))
        }
        Some(damage) => check_damage_dice(&damage).map_err(|error| {
            let error: EncounterError = within("damage", error).into();
            match error {
                EncounterError::Invalid { field, message } => EncounterError::invalid(format!("{base}.{field}"), message),
                other => other,
            }
        }),
        None => Ok(()),
    }
}

pub(super) fn grapple_strike(
    encounter: &mut Encounter,
    actor: &CombatantId,
    other: &CombatantId,
    kind: GrappleWeapon,
    strike: GrappleStrike,
    base: &str,
    dice: &mut Dice,
) -> Result<AttackReport, EncounterError> {
    let (weapon, damage, unarmed) = strike_weapon(kind, strike.damage);
    let request = EncounterAttack {
        attacker_id: actor.clone(),
        target_id: strike.target_id.unwrap_or_else(|| other.clone()),
        action: DeclaredAction::StandardAttack(SingleAttack { weapon }),
        damage,
        penetration: strike.penetration,
        evasion: strike.evasion,
        evasion_modifiers: Vec::new(),
        modifiers: Vec::new(),
        extra_targets: Vec::new(),
        long_range_weapon: false,
        unarmed,
        dos_hit: None,
        engine_modifiers: Vec::new(),
    };
    paid_attack(encounter, &request, dice).map_err(|error| match error {
        EncounterError::Invalid { field, message } => EncounterError::invalid(format!("{base}.{field}"), message),
        other => other,
    })
}
