//! The starship actions on a stored encounter (adeva-d100.txt, "Action List": Ram, Boarding).

use super::super::actions::declared::DeclaredAction;
use super::super::actions::starship::{Boarding, Ram, ram_damage};
use super::super::actions::{ActionKind, ActionSpec, ActionType};
use super::super::damage::{DamageDice, check_damage_dice};
use super::super::decay::CharacteristicName;
use super::super::test_modifiers::{Modifier, ModifierCode, within};
use super::super::test_roll::modified_test;
use super::action_outcome::{ActionOutcome, Ran};
use super::core::effective;
use super::damage::apply;
use super::manoeuvres::{declared_spec, spend};
use super::{refreshed_mut, peek};
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError};
use serde::{Deserialize, Serialize};

/// Applies `amount` of damage (soaked, with `penetration`) to a stored combatant; returns a note.
fn impact(
    encounter: &mut Encounter,
    id: &CombatantId,
    field: &str,
    amount: u32,
    penetration: u32,
) -> Result<(u32, Vec<String>), EncounterError> {
    let name = encounter.name_of(id);
    let (stats, _, flags) = refreshed_mut(encounter, id, field)?;
    let (_, wounds, mut notes) = apply(stats, amount, true, penetration, field)?;
    stats.set_wounds_left(wounds.after);
    flags.defeated |= wounds.dead;
    notes.insert(0, format!("{name}: {amount} impact, wounds {} → {}", wounds.before, wounds.after));
    Ok((wounds.after, notes))
}

/// Ram (adeva-d100.txt, "Ram"). Decisions: a full action on the actor's turn; WS +20 (plus the
/// caller's `modifiers`), one hit; the target may `dodge` as a free action (Agility, no Reaction
/// spent). A hit deals 1d10 + SB + 2 × Size (Pen 2 × Size) to the target, then 1d10 + the
/// target's SB + Size (Pen its Size) back to the rammer, each soaked by TB + AP − Pen and applied
/// to the stored wounds. The ships' SB and Size are the caller's (`rammer`, `target`); the DoS do
/// not replace an impact die (the text gives the impact as its own roll).
pub(super) fn ram(
    encounter: &mut Encounter,
    actor: CombatantId,
    target: CombatantId,
    input: Ram,
    dodge: bool,
    mut modifiers: Vec<Modifier>,
    dice: &mut Dice,
) -> Result<Ran, EncounterError> {
    if actor == target {
        return Err(EncounterError::invalid("target_id", "the target must be another combatant"));
    }
    let spec = declared_spec(&DeclaredAction::Ram(input.clone()))?;
    let damage = ram_damage(&input)?;
    let (target_stats, _, _) = peek(encounter, &target, "target_id")?;
    spend(encounter, &actor, &spec)?;
    let (actor_stats, _, _) = peek(encounter, &actor, "combatant_id")?;
    modifiers.insert(0, Modifier::coded(ModifierCode::Ram, "ram", 20));
    let ws = effective(&actor_stats, CharacteristicName::Ws)?;
    let test = modified_test(ws, &modifiers, dice, "ram: WS test").map_err(|e| within("modifiers", e))?;
    let mut dodge_test = None;
    if test.test.passed && dodge {
        let ag = effective(&target_stats, CharacteristicName::Ag)?;
        dodge_test = Some(modified_test(ag, &[], dice, "ram: dodge (Agility, free)")?);
    }
    let hit = test.test.passed && !dodge_test.as_ref().is_some_and(|t| t.test.passed);
    let mut notes = Vec::new();
    let mut impacts = Vec::new();
    if hit {
        let die = dice.roll(10, "ram: impact on the target")?;
        let amount = die + damage.to_target.bonus;
        let (_, more) = impact(encounter, &target, "target_id", amount, damage.to_target.penetration)?;
        notes.extend(more);
        impacts.push(amount);
        let die = dice.roll(10, "ram: impact back on the rammer")?;
        let amount = die + damage.to_rammer.bonus;
        let (_, more) = impact(encounter, &actor, "combatant_id", amount, damage.to_rammer.penetration)?;
        notes.extend(more);
        impacts.push(amount);
    }
    let outcome = ActionOutcome::Ram {
        target_id: target,
        test: Box::new(test),
        dodge: dodge_test.map(Box::new),
        damage,
        impacts,
    };
    Ok((actor, "ram".into(), outcome, notes))
}

/// How the target ship evades a Boarding ("dodging, deflecting or by using the 'Repel Boarders'
/// action").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100BoardingEvasionKind))]
#[serde(rename_all = "snake_case")]
pub enum BoardingEvasionKind {
    Dodge,
    Deflect,
    RepelBoarders,
}

/// The target's evasion against a Boarding and the threshold it tests (its Agility for a dodge,
/// its Deflector's strength, its Repel Boarders test: the text gives none, the caller's word).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100BoardingEvasion))]
#[serde(deny_unknown_fields)]
pub struct BoardingEvasion {
    pub kind: BoardingEvasionKind,
    #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::threshold")]
    #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 300))]
    pub threshold: u32,
}

pub(super) struct BoardingRequest {
    pub actor: CombatantId,
    pub target: CombatantId,
    pub input: Boarding,
    pub damage: DamageDice,
    pub evasion: Option<BoardingEvasion>,
    pub evasion_modifiers: Vec<Modifier>,
}

/// Boarding (adeva-d100.txt, "Boarding"). Decisions: a half action on the actor's turn against
/// another stored starship (`target_is_starship`); the WS test (decays applied) takes the
/// `marines` modifiers; one hit. The target's `evasion` is tested against its given threshold:
/// a dodge or Repel Boarders spends its Reaction ("Combat Structure", Step Four: dodging needs a
/// Reaction; Repel Boarders is taken as one), a Deflector test is free. If it fails to evade, the
/// Marines' `damage` dice are rolled (no DoS substitution, no SB: the profile is the Marines')
/// and taken from the target's wounds (its Hull) with no soak ("ignoring AP and TB"). The Subdual
/// quality is noted, not applied (the engine has no Subdual rule).
pub(super) fn boarding(
    encounter: &mut Encounter,
    request: BoardingRequest,
    dice: &mut Dice,
) -> Result<Ran, EncounterError> {
    let BoardingRequest { actor, target, input, damage, evasion, evasion_modifiers } = request;
    if actor == target {
        return Err(EncounterError::invalid("target_id", "the target must be another combatant"));
    }
    let spec = declared_spec(&DeclaredAction::Boarding(input.clone()))?;
    check_damage_dice(&damage).map_err(|e| within("damage", e))?;
    let (_, target_state, _) = peek(encounter, &target, "target_id")?;
    let mut target_budget = target_state.budget.clone();
    if let Some(evasion) = evasion {
        if evasion.threshold > 200 {
            return Err(EncounterError::invalid("evasion.threshold", "at most 200"));
        }
        if evasion.kind != BoardingEvasionKind::Deflect {
            let reaction =
                ActionSpec::new(ActionKind::Other("evasion".into()), ActionType::Reaction, Vec::new());
            target_budget.spend(&reaction).map_err(|e| match EncounterError::from(e) {
                EncounterError::Invalid { message, .. } => EncounterError::invalid("evasion", message),
                other => other,
            })?;
        }
    }
    spend(encounter, &actor, &spec)?;
    let (actor_stats, _, _) = peek(encounter, &actor, "combatant_id")?;
    let ws = effective(&actor_stats, CharacteristicName::Ws)?;
    let test = modified_test(ws, &super::super::test_modifiers::caller(&input.marines), dice, "boarding: WS test (Marines)")
        .map_err(|e| within("marines", e))?;
    let mut evasion_test = None;
    if let (true, Some(evasion)) = (test.test.passed, evasion) {
        let threshold = i32::try_from(evasion.threshold).unwrap_or(200);
        let label = format!("boarding: {:?} evasion", evasion.kind);
        evasion_test = Some(
            super::super::test_roll::threshold_test(threshold, &evasion_modifiers, dice, &label)
                .map_err(|e| within("evasion_modifiers", e))?,
        );
        refreshed_mut(encounter, &target, "target_id")?.1.budget = target_budget;
    }
    let hit = test.test.passed && !evasion_test.as_ref().is_some_and(|t| t.test.passed);
    let mut notes = Vec::new();
    let mut hull_damage = None;
    if hit {
        let mut amount: i64 = i64::from(damage.bonus);
        for _ in 0..damage.count {
            amount += i64::from(dice.roll(damage.sides, "boarding: Marines' damage")?);
        }
        let amount = u32::try_from(amount.max(0)).unwrap_or(0);
        let name = encounter.name_of(&target);
        let (stats, _, flags) = refreshed_mut(encounter, &target, "target_id")?;
        let (_, wounds, more) = apply(stats, amount, false, 0, "target_id")?;
        stats.set_wounds_left(wounds.after);
        flags.defeated |= wounds.dead;
        notes.push(format!(
            "{name}'s Hull: {amount} damage ignoring AP and TB, {} → {}",
            wounds.before, wounds.after
        ));
        notes.extend(more);
        notes.push("Subdual quality: apply its effect at the table".into());
        hull_damage = Some(amount);
    }
    let outcome = ActionOutcome::Boarding {
        target_id: target,
        test: Box::new(test),
        evasion: evasion_test.map(Box::new),
        hit,
        hull_damage,
    };
    Ok((actor, "boarding".into(), outcome, notes))
}
