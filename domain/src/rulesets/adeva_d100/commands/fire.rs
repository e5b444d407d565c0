//! Multiple Attack and Suppressive Fire on a stored encounter (adeva-d100.txt, "Action List":
//! Multiple Attack, Suppressive Fire); Overwatch, which also fires, is in `overwatch.rs`.
//!
//! Decisions:
//! - Multiple Attack spends its full action, then each weapon is resolved through the attack
//!   command (`attack`) as a Standard Attack, or a Burst / Flurry when it declares hits, with one
//!   extra modifier "multiple attack: −20 in place of the +10" worth −30, so the test is the
//!   characteristic −20 (plus the Burst/Flurry hit penalty, which stacks). Each weapon attack is
//!   run against the budget as it stood before the Multiple Attack (aim only on the first), and
//!   the budget is then left as the Multiple Attack spent it. Each weapon has its own damage
//!   and the target its own evasion per weapon; the reports are returned in order.
//! - Suppressive Fire: victims are stored combatants, listed in the order of the victim dice;
//!   each is named by its id for the resolver. Each hit deals "hits with your weapon"
//!   (adeva-d100.txt, "Suppressive Fire"): in hit order, the weapon's `damage` dice
//!   (`roll_hit_damage`, no Strength Bonus, no DoS swap: the DoS already bought the extra hits),
//!   soak TB + AP − `penetration`, then the wounds are taken off the victim's stored wounds as
//!   the damage command does; 0 wounds without Fate sets `defeated`, damage past 0 with Fate is
//!   a Lethal Damage note. A natural maximum is reported and noted, but no Critical Hit is
//!   confirmed (the text names no test for it here; the table's). `damage` is required only
//!   when a hit lands, which is known after the BS test: the action is then refused (field
//!   `damage`) and nothing is stored, though the dice were drawn. Damage dice come after the
//!   Pinning tests. Each victim's Pinning test uses its stat block's `pinning_characteristic`
//!   (Willpower otherwise) after its decays; failing sets its `pinned` flag.

use super::super::Stats;
use crate::rulesets::adeva_d100::bounds::Unsigned;
use super::super::actions::CharacteristicName as TestedName;
use super::super::actions::attack_actions::{
    MultiHitAttack, MultipleAttack, MultipleAttackWeapon, SingleAttack,
};
use super::super::actions::declared::DeclaredAction;
use super::super::actions::pinning::{PinningOutcome, PinningSubject};
use super::super::actions::suppressive::{
    SuppressiveFire, SuppressiveOutcome, SuppressiveVolley, resolve_suppressive_fire,
};
use super::super::actions::{WeaponClass, action_spec};
use super::super::damage::{DamageDice, HitDamage, check_damage_dice, roll_hit_damage};
use super::super::decay::CharacteristicName;
use super::super::test_modifiers::{CallerModifier, Modifier, ModifierCode};
use super::super::wounds::{Soak, WoundsLoss, lose_wounds, past_soak, soak};
use super::action_outcome::{ActionOutcome, Ran};
use super::attack::{AttackReport, EncounterAttack, attack};
use super::core::{EvasionChoice, effective};
use super::manoeuvres::{spend, spent_state};
use super::{ensure_turn, refreshed_mut, peek};
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError};
use serde::{Deserialize, Serialize};

/// One weapon of a Multiple Attack as the client sends it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100WeaponAttack))]
#[serde(deny_unknown_fields)]
pub struct WeaponAttack {
    #[serde(flatten)]
    pub weapon: MultipleAttackWeapon,
    /// Left out for an unarmed attack.
    #[serde(default)]
    pub damage: Option<DamageDice>,
    #[serde(default)]
    #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::points")]
    #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 100))]
    pub penetration: u32,
    #[serde(default)]
    pub unarmed: bool,
    #[serde(default)]
    pub evasion: EvasionChoice,
}

pub(super) fn pinning_name(name: CharacteristicName) -> TestedName {
    match name {
        CharacteristicName::Ws => TestedName::Ws,
        CharacteristicName::Bs => TestedName::Bs,
        CharacteristicName::S => TestedName::S,
        CharacteristicName::T => TestedName::T,
        CharacteristicName::Ag => TestedName::Ag,
        CharacteristicName::Int => TestedName::Int,
        CharacteristicName::Per => TestedName::Per,
        CharacteristicName::Wp => TestedName::Wp,
        CharacteristicName::Fel => TestedName::Fel,
    }
}

/// The resolvers test the raw characteristic; the stored stat block's decays apply, so the
/// tested characteristic is replaced by its effective value first.
pub(super) fn subject(id: &CombatantId, mut stats: Stats) -> Result<PinningSubject, EncounterError> {
    let name = stats.pinning_characteristic.unwrap_or(CharacteristicName::Wp);
    let value = effective(&stats, name)?;
    match name {
        CharacteristicName::Ws => stats.ws = value,
        CharacteristicName::Bs => stats.bs = value,
        CharacteristicName::S => stats.s = value,
        CharacteristicName::T => stats.t = value,
        CharacteristicName::Ag => stats.ag = value,
        CharacteristicName::Int => stats.int = value,
        CharacteristicName::Per => stats.per = value,
        CharacteristicName::Wp => stats.wp = value,
        CharacteristicName::Fel => stats.fel = value,
    }
    let characteristic = stats.pinning_characteristic.map(pinning_name);
    Ok(PinningSubject { name: id.to_string(), stats, characteristic, location: None })
}

#[allow(clippy::too_many_arguments)]
pub(super) fn multiple_attack(
    encounter: &mut Encounter,
    actor: CombatantId,
    target: CombatantId,
    equipped_weapons: u32,
    weapons: Vec<WeaponAttack>,
    modifiers: Vec<CallerModifier>,
    dice: &mut Dice,
) -> Result<Ran, EncounterError> {
    let declared =
        MultipleAttack { equipped_weapons, attacks: weapons.iter().map(|w| w.weapon.clone()).collect() };
    let spec = action_spec(&DeclaredAction::MultipleAttack(declared)).map_err(rename_attacks)?;
    ensure_turn(encounter, &actor, "combatant_id")?;
    let (_, before, _) = peek(encounter, &actor, "combatant_id")?;
    spend(encounter, &actor, &spec)?;
    let after = refreshed_mut(encounter, &actor, "combatant_id")?.1.budget.clone();
    let mut reports: Vec<AttackReport> = Vec::new();
    for (index, entry) in weapons.into_iter().enumerate() {
        {
            let state = refreshed_mut(encounter, &actor, "combatant_id")?.1;
            state.budget = before.budget.clone();
            if index > 0 {
                state.budget.aim = None;
            }
        }
        let weapon = entry.weapon.weapon.clone();
        let action = match entry.weapon.declared_hits {
            None => DeclaredAction::StandardAttack(SingleAttack { weapon }),
            Some(declared_hits) if weapon.class == WeaponClass::Ranged => {
                DeclaredAction::Burst(MultiHitAttack { weapon, declared_hits })
            }
            Some(declared_hits) => DeclaredAction::Flurry(MultiHitAttack { weapon, declared_hits }),
        };
        let multiple =
            Modifier::coded(ModifierCode::MultipleAttack, "multiple attack: −20 in place of the +10", -30);
        let request = EncounterAttack {
            attacker_id: actor.clone(),
            target_id: target.clone(),
            action,
            damage: entry.damage,
            penetration: entry.penetration,
            evasion: entry.evasion,
            evasion_modifiers: Vec::new(),
            modifiers: modifiers.clone(),
            extra_targets: Vec::new(),
            long_range_weapon: false,
            unarmed: entry.unarmed,
            dos_hit: None,
            engine_modifiers: vec![multiple],
        };
        let (_, report) = attack(encounter, request, dice).map_err(|error| prefix(error, index))?;
        reports.push(report);
    }
    refreshed_mut(encounter, &actor, "combatant_id")?.1.budget = after;
    let notes = vec![format!("{} weapon attacks, each at −20", reports.len())];
    Ok((
        actor,
        "multiple attack".into(),
        ActionOutcome::MultipleAttack { target_id: target, attacks: reports },
        notes,
    ))
}

fn rename_attacks(error: crate::rulesets::RuleError) -> EncounterError {
    let error: EncounterError = error.into();
    match error {
        EncounterError::Invalid { field, message } => {
            EncounterError::invalid(field.replacen("attacks", "weapons", 1), message)
        }
        other => other,
    }
}

fn prefix(error: EncounterError, index: usize) -> EncounterError {
    match error {
        EncounterError::Invalid { field, message } => {
            EncounterError::invalid(format!("weapons[{index}].{field}"), message)
        }
        other => other,
    }
}

/// What a Suppressive Fire request carries besides the weapon and mode.
pub(super) struct Volley {
    pub victims: Vec<CombatantId>,
    pub penalties: Vec<Modifier>,
    pub damage: Option<DamageDice>,
    pub penetration: u32,
}

/// One Suppressive Fire hit on its victim: damage, soak and the wounds it took.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100SuppressiveHit))]
pub struct SuppressiveHit {
    pub victim_id: CombatantId,
    /// The hit's number in the volley, from 1.
    pub hit: u32,
    pub damage: HitDamage,
    pub soak: Soak,
    pub past_soak: u32,
    pub wounds: WoundsLoss,
    pub defeated: bool,
}

pub(super) fn suppressive_fire(
    encounter: &mut Encounter,
    actor: CombatantId,
    input: SuppressiveFire,
    volley: Volley,
    dice: &mut Dice,
) -> Result<Ran, EncounterError> {
    let Volley { victims, penalties, damage, penetration } = volley;
    let spec = action_spec(&DeclaredAction::SuppressiveFire(input.clone()))?;
    if let Some(weapon) = &damage {
        check_damage_dice(weapon).map_err(|error| rename(error.into(), "damage"))?;
    }
    if penetration > 100 {
        return Err(EncounterError::invalid("penetration", "penetration must be at most 100"));
    }
    let mut subjects = Vec::new();
    for (index, victim) in victims.iter().enumerate() {
        let field = format!("victims[{index}]");
        if *victim == actor || victims[..index].contains(victim) {
            return Err(EncounterError::invalid(field, "each victim is another combatant, named once"));
        }
        let (stats, _, _) = peek(encounter, victim, &field)?;
        subjects.push(subject(victim, stats)?);
    }
    let spent = spent_state(encounter, &actor, &spec)?;
    let (stats, _, _) = peek(encounter, &actor, "combatant_id")?;
    let bs = effective(&stats, CharacteristicName::Bs)?;
    let volley = SuppressiveVolley { bs, penalties, victims: subjects };
    let outcome: SuppressiveOutcome = resolve_suppressive_fire(&input, &volley, dice)?;
    // Whether a hit lands is known only once the BS test is rolled: refused before any change.
    let weapon = match (damage, outcome.victim_rolls.is_empty()) {
        (None, false) => {
            return Err(EncounterError::invalid("damage", "the volley hit: send the weapon's damage dice"));
        }
        (weapon, _) => weapon,
    };
    *refreshed_mut(encounter, &actor, "combatant_id")?.1 = spent;
    let mut notes = Vec::new();
    if outcome.jammed {
        notes.push(format!("{} jammed (94+)", input.weapon.name));
    }
    apply_pinning(encounter, &victims, &outcome.pinning, &mut notes)?;
    let mut hits = Vec::new();
    if let Some(weapon) = weapon {
        for (number, roll) in (1..).zip(&outcome.victim_rolls) {
            let Some(index) = victims.iter().position(|id| id.to_string() == roll.victim) else {
                continue;
            };
            let hit = suppressive_hit(encounter, &victims[index], index, number, &weapon, penetration, dice)?;
            if hit.damage.natural_maximum {
                notes.push(format!(
                    "hit {number} on {} rolled a natural maximum: any Critical Hit is the table's",
                    encounter.name_of(&hit.victim_id)
                ));
            }
            if hit.wounds.lethal_damage {
                notes.push(format!(
                    "{} damage past 0 wounds on {}: resolve it as Lethal Damage",
                    hit.wounds.past_zero,
                    encounter.name_of(&hit.victim_id)
                ));
            }
            hits.push(hit);
        }
    }
    Ok((
        actor,
        "suppressive fire".into(),
        ActionOutcome::SuppressiveFire { outcome: Box::new(outcome), damage: hits },
        notes,
    ))
}

/// One hit: the weapon's dice (no DoS swap), soak by TB + AP − Pen, then wounds as the damage
/// command applies them (adeva-d100.txt, "Suppressive Fire"; "Attacking", Steps Five to Seven).
fn suppressive_hit(
    encounter: &mut Encounter,
    victim: &CombatantId,
    index: usize,
    number: u32,
    weapon: &DamageDice,
    penetration: u32,
    dice: &mut Dice,
) -> Result<SuppressiveHit, EncounterError> {
    let field = format!("victims[{index}]");
    let (stats, _, flags) = refreshed_mut(encounter, victim, &field)?;
    if stats.wounds.is_none() {
        return Err(EncounterError::invalid(field, "the stat block has no wounds"));
    }
    let damage = roll_hit_damage(weapon, None, None, dice, &format!("damage: {field}: hit {number}"))?;
    let toughness = super::super::bonus(effective(stats, CharacteristicName::T)?) as u32;
    let soaked = soak(toughness, stats.armour.n(), penetration);
    let past = past_soak(damage.damage, &soaked);
    let wounds = lose_wounds(stats.current_wounds(), stats.fate_points.n(), past);
    stats.set_wounds_left(wounds.after);
    if wounds.dead {
        flags.defeated = true;
    }
    Ok(SuppressiveHit {
        victim_id: victim.clone(),
        hit: number,
        damage,
        soak: soaked,
        past_soak: past,
        wounds,
        defeated: flags.defeated,
    })
}

fn rename(error: EncounterError, field: &str) -> EncounterError {
    match error {
        EncounterError::Invalid { field: inner, message } => {
            EncounterError::invalid(format!("{field}.{inner}"), message)
        }
        other => other,
    }
}

pub(super) fn apply_pinning(
    encounter: &mut Encounter,
    ids: &[CombatantId],
    pinning: &[PinningOutcome],
    notes: &mut Vec<String>,
) -> Result<(), EncounterError> {
    for (id, outcome) in ids.iter().zip(pinning) {
        if outcome.pinned {
            refreshed_mut(encounter, id, "victims")?.1.pinned = true;
            notes.push(format!("{} is pinned", encounter.name_of(id)));
        }
    }
    Ok(())
}
