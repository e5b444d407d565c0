//! Suppressive Fire (adeva-d100.txt, "Action List", "Suppressive Fire"): the kill zone, the burst
//! at −20, the jam on 94+, the hits dealt to random victims, and every enemy's Pinning test.
//!
//! Decisions:
//! - The −20 replaces every bonus ("in place of any bonuses"): the test spec forbids other bonuses,
//!   and [`resolve_suppressive_fire`] refuses any positive extra modifier. Penalties (fog, fatigue)
//!   still apply.
//! - Hits: a passed BS test scores one hit, plus one for every 2 DoS, at most the weapon's
//!   semi-auto or full-auto capacity for the mode fired.
//! - Each hit goes to a victim picked at random among the enemies in the kill zone: 1d(number of
//!   victims) per hit, victims numbered in the order sent. A victim may take more than one hit.
//!   With one victim no die is rolled; with none the hits are lost.
//! - A roll of 94 or more jams the weapon; a jammed burst scores no hits. (With BS at most 100 and
//!   no bonuses allowed, the target never reaches 94 anyway.) The Pinning tests still happen: they
//!   come "regardless of hits".
//! - Order of the dice: the BS test, then one die per hit for its victim, then the Pinning tests in
//!   the order the victims were sent.

use super::attack_actions::{JAM_ROLL, jams};
use super::hit_spread::TargetHits;
use super::pinning::{PinningOutcome, PinningSubject, pinning_tests};
use super::{
    ActionKind, ActionSpec, ActionSubtype, ActionType, CharacteristicName, HitRule, TestSpec, Weapon,
};
use crate::dice::Dice;
use crate::rulesets::RuleError;
use crate::rulesets::adeva_d100::Characteristic;
use crate::rulesets::adeva_d100::test_modifiers::{MAX_MODIFIERS, Modifier, ModifierCode, check_modifiers};
use crate::rulesets::adeva_d100::test_roll::{ModifiedTest, modified_test};
use serde::{Deserialize, Serialize};

/// Semi-auto or full-auto fire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100AutoMode))]
#[serde(rename_all = "snake_case")]
pub enum AutoMode {
    SemiAuto,
    FullAuto,
}

impl AutoMode {
    /// The kill zone's arc in the direction the shooter faces: 30° semi-auto, 60° full-auto
    /// (adeva-d100.txt, "Suppressive Fire").
    pub fn arc_degrees(self) -> u32 {
        match self {
            Self::SemiAuto => 30,
            Self::FullAuto => 60,
        }
    }

    /// The penalty on the Pinning tests of enemies in the arc: −10 semi-auto, −20 full-auto
    /// (adeva-d100.txt, "Suppressive Fire").
    pub fn pinning_penalty(self) -> Modifier {
        match self {
            Self::SemiAuto => Modifier::coded(ModifierCode::SuppressiveFire, "semi-auto suppressive fire", -10),
            Self::FullAuto => Modifier::coded(ModifierCode::SuppressiveFire, "full-auto suppressive fire", -20),
        }
    }

    fn label(self) -> &'static str {
        match self {
            Self::SemiAuto => "semi-auto",
            Self::FullAuto => "full-auto",
        }
    }
}

/// Suppressive Fire as declared.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100SuppressiveFire))]
#[serde(deny_unknown_fields)]
pub struct SuppressiveFire {
    pub weapon: Weapon,
    pub mode: AutoMode,
}

/// The weapon's capacity in the mode fired, or why it cannot fire that way.
fn capacity(input: &SuppressiveFire) -> Result<u32, RuleError> {
    input.weapon.validate("weapon")?;
    input.weapon.require_ranged("weapon", "Suppressive Fire")?;
    let (capacity, field) = match input.mode {
        AutoMode::SemiAuto => (input.weapon.semi_auto, "weapon.semi_auto"),
        AutoMode::FullAuto => (input.weapon.full_auto, "weapon.full_auto"),
    };
    capacity.ok_or_else(|| {
        RuleError::invalid(
            field,
            format!("{} cannot fire {} for Suppressive Fire", input.weapon.name, input.mode.label()),
        )
    })
}

/// Suppressive Fire: a full action with a semi- or full-auto weapon; a kill zone of 30° or 60°
/// ahead, a BS test at −20 in place of any bonus, one hit plus one per 2 DoS up to the capacity,
/// a jam on 94+, and a Pinning test at −10 or −20 for every enemy in the arc (adeva-d100.txt,
/// "Suppressive Fire").
pub fn suppressive_fire(input: &SuppressiveFire) -> Result<ActionSpec, RuleError> {
    let max = capacity(input)?;
    let modifiers = vec![Modifier::coded(ModifierCode::SuppressiveFire, "suppressive fire, in place of any bonuses", -20)];
    let mut test = TestSpec::attack(
        format!("{} suppressive fire with {}", input.mode.label(), input.weapon.name),
        CharacteristicName::Bs,
        modifiers,
        HitRule::OnePlusPerTwoDegrees { max },
    );
    test.jams_on = Some(JAM_ROLL);
    test.other_bonuses_allowed = false;
    let penalty = input.mode.pinning_penalty();
    Ok(ActionSpec::new(
        ActionKind::SuppressiveFire,
        ActionType::Full,
        vec![ActionSubtype::Attack, ActionSubtype::Ranged],
    )
    .with_test(test)
    .with_note(format!("kill zone: a {}° arc in the direction the shooter faces", input.mode.arc_degrees()))
    .with_note(format!(
        "every enemy in the arc makes a Pinning test at {}, hit or not; a failure pins",
        penalty.value
    ))
    .with_note("hits go to random victims in the kill zone"))
}

/// The shot and the enemies in the kill zone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100SuppressiveVolley))]
#[serde(deny_unknown_fields)]
pub struct SuppressiveVolley {
    /// The shooter's Ballistic Skill.
    pub bs: Characteristic,
    /// Penalties besides the −20 (no bonuses are allowed).
    #[serde(default)]
    pub penalties: Vec<Modifier>,
    /// The enemies in the kill zone, in order (numbered from 1 for the victim dice).
    pub victims: Vec<PinningSubject>,
}

/// One hit and the victim it found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100VictimRoll))]
pub struct VictimRoll {
    /// The victim die, when more than one enemy was in the zone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub die: Option<u32>,
    pub victim: String,
}

/// Everything a burst of Suppressive Fire did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100SuppressiveOutcome))]
pub struct SuppressiveOutcome {
    pub attack: ModifiedTest,
    pub jammed: bool,
    pub hits_scored: u32,
    /// Each hit and its victim, in order.
    pub victim_rolls: Vec<VictimRoll>,
    /// Hits per victim, in the order the victims were sent; victims without hits are left out.
    pub hits: Vec<TargetHits>,
    pub pinning: Vec<PinningOutcome>,
}

/// Fires Suppressive Fire: the BS test at −20 plus penalties, the jam, the victims of the hits and
/// every enemy's Pinning test (adeva-d100.txt, "Suppressive Fire"; see the decisions).
pub fn resolve_suppressive_fire(
    input: &SuppressiveFire,
    volley: &SuppressiveVolley,
    dice: &mut Dice,
) -> Result<SuppressiveOutcome, RuleError> {
    let spec = suppressive_fire(input)?;
    let Some(test) = spec.tests.first() else {
        return Err(RuleError::invalid("action", "suppressive fire has no test"));
    };
    check_modifiers("penalties", &volley.penalties)?;
    if volley.penalties.len() >= MAX_MODIFIERS {
        let most = MAX_MODIFIERS - 1;
        return Err(RuleError::invalid("penalties", format!("at most {most} penalties, beside the −20")));
    }
    if let Some(index) = volley.penalties.iter().position(|modifier| modifier.value > 0) {
        return Err(RuleError::invalid(
            format!("penalties[{index}].value"),
            "Suppressive Fire's −20 replaces every bonus; only penalties may be added",
        ));
    }
    for (index, victim) in volley.victims.iter().enumerate() {
        if victim.name.trim().is_empty() {
            return Err(RuleError::invalid(
                format!("victims[{index}].name"),
                "name every enemy in the kill zone",
            ));
        }
    }
    let mut modifiers = test.modifiers.clone();
    modifiers.extend(volley.penalties.iter().cloned());
    let attack = modified_test(volley.bs, &modifiers, dice, "suppressive fire: BS test")?;
    let jammed = jams(attack.test.roll);
    let hits_scored =
        if jammed { 0 } else { test.hits.hits(attack.test.passed, attack.test.degrees_of_success()) };
    let victim_rolls = pick_victims(&volley.victims, hits_scored, dice)?;
    let hits = tally(&volley.victims, &victim_rolls);
    let pinning = pinning_tests(&volley.victims, &[input.mode.pinning_penalty()], "victims", dice)?;
    Ok(SuppressiveOutcome { attack, jammed, hits_scored, victim_rolls, hits, pinning })
}

/// One random victim per hit (see the decisions).
fn pick_victims(
    victims: &[PinningSubject],
    hits: u32,
    dice: &mut Dice,
) -> Result<Vec<VictimRoll>, RuleError> {
    let mut rolls = Vec::new();
    if victims.is_empty() {
        return Ok(rolls);
    }
    let sides = u32::try_from(victims.len()).unwrap_or(u32::MAX);
    for hit in 1..=hits {
        let (die, index) = if victims.len() == 1 {
            (None, 0)
        } else {
            let value = dice.roll(sides, format!("suppressive fire: victim of hit {hit}"))?;
            (Some(value), value as usize - 1)
        };
        rolls.push(VictimRoll { die, victim: victims[index].name.clone() });
    }
    Ok(rolls)
}

/// Hits per victim, in the order the victims were sent.
fn tally(victims: &[PinningSubject], rolls: &[VictimRoll]) -> Vec<TargetHits> {
    victims
        .iter()
        .enumerate()
        .filter_map(|(index, victim)| {
            let hits = rolls.iter().filter(|roll| roll_index(roll, victims) == Some(index)).count() as u32;
            (hits > 0).then(|| TargetHits { target: victim.name.clone(), hits })
        })
        .collect()
}

/// Which victim a roll picked (victims may share a name, so the die decides when there is one).
fn roll_index(roll: &VictimRoll, victims: &[PinningSubject]) -> Option<usize> {
    match roll.die {
        Some(die) => Some(die as usize - 1),
        None => (!victims.is_empty()).then_some(0),
    }
}

#[cfg(test)]
#[path = "suppressive_tests.rs"]
mod tests;
